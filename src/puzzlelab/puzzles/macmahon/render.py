"""Pictures: the piece set and solutions as SVG, each piece drawn as coloured triangles
meeting at its centre (four for a square, three for a triangle), as the write-up's page
draws them; solutions of rectangles also as text."""

from __future__ import annotations

import numpy as np

from puzzlelab.core.result import Result
from puzzlelab.core.svg import Svg, colour
from puzzlelab.puzzles.macmahon.model import Instance
from puzzlelab.puzzles.macmahon.tiles import COLOUR_HEX, rotate

__all__ = ["render_svg", "render_text", "render_tile_set"]

_UNIT = 40.0


def _fill(inst: Instance, c: int) -> str:
    return COLOUR_HEX.get(inst.colours[c], colour(c))


def _draw_piece(svg: Svg, inst: Instance, poly: np.ndarray, edges: tuple[int, ...]) -> None:
    centre = poly.mean(axis=0)
    k = len(poly)
    for s in range(k):
        a, b = poly[s], poly[(s + 1) % k]
        svg.polygon([tuple(a), tuple(b), tuple(centre)], fill=_fill(inst, edges[s]), stroke="#555555", stroke_width=0.6)
    svg.polygon([tuple(p) for p in poly], fill="none", stroke="#000000", stroke_width=1.4)


def _grid_edges(inst: Instance, grid: list) -> list[tuple[int, ...]]:
    names = inst.tile_names()
    out = []
    for row in grid:
        for piece, rot in row:
            p = names.index(piece.upper()) if isinstance(piece, str) else int(piece)
            out.append(rotate(inst.tiles[p], int(rot)))
    return out


def _draw_solution(svg: Svg, inst: Instance, grid: list, dx: float, dy: float, unit: float) -> None:
    geometry = inst.board
    polys = geometry.polygons
    low = polys.reshape(-1, 2).min(axis=0)
    edges = _grid_edges(inst, grid)
    for c in range(geometry.cells):
        _draw_piece(svg, inst, (polys[c] - low) * unit + (dx, dy), edges[c])


def _board_size(inst: Instance, unit: float) -> tuple[float, float]:
    pts = inst.board.polygons.reshape(-1, 2)
    span = pts.max(axis=0) - pts.min(axis=0)
    return float(span[0] * unit), float(span[1] * unit)


def render_tile_set(inst: Instance) -> str:
    """Every piece of the instance's colour set in canonical orientation, with its
    index, name and multiplicity in the instance."""
    k = inst.sides
    names = inst.tile_names()
    per_row = 8
    cell = _UNIT * 1.6
    rows = (len(inst.tiles) + per_row - 1) // per_row
    svg = Svg(per_row * cell + 10, rows * (cell + 18) + 34, title=f"{len(inst.tiles)} pieces")
    svg.text(8, 14, f"{len(inst.tiles)} pieces, {len(inst.colours)} colours ({', '.join(inst.colours)})", size=13, anchor="start")
    if k == 4:
        shape = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=float)
    else:
        h = np.sqrt(3) / 2
        shape = np.array([(1, h), (0, h), (0.5, 0)], dtype=float)
    for i, t in enumerate(inst.tiles):
        x0 = 10 + (i % per_row) * cell
        y0 = 30 + (i // per_row) * (cell + 18)
        _draw_piece(svg, inst, shape * _UNIT + (x0, y0), t)
        label = f"{i}: {names[i]}" + (f" x{inst.counts[i]}" if inst.counts[i] != 1 else "")
        svg.text(x0 + _UNIT / 2, y0 + _UNIT + 10, label, size=10)
    return svg.to_string()


def _solutions_of(result: Result | None) -> tuple[list, str]:
    if result is None or result.solution is None:
        return [], ""
    sol = result.solution
    if isinstance(sol, list):
        return [sol], "a solution"
    if isinstance(sol, dict) and "solutions" in sol:
        return list(sol["solutions"])[:12], f"{len(sol['solutions'])} solutions"
    if isinstance(sol, dict) and sol.get("kind") == "count":
        groups = sol.get("groups") or {}
        classes = ", ".join(f"{g['classes']:,} up to {name}" for name, g in groups.items())
        caption = f"{sol['total']:,} solutions" + (f" ({classes})" if classes else "")
        shown = list(sol.get("examples") or [])[:1] + list(sol.get("symmetric") or [])[:11]
        return shown, caption + (": an example, then symmetric classes" if sol.get("symmetric") else "")
    if isinstance(sol, dict) and "grid" in sol:
        return [sol["grid"]], "a solution"
    return [], ""


def render_svg(inst: Instance, result: Result | None) -> str:
    grids, caption = _solutions_of(result)
    if not grids:
        return render_tile_set(inst)
    unit = _UNIT if inst.sides == 4 else _UNIT * 1.2
    w, h = _board_size(inst, unit)
    per_row = max(1, min(len(grids), int(900 // (w + 20)) or 1))
    rows = (len(grids) + per_row - 1) // per_row
    svg = Svg(per_row * (w + 20) + 10, rows * (h + 20) + 34, title=f"macmahon {inst.board_name}: {caption}")
    svg.text(8, 14, f"{inst.board_name}: {caption}", size=13, anchor="start")
    for i, grid in enumerate(grids):
        _draw_solution(svg, inst, grid, 10 + (i % per_row) * (w + 20), 30 + (i // per_row) * (h + 20), unit)
    return svg.to_string()


def _text_grid(inst: Instance, grid: list) -> str:
    letters = inst.letters
    if inst.sides != 4:
        names = inst.tile_names()
        return "\n".join(" ".join(f"{names[p] if isinstance(p, int) else p}@{r}" for p, r in row) for row in grid)
    edges = _grid_edges(inst, grid)
    cols = len(grid[0])
    line = "+" + "-----+" * cols
    out = [line]
    for i in range(len(grid)):
        cells = edges[i * cols : (i + 1) * cols]
        out.append("|" + "|".join(f"  {letters[e[0]]}  " for e in cells) + "|")
        out.append("|" + "|".join(f"{letters[e[3]]}   {letters[e[1]]}" for e in cells) + "|")
        out.append("|" + "|".join(f"  {letters[e[2]]}  " for e in cells) + "|")
        out.append(line)
    return "\n".join(out)


def render_text(inst: Instance, result: Result | None) -> str | None:
    grids, caption = _solutions_of(result)
    if not grids:
        return None
    sol = result.solution
    head = []
    if isinstance(sol, dict) and sol.get("kind") == "count":
        head.append(caption.split(":")[0])
        for name, g in (sol.get("groups") or {}).items():
            sizes = ", ".join(f"{v:,} of size {s}" for s, v in g["orbit_sizes"].items())
            head.append(f"  up to {name} (order {len(g['members'])}): {g['classes']:,} classes [{sizes}]")
        head.append("an example:")
    return "\n".join(head + [_text_grid(inst, grids[0])])
