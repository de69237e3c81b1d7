"""`bidir` on the published sample puzzles: every answer verified by replay and compared
with the published optimal length; time and peak memory per puzzle; the two duplicate
detectors (hash table against two bits a ranked board) side by side.

- 5 x 7: every sample puzzle (150), median and maximum time (target: median < 30 s).
- 5 x 9: every sample puzzle of at most --max-moves-5x9 moves (default 18), median time
  and peak memory.
- dedup: hash against bits on --dedup-sample 5 x 7 puzzles, median time ratio.

Each puzzle runs in a forked child, so its peak RSS is its own. The child first solves
a 9-move puzzle in a 16 MB bound, so that Python, numpy and the puzzle's modules are
resident before `rss_before_mb` is read (~0.2 GB); the search's own peak, which
`--memory-mb` bounds (the kernels it loads later included), is the difference. Run with nice on a shared machine:
    nice -n 10 python benchmarks/bench_coins_bidir.py [--only 5x9] [--limit N] [--stride N]
        [--budget S] [--memory-mb M] [--names font5x7:1-/,font5x7:U-I]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import statistics
import time

from common import write_json

from puzzlelab.puzzles.coins import PUZZLE, reference


def _rss_now_mb() -> float:
    """This process's resident memory now (Linux), or 0 where /proc is missing."""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


def _child(conn, name: str, memory_mb: int, dedup: str, budget: float, threads: int = 1) -> None:
    PUZZLE.solve(PUZZLE.parse("font5x7:0-J"), "bidir", budget=60, memory_mb=16)  # the modules and a first kernel, before the baseline
    rss_before = _rss_now_mb()
    started, cpu = time.perf_counter(), time.process_time()
    try:
        result = PUZZLE.solve(PUZZLE.parse(name), "bidir", budget=budget, memory_mb=memory_mb, dedup=dedup, threads=threads)
        row = {
            "value": result.value,
            "status": result.status.value,
            "verified": result.verified,
            "bound": result.bound,
            "stats": result.stats,
        }
    except Exception as exc:  # noqa: BLE001 - reported in the table
        row = {"value": None, "status": "error", "verified": False, "error": repr(exc)}
    row["seconds"] = time.perf_counter() - started
    row["cpu_seconds"] = time.process_time() - cpu
    row["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    row["rss_before_mb"] = rss_before  # the process before the search: Python, numpy, the modules
    conn.send(row)
    conn.close()


def solve_in_child(name: str, memory_mb: int, dedup: str, budget: float, threads: int = 1) -> dict:
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_child, args=(child, name, memory_mb, dedup, budget, threads))
    process.start()
    child.close()
    row = parent.recv() if parent.poll(budget + 120) else {"value": None, "status": "timeout", "verified": False}
    process.join(5)
    if process.is_alive():
        process.kill()
    row["name"] = name
    row["published"] = reference.published_lengths().get(name)
    return row


def summarise(label: str, rows: list[dict], budget: float) -> dict:
    """Medians over every puzzle, not only the solved ones: a puzzle with no answer
    within the budget counts as taking the whole budget (a lower bound on its time), so
    the median is exact while fewer than half run out, and a lower bound otherwise."""
    solved = [r for r in rows if r.get("verified")]
    matched = [r for r in solved if r["value"] == r["published"]]
    times = [r["seconds"] if r.get("verified") else max(budget, r.get("seconds", budget)) for r in rows]
    peaks = [r["peak_rss_mb"] for r in rows if "peak_rss_mb" in r]
    median = statistics.median(times) if times else None
    median_is_bound = bool(times) and median >= budget
    summary = {
        "puzzles": len(rows),
        "solved_verified": len(solved),
        "matching_published": len(matched),
        "budget_seconds": budget,
        "median_seconds": median,
        "median_is_lower_bound": median_is_bound,
        "median_seconds_solved_only": statistics.median(r["seconds"] for r in solved) if solved else None,
        "max_seconds_solved": max((r["seconds"] for r in solved), default=None),
        "median_cpu_seconds_solved": statistics.median(r["cpu_seconds"] for r in solved) if solved else None,
        "median_peak_rss_mb": statistics.median(peaks) if peaks else None,
        "max_peak_rss_mb": max(peaks) if peaks else None,
        "max_search_peak_mb": max((r["peak_rss_mb"] - r["rss_before_mb"] for r in rows if "rss_before_mb" in r), default=None),
    }
    print(
        f"{label}: {len(matched)}/{len(rows)} solved with exactly the published optimum (verified by replay); "
        f"median over all {len(rows)} {'>= ' if median_is_bound else ''}{median or 0:.1f} s "
        f"(a puzzle not solved within {budget:.0f} s counts as {budget:.0f} s); "
        f"solved ones: median {summary['median_seconds_solved_only'] or 0:.1f} s "
        f"(cpu {summary['median_cpu_seconds_solved'] or 0:.1f} s), max {summary['max_seconds_solved'] or 0:.1f} s; "
        f"peak RSS median {summary['median_peak_rss_mb'] or 0:.0f} MB, max {summary['max_peak_rss_mb'] or 0:.0f} MB"
        + (f" (the search's own, above the process's start: max {summary['max_search_peak_mb']:.0f} MB)"
           if summary["max_search_peak_mb"] is not None else "")
    )
    for r in rows:
        if r not in matched:
            print(f"   NOT MATCHED: {r['name']} published {r['published']} got {r.get('value')} {r.get('status')} {r.get('error', '')}")
    summary["differ_from_published"] = [r["name"] for r in solved if r["value"] != r["published"]]
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("5x7", "5x9", "dedup"), help="run one part")
    parser.add_argument("--limit", type=int, default=None, help="at most this many puzzles per part (the shortest)")
    parser.add_argument("--stride", type=int, default=1, help="every N-th puzzle in order of length (a spread sample)")
    parser.add_argument("--max-moves-5x9", type=int, default=18)
    parser.add_argument("--memory-mb", type=int, default=2560)
    parser.add_argument("--budget", type=float, default=900.0, help="seconds per puzzle")
    parser.add_argument("--dedup-sample", type=int, default=8)
    parser.add_argument("--names", default=None, help="comma-separated puzzles (e.g. font5x7:1-/,font5x7:U-I) instead of the table's")
    args = parser.parse_args()
    published = reference.published_lengths()
    report: dict = {"benchmark": "coins_bidir", "memory_mb": args.memory_mb, "note": "shared 2-core machine; wall and cpu seconds"}

    parts = ("5x7", "5x9", "dedup") if args.only is None else (args.only,)
    for part in parts:
        if part == "dedup":
            names = sorted((n for n in published if n.startswith("font5x7")), key=published.get)
            step = max(1, len(names) // args.dedup_sample)
            names = names[::step][: args.dedup_sample]
            pairs = []
            for name in names:
                a = solve_in_child(name, args.memory_mb, "hash", args.budget)
                b = solve_in_child(name, args.memory_mb, "bits", args.budget)
                pairs.append((name, a, b))
                print(f"  {name} ({published[name]}): hash {a['cpu_seconds']:.2f} s cpu, {a['peak_rss_mb']:.0f} MB | bits {b['cpu_seconds']:.2f} s cpu, {b['peak_rss_mb']:.0f} MB", flush=True)
            ratios = [a["cpu_seconds"] / max(b["cpu_seconds"], 1e-9) for _, a, b in pairs]
            report["dedup"] = {
                "puzzles": [p[0] for p in pairs],
                "hash_cpu_seconds": [p[1]["cpu_seconds"] for p in pairs],
                "bits_cpu_seconds": [p[2]["cpu_seconds"] for p in pairs],
                "median_hash_over_bits": statistics.median(ratios),
            }
            print(f"dedup: hash table / two-bit array CPU time, median ratio {statistics.median(ratios):.2f}")
            continue
        if part == "5x7":
            names = [n for n in published if n.startswith("font5x7")]
        else:
            names = [n for n in published if n.startswith("font5x9") and published[n] <= args.max_moves_5x9]
        if args.names:
            wanted = set(args.names.split(","))
            unknown = wanted - set(published)
            if unknown:
                raise SystemExit(f"--names: not in the published sample table: {sorted(unknown)}")
            names = [n for n in names if n in wanted]
        names.sort(key=lambda n: (published[n], n))
        names = names[:: max(1, args.stride)]
        if args.limit:
            names = names[: args.limit]
        rows = []
        for name in names:
            row = solve_in_child(name, args.memory_mb, "auto", args.budget)
            rows.append(row)
            print(
                f"  {name}: published {row['published']}, bidir {row.get('value')} [{row.get('status')}] "
                f"verified {row.get('verified')}  {row.get('seconds', 0):.1f} s (cpu {row.get('cpu_seconds', 0):.1f})  "
                f"peak {row.get('peak_rss_mb', 0):.0f} MB",
                flush=True,
            )
        report[part] = {"summary": summarise(part, rows, args.budget), "rows": rows}
    write_json("coins_bidir" if args.only is None else f"coins_bidir_{args.only}", report)
    differ = [name for part in ("5x7", "5x9") if part in report for name in report[part]["summary"]["differ_from_published"]]
    if differ:
        raise SystemExit(f"verified answers that differ from the published optimum: {differ}")


if __name__ == "__main__":
    main()
