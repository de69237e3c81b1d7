"""Oracles shared by the tiling tests: brute force on tiny grids, seeded random grids."""

from __future__ import annotations

from functools import lru_cache

import numpy as np


def brute_force_min_squares(free: np.ndarray) -> int:
    """Fewest squares by exhaustive search: the first uncovered free cell (row-major)
    gets every square that fits, memoised on the set of covered cells. Tiny grids only."""
    free = np.asarray(free, dtype=bool)
    height, width = free.shape
    full = 0
    for y in range(height):
        for x in range(width):
            if free[y, x]:
                full |= 1 << (y * width + x)

    @lru_cache(maxsize=None)
    def best(covered: int) -> int:
        if covered == full:
            return 0
        open_cells = full & ~covered
        cell = (open_cells & -open_cells).bit_length() - 1
        y, x = divmod(cell, width)
        result = 10**9
        size = 1
        while y + size <= height and x + size <= width:
            mask = 0
            ok = True
            for r in range(y, y + size):
                for c in range(x, x + size):
                    bit = 1 << (r * width + c)
                    if not (open_cells & bit):
                        ok = False
                    mask |= bit
            if not ok:
                break
            result = min(result, 1 + best(covered | mask))
            size += 1
        return result

    return best(0)


def random_grid(rng: np.random.Generator, height: int, width: int, blocked: float) -> np.ndarray:
    """A boolean grid with about `blocked` of its cells blocked."""
    return rng.random((height, width)) >= blocked
