"""The independent checker of a hexagon grid. It imports no solver: it reads the grid
from the submission text (or rows), checks the contest's rule cell by cell and
recomputes every figure (cell sum, raw score, penalty edges) from the grid alone, then
cross-checks them with the identity penalty + raw score = edges."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Verdict
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, grid_values, hexagon, parse_grids
from puzzlelab.puzzles.hexagon.scoring import cell_sum, count_bound, penalty_edges

__all__ = ["verify_grid", "rule_violation", "read_solution"]


def read_solution(n: int, solution: Any) -> tuple[int, ...]:
    """Cell values from submission text, a list of rows, or {'grid': ...}."""
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
    message naming the first offending cell (row and cell counted from 1)."""
    geometry = hexagon(n)
    for cell in range(geometry.cells):
        own = values[cell]
        seen = {values[j] for j in geometry.neighbours_of(cell)}
        missing = [k for k in range(1, own) if k not in seen]
        if missing:
            row, col = geometry.position(cell)
            return f"row {row}, cell {col} holds {own} but no neighbour holds {missing[0]}"
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
