"""Pictures of a hexagon grid: SVG (pointy-top cells, one colour per value, the value
written in each cell, penalty edges drawn in red) and text (the rows indented as a
hexagon, as the write-up draws them)."""

from __future__ import annotations

import math

from puzzlelab.core.result import Result
from puzzlelab.core.svg import Svg
from puzzlelab.puzzles.hexagon.model import HexInstance, hexagon
from puzzlelab.puzzles.hexagon.scoring import penalty_edges
from puzzlelab.puzzles.hexagon.verify import read_solution

# A colour per value 1..7 (light enough for black digits); anything else grey.
VALUE_COLOURS = {1: "#4477aa", 2: "#66ccee", 3: "#228833", 4: "#ccbb44", 5: "#ee8866", 6: "#dd77aa", 7: "#ffffff"}
PENALTY = "#d62728"


def _values(instance: HexInstance, result: Result | None):
    if result is not None and result.solution is not None:
        try:
            return read_solution(instance.n, result.solution)
        except Exception:  # noqa: BLE001 - draw the empty hexagon rather than fail
            return None
    return instance.start


def render_svg(instance: HexInstance, result: Result | None) -> str:
    geometry = hexagon(instance.n)
    values = _values(instance, result)
    radius = 18.0  # centre to corner of a cell
    width = math.sqrt(3) * radius  # cell width
    xs = [geometry.xy(c)[0] * width for c in range(geometry.cells)]
    ys = [geometry.xy(c)[1] * width for c in range(geometry.cells)]
    margin = radius * 1.5
    min_x, min_y = min(xs) - margin, min(ys) - margin
    w, h = max(xs) - min_x + margin, max(ys) - min_y + margin + 24
    title = f"hexagon n={instance.n}"
    if result is not None and result.value is not None:
        title += f": raw score {result.value}"
    svg = Svg(w, h, title=title)

    def corner(c: int, k: int) -> tuple[float, float]:
        angle = math.radians(60 * k - 30)
        return xs[c] - min_x + radius * math.cos(angle), ys[c] - min_y + radius * math.sin(angle)

    for c in range(geometry.cells):
        value = None if values is None else int(values[c])
        fill = VALUE_COLOURS.get(value, "#eeeeee") if value is not None else "#f4f4f4"
        svg.polygon([corner(c, k) for k in range(6)], fill=fill, stroke="#555555", stroke_width=1)
        if value is not None:
            svg.text(xs[c] - min_x, ys[c] - min_y, value, size=radius * 0.8, fill="#000000")
    count = 0
    if values is not None and all(v >= 1 for v in values):
        for e in penalty_edges(geometry, values):
            u, v = int(geometry.edges[e, 0]), int(geometry.edges[e, 1])
            # The shared side: perpendicular to the centre line, through its midpoint.
            mx, my = (xs[u] + xs[v]) / 2 - min_x, (ys[u] + ys[v]) / 2 - min_y
            dx, dy = xs[v] - xs[u], ys[v] - ys[u]
            length = math.hypot(dx, dy)
            half = radius / 2
            px, py = -dy / length * half, dx / length * half
            svg.line(mx - px, my - py, mx + px, my + py, stroke=PENALTY, stroke_width=4, stroke_linecap="round")
            count += 1
    caption = f"n={instance.n}"
    if values is not None:
        caption += f"  sum {sum(values)}  raw {sum(values) - geometry.cells}  penalty edges {count} (red)"
    svg.text(w / 2, h - 12, caption, size=12)
    return svg.to_string()


def render_text(instance: HexInstance, result: Result | None) -> str | None:
    values = _values(instance, result)
    if values is None:
        return None
    geometry = hexagon(instance.n)
    rows = geometry.rows_of(values)
    lines = []
    for r, row in enumerate(rows):
        indent = abs(r - (instance.n - 1))
        lines.append(" " * indent + " ".join(str(v) for v in row))
    return "\n".join(lines)
