"""The `mip` method: the write-up's model (`edge_model.py`) on HiGHS through highspy.

Finds one solution, or k different ones: after each, a no-good cut
sum(x over the solution's placements) <= cells - 1 forbids that placement and nothing
else (with pieces only in their distinct orientations a placement is one solution). If
HiGHS proves the model infeasible before k solutions, the solutions found are all there
are, and the result is an exact count.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from puzzlelab.core.highs_rows import rows_model
from puzzlelab.core.result import Budget, Progress, Result, Status, no_progress
from puzzlelab.puzzles.macmahon.edge_model import EdgeModel, build_edge_model, check_model_size, placements
from puzzlelab.puzzles.macmahon.enumerator import codes_to_grid
from puzzlelab.puzzles.macmahon.isolation import call_isolated, ortools_loaded
from puzzlelab.puzzles.macmahon.model import Instance, format_instance, parse_instance

__all__ = ["run_mip", "HighsEdgeModel"]


class HighsEdgeModel:
    """An EdgeModel loaded into a highspy.Highs object, re-solvable with cuts added."""

    def __init__(self, model: EdgeModel, seed: int = 0):
        import highspy

        self.highspy = highspy
        self.model = model
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("random_seed", int(seed) % 2147483647)
        h.setOptionValue("threads", 1)
        n = model.n_cols
        lower = np.zeros(n)
        lower[model.fixed_y] = 1.0
        lp = rows_model(np.zeros(n), lower, np.ones(n), model.rows, model.n_x)
        h.passModel(lp)
        self.h = h
        self.nonzeros = sum(len(row[0]) for row in model.rows)

    def solve(self, seconds: float) -> tuple[str, list[int] | None]:
        """('found', codes) / ('infeasible', None) / ('timeout', None)."""
        h = self.h
        h.setOptionValue("time_limit", max(0.01, float(seconds)) if seconds != float("inf") else self.highspy.kHighsInf)
        h.run()
        status = h.getModelStatus()
        ms = self.highspy.HighsModelStatus
        if status == ms.kInfeasible:
            return "infeasible", None
        if status == ms.kOptimal:
            values = np.asarray(h.getSolution().col_value)
            return "found", self.model.decode(values[: self.model.n_x])
        return "timeout", None

    def forbid(self, codes: list[int]) -> None:
        """No-good cut: this placement, and only it, is excluded from now on."""
        cols = self.model.support(codes)
        self.h.addRow(-self.highspy.kHighsInf, float(len(cols) - 1), len(cols), np.array(cols, dtype=np.int32), np.ones(len(cols)))


def run_mip(inst: Instance, *, budget: Budget, progress, seed: int, solutions: int = 1, orientations: str = "distinct") -> Result:
    check_model_size(inst, placements(inst, orientations))  # before any process or model is made
    if ortools_loaded():  # HiGHS cannot load beside OR-tools: run it in a fresh process
        left = budget.seconds_left()
        seconds = None if left == float("inf") else left
        data = call_isolated("puzzlelab.puzzles.macmahon.mip:_run_mip_json", format_instance(inst), seconds, seed, solutions, orientations, timeout=seconds)
        return Result.from_dict(data)
    return _run_mip(inst, budget, progress, seed, solutions, orientations)


def _run_mip_json(instance_json, seconds, seed, solutions, orientations) -> dict:
    return _run_mip(parse_instance(instance_json), Budget(seconds), no_progress, seed, solutions, orientations).to_dict()


def _run_mip(inst: Instance, budget: Budget, progress, seed: int, solutions: int, orientations: str) -> Result:
    started = time.perf_counter()
    model = build_edge_model(inst, orientations)
    solver = HighsEdgeModel(model, seed)
    found: list[list[int]] = []
    times: list[float] = []
    outcome = "timeout"
    while len(found) < solutions:
        left = budget.seconds_left()
        if left <= 0:
            outcome = "timeout"
            break
        outcome, codes = solver.solve(left)
        if outcome != "found":
            break
        if orientations == "all":  # several x vectors can be one solution: keep distinct ones
            codes = _normalise(inst, codes)
        found.append(codes)
        times.append(time.perf_counter() - started)
        progress(Progress("no-good cuts", done=len(found), total=solutions, best=len(found)))
        solver.forbid(codes)
    stats: dict[str, Any] = {
        "columns": model.n_cols,
        "binaries": model.n_x,
        "rows": len(model.rows),
        "nonzeros": solver.nonzeros,
        "orientations_per_cell": len(model.orientations),
        "seconds_to_first": round(times[0], 6) if times else None,
        "seconds_per_solution": [round(t, 4) for t in times[:100]],
    }
    if not found:
        status = Status.INFEASIBLE if outcome == "infeasible" else Status.UNKNOWN
        return Result(None if status == Status.UNKNOWN else 0, None, status, "mip", stats=stats)
    exhausted = outcome == "infeasible"
    grids = [codes_to_grid(inst, c) for c in found]
    solution: Any = grids[0] if solutions == 1 else {"solutions": grids}
    value = 1 if solutions == 1 else len(grids)
    stats["exhausted"] = exhausted
    status = Status.OPTIMAL if exhausted and solutions > 1 else Status.FEASIBLE
    return Result(value, solution, status, "mip", bound=value if status == Status.OPTIMAL else None, stats=stats)


def _normalise(inst: Instance, codes: list[int]) -> list[int]:
    """Rotation of a symmetric piece reduced to its first equivalent orientation."""
    k = inst.sides
    out = []
    for code in codes:
        p, r = divmod(code, k)
        t = inst.tiles[p]
        period = next(q for q in range(1, k + 1) if k % q == 0 and all(t[(s - q) % k] == t[s] for s in range(k)))
        out.append(p * k + r % period)
    return out


def model_feasible(inst: Instance, inside_piece: int | None = None, seconds: float = 600.0) -> tuple[str, list[int] | None, float]:
    """Solve the model once (optionally with `inside_piece` forced into the interior):
    ('found' | 'infeasible' | 'timeout', codes, seconds)."""
    if ortools_loaded():
        return tuple(call_isolated("puzzlelab.puzzles.macmahon.mip:_model_feasible_json", format_instance(inst), inside_piece, seconds, timeout=seconds))
    return _model_feasible(inst, inside_piece, seconds)


def _model_feasible_json(instance_json, inside_piece, seconds):
    return _model_feasible(parse_instance(instance_json), inside_piece, seconds)


def _model_feasible(inst: Instance, inside_piece: int | None, seconds: float):
    started = time.perf_counter()
    solver = HighsEdgeModel(build_edge_model(inst, "distinct", inside_piece))
    outcome, codes = solver.solve(seconds)
    return outcome, codes, time.perf_counter() - started
