"""`auto` on the ten Cimpress contest puzzles beside CP-SAT's time to a proven optimum.

Per puzzle: our squares (from `auto` with its contest budget, default 10 s, all of this
machine's cores), its seconds and status, the proven optimum, and CP-SAT's seconds to
prove that optimum (all cores, no hint), so the two can be read side by side. Every
answer is verified (`PUZZLE.solve` does it). CP-SAT needs up to ~35 s on some puzzles:
pass puzzle numbers to run a few.

Run: nice -n 10 .venv/bin/python benchmarks/bench_tiling_auto.py [1 2 ...] [--budget 10] [--no-cpsat]
"""

from __future__ import annotations

import argparse

from common import write_json

from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.puzzle import CONTEST_OPTIMA


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("numbers", type=int, nargs="*", default=sorted(CONTEST_OPTIMA))
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--cpsat-limit", type=float, default=120.0)
    parser.add_argument("--no-cpsat", action="store_true")
    args = parser.parse_args()

    rows = []
    for number in args.numbers:
        grid = PUZZLE.load(f"contest_{number}")
        ours = PUZZLE.solve(grid, "auto", budget=args.budget)
        optimum = CONTEST_OPTIMA[number]
        row = {
            "puzzle": number,
            "optimum": optimum,
            "auto_squares": ours.value,
            "auto_s": ours.stats["seconds"],
            "auto_status": ours.status.value,
            "auto_member": ours.stats.get("member"),
        }
        line = f"contest_{number:<2}  optimum {optimum:4}   auto {ours.value:4} in {ours.stats['seconds']:5.2f} s ({ours.status.value}) by {ours.stats.get('member')}"
        if not args.no_cpsat:
            peer = PUZZLE.solve(grid, "cpsat", budget=args.cpsat_limit, hint=False)
            row.update(cpsat_squares=peer.value, cpsat_s=peer.stats.get("seconds"), cpsat_status=peer.status.value)
            line += f"   cpsat {peer.value:4} in {peer.stats.get('seconds', 0):6.2f} s ({peer.status.value})"
        print(line, flush=True)
        rows.append(row)
    reached = sum(r["auto_squares"] == r["optimum"] for r in rows)
    print(f"auto reached the optimum on {reached} of {len(rows)} puzzles within {args.budget:g} s")
    write_json("tiling_auto", {"benchmark": "tiling auto on the contest puzzles", "budget": args.budget, "rows": rows})


if __name__ == "__main__":
    main()
