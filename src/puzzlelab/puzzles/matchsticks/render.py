"""Pictures of a matchstick solution: the field's ASCII drawing, an SVG, and the
diagonal classification printed under the published drawings.

The ASCII drawing follows the published ones (B. Chaffin, "Matchstick Squares", 2019;
`data/drawings.txt`) character for character: one text line per grid row; on it one
character per grid point (a box-drawing character joining the matches that meet there,
a space where none do) alternating with one per unit segment of the row (`─` for a
match, `.` for none, which reads as the centre of an empty cell). Every square's size is
written at one of its corners, trying the top-left, bottom-right, bottom-left and
top-right corners in that order and taking the first not yet labelled, squares taken
largest first; a square whose four corners are all labelled goes unlabelled. A label of
two digits covers the segment character after its grid point.
"""

from __future__ import annotations

from typing import Any, Iterable

from puzzlelab.core.svg import Svg, colour
from puzzlelab.puzzles.matchsticks.drawing import parse_any_solution
from puzzlelab.puzzles.matchsticks.model import Solution, Square

__all__ = ["draw_ascii", "classify", "describe_diagonal", "render_svg", "render_text", "grid_segments", "BOX"]

# (up, down, left, right) -> the box-drawing character for a grid point.
BOX = {
    (0, 0, 0, 0): " ",
    (1, 1, 0, 0): "│",
    (0, 0, 1, 1): "─",
    (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴",
    (1, 1, 1, 1): "┼",
    (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷",
    (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


def _squares(solution: Any) -> tuple[Square, ...]:
    if isinstance(solution, Solution):
        return solution.squares
    if isinstance(solution, (list, tuple)) and all(isinstance(s, Square) for s in solution):
        return tuple(solution)
    return parse_any_solution(solution).squares


def grid_segments(squares: Iterable[Square]) -> tuple[set[tuple[int, int]], set[tuple[int, int]], int, int, int, int]:
    """Horizontal segments {(x, y): (x,y)-(x+1,y)} and vertical ones {(x, y): (x,y)-(x,y+1)}
    shifted so the bounding box starts at (0, 0); also the box's width and height and the
    shift (ox, oy) that was subtracted."""
    squares = list(squares)
    ox = min((s.x for s in squares), default=0)
    oy = min((s.y for s in squares), default=0)
    width = max((s.x + s.size for s in squares), default=0) - ox
    height = max((s.y + s.size for s in squares), default=0) - oy
    hseg: set[tuple[int, int]] = set()
    vseg: set[tuple[int, int]] = set()
    for s in squares:
        x, y = s.x - ox, s.y - oy
        for i in range(s.size):
            hseg.add((x + i, y))
            hseg.add((x + i, y + s.size))
            vseg.add((x, y + i))
            vseg.add((x + s.size, y + i))
    return hseg, vseg, width, height, ox, oy


def label_corners(squares: Iterable[Square], ox: int = 0, oy: int = 0) -> dict[tuple[int, int], int]:
    """Grid point -> size written there (the field's corner rule, see the module doc)."""
    taken: dict[tuple[int, int], int] = {}
    for s in sorted(squares, key=lambda q: -q.size):
        x, y, k = s.x - ox, s.y - oy, s.size
        for corner in ((x, y), (x + k, y + k), (x, y + k), (x + k, y)):
            if corner not in taken:
                taken[corner] = k
                break
    return taken


def draw_ascii(solution: Any) -> str:
    """The field's ASCII drawing of a solution (no trailing newline)."""
    squares = _squares(solution)
    if not squares:
        return ""
    hseg, vseg, width, height, ox, oy = grid_segments(squares)
    labels = label_corners(squares, ox, oy)
    lines = []
    for y in range(height + 1):
        chars = []
        for x in range(width + 1):
            arms = ((x, y - 1) in vseg, (x, y) in vseg, (x - 1, y) in hseg, (x, y) in hseg)
            chars.append(BOX[tuple(int(a) for a in arms)])
            if x < width:
                chars.append("─" if (x, y) in hseg else ".")
        for (x, ly), size in labels.items():
            if ly != y:
                continue
            text = str(size)
            for i, ch in enumerate(text):
                j = 2 * x + i
                if j < len(chars):
                    chars[j] = ch
                else:
                    chars.append(ch)
        lines.append("".join(chars).rstrip())
    return "\n".join(lines)


def classify(solution: Any) -> tuple[int, int | None]:
    """(number of squares with the top-left corner on the main diagonal of the largest
    square, size of the largest square off it or None). The solution is first turned
    (by a symmetry of the largest square) so that the second largest square sits on
    that diagonal where it can, as in the search's normal form."""
    squares = list(_squares(solution))
    if not squares:
        return 0, None
    n = max(s.size for s in squares)
    big = next(s for s in squares if s.size == n)
    rel = [Square(s.size, s.x - big.x, s.y - big.y) for s in squares]
    second = next((s for s in rel if s.size == n - 1), None)
    if second is not None and second.x != second.y:
        # Mirror left-right: the anti-diagonal becomes the main diagonal.
        rel = [Square(s.size, n - s.x - s.size, s.y) for s in rel]
    on = [s for s in rel if s.x == s.y]
    off = [s.size for s in rel if s.x != s.y]
    return len(on), (max(off) if off else None)


def describe_diagonal(solution: Any) -> str:
    """The line printed under the published drawings, e.g. '12 squares on main
    diagonal; first one off diagonal is 4'."""
    on, first_off = classify(solution)
    if first_off is None:
        return f"{on} squares on main diagonal; none off diagonal"
    return f"{on} squares on main diagonal; first one off diagonal is {first_off}"


def render_text(n: int, solution: Any, matches: int | None = None, solutions: int | None = None) -> str:
    """Header, drawing and the two lines under it, in the published layout."""
    squares = _squares(solution)
    total = matches if matches is not None else _count(squares)
    tail = f"{total} matchsticks" + ("" if solutions is None else f", {solutions} solution{'s' if solutions != 1 else ''}")
    return "\n".join([f"n={n}: best score {total}", draw_ascii(squares), tail, describe_diagonal(squares)])


def _count(squares: Iterable[Square]) -> int:
    hseg, vseg, *_ = grid_segments(squares)
    return len(hseg) + len(vseg)


def render_svg(n: int, solution: Any | None, caption: str = "") -> str:
    """An SVG of the matches (dark bars), each square's outline in its own colour just
    inside its sides, and the size labels at the corners the ASCII drawing uses."""
    cell = 28.0 if n <= 24 else max(12.0, 640.0 / max(n, 1))
    margin = 24.0
    if solution is None:
        return _task_svg(n, cell, margin)
    squares = _squares(solution)
    hseg, vseg, width, height, ox, oy = grid_segments(squares)
    total = len(hseg) + len(vseg)
    w = width * cell + 2 * margin
    h = height * cell + 2 * margin + 24
    svg = Svg(w, h, title=f"matchsticks n={n}: {total} matches")
    for gy in range(height + 1):
        for gx in range(width + 1):
            svg.circle(margin + gx * cell, margin + gy * cell, 1.2, fill="#bbbbbb")
    inset = min(4.0, cell / 6)
    for i, s in enumerate(sorted(squares, key=lambda q: -q.size)):
        x0 = margin + (s.x - ox) * cell
        y0 = margin + (s.y - oy) * cell
        k = s.size * cell
        svg.rect(x0 + inset, y0 + inset, k - 2 * inset, k - 2 * inset, fill="none", stroke=colour(i), stroke_width=1.2, opacity=0.8)
    for x, y in sorted(hseg):
        svg.line(margin + x * cell + 2, margin + y * cell, margin + (x + 1) * cell - 2, margin + y * cell, stroke="#8a5a2b", stroke_width=3, stroke_linecap="round")
    for x, y in sorted(vseg):
        svg.line(margin + x * cell, margin + y * cell + 2, margin + x * cell, margin + (y + 1) * cell - 2, stroke="#8a5a2b", stroke_width=3, stroke_linecap="round")
    for (x, y), size in label_corners(squares, ox, oy).items():
        svg.text(margin + x * cell, margin + y * cell, str(size), size=max(8.0, cell * 0.42), fill="#000", font_weight="bold", stroke="#fff", stroke_width=0.6, paint_order="stroke")
    line = caption or f"n={n}: {total} matches; {describe_diagonal(squares)}"
    svg.text(w / 2, h - 14, line, size=12)
    return svg.to_string()


def _task_svg(n: int, cell: float, margin: float) -> str:
    """The task before any answer (the web page's preview): the n squares to form,
    each outlined in its colour from a shared corner, on the grid of the largest."""
    side = n * cell + 2 * margin
    svg = Svg(side, side + 24, title=f"matchsticks n={n}: squares 1x1 .. {n}x{n} to form")
    for gy in range(n + 1):
        for gx in range(n + 1):
            svg.circle(margin + gx * cell, margin + gy * cell, 1.2, fill="#bbbbbb")
    for size in range(n, 0, -1):
        svg.rect(margin, margin, size * cell, size * cell, fill="none", stroke=colour(size - 1), stroke_width=1.5)
        svg.text(margin + size * cell - 4, margin + size * cell - 4, str(size), size=max(8.0, cell * 0.4), anchor="end", fill=colour(size - 1))
    svg.text(side / 2, side + 8, f"squares 1x1 .. {n}x{n}, all at once, from the fewest matches", size=12)
    return svg.to_string()
