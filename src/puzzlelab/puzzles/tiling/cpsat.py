"""Square tiling as a set-partition model in OR-Tools CP-SAT.

One Boolean per square that fits on free cells (top-left cell and side, side at most
the largest free square there), one exactly-one constraint per free cell over the
squares covering it, and the number of chosen squares minimised. CP-SAT's LP
relaxation of this model gives strong lower bounds, so it proves optima of mid-size
grids; it is also the peer the exact DP is benchmarked against.

A known tiling can be given as a hint (the search starts from it) and as an upper
bound; `auto` feeds it the best heuristic tiling so far, and a proven lower bound lets
the portfolio stop as soon as any member meets it. The upper bound goes into the
objective's domain, not in a constraint: measured with one worker (contest
puzzles of 25 x 38 and 32 x 40), a linear constraint over all the squares, or any other
constraint beside the exactly-ones, keeps CP-SAT's default LP (linearization level 1)
from working, and its bound stayed at 91-106 for 60-120 s against 142 and 162 proven
in 7-40 s without it. Linearization level 2 (`parameters={"linearization_level": 2}`,
the `prove` method's setting) puts every constraint in the LP; on the same two puzzles
it proved the optimum in 6.6 s and 7.6 s against 12.7 s and 37.6 s at level 1.

The model grows with the fifth power of a full grid's side (a 1000 x 1000 square has
334 million candidate squares over 34 trillion cells), so a grid whose model cannot fit
the memory allowed is refused before anything is built (`limits.require_model_fits`),
and the build itself stops when the budget ends (building costs about a microsecond
per cell of a candidate square, in Python).
"""

from __future__ import annotations

import math
import threading
import time
from typing import Callable

import numpy as np

from puzzlelab.core.parallel.tasks import default_workers
from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status, no_progress
from puzzlelab.puzzles.tiling.beam import greedy_tiling
from puzzlelab.puzzles.tiling.kernels import max_square_table
from puzzlelab.puzzles.tiling.limits import require_model_fits
from puzzlelab.puzzles.tiling.model import format_solution

__all__ = ["cpsat_tiling", "run_cpsat", "candidate_squares", "set_partition_model", "ModelStopped"]

BUILD_POLL = 256  # candidate squares added between looks at the budget while building


class ModelStopped(Exception):
    """The budget ended while the model was being built."""


def candidate_squares(free: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every square that fits on free cells: arrays x, y, size."""
    largest = max_square_table(np.ascontiguousarray(free, dtype=np.uint8))
    ys, xs = np.nonzero(largest)
    counts = largest[ys, xs]
    x = np.repeat(xs, counts)
    y = np.repeat(ys, counts)
    starts = np.cumsum(counts) - counts
    size = np.arange(len(x)) - np.repeat(starts, counts) + 1
    return x.astype(np.int64), y.astype(np.int64), size.astype(np.int64)


def set_partition_model(
    free: np.ndarray,
    hint: list[tuple[int, int, int]] | None = None,
    upper_bound: int | None = None,
    budget: Budget | None = None,
):
    """The CP-SAT model of a grid with free cells: (model, chosen, (xs, ys, sizes)), one
    Boolean of `chosen` per candidate square, the candidates as arrays. Raises
    ModelStopped when `budget` ends before the model is built."""
    from ortools.sat.python import cp_model

    height, width = free.shape
    xs, ys, sizes = candidate_squares(free)
    model = cp_model.CpModel()
    chosen = [model.NewBoolVar("") for _ in range(len(xs))]
    cover: list[list] = [[] for _ in range(height * width)]
    for i in range(len(xs)):
        if budget is not None and i % BUILD_POLL == 0 and budget.expired():
            raise ModelStopped(f"the budget ended while building the model ({i} of {len(xs)} squares)")
        x, y, s = int(xs[i]), int(ys[i]), int(sizes[i])
        var = chosen[i]
        for r in range(y, y + s):
            base = r * width
            for c in range(x, x + s):
                cover[base + c].append(var)
    for cell in np.flatnonzero(free.ravel()):
        model.AddExactlyOne(cover[int(cell)])
    total = sum(chosen)
    model.Minimize(total)
    if hint:
        index = {(int(x), int(y), int(s)): i for i, (x, y, s) in enumerate(zip(xs, ys, sizes))}
        picked = {index[(x, y, s)] for x, y, s in hint}
        for i, var in enumerate(chosen):
            model.AddHint(var, i in picked)
    if upper_bound is not None:  # the objective's domain (see the module docstring)
        model.Proto().objective.domain.extend([0, int(upper_bound)])
    return model, chosen, (xs, ys, sizes)


def _solve_until_cancelled(solver, model, watcher, budget: Budget) -> int:
    """solver.Solve, stopped early when the Budget's cancel flag is raised."""
    done = threading.Event()

    def watch_cancel() -> None:
        while not done.wait(0.05):
            if budget.cancelled:
                solver.StopSearch()
                return

    guard = threading.Thread(target=watch_cancel, daemon=True)
    guard.start()
    try:
        return solver.Solve(model, watcher)
    finally:
        done.set()


def cpsat_tiling(
    free: np.ndarray,
    *,
    budget: Budget | None = None,
    threads: int = 0,
    hint: list[tuple[int, int, int]] | None = None,
    upper_bound: int | None = None,
    seed: int = 0,
    on_solution: Callable[[int, list[tuple[int, int, int]], int], None] | None = None,
    parameters: dict | None = None,
) -> tuple[Status, int | None, list[tuple[int, int, int]], int, dict]:
    """Solve the set-partition model: (status, squares count, squares, lower bound,
    stats). `on_solution(count, squares, bound)` sees every improving tiling;
    `parameters` sets CP-SAT parameters by name (e.g. `linearization_level`). Raises
    InvalidInstance (413) for a grid whose model cannot fit the memory allowed; a
    budget that ends while the model is built gives status unknown."""
    from ortools.sat.python import cp_model

    budget = budget or Budget()
    free = np.asarray(free, dtype=bool)
    started = time.perf_counter()
    if not free.any():
        return Status.OPTIMAL, 0, [], 0, {"variables": 0}
    size = require_model_fits(free, "cpsat", budget)
    try:
        model, chosen, (xs, ys, sizes) = set_partition_model(free, hint, upper_bound, budget)
    except ModelStopped as stop:
        stats = {"variables": size.squares, "stopped": str(stop), "build_seconds": round(time.perf_counter() - started, 3)}
        return Status.UNKNOWN, None, [], 0, stats
    solver = cp_model.CpSolver()
    left = budget.seconds_left()
    if left != math.inf:
        solver.parameters.max_time_in_seconds = max(0.01, left)
    solver.parameters.num_workers = threads or default_workers()  # PUZZLELAB_WORKERS, else the CPUs
    solver.parameters.random_seed = int(seed) % (1 << 31)  # any integer seed (CP-SAT's is an int32)
    for name, value in (parameters or {}).items():
        setattr(solver.parameters, name, value)

    class Watcher(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.solutions = 0

        def on_solution_callback(self) -> None:
            self.solutions += 1
            if on_solution is not None:
                squares = [(int(xs[i]), int(ys[i]), int(sizes[i])) for i, v in enumerate(chosen) if self.BooleanValue(v)]
                on_solution(len(squares), squares, int(math.ceil(self.BestObjectiveBound() - 1e-6)))

    watcher = Watcher()
    code = _solve_until_cancelled(solver, model, watcher, budget)
    stats = {
        "variables": len(chosen),
        "cpsat_status": solver.StatusName(code),
        "cpsat_seconds": round(solver.WallTime(), 3),
        "solutions": watcher.solutions,
        "build_seconds": round(time.perf_counter() - started - solver.WallTime(), 3),
    }
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if code == cp_model.INFEASIBLE and upper_bound is not None:
            # nothing below the given bound: the bound's own tiling is optimal
            return Status.INFEASIBLE, None, [], int(upper_bound) + 1, stats
        return Status.UNKNOWN, None, [], int(math.ceil(solver.BestObjectiveBound() - 1e-6)), stats
    squares = [(int(xs[i]), int(ys[i]), int(sizes[i])) for i, v in enumerate(chosen) if solver.BooleanValue(v)]
    bound = int(math.ceil(solver.BestObjectiveBound() - 1e-6))
    status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
    return status, len(squares), squares, bound, stats


def run_cpsat(grid, *, budget: Budget, progress: ProgressFn = no_progress, seed: int = 0, threads: int = 0, hint: bool = True) -> Result:
    """The `cpsat` method (a grid whose model cannot fit is refused before the hint
    is computed)."""
    started = time.perf_counter()
    free = grid.free()
    if free.any():
        require_model_fits(free, "cpsat", budget)
    start_squares = None
    if hint:
        _, start_squares = greedy_tiling(free)

    def report(count: int, squares, bound: int) -> None:
        progress(Progress(phase="cpsat", message="improving", best=count, stats={"bound": bound}))

    status, count, squares, bound, stats = cpsat_tiling(
        free, budget=budget, threads=threads, hint=start_squares, seed=seed, on_solution=report
    )
    if count is None and start_squares is not None:
        count, squares = len(start_squares), start_squares
        status = Status.FEASIBLE
    stats["seconds"] = round(time.perf_counter() - started, 6)
    if count is None:
        return Result(None, None, Status.UNKNOWN, "cpsat", bound=bound, stats=stats)
    return Result(count, format_solution(grid, squares), status, "cpsat", bound=bound, stats=stats)
