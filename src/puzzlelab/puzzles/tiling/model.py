"""Instances and solutions of the square-tiling puzzle, and the formats users have.

A puzzle is a grid of free and blocked cells; a solution is a set of axis-aligned
integer squares covering every free cell exactly once and no blocked cell. The value is
the number of squares (fewer is better).

Formats read:
- the Cimpress Tech Challenge JSON `{"id", "width", "height", "puzzle": [[bool, ...]]}`
  (rows top to bottom, `true` = a cell to cover);
- a text grid for people at a terminal: one line per row, `.` free, `#` blocked;
- `WxH` (e.g. `15x100`): a full rectangle W cells wide and H tall.

Solutions use the contest's form `{"id", "squares": [{"X", "Y", "Size"}, ...]}`, X the
column and Y the row of the square's top-left cell.

The eight orientations (`orient`, `square_back`) are the symmetries of a rectangle; the
solvers run on turned copies (so the short side is the height, or to diversify a
heuristic, seed write-up section 2.3) and map their squares back here.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import is_whole, shown

__all__ = [
    "MAX_SIDE",
    "MAX_COORDINATE",
    "shown",
    "Grid",
    "Square",
    "parse_grid",
    "format_grid",
    "parse_squares",
    "format_solution",
    "orient",
    "square_back",
    "ORIENTATIONS",
]

MAX_SIDE = 1000  # longest side accepted; larger grids get a 413 "too large"
MAX_COORDINATE = 10**9  # |X|, |Y|, Size of a solution's square past this: refused unread
_MAX_DIGITS = 30  # a longer number is refused before it is converted

FREE, BLOCKED = ".", "#"


@dataclass(frozen=True)
class Square:
    """A square of side `size` whose top-left cell is column `x`, row `y`."""

    x: int
    y: int
    size: int

    def to_dict(self) -> dict[str, int]:
        return {"X": int(self.x), "Y": int(self.y), "Size": int(self.size)}


@dataclass(frozen=True)
class Grid:
    """A puzzle: `rows` top to bottom, each a string of `.` (free) and `#` (blocked)."""

    rows: tuple[str, ...]
    id: str = ""

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def free(self) -> np.ndarray:
        """Boolean array (height x width), True where a cell must be covered."""
        if not self.rows:
            return np.zeros((0, 0), dtype=bool)
        raw = np.frombuffer("".join(self.rows).encode("ascii"), dtype=np.uint8)
        return (raw == ord(FREE)).reshape(self.height, self.width)

    @property
    def free_cells(self) -> int:
        return sum(row.count(FREE) for row in self.rows)

    @property
    def is_rectangle(self) -> bool:
        """True when no cell is blocked."""
        return all(BLOCKED not in row for row in self.rows)

    @classmethod
    def from_array(cls, free: np.ndarray, id: str = "") -> "Grid":
        free = np.asarray(free, dtype=bool)
        rows = tuple("".join(FREE if c else BLOCKED for c in row) for row in free)
        return cls(rows, id)

    @classmethod
    def rectangle(cls, width: int, height: int, id: str = "") -> "Grid":
        return cls(tuple(FREE * width for _ in range(height)), id)

    def text(self) -> str:
        return "\n".join(self.rows)

    def digest(self) -> str:
        """Short stable hash of the cells (not the id)."""
        return hashlib.sha1("\n".join(self.rows).encode()).hexdigest()[:10]


# ----------------------------------------------------------------------------- parsing

_RECT = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*")


def _side(value: Any, field: str) -> int:
    given = value
    if not is_whole(value):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InvalidInstance(f"{field}: expected a whole number of cells, got {shown(given)}", field)
    if value < 1:
        raise InvalidInstance(f"{field}: expected at least 1, got {shown(given)}", field)
    if value > MAX_SIDE:
        if isinstance(given, int) and given >= 10**_MAX_DIGITS:
            raise InvalidInstance(f"{field}: {shown(given)} is larger than the limit of {MAX_SIDE} cells", field, status=413)
        raise InvalidInstance(f"{field}: {shown(given)} cells is larger than the limit of {MAX_SIDE}", field, status=413)
    return value


def _digits(text: str, field: str) -> int:
    """A side written in `WxH`; one of more digits than any number here is 413 unread."""
    if len(text.lstrip("0")) > _MAX_DIGITS:
        raise InvalidInstance(f"{field}: a number of {len(text.lstrip('0'))} digits is larger than the limit of {MAX_SIDE}", field, 413)
    return int(text)


def _check_size(width: int, height: int) -> None:
    _side(width, "width")
    _side(height, "height")


def _rows_from_lists(puzzle: Any) -> tuple[str, ...]:
    if not isinstance(puzzle, list):
        raise InvalidInstance(f"puzzle: expected a list of rows, got {type(puzzle).__name__}", "puzzle")
    if not puzzle:
        raise InvalidInstance("puzzle: expected at least one row, got none", "puzzle")
    if len(puzzle) > MAX_SIDE:
        raise InvalidInstance(f"puzzle: {len(puzzle)} rows is more than the limit of {MAX_SIDE}", "height", status=413)
    rows = []
    expected = None
    for r, row in enumerate(puzzle):
        if isinstance(row, str):
            rows.append(_text_row(row, r))
            cells = len(rows[-1])
        elif isinstance(row, list):
            cells = len(row)
            chars = []
            for c, cell in enumerate(row):
                if cell is True:
                    chars.append(FREE)
                elif cell is False:
                    chars.append(BLOCKED)
                else:
                    raise InvalidInstance(
                        f"puzzle: row {r + 1}, column {c + 1} is {shown(cell)}; expected true (cover) or false (blocked)", "puzzle"
                    )
            rows.append("".join(chars))
        else:
            raise InvalidInstance(f"puzzle: row {r + 1} is {type(row).__name__}; expected a list of true/false", "puzzle")
        if expected is None:
            expected = cells
            if cells == 0:
                raise InvalidInstance("puzzle: row 1 is empty; expected at least one cell", "puzzle")
            if cells > MAX_SIDE:
                raise InvalidInstance(f"puzzle: {cells} columns is more than the limit of {MAX_SIDE}", "width", status=413)
        elif cells != expected:
            raise InvalidInstance(f"puzzle: row {r + 1} has {cells} cells, expected {expected} like row 1 (ragged rows)", "puzzle")
    return tuple(rows)


def _text_row(line: str, r: int) -> str:
    bad = set(line) - {FREE, BLOCKED}
    if bad:
        ch = sorted(bad)[0]
        raise InvalidInstance(
            f"puzzle: row {r + 1}, column {line.index(ch) + 1} is {ch!r}; expected '.' (free) or '#' (blocked)", "puzzle"
        )
    return line


def _parse_text(text: str) -> Grid:
    match = _RECT.fullmatch(text)
    if match:
        width, height = _digits(match.group(1), "width"), _digits(match.group(2), "height")
        _check_size(width, height)
        return Grid.rectangle(width, height)
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    lines = [line.strip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise InvalidInstance("puzzle: expected a grid of '.' (free) and '#' (blocked) cells, got empty text", "puzzle")
    if any(not line for line in lines):
        r = next(i for i, line in enumerate(lines) if not line)
        raise InvalidInstance(f"puzzle: row {r + 1} is empty; expected '.' and '#' cells", "puzzle")
    return Grid(_rows_from_lists(lines))


def parse_grid(obj: Any) -> Grid:
    """A Grid from contest JSON (dict), a list of rows, text (`.`/`#` grid or `WxH`).

    Raises InvalidInstance naming the field: ragged rows, width/height that disagree
    with the rows, cells that are not true/false, sides over MAX_SIDE (status 413).
    """
    if isinstance(obj, Grid):
        return obj
    if isinstance(obj, str):
        return _parse_text(obj)
    if isinstance(obj, list):
        return Grid(_rows_from_lists(obj))
    if not isinstance(obj, dict):
        raise InvalidInstance(
            f"instance: expected contest JSON {{'id', 'width', 'height', 'puzzle'}}, a text grid or WxH, got {type(obj).__name__}",
            "instance",
        )
    if "puzzle" not in obj:
        raise InvalidInstance("puzzle: missing; expected a list of rows of true (cover) / false (blocked)", "puzzle")
    ident = obj.get("id", "")
    if ident is None:
        ident = ""
    if isinstance(ident, bool) or not isinstance(ident, (str, int)) or (isinstance(ident, int) and abs(ident) >= 10**_MAX_DIGITS):
        raise InvalidInstance(f"id: expected text, got {shown(ident) if isinstance(ident, int) else type(ident).__name__}", "id")
    for field in ("width", "height"):
        if field in obj and obj[field] is not None:
            _side(obj[field], field)
    rows = _rows_from_lists(obj["puzzle"])
    if obj.get("width") is not None and int(obj["width"]) != len(rows[0]):
        raise InvalidInstance(f"width: {obj['width']} but the rows have {len(rows[0])} cells", "width")
    if obj.get("height") is not None and int(obj["height"]) != len(rows):
        raise InvalidInstance(f"height: {obj['height']} but the puzzle has {len(rows)} rows", "height")
    return Grid(rows, str(ident))


def format_grid(grid: Grid) -> dict[str, Any]:
    """The contest JSON of a grid; parse_grid(format_grid(g)) == g."""
    return {
        "id": grid.id,
        "width": grid.width,
        "height": grid.height,
        "puzzle": [[c == FREE for c in row] for row in grid.rows],
    }


# ----------------------------------------------------------------------------- solutions


def format_solution(grid: Grid, squares: Iterable[Square | tuple[int, int, int]]) -> dict[str, Any]:
    """`{"id", "squares": [{"X", "Y", "Size"}]}`, squares sorted by row then column."""
    items = [s if isinstance(s, Square) else Square(*map(int, s)) for s in squares]
    items.sort(key=lambda s: (s.y, s.x))
    return {"id": grid.id, "squares": [s.to_dict() for s in items]}


def parse_squares(solution: Any) -> list[tuple[int, int, int]]:
    """(x, y, size) triples from a solution in contest form (or a bare list of squares).
    Raises ValueError with a message naming what is wrong (a number past
    MAX_COORDINATE, which no grid here reaches, among it)."""
    if isinstance(solution, dict):
        if "squares" not in solution:
            raise ValueError("solution: expected {'id', 'squares': [{'X', 'Y', 'Size'}, ...]}, no 'squares' key")
        items = solution["squares"]
    else:
        items = solution
    if not isinstance(items, list):
        raise ValueError(f"squares: expected a list, got {type(items).__name__}")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, dict):
            try:
                values = (item["X"], item["Y"], item["Size"])
            except KeyError as exc:
                raise ValueError(f"square {i + 1}: missing key {shown(exc.args[0])} (expected X, Y, Size)") from None
        elif isinstance(item, (list, tuple)) and len(item) == 3:
            values = tuple(item)
        else:
            raise ValueError(f"square {i + 1}: expected {{'X', 'Y', 'Size'}}, got {shown(item)}")
        if any(not is_whole(v) for v in values):
            raise ValueError(f"square {i + 1}: X, Y and Size must be integers, got {shown(item)}")
        if any(abs(v) > MAX_COORDINATE for v in values):
            got = ", ".join(f"{k}={shown(v)}" for k, v in zip(("X", "Y", "Size"), values))
            raise ValueError(f"square {i + 1}: X, Y and Size must lie within the grid, got {got}")
        out.append((int(values[0]), int(values[1]), int(values[2])))
    return out


# ----------------------------------------------------------------------------- orientations

# (transpose, flip_x, flip_y): the array is transposed first, then flipped.
ORIENTATIONS: tuple[tuple[bool, bool, bool], ...] = tuple(
    (t, fx, fy) for t in (False, True) for fx in (False, True) for fy in (False, True)
)


def orient(array: np.ndarray, k: int) -> np.ndarray:
    """The array (rows x columns) in orientation k of ORIENTATIONS (0 = as it is)."""
    transpose, flip_x, flip_y = ORIENTATIONS[k]
    out = array.T if transpose else array
    if flip_x:
        out = out[:, ::-1]
    if flip_y:
        out = out[::-1, :]
    return np.ascontiguousarray(out)


def square_back(x: int, y: int, size: int, k: int, width: int, height: int) -> tuple[int, int, int]:
    """A square found on orient(grid, k) as a square of the original grid
    (`width` x `height` are the original's sides)."""
    transpose, flip_x, flip_y = ORIENTATIONS[k]
    # sides of the oriented array
    w, h = (height, width) if transpose else (width, height)
    if flip_x:
        x = w - x - size
    if flip_y:
        y = h - y - size
    if transpose:
        x, y = y, x
    return x, y, size
