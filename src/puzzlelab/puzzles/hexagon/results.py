"""Results of the hexagon methods from the grids their searches found: the raw score
and the figures every method reports (cell sum, penalty edges), recomputed from the
grid by the scorer."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.result import Result, Status
from puzzlelab.puzzles.hexagon.model import edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.scoring import penalty_edges, upper_bound

__all__ = ["grid_figures", "feasible_result"]


def grid_figures(n: int, grid: list[int]) -> tuple[int, dict[str, Any]]:
    """(raw score, {'cell_sum', 'penalty', 'penalty_edges'}) of a whole grid."""
    geometry = hexagon(n)
    edges = penalty_edges(geometry, grid)
    raw = edge_count(n) - len(edges)
    return raw, {
        "cell_sum": raw + geometry.cells,
        "penalty": len(edges),
        "penalty_edges": [[int(geometry.edges[e, 0]), int(geometry.edges[e, 1])] for e in edges],
    }


def feasible_result(n: int, grid: list[int] | None, method: str, seconds: float, extra: dict[str, Any] | None = None) -> Result:
    """A feasible Result for a heuristic's best grid (unknown when it found none);
    `extra` joins the stats."""
    if grid is None:
        return Result(None, None, Status.UNKNOWN, method, bound=upper_bound(n), stats={"seconds": round(seconds, 3)})
    raw, figures = grid_figures(n, grid)
    stats = {"seconds": round(seconds, 3), **figures, **(extra or {})}
    return Result(raw, format_grid(n, grid), Status.FEASIBLE, method, bound=upper_bound(n), stats=stats)
