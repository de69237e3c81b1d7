"""The independent checker of square tilings. It imports no solver: it recounts the
cover of every cell from the squares alone.

A solution is valid when every square lies inside the grid, covers free cells only, no
two squares overlap and every free cell is covered. The value is the number of squares.
The cover counts come from a two-dimensional difference array (four corner updates per
square, then prefix sums), so a million squares cost no Python loop per cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from puzzlelab.core.puzzle import WrongAnswer
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.tiling.model import Grid, parse_squares, shown

__all__ = ["verify_tiling", "check_result"]


def verify_tiling(grid: Grid, solution: Any) -> Verdict:
    """Check `solution` (contest form `{"id", "squares": [...]}`) against `grid`."""
    try:
        squares = parse_squares(solution)
    except ValueError as exc:
        return Verdict(False, None, str(exc))
    if isinstance(solution, dict) and solution.get("id") not in (None, "") and grid.id and solution["id"] != grid.id:
        return Verdict(False, len(squares), f"solution id {shown(solution['id'])} is not the puzzle's id {shown(grid.id)}")
    width, height = grid.width, grid.height
    for i, (x, y, size) in enumerate(squares):
        if size < 1:
            return Verdict(False, len(squares), f"square {i + 1} at X={x}, Y={y}: Size {size} is not positive")
        if x < 0 or y < 0 or x + size > width or y + size > height:
            return Verdict(
                False, len(squares), f"square {i + 1} at X={x}, Y={y}, Size={size} reaches outside the {width}x{height} grid"
            )
    free = grid.free()
    cover = np.zeros((height + 1, width + 1), dtype=np.int64)
    if squares:
        arr = np.asarray(squares, dtype=np.int64)
        xs, ys, ss = arr[:, 0], arr[:, 1], arr[:, 2]
        np.add.at(cover, (ys, xs), 1)
        np.add.at(cover, (ys, xs + ss), -1)
        np.add.at(cover, (ys + ss, xs), -1)
        np.add.at(cover, (ys + ss, xs + ss), 1)
        cover = cover.cumsum(axis=0).cumsum(axis=1)
    cover = cover[:height, :width]
    on_blocked = np.argwhere((cover > 0) & ~free)
    if len(on_blocked):
        r, c = map(int, on_blocked[0])
        return Verdict(False, len(squares), f"{_who(squares, c, r)} covers the blocked cell X={c}, Y={r}")
    overlap = np.argwhere(cover > 1)
    if len(overlap):
        r, c = map(int, overlap[0])
        return Verdict(False, len(squares), f"squares overlap at X={c}, Y={r} (covered {int(cover[r, c])} times)")
    uncovered = np.argwhere(free & (cover == 0))
    if len(uncovered):
        r, c = map(int, uncovered[0])
        return Verdict(
            False, len(squares), f"free cell X={c}, Y={r} is not covered ({len(uncovered)} free cells uncovered in all)"
        )
    sizes: dict[int, int] = {}
    for _, _, size in squares:
        sizes[size] = sizes.get(size, 0) + 1
    figures = {
        "free_cells": int(free.sum()),
        "largest": max(sizes, default=0),
        "by_size": {str(k): sizes[k] for k in sorted(sizes, reverse=True)},
    }
    return Verdict(True, len(squares), f"{len(squares)} squares cover all {figures['free_cells']} free cells exactly once", figures)



def check_result(grid: Grid, result: Result) -> Result:
    """Attach the checker's verdict to a solver's result, as `Puzzle.check` does, for
    the drivers below the Puzzle object (the A219158 table, the contest client); raises
    WrongAnswer when the tiling is rejected or its count is not the solver's claim."""
    verdict = verify_tiling(grid, result.solution)
    if verdict.ok and result.value is not None and verdict.value != result.value:
        verdict = Verdict(
            ok=False,
            value=verdict.value,
            message=f"solver claims squares = {result.value}, checker counts {verdict.value}",
            figures=verdict.figures,
        )
    result.verdict = verdict
    if not verdict.ok:
        raise WrongAnswer(f"tiling: method {result.method!r} returned a rejected solution: {verdict.message}")
    return result

def _who(squares: list[tuple[int, int, int]], c: int, r: int) -> str:
    for i, (x, y, size) in enumerate(squares):
        if x <= c < x + size and y <= r < y + size:
            return f"square {i + 1} (X={x}, Y={y}, Size={size})"
    return "a square"  # pragma: no cover - some square covers it
