"""Run functions of the methods that would otherwise close an import cycle.

`dp`'s run falls back on the beam's greedy tiling when the exact DP runs out of time or
memory, and the beam is built on the DP's `ColumnDP`: with the run function in `dp.py`
the two modules imported each other. Here it sits above both."""

from __future__ import annotations

import time

from puzzlelab.core.result import Budget, ProgressFn, Result, Status, no_progress
from puzzlelab.puzzles.tiling.beam import greedy_tiling
from puzzlelab.puzzles.tiling.bounds import band_lower_bound
from puzzlelab.puzzles.tiling.dp import DPStopped, solve_exact
from puzzlelab.puzzles.tiling.model import Grid, format_solution

__all__ = ["run_dp"]


def run_dp(
    grid: Grid, *, budget: Budget, progress: ProgressFn = no_progress, seed: int = 0, max_memory_mb: float = 2000.0
) -> Result:
    """The `dp` method: exact, or (out of time or memory) the greedy heuristic's answer
    marked feasible with the row and column band bound, so a run never ends
    empty-handed and never without a bound."""
    started = time.perf_counter()
    try:
        count, squares, stats = solve_exact(grid.free(), budget, progress, max_memory_mb)
    except DPStopped as stop:
        count, squares = greedy_tiling(grid.free())
        bound, source = band_lower_bound(grid.free())
        stats = {"stopped": stop.reason, "stopped_at_column": stop.column, "fallback": "greedy", "bound_source": source}
        status = Status.OPTIMAL if count <= bound else Status.FEASIBLE
    else:
        status = Status.OPTIMAL
        bound = count
        stats["bound_source"] = "exact DP"
    stats["seconds"] = round(time.perf_counter() - started, 6)
    return Result(count, format_solution(grid, squares), status, "dp", bound=bound, stats=stats)
