"""Matchsticks: time to prove each n with the `full` method (bounds included, one core),
and the kernel's nodes per second against the plain-Python version of the same search
(`puzzles/matchsticks/plain.py`, which visits exactly the same nodes), as a ratio.

Run: python benchmarks/bench_matchsticks.py [--max-n 24] [--repeats 3] [--plain-n 12 14] [--budget 1800]
(under `nice -n 10` on a shared machine). The target it was built for: every n <= 24 proven
within 10 minutes in all on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import median_seconds, write_json

from puzzlelab.core.result import Status
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.plain import plain_search
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.search import make_descriptor, solve_subtree
from puzzlelab.puzzles.matchsticks.tables import root_prefixes


def prove_times(max_n: int, repeats: int, budget: float) -> list[dict]:
    table = published_table()
    rows = []
    for n in range(1, max_n + 1):
        runs = []
        for _ in range(repeats if n < max_n - 1 else max(1, min(repeats, 3))):
            started = time.perf_counter()
            # An explicit budget: budget=None would mean the puzzle's 10 s default.
            result = PUZZLE.solve(Instance(n), "full", budget=budget)
            runs.append((time.perf_counter() - started, result))
        seconds = statistics.median(s for s, _ in runs)
        result = runs[-1][1]
        bounds = result.stats.get("bounds", {})
        row = {
            "n": n,
            "value": result.value,
            "published": table[n]["best_known"],
            "status": result.status.value,
            "verified": result.verified,
            "seconds_median": seconds,
            "bound": bounds.get("bound"),
            "bound_method": bounds.get("bound_method"),
            "bound_seconds": bounds.get("bound_seconds"),
            "proof_seconds": result.stats.get("search_seconds"),
            "nodes": result.stats.get("nodes"),
        }
        rows.append(row)
        ok = "ok" if result.status == Status.OPTIMAL and result.value == row["published"] and result.verified else "MISMATCH"
        print(
            f"n={n:>2}  {result.value:>4} ({row['published']:>4}) {ok:<8} total {seconds:8.2f} s  "
            f"bounds {row['bound_seconds'] or 0:7.2f} s -> {row['bound']} ({row['bound_method']})  "
            f"proof {row['proof_seconds'] or 0:7.2f} s  nodes {row['nodes']:>11,}",
            flush=True,
        )
    return rows


def kernel_against_plain(n: int, repeats: int) -> dict:
    """Both searches on the same subtree: the proof of n from its published optimum,
    counting ties (so nothing depends on when a better answer turns up)."""
    bound = published_table()[n]["best_known"]
    descriptor = make_descriptor(n, count=True, bound=bound, prefix=root_prefixes(n)[0])
    solve_subtree(descriptor)  # compile / load the kernel
    kernel_s, fast = median_seconds(lambda: solve_subtree(descriptor), repeats=max(3, repeats))
    plain_s, slow = median_seconds(lambda: plain_search(descriptor), repeats=max(1, min(3, repeats)))
    for key in ("best", "count", "nodes"):
        assert fast[key] == slow[key], (key, fast[key], slow[key])
    row = {
        "n": n,
        "nodes": fast["nodes"],
        "optimal_solutions": fast["count"],
        "kernel_seconds": kernel_s,
        "plain_seconds": plain_s,
        "kernel_nodes_per_s": fast["nodes"] / kernel_s,
        "plain_nodes_per_s": fast["nodes"] / plain_s,
    }
    row["ratio"] = row["kernel_nodes_per_s"] / row["plain_nodes_per_s"]
    print(
        f"n={n} proof subtree, {fast['nodes']:,} nodes (same in both): numba kernel {row['kernel_nodes_per_s'] / 1e6:.2f} M nodes/s, "
        f"plain Python {row['plain_nodes_per_s'] / 1e3:.1f} k nodes/s, ratio {row['ratio']:.0f}x",
        flush=True,
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-n", type=int, default=24)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--plain-n", type=int, nargs="*", default=[12, 14])
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds allowed per n")
    args = parser.parse_args()
    speed = [kernel_against_plain(n, args.repeats) for n in args.plain_n]
    rows = prove_times(args.max_n, args.repeats, args.budget)
    total = sum(r["seconds_median"] for r in rows)
    proven = sum(r["status"] == "optimal" and r["value"] == r["published"] for r in rows)
    print(f"proved {proven} of {len(rows)} (n = 1..{args.max_n}) in {total:.1f} s in all (sum of medians, one core)")
    write_json("matchsticks", {"benchmark": "matchsticks", "speed": speed, "prove": rows, "total_seconds": total, "proven": proven})


if __name__ == "__main__":
    main()
