"""Reach the best known score of every n (best_scores.tsv) with the `sat` method and
the published arguments for that n, printing our wall time beside the published CPU
time (one core of a 2018 machine, glucose 4.0); for n <= 9 also prove optimality
(unrestricted SAT through the proof level, starting from the grid found).

    python benchmarks/bench_hexagon_best.py [--orders 3..27] [--limit SECONDS] [--prove-upto 9]

Each n runs under its own time limit (default 600 s); the run stops as soon as the
published score is reached (`--target`). Proofs use the unrestricted level-3 (or
level-4, for n = 7 where level 3 is one short) lower bound plus the grid found.
Timings on a shared machine are noisy: the load average is printed with each line; the
ratio ours/published is our CPU seconds (driver and SAT worker) over the published CPU
seconds ('<1s' read as 1 s).
Runs over parts of the range merge into benchmarks/out/bench_hexagon_best.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.puzzles.hexagon import PUZZLE  # noqa: E402
from puzzlelab.puzzles.hexagon.model import HexInstance  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import level_table, published_arguments, published_table  # noqa: E402


def proof_level(n: int) -> int:
    """The lowest level whose published optimum equals the final penalty."""
    levels = level_table()[n]
    final = levels[3]
    for level, value in zip((2, 3, 4), levels[1:]):
        if value == final:
            return level
    return 5


def published_seconds(text: str) -> float | None:
    """'110s' -> 110.0; '<1s' -> 1.0 (an upper bound); unknown -> None."""
    text = text.strip().lstrip("<").rstrip("s")
    try:
        return float(text)
    except ValueError:
        return None


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (the SAT runs in a worker
    process, which is joined when the run ends): fairer than wall time on a shared machine."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="3..27")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per order")
    parser.add_argument("--prove-upto", type=int, default=9)
    args = parser.parse_args()
    rows = []
    for n in parse_range(args.orders):
        published = published_table()[n]
        best = int(published["best_raw_score"])
        options = published_arguments(n)
        t0, c0 = time.perf_counter(), cpu_seconds()
        result = PUZZLE.solve(HexInstance(n), "sat", budget=args.limit, target=best, **options)
        seconds, cpu_used = time.perf_counter() - t0, cpu_seconds() - c0
        row = {
            "n": n,
            "published_raw": best,
            "published_cpu": published["published_cpu"],
            "arguments": published["published_sat_arguments"],
            "our_raw": result.value,
            "reached": result.value is not None and result.value >= best,
            "beaten": result.value is not None and result.value > best,
            "seconds": round(seconds, 2),
            "cpu": round(cpu_used, 2),
            "load": round(os.getloadavg()[0], 1),
        }
        cpu = published_seconds(published["published_cpu"])
        row["ratio_to_published"] = round(cpu_used / cpu, 1) if cpu and row["reached"] else None
        if n <= args.prove_upto:
            level = proof_level(n)
            t0 = time.perf_counter()
            # The grid just found is the first upper bound: when it is optimal, the proof
            # is one UNSAT call at one penalty fewer (lex-leader symmetry breaking).
            start = PUZZLE.parse(result.solution) if result.solution else HexInstance(n)
            proof = PUZZLE.solve(start, "sat", budget=args.limit, levels=level)
            row["proof_level"] = level
            row["proven"] = proof.status.value == "optimal" and proof.value == best
            row["proof_seconds"] = round(time.perf_counter() - t0, 2)
        rows.append(row)
        proof_text = ""
        if "proven" in row:
            proof_text = f"  proof (level {row['proof_level']}): {'optimal' if row['proven'] else 'NOT proven'} in {row['proof_seconds']} s"
        print(
            f"n={n:2d}  best {best:5d}  ours {row['our_raw']}  {'reached' if row['reached'] else 'NOT reached'}"
            f"  {row['seconds']:8.2f} s wall {row['cpu']:8.2f} s cpu  (published {row['published_cpu']} with {row['arguments']}; ours/published"
            f" {row['ratio_to_published'] if row['ratio_to_published'] is not None else '-'})  load {row['load']}{proof_text}",
            flush=True,
        )
    reached = sum(r["reached"] for r in rows)
    print(f"reached {reached} of {len(rows)}")
    # Runs over parts of the range merge into one file (a row per n, the latest kept).
    merged = {}
    previous = OUT / "bench_hexagon_best.json"
    if previous.exists():
        merged = {r["n"]: r for r in json.loads(previous.read_text()).get("rows", [])}
    merged.update({r["n"]: dict(r, limit=args.limit) for r in rows})
    write_json("bench_hexagon_best", {"rows": [merged[n] for n in sorted(merged)]})


if __name__ == "__main__":
    main()
