"""Pictures of a tiling: SVG (blocked cells dark, squares outlined, filled and labelled
by size) and an ASCII drawing for the terminal (borders between squares, sizes in the
top-left cell of each square, `##` for blocked cells)."""

from __future__ import annotations

from typing import Any

import numpy as np

from puzzlelab.core.svg import Svg, colour
from puzzlelab.puzzles.tiling.model import Grid, parse_squares

__all__ = ["render_svg", "render_ascii", "owner_map"]

ASCII_MAX_WIDTH = 80  # wider grids are not drawn in text (the SVG still is)
BLOCKED_OWNER, UNCOVERED = -1, -2


def _squares(solution: Any) -> list[tuple[int, int, int]]:
    if solution is None:
        return []
    try:
        return parse_squares(solution)
    except ValueError:
        return []


def owner_map(grid: Grid, squares: list[tuple[int, int, int]]) -> np.ndarray:
    """Per cell: the index of the square covering it, -1 blocked, -2 uncovered."""
    owner = np.full((grid.height, grid.width), UNCOVERED, dtype=np.int64)
    owner[~grid.free()] = BLOCKED_OWNER
    for i, (x, y, size) in enumerate(squares):
        owner[max(0, y) : y + size, max(0, x) : x + size] = i
    return owner


def render_svg(grid: Grid, solution: Any, title: str = "", cell: int = 20) -> str:
    """SVG of the grid and, when given, the solution's squares."""
    squares = _squares(solution)
    width, height = grid.width, grid.height
    margin = 2
    svg = Svg(width * cell + 2 * margin, height * cell + 2 * margin, title=title)
    free = grid.free()
    for y, x in np.argwhere(~free):
        svg.rect(margin + x * cell, margin + y * cell, cell, cell, fill="#333333")
    for y, x in np.argwhere(free):
        svg.rect(margin + x * cell, margin + y * cell, cell, cell, fill="none", stroke="#dddddd", stroke_width=0.5)
    for i, (x, y, size) in enumerate(squares):
        px, py, side = margin + x * cell, margin + y * cell, size * cell
        svg.rect(px, py, side, side, fill=colour(size), fill_opacity=0.35, stroke="#000000", stroke_width=1.5)
        if size > 1 or cell >= 16:
            svg.text(px + side / 2, py + side / 2, size, size=max(7, min(side * 0.45, 28)))
    svg.rect(margin, margin, width * cell, height * cell, fill="none", stroke="#000000", stroke_width=2)
    return svg.to_string()


def render_ascii(grid: Grid, solution: Any) -> str | None:
    """Text drawing (None for grids wider than ASCII_MAX_WIDTH)."""
    if grid.width > ASCII_MAX_WIDTH:
        return None
    squares = _squares(solution)
    owner = owner_map(grid, squares)
    height, width = owner.shape
    # pad with a sentinel ring so every border test has two sides
    pad = np.full((height + 2, width + 2), -3, dtype=np.int64)
    pad[1:-1, 1:-1] = owner
    lines = []
    for cy in range(height + 1):
        # border row above cell row cy
        row = []
        for cx in range(width + 1):
            up_l, up_r = pad[cy, cx], pad[cy, cx + 1]
            dn_l, dn_r = pad[cy + 1, cx], pad[cy + 1, cx + 1]
            corner = not (up_l == up_r == dn_l == dn_r)
            row.append("+" if corner else " ")
            if cx < width:
                row.append("--" if pad[cy, cx + 1] != pad[cy + 1, cx + 1] else "  ")
        lines.append("".join(row).rstrip())
        if cy == height:
            break
        row = []
        for cx in range(width + 1):
            row.append("|" if pad[cy + 1, cx] != pad[cy + 1, cx + 1] else " ")
            if cx < width:
                o = owner[cy, cx]
                if o == BLOCKED_OWNER:
                    row.append("##")
                elif o >= 0 and squares[o][0] == cx and squares[o][1] == cy:
                    size = squares[o][2]
                    row.append(f"{size:>2}" if size < 100 else "**")
                else:
                    row.append("  ")
        lines.append("".join(row).rstrip())
    return "\n".join(lines)
