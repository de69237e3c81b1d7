"""Ranks per second: the table-driven numba `rank` against a plain-Python rank by the
definition, on random 12-of-35 and 13-of-45 boards (the coin puzzles' sizes).

Run: python benchmarks/bench_rank.py
"""

from __future__ import annotations

import numpy as np
from common import median_seconds, write_json

from puzzlelab.core.rank import rank_many, rank_python, unrank_many


def random_masks(n: int, k: int, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.random((count, n))
    positions = np.argsort(keys, axis=1)[:, :k]
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), positions.astype(np.uint64)), axis=1)


def main() -> None:
    rows = []
    for n, k in ((35, 12), (45, 13)):
        masks = random_masks(n, k, 2_000_000, seed=n)
        rank_many(masks[:10])  # compile
        numba_s, ranks = median_seconds(lambda: rank_many(masks), repeats=5)
        unrank_s, back = median_seconds(lambda: unrank_many(ranks, n, k), repeats=5)
        assert np.array_equal(back, masks)
        sample = [int(m) for m in masks[:100_000]]
        python_s, py_ranks = median_seconds(lambda: [rank_python(m) for m in sample], repeats=3)
        assert py_ranks == ranks[:100_000].tolist()
        numba_rate = len(masks) / numba_s
        python_rate = len(sample) / python_s
        row = {
            "n": n,
            "k": k,
            "numba_ranks_per_s": numba_rate,
            "numba_unranks_per_s": len(masks) / unrank_s,
            "python_ranks_per_s": python_rate,
            "ratio": numba_rate / python_rate,
        }
        rows.append(row)
        print(
            f"{k}-of-{n}: numba rank {numba_rate / 1e6:8.1f} M/s   unrank {row['numba_unranks_per_s'] / 1e6:6.1f} M/s   "
            f"plain Python {python_rate / 1e6:6.3f} M/s   ratio {row['ratio']:.0f}x"
        )
    write_json("rank", {"benchmark": "rank", "rows": rows})


if __name__ == "__main__":
    main()
