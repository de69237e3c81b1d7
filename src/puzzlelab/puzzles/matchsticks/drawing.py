"""Reading the field's ASCII drawing back into squares (the inverse of
`render.draw_ascii`), so a published drawing can be checked, counted and redrawn.

A drawing shows matches, not squares: each square is found from its size label and the
corner the label rule puts it at (top-left, bottom-right, bottom-left, top-right: the
first corner not labelled by a larger square). A square whose four corners were all
labelled carries no label; it is looked for wherever all its sides are drawn and all its
corners are labelled. Segments hidden under a label (the grid point itself, and the
segment character a second digit covers) are unknown until a square explains them.
Every drawn match must belong to some square, or the drawing is refused. A drawing is
at most MAX_DRAWING grid units each way and its labels are sizes 1..63, so a hostile
text is refused before it costs time or memory.
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.puzzles.matchsticks.model import MAX_N, Solution, Square, parse_solution

__all__ = ["looks_like_drawing", "parse_drawing", "parse_any_solution", "MAX_DRAWING"]

MAX_DRAWING = 256  # grid units across and down (a drawing of n = 63 with roam 31 is 125)
_DIGITS = "0123456789"

# Box-drawing character -> (up, down, left, right) arms; mirrors render.BOX.
_ARMS = {
    " ": (0, 0, 0, 0),
    "│": (1, 1, 0, 0),
    "─": (0, 0, 1, 1),
    "┌": (0, 1, 0, 1),
    "┐": (0, 1, 1, 0),
    "└": (1, 0, 0, 1),
    "┘": (1, 0, 1, 0),
    "├": (1, 1, 0, 1),
    "┤": (1, 1, 1, 0),
    "┬": (0, 1, 1, 1),
    "┴": (1, 0, 1, 1),
    "┼": (1, 1, 1, 1),
    "╵": (1, 0, 0, 0),
    "╷": (0, 1, 0, 0),
    "╴": (0, 0, 1, 0),
    "╶": (0, 0, 0, 1),
}
_BOX_CHARS = set(_ARMS) - {" "}


def looks_like_drawing(text: str) -> bool:
    return any(ch in _BOX_CHARS for ch in text)


def _drawing_lines(text: str) -> list[str]:
    lines = []
    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("n=") or "matchsticks" in stripped or "diagonal" in stripped:
            continue  # the header and the lines under a published drawing
        lines.append(line)
    return lines


def _sides(s: int, x: int, y: int):
    for i in range(s):
        yield ("h", x + i, y)
        yield ("h", x + i, y + s)
        yield ("v", x, y + i)
        yield ("v", x + s, y + i)


Segment = tuple[str, int, int]  # ("h" | "v", x, y): the match right of / below (x, y)


def parse_drawing(text: str) -> Solution:
    """Squares of an ASCII drawing; InvalidInstance saying what does not fit."""
    lines = _drawing_lines(text)
    if len(lines) < 2:
        raise InvalidInstance("drawing: expected at least two lines of box-drawing characters", field="squares")
    height = len(lines) - 1
    width = (max(len(line) for line in lines) - 1) // 2
    if height > MAX_DRAWING or width > MAX_DRAWING:
        raise InvalidInstance(
            f"drawing: {width} x {height} grid units; expected at most {MAX_DRAWING} each way", field="squares"
        )
    known, hidden, labels = _read_marks(lines, width)
    if not labels:
        raise InvalidInstance("drawing: no size labels found", field="squares")
    allowed = known | hidden

    def fits(s: int, x: int, y: int) -> bool:
        return 0 <= x and 0 <= y and x + s <= width and y + s <= height and all(seg in allowed for seg in _sides(s, x, y))

    squares = _find_squares(labels, fits, width, height)
    covered = {seg for s in squares.values() for seg in _sides(s.size, s.x, s.y)}
    stray = sorted(known - covered)
    if stray:
        kind, x, y = stray[0]
        raise InvalidInstance(f"drawing: the match {'right' if kind == 'h' else 'down'} from ({x}, {y}) belongs to no square", field="squares")
    return _from_largest(squares, max(labels.values()))


def _read_marks(lines: list[str], width: int) -> tuple[set[Segment], set[Segment], dict[tuple[int, int], int]]:
    """The matches drawn (`known`), the segments hidden under labels (`hidden`) and the
    size labels by grid point."""
    known: set[Segment] = set()
    hidden: set[Segment] = set()
    labels: dict[tuple[int, int], int] = {}
    arms: dict[tuple[int, int], tuple[int, int, int, int] | None] = {}  # None: under a label
    for y, line in enumerate(lines):
        line = line.ljust(2 * width + 1)
        i = 0
        while i < len(line):
            ch = line[i]
            if ch in _DIGITS:
                i = _read_label(line, i, y, labels, arms, hidden)
                continue
            if i % 2 == 0:
                if ch not in _ARMS:
                    raise InvalidInstance(f"drawing line {y + 1}: unexpected character {ch!r} at column {i + 1}", field="squares")
                arms[(i // 2, y)] = _ARMS[ch]
            elif ch == "─":
                known.add(("h", i // 2, y))
            elif ch not in ". ":
                raise InvalidInstance(f"drawing line {y + 1}: unexpected character {ch!r} at column {i + 1}", field="squares")
            i += 1
    _read_verticals(arms, len(lines) - 1, width, known, hidden)
    _check_arms(arms, len(lines) - 1, known, hidden)
    return known, hidden, labels


def _read_label(line: str, i: int, y: int, labels: dict, arms: dict, hidden: set[Segment]) -> int:
    """Record the size label starting at column i of line y; returns the column after it."""
    j = i
    while j < len(line) and line[j] in _DIGITS:
        j += 1
    if i % 2:
        raise InvalidInstance(f"drawing line {y + 1}: label {line[i:j][:8]} does not start at a grid point (column {i + 1})", field="squares")
    size = int(line[i:j]) if j - i <= 3 else MAX_N + 1
    if not 1 <= size <= MAX_N:
        raise InvalidInstance(f"drawing line {y + 1}: label {line[i:j][:8]} at column {i + 1} is not a size 1..{MAX_N}", field="squares")
    labels[(i // 2, y)] = size
    arms[(i // 2, y)] = None
    for k in range(i + 1, j):
        if k % 2:
            hidden.add(("h", k // 2, y))
        else:
            arms[(k // 2, y)] = None
    return j


def _read_verticals(arms: dict, height: int, width: int, known: set[Segment], hidden: set[Segment]) -> None:
    """The vertical matches, from the arms of the grid points at both their ends (a
    match drawn at one end only is refused; one with both ends under labels is hidden)."""
    for y in range(height):
        for x in range(width + 1):
            down = arms.get((x, y), (0, 0, 0, 0))
            up = arms.get((x, y + 1), (0, 0, 0, 0))
            a = None if down is None else down[1]
            b = None if up is None else up[0]
            if a is not None and b is not None and a != b:
                raise InvalidInstance(f"drawing: the match below grid point ({x}, {y}) is drawn at one end only", field="squares")
            value = a if a is not None else b
            if value is None:
                hidden.add(("v", x, y))
            elif value:
                known.add(("v", x, y))


def _check_arms(arms: dict, height: int, known: set[Segment], hidden: set[Segment]) -> None:
    """Every drawn grid point agrees with the matches around it: its left and right
    arms with the row's matches, no arm up from the top row or down from the bottom
    one (so that a drawing is read only when it is a drawing of matches: a corner piece
    between two horizontal matches is refused, not overlooked)."""
    for (x, y), arm in arms.items():
        if arm is None:
            continue
        up, down, left, right = arm
        sides = ((("h", x - 1, y), left), (("h", x, y), right))
        if any(seg not in hidden and bool(drawn) != (seg in known) for seg, drawn in sides) or (y == 0 and up) or (y == height and down):
            raise InvalidInstance(f"drawing: the piece at grid point ({x}, {y}) does not meet the matches around it", field="squares")


def _find_squares(labels: dict[tuple[int, int], int], fits, width: int, height: int) -> dict[int, Square]:
    """One square per size, largest first: at its label's corner (the first corner, in
    the labelling order, that the larger squares did not label), or for an unlabelled
    size wherever its sides are drawn and all four corners are labelled."""
    squares: dict[int, Square] = {}
    by_size = sorted(labels.items(), key=lambda kv: -kv[1])
    done: set[tuple[int, int]] = set()  # corners labelled so far (larger sizes first)
    for size in range(max(labels.values()), 0, -1):
        here = [g for g, s in by_size if s == size]
        if len(here) > 1:
            raise InvalidInstance(f"drawing: size {size} is written at {len(here)} corners; expected one", field="squares")
        if here:
            gx, gy = here[0]
            corners = ((gx, gy), (gx - size, gy - size), (gx, gy - size), (gx - size, gy))  # g as TL, BR, BL, TR
            found = None
            for rank, (x, y) in enumerate(corners):
                order = ((x, y), (x + size, y + size), (x, y + size), (x + size, y))
                if fits(size, x, y) and all(c in done for c in order[:rank]):
                    found = Square(size, x, y)
                    break
            if found is None:
                raise InvalidInstance(f"drawing: no square of size {size} has its sides drawn at the label ({gx}, {gy})", field="squares")
            done.add((gx, gy))
        else:
            found = _unlabelled(size, fits, done, width, height)
            if found is None:
                raise InvalidInstance(f"drawing: size {size} has no label and no fully drawn position", field="squares")
        squares[size] = found
    return squares


def _unlabelled(size: int, fits, done: set[tuple[int, int]], width: int, height: int) -> Square | None:
    """The first position (row by row) where a square of `size` is drawn with all four
    corners labelled by larger squares (its top-left corner is then one of the
    labelled points, so only those are tried)."""
    for x, y in sorted(done, key=lambda g: (g[1], g[0])):
        if x + size > width or y + size > height:
            continue
        order = ((x, y), (x + size, y + size), (x, y + size), (x + size, y))
        if all(c in done for c in order) and fits(size, x, y):
            return Square(size, x, y)
    return None


def _from_largest(squares: dict[int, Square], n: int) -> Solution:
    """The squares relative to the largest one's top-left corner, and the roam they need."""
    big = squares[n]
    roam = max(
        [0]
        + [big.x - s.x for s in squares.values()]
        + [big.y - s.y for s in squares.values()]
        + [s.x + s.size - big.x - n for s in squares.values()]
        + [s.y + s.size - big.y - n for s in squares.values()]
    )
    ordered = tuple(Square(s.size, s.x - big.x, s.y - big.y) for s in sorted(squares.values(), key=lambda q: -q.size))
    return Solution(ordered, roam)


def parse_any_solution(obj: Any) -> Solution:
    """A Solution from any form a user may give: the field's ASCII drawing (read here),
    or JSON / `(size, x, y)` text (`model.parse_solution`). The checker, the pictures
    and the CLI's `verify` go through this."""
    if isinstance(obj, str) and looks_like_drawing(obj.strip()):
        return parse_drawing(obj)
    return parse_solution(obj)
