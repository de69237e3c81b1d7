"""The heuristic column DP of the seed write-up (section 2), for grids of any size.

It is the exact DP of `dp.py` with three limits (kernel: `general_column_step`):
- Cost Margin: a partial tiling that cannot finish its column within `margin` squares
  of the best partial tiling of that column is dropped (tested early in the search with
  MinSquares, the fewest squares that can still close the column);
- Size Deviation: at each row only the `deviation + 1` largest squares that fit are
  tried (0 = greedy, largest only);
- beam width: at most `width` partial tilings (the cheapest) go on to the next column,
  so memory stays bounded on any grid (up to 1000 x 1000).

Under a limited budget the margins shrink as the clock runs (write-up 2.4, there in
milliseconds of a 10-second contest, here as fractions of the budget): Cost Margin at
most 3 after 40% of the time if fewer than 20 columns are done, at most 2 after 60%, 0
after 70%; and one lower whenever the pace so far would overrun the budget. Once the
budget is spent the rest of the sweep is greedy (one partial tiling, largest squares),
so a sweep always ends with a complete tiling.
"""

from __future__ import annotations

import time

import numpy as np

from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status, no_progress
from puzzlelab.puzzles.tiling.dp import ColumnDP, DPStopped
from puzzlelab.puzzles.tiling.model import format_solution, orient, square_back
from puzzlelab.puzzles.tiling.stripes import improve_by_stripes

__all__ = ["beam_tiling", "greedy_tiling", "oriented_beam", "run_beam", "MarginSchedule"]


class MarginSchedule:
    """(margin, deviation, width) for each column, shrinking with the clock."""

    def __init__(self, margin: int, deviation: int, width: int, columns: int, budget: Budget | None):
        self.margin, self.deviation, self.width = margin, deviation, width
        self.columns = columns
        self.budget = budget
        self.started = time.monotonic()
        left = budget.seconds_left() if budget is not None else float("inf")
        self.seconds = left if left != float("inf") else None

    def __call__(self, x: int) -> tuple[int, int, int]:
        if self.budget is not None and self.budget.expired():
            return 0, 0, 1
        if self.seconds is None or self.seconds <= 0:
            return self.margin, self.deviation, self.width
        elapsed = time.monotonic() - self.started
        f = elapsed / self.seconds
        if f > 0.4 and x < 20:
            self.margin = min(self.margin, 3)
        if f > 0.6:
            self.margin = min(self.margin, 2)
        if f > 0.7:
            self.margin = 0
        if x > 0 and self.margin > 0 and elapsed * self.columns / x > self.seconds:
            self.margin -= 1
        return self.margin, self.deviation, self.width


def beam_tiling(
    free: np.ndarray,
    margin: int = 4,
    deviation: int = 2,
    width: int = 100_000,
    budget: Budget | None = None,
    progress: ProgressFn = no_progress,
    hard: Budget | None = None,
) -> tuple[int, list[tuple[int, int, int]], dict]:
    """Heuristic tiling of a boolean grid (rows x columns, swept left to right):
    (count, squares (x, y, size), stats). `budget` drives the shrinking margins;
    `hard` (default: 1.5 times `budget` + 0.5 s) is when a sweep still running is
    abandoned for the greedy tiling."""
    free = np.asarray(free, dtype=bool)
    if not free.any():
        return 0, [], {"peak_states": 0}
    schedule = MarginSchedule(margin, deviation, width, free.shape[1], budget)
    dp = ColumnDP(free, margin=margin, deviation=deviation, width_cap=width, packed=False, max_memory_mb=float("inf"))
    # Once the budget ends the schedule turns greedy, so the sweep still finishes. One
    # column of a tall grid with wide margins can itself outlast the budget, though:
    # a hard stop at 1.5 times the budget (+0.5 s) ends it, and the answer is then the
    # greedy tiling (margin 0, one state: linear in the cells), never nothing.
    if hard is None:  # with the budget's memory bound: the sweep's tables stay within it
        seconds = None if budget is None or not budget.limited else 1.5 * budget.seconds_left() + 0.5
        hard = Budget(seconds, memory_bytes=getattr(budget, "memory_bytes", None))
    try:
        count = dp.run(hard, progress, schedule=schedule)
    except DPStopped as stop:
        count, squares = greedy_tiling(free)
        return count, squares, {"peak_states": dp.peak_states, "stopped_at_column": stop.column, "fallback": "greedy"}
    stats = {"peak_states": dp.peak_states, "derived": dp.leaves, "final_margin": schedule.margin}
    return count, dp.squares(), stats


def greedy_tiling(free: np.ndarray) -> tuple[int, list[tuple[int, int, int]]]:
    """Largest square first at every open cell, column by column (margin 0, one state)."""
    count, squares, _ = beam_tiling(free, margin=0, deviation=0, width=1)
    return count, squares


def oriented_beam(
    free: np.ndarray,
    k: int,
    margin: int,
    deviation: int,
    width: int,
    budget: Budget | None,
    progress: ProgressFn = no_progress,
    hard: Budget | None = None,
) -> tuple[int, list[tuple[int, int, int]], dict]:
    """beam_tiling on orientation k of the grid, squares mapped back to the original."""
    height, wide = free.shape
    count, squares, stats = beam_tiling(orient(free, k), margin, deviation, width, budget, progress, hard)
    return count, [square_back(x, y, s, k, wide, height) for x, y, s in squares], stats


def run_beam(
    grid,
    *,
    budget: Budget,
    progress: ProgressFn,
    seed: int = 0,
    margin: int = 4,
    deviation: int = 2,
    width: int = 100_000,
    orientation: int = 0,
    stripes: bool = False,
) -> Result:
    """The `beam` method (optionally followed by stripe re-solving)."""
    started = time.perf_counter()
    free = grid.free()
    phase = budget.sub(fraction=0.8) if stripes else budget
    count, squares, stats = oriented_beam(free, orientation, margin, deviation, width, phase, progress)
    stats["beam_squares"] = count
    if stripes and squares:
        squares, info = improve_by_stripes(free, squares, budget=budget, progress=progress)
        count = len(squares)
        stats.update(info)
    stats["seconds"] = round(time.perf_counter() - started, 6)
    progress(Progress(phase="beam", message="done", best=count))
    return Result(count, format_solution(grid, squares), Status.FEASIBLE, "beam", stats=stats)
