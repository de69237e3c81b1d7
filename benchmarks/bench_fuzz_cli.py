"""CLI fuzzing ("What it must show"): thousands of generated hostile command
lines through every puzzle's verbs -- solve, verify, catalog and the cheap own verbs --
run in this process, and a table of what came back: tried / ok / clear errors /
tracebacks / false valid / false invalid / unclear / over the memory bound / hangs.
Target: zero in every failure column. Every failure is printed with its command line
and inputs (cut short). The inputs and the sorting are the test suite's
(tests/support/fuzz_cases.py, tests/support/fuzz_harness.py; tests/test_fuzz_cli.py runs a sample).

Before the fuzzing, a warm-up (not counted) runs every method once on a tiny instance,
so that numba's first compiling (cached on disk afterwards) is not taken for a hang.

Run: python benchmarks/bench_fuzz_cli.py [--count 8000] [--seed 0] [--hang-seconds 20]
     [--memory-gb 2] [--keep failures.jsonl]
Exit status 1 when a failure column is not zero (3 when a run could not be stopped).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from common import write_json  # noqa: E402

from support.fuzz_cases import as_json, cases  # noqa: E402
from support.fuzz_harness import COLUMNS, FAILURES, Report, run_cases, warm_up_cases  # noqa: E402


def print_report(report: Report, args: argparse.Namespace, title: str, out=None) -> None:
    """The table, the runs per puzzle and verb, each failure (cut short), the slowest."""
    out = out or sys.stdout
    failures = report.failures()
    lines = [f"\n{title}: {len(report.outcomes)} command lines in {report.seconds:.0f} s (seed {args.seed})\n", report.table()]
    lines += ["\nby puzzle and verb:", report.by_verb()]
    kinds = Counter((o.column, o.case.puzzle, o.case.verb) for o in failures)
    if kinds:
        lines.append("\nfailures by column, puzzle and verb:")
        lines += [f"  {column:13} {puzzle:12} {verb:9} {count}" for (column, puzzle, verb), count in sorted(kinds.items())]
    lines += ["\n" + outcome.shown() for outcome in failures[: args.show]]
    if len(failures) > args.show:
        lines.append(f"\n... and {len(failures) - args.show} more failures (--show N prints more)")
    lines.append("\nslowest runs:")
    for outcome in sorted(report.outcomes, key=lambda o: -o.seconds)[:5]:
        lines.append(f"  {outcome.seconds:5.1f} s  [{outcome.column}]  {outcome.case.shown(160).splitlines()[0][:200]}")
    print("\n".join(lines), file=out, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=8000, help="command lines to run (default 8000: 5 to 10 min on one core)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated command lines")
    parser.add_argument("--hang-seconds", type=float, default=20.0, help="a run longer than this is a hang")
    parser.add_argument("--memory-gb", type=float, default=2.0, help="a run whose memory grows more than this is over the bound")
    parser.add_argument("--solves", type=float, default=0.2, help="share of solve command lines")
    parser.add_argument("--show", type=int, default=200, help="failures printed in full")
    parser.add_argument("--keep", type=Path, help="write the failing cases here as JSON lines")
    parser.add_argument("--no-warm-up", action="store_true", help="skip the warm-up")
    args = parser.parse_args()

    if not args.no_warm_up:
        started = time.perf_counter()
        warm = run_cases(warm_up_cases(), hang_s=600, grace_s=300)
        odd = [o for o in warm.outcomes if o.column != "ok"]
        print(f"warm-up: {len(warm.outcomes)} runs in {time.perf_counter() - started:.0f} s" + (f", {len(odd)} not ok:" if odd else ""))
        for outcome in odd:
            print("  " + outcome.shown().replace("\n", "\n  "))

    drawn = cases(args.seed, args.count, solves=args.solves)

    def progress(so_far: Report, outcome) -> None:
        done = len(so_far.outcomes)
        if done % 250 == 0:
            failed = len(so_far.failures())
            print(f"  [{done}/{len(drawn)}] {so_far.seconds:.0f} s, {failed} failures so far", file=sys.stderr, flush=True)

    def abort(so_far: Report, why: str) -> None:  # from the watchdog's thread, while the runner holds sys.stdout
        out = sys.__stdout__
        print(f"\nABORTED: {why}", file=out)
        print_report(so_far, args, "fuzzing so far", out)
        print(f"\nthe run that could not be stopped (case {len(so_far.outcomes)}):\n{drawn[len(so_far.outcomes)].shown()}", file=out, flush=True)

    report = run_cases(drawn, hang_s=args.hang_seconds, memory_mb=args.memory_gb * 1024, on_outcome=progress, on_abort=abort)
    print_report(report, args, "CLI fuzzing")
    counts = report.counts()
    if args.keep:
        args.keep.write_text("".join(as_json(o.case) + "\n" for o in report.failures()))
        print(f"wrote {args.keep}")
    write_json("bench_fuzz_cli", {"count": args.count, "seed": args.seed, "seconds": report.seconds, "counts": counts,
                                  "columns": list(COLUMNS), "failures": [o.shown() for o in report.failures()]})  # fmt: skip
    return 1 if any(counts[c] for c in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
