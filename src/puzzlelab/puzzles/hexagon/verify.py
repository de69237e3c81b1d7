"""The independent checker of a hexagon grid. It imports no solver: it reads the grid
from the submission text (or rows), checks the contest's rule cell by cell and
recomputes every figure (cell sum, raw score, penalty edges) from the grid alone, then
cross-checks them with the identity penalty + raw score = edges."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.inputs import parse_json
from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.hexagon.model import MAX_VALUE, HexInstance, edge_count, grid_values, hexagon, parse_grids
from puzzlelab.puzzles.hexagon.scoring import cell_sum, count_bound, penalty_edges

__all__ = ["verify_grid", "rule_violation", "read_solution", "given_grid", "checked"]


def read_solution(n: int, solution: Any) -> tuple[int, ...]:
    """Cell values from submission text, a list of rows, or {'grid': ...}; text that is
    JSON (rows, or the object) is read through core.inputs' limits first."""
    if isinstance(solution, str) and solution.strip()[:1] in ("[", "{"):
        solution = parse_json(solution.strip(), "solution")
    if isinstance(solution, dict) and "grid" in solution:
        solution = solution["grid"]
    if isinstance(solution, str):
        grids = parse_grids(solution)
        if len(grids) != 1:
            raise InvalidInstance(f"solution: expected one grid, got {len(grids)} (separated by ';')", "solution")
        rows = grids[0]
    elif isinstance(solution, (list, tuple)):
        rows = list(solution)
    else:
        raise InvalidInstance("solution: expected submission text like (4,3,2), (2,1,3,1), ...", "solution")
    return grid_values(rows, n)[1]


def rule_violation(n: int, values) -> str | None:
    """None when every cell holding k has each of 1..k-1 among its neighbours; else a
    message naming the first offending cell (row and cell counted from 1).

    At most six neighbours hold at most six different values, so one of 1..MAX_VALUE
    is always missing beside a cell: the search for the first missing value stops
    there, whatever the cell holds (a cell of 10^9 costs no more than a 7)."""
    geometry = hexagon(n)
    for cell in range(geometry.cells):
        own = values[cell]
        seen = {values[j] for j in geometry.neighbours_of(cell)}
        missing = next((k for k in range(1, min(own, MAX_VALUE + 1)) if k not in seen), None)
        if missing is not None:
            row, col = geometry.position(cell)
            return f"row {row}, cell {col} holds {own if own < 10**12 else 'a number of over 12 digits'} but no neighbour holds {missing}"
    return None


def verify_grid(instance: HexInstance, solution: Any) -> Verdict:
    """Check a grid for the instance's order; value = raw score."""
    n = instance.n
    try:
        values = read_solution(n, solution)
    except InvalidInstance as exc:
        return Verdict(False, None, str(exc))
    problem = rule_violation(n, values)
    if problem:
        return Verdict(False, None, problem)
    geometry = hexagon(n)
    total = cell_sum(values)
    raw = total - geometry.cells
    penalties = penalty_edges(geometry, values)
    edges = edge_count(n)
    figures = {
        "n": n,
        "cells": geometry.cells,
        "cell_sum": total,
        "raw_score": raw,
        "penalty": len(penalties),
        "edges": edges,
        "penalty_edges": [[int(geometry.edges[e, 0]), int(geometry.edges[e, 1])] for e in penalties],
        "upper_bound": min(edges, count_bound(n)),
    }
    if len(penalties) + raw != edges:
        return Verdict(False, raw, f"penalty {len(penalties)} + raw score {raw} != {edges} edges", figures)
    return Verdict(True, raw, f"valid; raw score {raw}, cell sum {total}, {len(penalties)} penalty edges", figures)


def given_grid(instance: HexInstance, purpose: str) -> list[int] | None:
    """The instance's grid as cell values, None when none was given; a grid that breaks
    the rule is refused (the parser keeps such grids so `verify` can report them)."""
    if instance.start is None:
        return None
    values = [int(v) for v in instance.start]
    problem = rule_violation(instance.n, values)
    if problem:
        raise InvalidInstance(f"grid: not a valid grid {purpose}: {problem}", "grid")
    return values


def checked(instance: HexInstance, result: Result) -> Result:
    """`result` with this checker's verdict attached, the check `Puzzle.check` makes
    after `solve`, for the drivers below the puzzle object (batch, prove) that build
    Results themselves; raises WrongAnswer when a grid is rejected or its raw score is
    not the one claimed."""
    if result.solution is None:
        result.verdict = Verdict(ok=False, value=None, message="no solution to check")
        return result
    verdict = verify_grid(instance, result.solution)
    if verdict.ok and result.value is not None and verdict.value != result.value:
        message = f"solver claims raw score = {result.value}, checker counts {verdict.value}"
        verdict = Verdict(ok=False, value=verdict.value, message=message, figures=verdict.figures)
    result.verdict = verdict
    if not verdict.ok:
        raise WrongAnswer(f"hexagon: method {result.method!r} returned a rejected solution: {verdict.message}")
    return result
