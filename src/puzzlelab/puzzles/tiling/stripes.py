"""Stripe re-solving (seed write-up, section 2.2): improve a tiling with the exact DP.

Take a stripe of the grid no taller than the exact DP handles (15 rows by default) and
as wide as the grid. The squares lying wholly inside it are lifted out; the cells they
covered (free cells not under a square reaching outside the stripe) are tiled again
exactly; the new squares replace the old when they are fewer. Stripes are swept in the
four directions (top-down and bottom-up rows, left-right and right-left columns) with a
fixed step, and the sweep repeats while it still gains.

Options beyond the write-up: `sideways` also accepts a re-tiling with the same number
of squares when it differs (a plateau move that lets the next stripes find gains), and
`height` may exceed 15 (the general exact step then re-tiles the stripe; lifted
squares leave few enough free cells that this stays cheap for a few rows more).
"""

from __future__ import annotations

import time

import numpy as np

from puzzlelab.core.result import Budget, Progress, ProgressFn, no_progress
from puzzlelab.puzzles.tiling.dp import DPStopped, solve_exact

__all__ = ["improve_by_stripes", "resolve_window", "stripe_windows"]

Square = tuple[int, int, int]


def stripe_windows(height: int, width: int, stripe: int, step: int) -> list[tuple[int, int, int, int]]:
    """Windows (x0, y0, x1, y1) of the four sweeps: rows top-down, columns left-right,
    rows bottom-up, columns right-left."""
    windows = []
    rows_h = min(stripe, height)
    cols_w = min(stripe, width)
    down = list(range(0, max(1, height - rows_h + 1), step))
    right = list(range(0, max(1, width - cols_w + 1), step))
    for y0 in down:
        windows.append((0, y0, width, y0 + rows_h))
    for x0 in right:
        windows.append((x0, 0, x0 + cols_w, height))
    for y0 in down:
        y0 = height - rows_h - y0
        windows.append((0, y0, width, y0 + rows_h))
    for x0 in right:
        x0 = width - cols_w - x0
        windows.append((x0, 0, x0 + cols_w, height))
    return windows


def resolve_window(
    shape: tuple[int, int],
    squares: list[Square],
    window: tuple[int, int, int, int],
    budget: Budget | None,
    sideways: bool = False,
    max_memory_mb: float = 1000.0,
    seen: set | None = None,
) -> list[Square] | None:
    """The tiling with the window re-solved exactly, or None when that gains nothing.
    `seen` remembers the sets of lifted squares already proven optimal, so a sweep
    repeated over unchanged parts costs nothing."""
    x0, y0, x1, y1 = window
    inside = [s for s in squares if s[0] >= x0 and s[1] >= y0 and s[0] + s[2] <= x1 and s[1] + s[2] <= y1]
    if len(inside) < 2:
        return None
    key = frozenset(inside)
    if seen is not None and key in seen:
        return None
    region = np.zeros((y1 - y0, x1 - x0), dtype=bool)
    for x, y, s in inside:
        region[y - y0 : y - y0 + s, x - x0 : x - x0 + s] = True
    count, fresh, _ = solve_exact(region, budget, max_memory_mb=max_memory_mb, upper=len(inside))
    fresh = [(x + x0, y + y0, s) for x, y, s in fresh]
    if seen is not None:
        seen.add(frozenset(fresh))
        if count == len(inside):
            seen.add(key)
    if count > len(inside) or (count == len(inside) and not sideways):
        return None
    if count == len(inside) and sorted(fresh) == sorted(inside):
        return None
    return [s for s in squares if s not in key] + fresh


def improve_by_stripes(
    free: np.ndarray,
    squares: list[Square],
    *,
    stripe: int = 15,
    step: int = 10,
    budget: Budget | None = None,
    progress: ProgressFn = no_progress,
    rounds: int = 4,
    sideways: bool = False,
    on_improve=None,
) -> tuple[list[Square], dict]:
    """Sweep stripes until a round gains nothing (at most `rounds` rounds) or the budget
    ends; returns the improved squares and stats. `on_improve(squares)` sees each gain."""
    budget = budget or Budget()
    height, width = free.shape
    squares = list(squares)
    start_count = len(squares)
    windows = stripe_windows(height, width, stripe, step)
    seen: set = set()
    solved = 0
    started = time.monotonic()
    for round_number in range(rounds):
        before = len(squares)
        for window in windows:
            if budget.expired():
                break
            try:
                better = resolve_window((height, width), squares, window, budget, sideways, seen=seen)
            except DPStopped:
                break
            solved += 1
            if better is not None:
                gained = len(better) < len(squares)
                squares = better
                if gained and on_improve is not None:
                    on_improve(squares)
            progress(Progress(phase="stripes", message=f"round {round_number + 1}", best=len(squares)))
        if len(squares) >= before or budget.expired():
            break
    return squares, {
        "stripe_windows": solved,
        "stripe_gain": start_count - len(squares),
        "stripe_seconds": round(time.monotonic() - started, 3),
    }
