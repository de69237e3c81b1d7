"""The `cpsat` method: the same model as `mip` (`edge_model.py`) on OR-tools CP-SAT, the
peer of both the MIP and the enumerator. It finds one solution, k solutions, or with
`all` enumerates every one (CP-SAT's enumerate_all_solutions, single worker): an exact
count by an independent method, which the tests and the benchmark compare with the
numba enumerator.
"""

from __future__ import annotations

import time
from typing import Any

from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.macmahon.edge_model import EdgeModel, build_edge_model, check_model_size, placements
from puzzlelab.puzzles.macmahon.enumerator import codes_to_grid
from puzzlelab.puzzles.macmahon.isolation import call_isolated, highs_loaded
from puzzlelab.puzzles.macmahon.model import Instance, format_instance, parse_instance

__all__ = ["run_cpsat", "cpsat_solutions"]


def _build(model: EdgeModel):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    xs = [m.NewBoolVar(f"x{i}") for i in range(model.n_x)]
    ys = [m.NewBoolVar(f"y{i}") for i in range(model.n_y)]
    var = xs + ys
    for cols, coefs, lo, hi in model.rows:
        expr = sum(int(c) * var[i] for i, c in zip(cols, coefs))
        if lo == hi:
            m.Add(expr == int(lo))
        else:
            m.Add(expr >= int(lo))
            m.Add(expr <= int(hi))
    for i in model.fixed_y:
        m.Add(var[i] == 1)
    return m, xs


def cpsat_solutions(
    inst: Instance,
    budget: Budget,
    limit: int | None = None,
    keep: int = 0,
    threads: int = 1,
    seed: int = 0,
) -> tuple[int, str, dict[str, Any], list[list[int]]]:
    """Enumerate solutions of the model (all when `limit` is None): (count, 'all' |
    'limit' | 'timeout' | 'infeasible', stats, the codes of the first `keep` ones).
    Runs in a spawned process when HiGHS is loaded here (see isolation.py)."""
    if highs_loaded():
        left = budget.seconds_left()
        seconds = None if left == float("inf") else left
        count, outcome, stats, kept = call_isolated(
            "puzzlelab.puzzles.macmahon.cpsat:_cpsat_solutions_json", format_instance(inst), seconds, limit, keep, threads, seed, timeout=seconds
        )
        return count, outcome, stats, kept
    return _cpsat_solutions(inst, budget, limit, keep, threads, seed)


def _cpsat_solutions_json(instance_json, seconds, limit, keep, threads, seed):
    return _cpsat_solutions(parse_instance(instance_json), Budget(seconds), limit, keep, threads, seed)


def _cpsat_solutions(inst: Instance, budget: Budget, limit: int | None, keep: int, threads: int, seed: int):
    from ortools.sat.python import cp_model

    model = build_edge_model(inst, "distinct")
    m, xs = _build(model)
    solver = cp_model.CpSolver()
    left = budget.seconds_left()
    if left != float("inf"):
        solver.parameters.max_time_in_seconds = max(0.01, left)
    solver.parameters.random_seed = int(seed)
    enumerate_all = limit is None or limit > 1
    if enumerate_all:
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
    else:
        solver.parameters.num_workers = max(1, threads)

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0
            self.hit_limit = False
            self.kept: list[list[int]] = []

        def on_solution_callback(self) -> None:
            self.count += 1
            if len(self.kept) < keep:
                self.kept.append(model.decode([self.Value(x) for x in xs]))
            if (limit is not None and self.count >= limit) or budget.cancelled:
                self.hit_limit = limit is not None and self.count >= limit
                self.StopSearch()

    started = time.perf_counter()
    collector = Collector()
    status = solver.Solve(m, collector)
    seconds = time.perf_counter() - started
    stats = {"seconds": round(seconds, 6), "branches": solver.NumBranches(), "conflicts": solver.NumConflicts()}
    kept = collector.kept
    if collector.hit_limit:
        return collector.count, "limit", stats, kept
    if status == cp_model.INFEASIBLE:
        return 0, "infeasible", stats, kept
    if status == cp_model.OPTIMAL and enumerate_all:
        return collector.count, "all", stats, kept
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) and not enumerate_all:
        return collector.count, "limit", stats, kept
    return collector.count, "timeout", stats, kept


def run_cpsat(inst: Instance, *, budget: Budget, progress, seed: int, solutions: int = 1, all: bool = False, threads: int = 1) -> Result:
    check_model_size(inst, placements(inst, "distinct"))  # before any process or model is made
    keep = 3 if all else solutions
    count, outcome, stats, found = cpsat_solutions(inst, budget, None if all else solutions, keep, threads, seed)
    if all:
        if outcome == "timeout" and count == 0:
            return Result(None, None, Status.UNKNOWN, "cpsat", stats=stats)
        cert = {
            "kind": "count",
            "total": count,
            "complete": outcome in ("all", "infeasible"),
            "elements": ["id"],
            "groups": {},
            "fixed_points": {"id": count},
            "symmetric": [],
            "symmetric_complete": True,
            "examples": [codes_to_grid(inst, c) for c in found[:3]],
        }
        status = Status.OPTIMAL if cert["complete"] else Status.FEASIBLE
        return Result(count, cert, status, "cpsat", stats=stats)
    if not found:
        status = Status.INFEASIBLE if outcome in ("infeasible", "all") else Status.UNKNOWN
        return Result(None if status == Status.UNKNOWN else 0, None, status, "cpsat", stats=stats)
    grids = [codes_to_grid(inst, c) for c in found]
    if solutions == 1:
        return Result(1, grids[0], Status.FEASIBLE, "cpsat", stats=stats)
    exhausted = outcome == "all"
    status = Status.OPTIMAL if exhausted else Status.FEASIBLE
    return Result(len(grids), {"solutions": grids}, status, "cpsat", bound=len(grids) if exhausted else None, stats=stats)
