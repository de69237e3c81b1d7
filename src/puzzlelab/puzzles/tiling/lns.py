"""Randomised stripe re-solving: a large-neighbourhood search built on the exact DP.

The write-up's stripe re-solving (section 2.2, `stripes.py`) sweeps fixed stripes and
keeps a re-tiling only when it has fewer squares; it stops at the first tiling that no
stripe improves. Here stripes (and narrower windows) of up to 15 rows are drawn at
random positions, the lifted region is re-tiled exactly in one of its eight
orientations drawn at random, and the re-tiling is kept when it has *no more* squares.
Equal-count re-tilings are plateau moves: they change which squares straddle the next
windows' borders, which is what lets a later window find a gain. Measured on the ten
contest puzzles, this reaches optima that fixed sweeps do not.

Re-solving the same lifted squares in the same orientation always gives the same
answer, so those results are cached.
"""

from __future__ import annotations

import time

import numpy as np

from puzzlelab.core.result import Budget, Progress, ProgressFn, no_progress
from puzzlelab.puzzles.tiling.dp import DPStopped, solve_exact
from puzzlelab.puzzles.tiling.model import orient, square_back

__all__ = ["improve_by_random_windows", "random_window"]

Square = tuple[int, int, int]


def random_window(rng: np.random.Generator, height: int, width: int, stripe: int) -> tuple[int, int, int, int]:
    """Half the time a full stripe (rows or columns), else a window `stripe` thick and
    of random length; always at a random offset."""
    thick_rows = rng.random() < 0.5
    if thick_rows:
        h = min(stripe, height)
        w = width if rng.random() < 0.5 else int(rng.integers(min(stripe, width), width + 1))
    else:
        w = min(stripe, width)
        h = height if rng.random() < 0.5 else int(rng.integers(min(stripe, height), height + 1))
    x0 = int(rng.integers(0, width - w + 1))
    y0 = int(rng.integers(0, height - h + 1))
    return x0, y0, x0 + w, y0 + h


def improve_by_random_windows(
    free: np.ndarray,
    squares: list[Square],
    *,
    budget: Budget,
    seed: int = 0,
    stripe: int = 15,
    target: int = 0,
    progress: ProgressFn = no_progress,
    on_improve=None,
) -> tuple[list[Square], dict]:
    """Search until the budget ends or the tiling reaches `target` squares (a proven
    lower bound). Returns the best tiling and stats; `on_improve(squares)` sees each
    strictly better tiling."""
    rng = np.random.default_rng(int(seed) % (1 << 128))  # any integer seed (numpy's must be >= 0)
    height, width = free.shape
    squares = list(squares)
    start = len(squares)
    cache: dict[tuple[frozenset, int], list[Square]] = {}
    windows = moves = 0
    started = time.monotonic()
    while len(squares) > target and not budget.expired():
        x0, y0, x1, y1 = random_window(rng, height, width, stripe)
        inside = [s for s in squares if s[0] >= x0 and s[1] >= y0 and s[0] + s[2] <= x1 and s[1] + s[2] <= y1]
        if len(inside) < 2:
            continue
        lifted = frozenset(inside)
        k = int(rng.integers(8))
        fresh = cache.get((lifted, k))
        if fresh is None:
            region = np.zeros((y1 - y0, x1 - x0), dtype=bool)
            for x, y, s in inside:
                region[y - y0 : y - y0 + s, x - x0 : x - x0 + s] = True
            try:
                # the lifted squares tile the region: a bound for the branch and bound
                _, found, _ = solve_exact(orient(region, k), budget, upper=len(inside))
            except DPStopped:
                break
            fresh = [square_back(x, y, s, k, x1 - x0, y1 - y0) for x, y, s in found]
            fresh = [(x + x0, y + y0, s) for x, y, s in fresh]
            cache[(lifted, k)] = fresh
            windows += 1
        if len(fresh) > len(inside) or set(fresh) == lifted:
            continue
        gained = len(fresh) < len(inside)
        squares = [s for s in squares if s not in lifted] + fresh
        moves += 1
        if gained:
            if on_improve is not None:
                on_improve(squares)
            progress(Progress(phase="windows", message=f"{windows} windows solved", best=len(squares)))
    return squares, {
        "window_solves": windows,
        "window_moves": moves,
        "window_gain": start - len(squares),
        "window_seconds": round(time.monotonic() - started, 3),
    }
