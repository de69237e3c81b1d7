"""A proven lower bound on the squares: the LP relaxation of the set-partition model
(one variable in [0, 1] per square that fits, each free cell covered exactly once),
solved with HiGHS. Any tiling is a 0/1 point of that LP, so ceil(LP optimum) squares
are needed. On the ten contest puzzles it is within 0 to 3 of the optimum (exact for
contest 1, 3, 8 and 10), and it costs a fraction of a second; `auto` uses it to mark a
heuristic answer optimal when the two meet.

On a large open grid the LP has the set-partition model's size (a 300 x 300 square:
9 million columns, 1.4 billion entries), so a grid whose LP cannot fit the memory
allowed, or whose matrix is not built within the time limit, gets the bound 0 (always
valid) instead of the machine's memory.

`lp_cell_weights` keeps the LP's dual values as integer cell weights: the exact DP's
branch and bound can prune with them (docs/tiling.md, "The exact DP").
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from puzzlelab.puzzles.tiling.cpsat import candidate_squares
from puzzlelab.puzzles.tiling.limits import memory_allowed, model_size

__all__ = ["band_lower_bound", "lp_lower_bound", "lp_cell_weights", "WEIGHT_SCALE"]


def _band_sum(counts: np.ndarray, gap: int) -> int:
    """Most total of counts[y] over rows at least `gap` apart (no square meets two)."""
    best = np.zeros(len(counts) + 1, dtype=np.int64)
    for y in range(len(counts)):
        best[y + 1] = max(best[y], counts[y] + best[max(0, y + 1 - gap)])
    return int(best[-1])


def band_lower_bound(free: np.ndarray) -> tuple[int, str]:
    """A lower bound that every grid gets in milliseconds, and its name: the squares
    meeting a row are at least its `row_cover_counts`, and rows at least the largest
    free square's side apart share no square, so the counts of such rows add up; the
    same for columns, the larger of the two ("row bands" or "column bands")."""
    from puzzlelab.puzzles.tiling.kernels import max_square_table, row_cover_counts

    free = np.ascontiguousarray(free, dtype=bool)
    if not free.any():
        return 0, "empty grid"
    found = []
    for name, grid in (("row bands", free), ("column bands", np.ascontiguousarray(free.T))):
        largest = max_square_table(grid.astype(np.uint8))
        counts = row_cover_counts(grid, largest)
        found.append((_band_sum(counts, int(largest.max())), name))
    return max(found)


def lp_lower_bound(free: np.ndarray, time_limit: float | None = None, budget: Any = None) -> int:
    """ceil of the LP relaxation's optimum (0 for a grid with no free cell); 0 when the
    LP did not solve within `time_limit`, or cannot fit the memory allowed (`budget`'s
    bound, else `limits.memory_allowed`'s): a bound that is always valid."""
    free = np.asarray(free, dtype=bool)
    if not free.any() or model_size(free).lp_bytes() > memory_allowed(budget):
        return 0
    solved = _solve_lp(free, time_limit)
    if solved is None:
        return 0
    return int(math.ceil(solved[0].getInfo().objective_function_value - 1e-6))


WEIGHT_SCALE = 1 << 20  # cell weights in units of 2**-20 squares


def lp_cell_weights(free: np.ndarray) -> tuple[float, np.ndarray] | None:
    """The LP relaxation's optimum and its dual values as integer cell weights (units of
    1 / WEIGHT_SCALE squares, 0 on blocked cells) such that every square that fits
    weighs at most WEIGHT_SCALE, checked exactly in integers (and lowered uniformly
    where rounding left a square over). Any set of cells tiled by squares that fit then
    needs at least its weight / WEIGHT_SCALE squares: the bound the exact DP prunes with
    (`dp.solve_exact(duals=...)`). None for a grid with no free cell, or
    when the LP does not fit the memory allowed or did not solve."""
    from puzzlelab.puzzles.tiling.kernels import max_square_table

    free = np.ascontiguousarray(free, dtype=bool)
    if not free.any() or model_size(free).lp_bytes() > memory_allowed(None):
        return None
    solved = _solve_lp(free, None, equality_only=True)
    if solved is None:
        return None
    highs, cells = solved
    weights = np.zeros(free.size, dtype=np.int64)
    weights[cells] = np.floor(np.asarray(highs.getSolution().row_dual) * WEIGHT_SCALE).astype(np.int64)
    weights = weights.reshape(free.shape)
    largest = max_square_table(free.astype(np.uint8))
    prefix = np.zeros((free.shape[0] + 1, free.shape[1] + 1), dtype=np.int64)
    prefix[1:, 1:] = weights.cumsum(axis=0).cumsum(axis=1)
    worst = 0
    for side in range(1, int(largest.max(initial=0)) + 1):
        ys, xs = np.nonzero(largest >= side)
        sums = prefix[ys + side, xs + side] - prefix[ys, xs + side] - prefix[ys + side, xs] + prefix[ys, xs]
        worst = max(worst, int(sums.max(initial=0)) - WEIGHT_SCALE)
    if worst > 0:  # every square holds a cell: lowering each cell by `worst` fixes all
        weights[free] -= worst
    return highs.getInfo().objective_function_value, weights


def _solve_lp(free: np.ndarray, time_limit: float | None, equality_only: bool = False):
    """HiGHS solved on the set-partition LP of `free`: (highs, free cell indices), or
    None when it did not reach the optimum (or the matrix was not built) in time.
    `equality_only` leaves out the variables' upper bounds of 1 (implied by the rows),
    so the row duals alone are dual feasible."""
    import highspy

    deadline = None if time_limit is None else time.monotonic() + float(time_limit)
    height, width = free.shape
    xs, ys, sizes = candidate_squares(free)
    cell_row = np.full(height * width, -1, dtype=np.int64)
    cells = np.flatnonzero(free.ravel())
    cell_row[cells] = np.arange(len(cells))
    # column-wise matrix: square j covers rows (cells) of its s x s block
    counts = sizes * sizes
    starts = np.zeros(len(xs) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    index = np.empty(int(starts[-1]), dtype=np.int64)
    for j in range(len(xs)):
        if deadline is not None and j % 1024 == 0 and time.monotonic() > deadline:
            return None
        x, y, s = int(xs[j]), int(ys[j]), int(sizes[j])
        block = (np.arange(y, y + s)[:, None] * width + np.arange(x, x + s)[None, :]).ravel()
        index[starts[j] : starts[j + 1]] = cell_row[block]
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("threads", 1)
    highs.setOptionValue("solver", "ipm")  # 1.5 to 5 times faster than simplex here
    if deadline is not None:
        highs.setOptionValue("time_limit", max(0.01, deadline - time.monotonic()))
    lp = highspy.HighsLp()
    lp.num_col_ = len(xs)
    lp.num_row_ = len(cells)
    lp.col_cost_ = np.ones(len(xs))
    lp.col_lower_ = np.zeros(len(xs))
    lp.col_upper_ = np.full(len(xs), highspy.kHighsInf) if equality_only else np.ones(len(xs))
    lp.row_lower_ = np.ones(len(cells))
    lp.row_upper_ = np.ones(len(cells))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = starts.astype(np.int32)
    lp.a_matrix_.index_ = index.astype(np.int32)
    lp.a_matrix_.value_ = np.ones(len(index))
    highs.passModel(lp)
    highs.run()
    if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return highs, cells
