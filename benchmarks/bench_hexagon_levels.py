"""Lowest penalties through levels 1, 2, 3 and 4+ (level_penalties.tsv), proven by
unrestricted SAT (sound symmetry clause only), beside the published table; and the
solution counts of the write-up for small n.

    python benchmarks/bench_hexagon_levels.py [--orders 3..10] [--limit SECONDS] [--counts 3..5]

Each (n, level) proof runs under `--limit` seconds (default 300); one out of time
prints '?'. Wall and CPU seconds are printed per proof (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.core.result import Budget  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import level_table  # noqa: E402
from puzzlelab.puzzles.hexagon.rowdp.count import BudgetExceeded, count_solutions, level_minimum  # noqa: E402

PUBLISHED_COUNTS = {
    3: (6, 48, 36, 24, 72, 144),
    4: (2, 6, 28, 48, 288, 1152),
    5: (84, 48, 360, 948, 17820, 468864),
    6: (36, 58, 276, 4128, 16992, 2506752),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="3..8")
    parser.add_argument("--limit", type=float, default=300.0)
    parser.add_argument("--counts", default="3..5")
    args = parser.parse_args()
    rows = []
    for n in parse_range(args.orders):
        published = level_table()[n]
        for column, level in enumerate((1, 2, 3, 5)):
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                value, _ = level_minimum(n, level, budget=Budget(args.limit))
            except BudgetExceeded:
                value = None
            row = {
                "n": n,
                "level": "4+" if level == 5 else level,
                "ours": value,
                "published": published[column],
                "wall": round(time.perf_counter() - wall, 2),
                "cpu": round(time.process_time() - cpu, 2),
                "load": round(os.getloadavg()[0], 1),
            }
            rows.append(row)
            mark = "?" if value is None else ("=" if value == published[column] else "DIFFERENT")
            print(f"n={n:2d} level {row['level']:>2}: ours {value}  published {published[column]}  {mark}  {row['wall']} s wall, {row['cpu']} s cpu (load {row['load']})", flush=True)
    counts = []
    for n in parse_range(args.counts) if args.counts else []:
        wall = time.perf_counter()
        try:
            found = count_solutions(n, budget=Budget(args.limit * 4), limit=None)
            ours = tuple(found[k][1] for k in range(1, 7))
        except BudgetExceeded:
            ours = None
        published = PUBLISHED_COUNTS.get(n)
        counts.append({"n": n, "ours": ours, "published": published, "wall": round(time.perf_counter() - wall, 2)})
        print(f"n={n} counts: ours {ours}  published {published}  {'=' if ours == published else 'DIFFERENT'}  {counts[-1]['wall']} s", flush=True)
    write_json("bench_hexagon_levels", {"rows": rows, "counts": counts, "limit": args.limit})


if __name__ == "__main__":
    main()
