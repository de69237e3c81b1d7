"""The check a resumed `bfs` makes of its state.json: each level's count recounted from
the array. `level_counts` (one pass over the bytes, then the few boards with a smaller
orbit corrected one by one) against `count` per level (every board's orbit computed),
side by side on one array; the ratio is the figure.

The array is a 5 x 7 start's (834 million boards, one byte each) filled with levels
1..20 at random, so both methods see every block busy, as in a finished run. On random
bytes non-canonical boards hold levels too, so the two totals differ there; before
timing, both are compared on real finished runs of small starts whose symmetry groups
have 8, 2 and 1 members.

    nice -n 10 python benchmarks/bench_coins_level_counts.py [--start font5x7:A] [--repeats 3]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from puzzlelab.puzzles.coins import model
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun

SMALL_STARTS = (["o--o", "-oo-", "-oo-", "o--o"], ["o-o-o", "-o-o-", "o---o", "-----"], ["---o", "o---", "-o-o", "o-o-"])


def check_small_starts(folder: Path) -> None:
    for rows in SMALL_STARTS:
        start = model.Start(len(rows[0]), len(rows), model.rows_to_mask(rows, "start")[2])
        run = LevelArrayRun(start, folder / "-".join(rows))
        try:
            levels = run.run(stop_when_found=False).levels
            fast = run.kernels.level_counts(len(levels))
            slow = [run.kernels.count(level + 1) for level in range(len(levels))]
        finally:
            run.close()
        if not fast == slow == levels:
            raise SystemExit(f"level counts differ for {rows}: {fast} / {slow} / {levels}")
        print(f"{'/'.join(rows)}: group of {len(run.symmetries) + 1}, {len(levels)} levels, the two counts agree")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", default="font5x7:A")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="level-counts-"))
    try:
        check_small_starts(folder)
        run = LevelArrayRun(model.parse_start(args.start), folder / "big")
        try:
            rng = np.random.default_rng(1)
            for lo in range(0, run.total, 1 << 26):
                hi = min(run.total, lo + (1 << 26))
                run.levels[lo:hi] = rng.integers(1, 21, hi - lo, dtype=np.uint8)
            fast_s, slow_s = [], []
            for _ in range(args.repeats):
                began = time.perf_counter()
                run.kernels.level_counts(20)
                fast_s.append(time.perf_counter() - began)
                began = time.perf_counter()
                [run.kernels.count(level) for level in range(1, 21)]
                slow_s.append(time.perf_counter() - began)
            fast, slow = statistics.median(fast_s), statistics.median(slow_s)
            print(f"{args.start}: {run.total:,} boards, group of {len(run.symmetries) + 1}, {run.threads} threads, medians of {args.repeats}")
            print(f"  level_counts (one pass + fixed boards): {fast:.2f} s")
            print(f"  count per level (every orbit):          {slow:.2f} s")
            print(f"  ratio: {slow / fast:.1f}x")
        finally:
            run.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
