"""The hexagon of order n: cells, neighbours, rings, edges in the canonical order, and
the contest's submission text in and out.

Geometry. Cells are numbered row by row, top to bottom, left to right, as the contest's
submission text lists them: row r (0 .. 2n-2) holds n + min(r, 2n-2-r) cells. Each cell
also has axial coordinates (q, s) centred on the middle cell; the hexagon is the set
|q|, |s|, |q+s| <= n-1 and two cells are neighbours when their axial difference is one
of the six unit steps. The ring of a cell is n minus its hex distance from the centre,
so ring 1 is the perimeter and ring n the centre. An edge between rings a and b lies at
*distance* a + b (2 .. 2n-1), the quantity the `--ring`, `--inner` and `--allow-at`
restrictions of the competitor's SAT program speak about (seed write-up, "Bounds on
Penalties in Rings").

Canonical edge order: by distance, then by the smaller cell number, then the larger.
Where a cell is supported twice by the same value, the earlier edges of the group are
the penalty edges (the write-up orders the edges so that a penalty always lands at the
lower distance); `scoring.py`, `verify.py` and the SAT encoding all use this order.

Submission text: 2n-1 rows `(a,b,...)` separated by commas, several grids separated
by semicolons; spaces and line breaks may stand anywhere outside a number.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from puzzlelab.core.inputs import shown
from puzzlelab.core.puzzle import InvalidInstance

__all__ = [
    "MAX_ORDER",
    "MAX_VALUE",
    "MAX_GRIDS",
    "Hexagon",
    "hexagon",
    "HexInstance",
    "cell_count",
    "edge_count",
    "parse_grids",
    "grid_values",
    "format_grid",
    "format_grids",
    "order_from_rows",
]

MAX_ORDER = 200  # 119,401 cells: far beyond anything searched; larger inputs get 413
MAX_VALUE = 7  # a cell holding k needs k-1 different neighbours and has at most 6
MAX_ROWS = 2 * MAX_ORDER - 1  # rows (and cells in a row) of the largest hexagon
MAX_GRIDS = 1000  # grids in one submission text (the contest asked for a few dozen)
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # counter-clockwise from +x


def cell_count(n: int) -> int:
    """Cells of the hexagon of order n: 3n(n-1) + 1."""
    return 3 * n * (n - 1) + 1


def edge_count(n: int) -> int:
    """Edges between neighbouring cells: 3(n-1)(3n-2)."""
    return 3 * (n - 1) * (3 * n - 2)


class Hexagon:
    """Precomputed geometry of the hexagon of order n (use `hexagon(n)`, cached).

    Arrays (numpy, so kernels can take them as they are):
      q, s            axial coordinates per cell
      row, col        position in the submission text
      ring            1 = perimeter .. n = centre
      neighbours      (cells, 6) int32, -1 padding, in DIRECTIONS order
      degree          number of neighbours (3 corner, 4 side, 6 inside; n = 1: 0)
      edges           (E, 2) int32, cell pairs (u < v) in canonical order
      edge_distance   ring[u] + ring[v] per edge
      incident        (cells, 6) int32 edge ids matching `neighbours`, -1 padding
    """

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("order must be at least 1")
        self.n = n
        m = n - 1
        qs, ss, rows, cols = [], [], [], []
        self.row_starts: list[int] = []
        self.row_lengths: list[int] = []
        for r in range(2 * n - 1):
            s = r - m
            lo, hi = max(-m, -m - s), min(m, m - s)
            self.row_starts.append(len(qs))
            self.row_lengths.append(hi - lo + 1)
            for c, q in enumerate(range(lo, hi + 1)):
                qs.append(q)
                ss.append(s)
                rows.append(r)
                cols.append(c)
        self.cells = len(qs)
        assert self.cells == cell_count(n)
        self.q = np.array(qs, dtype=np.int32)
        self.s = np.array(ss, dtype=np.int32)
        self.row = np.array(rows, dtype=np.int32)
        self.col = np.array(cols, dtype=np.int32)
        self.index = {(q, s): i for i, (q, s) in enumerate(zip(qs, ss))}
        dist = np.maximum(np.maximum(np.abs(self.q), np.abs(self.s)), np.abs(self.q + self.s))
        self.ring = (n - dist).astype(np.int32)
        self.centre = self.index[(0, 0)]
        self.neighbours = np.full((self.cells, 6), -1, dtype=np.int32)
        for i, (q, s) in enumerate(zip(qs, ss)):
            k = 0
            for dq, ds in DIRECTIONS:
                j = self.index.get((q + dq, s + ds))
                if j is not None:
                    self.neighbours[i, k] = j
                    k += 1
        self.degree = (self.neighbours >= 0).sum(axis=1).astype(np.int32)
        pairs = sorted(
            {(min(i, int(j)), max(i, int(j))) for i in range(self.cells) for j in self.neighbours[i] if j >= 0},
            key=lambda e: (int(self.ring[e[0]] + self.ring[e[1]]), e[0], e[1]),
        )
        self.edges = np.array(pairs, dtype=np.int32).reshape(-1, 2)
        assert len(self.edges) == edge_count(n)
        self.edge_distance = (self.ring[self.edges[:, 0]] + self.ring[self.edges[:, 1]]).astype(np.int32)
        self.edge_id = {(int(u), int(v)): e for e, (u, v) in enumerate(self.edges)}
        self.incident = np.full((self.cells, 6), -1, dtype=np.int32)
        for i in range(self.cells):
            for k in range(6):
                j = self.neighbours[i, k]
                if j >= 0:
                    self.incident[i, k] = self.edge_id[(min(i, int(j)), max(i, int(j)))]

    # ---------------------------------------------------------------- helpers
    def neighbours_of(self, cell: int) -> list[int]:
        return [int(j) for j in self.neighbours[cell] if j >= 0]

    def edge(self, u: int, v: int) -> int:
        """Edge id of the neighbouring cells u, v."""
        return self.edge_id[(min(u, v), max(u, v))]

    def cell_at(self, q: int, s: int) -> int | None:
        return self.index.get((q, s))

    def position(self, cell: int) -> tuple[int, int]:
        """(row, cell-in-row), both counted from 1, as error messages name them."""
        return int(self.row[cell]) + 1, int(self.col[cell]) + 1

    def rows_of(self, values) -> list[list[int]]:
        return [[int(values[i]) for i in range(a, a + k)] for a, k in zip(self.row_starts, self.row_lengths)]

    def xy(self, cell: int) -> tuple[float, float]:
        """Centre of a cell in the plane (pointy-top layout, unit = cell width)."""
        return float(self.q[cell] + self.s[cell] / 2.0), float(self.s[cell] * 0.8660254037844386)

    def __repr__(self) -> str:
        return f"Hexagon(n={self.n}, cells={self.cells}, edges={len(self.edges)})"


@functools.lru_cache(maxsize=64)
def hexagon(n: int) -> Hexagon:
    """The (cached) geometry of the hexagon of order n."""
    return Hexagon(n)


@dataclass(frozen=True)
class HexInstance:
    """An instance: the order n, and optionally a grid to start from (values per cell,
    row-major): the grid a user gave to verify or improve."""

    n: int
    start: tuple[int, ...] | None = None

    @property
    def geometry(self) -> Hexagon:
        return hexagon(self.n)


# ------------------------------------------------------------------- submission text

_NUMBER = re.compile(r"[0-9]+")


def _where(grid: int, several: bool) -> str:
    return f"grid {grid}, " if several else ""


def _value_error(where: str, shown: str) -> str:
    """The message for a cell value above MAX_VALUE."""
    return (
        f"{where}: {shown} is not a possible value (a cell holding k needs k-1 different neighbours "
        f"and has at most 6, so values are 1..{MAX_VALUE})"
    )


def _cell_value(digits: str, where: str) -> int:
    """A cell's value from its ASCII digits, refused before `int` when it is past
    MAX_VALUE (a 5,000-digit value is past Python's int-string limit; a value of 10^9
    would make the rule check count to it)."""
    significant = digits.lstrip("0")
    if len(significant) > 1 or (significant and int(significant) > MAX_VALUE):
        shown = significant if len(significant) <= 12 else f"a number of {len(significant)} digits"
        raise InvalidInstance(_value_error(where, shown), "grid")
    value = int(significant or "0")
    if value < 1:
        raise InvalidInstance(f"{where}: expected a positive integer, got {value}", "grid")
    return value


def parse_grids(text: str) -> list[list[list[int]]]:
    """Grids from submission text: `(a,b,...), (...)` rows, grids split by `;`.

    Raises InvalidInstance naming the grid, row and cell of the first problem.
    """
    if not isinstance(text, str):
        raise InvalidInstance("grid: expected submission text like (4,3,2), (2,1,3,1), ...", "grid")
    chunks = text.split(";")
    # A trailing semicolon (or one between blank chunks) ends a grid; it starts none.
    chunks = [c for c in chunks if c.strip()] or [""]
    if len(chunks) > MAX_GRIDS:
        raise InvalidInstance(f"grid: {len(chunks)} grids separated by ';'; at most {MAX_GRIDS} in one submission", "grid", 413)
    several = len(chunks) > 1
    grids = []
    for g, chunk in enumerate(chunks, start=1):
        grids.append(_parse_grid(chunk, _where(g, several)))
    return grids


def _parse_grid(text: str, where: str) -> list[list[int]]:
    rows: list[list[int]] = []
    i, size = 0, len(text)

    def skip(k: int) -> int:
        while k < size and text[k].isspace():
            k += 1
        return k

    i = skip(i)
    if i >= size:
        raise InvalidInstance(f"{where}grid: empty; expected rows like (4,3,2), (2,1,3,1), ...", "grid")
    while True:
        row_no = len(rows) + 1
        if i >= size or text[i] != "(":
            got = text[i : i + 10] or "the end"
            raise InvalidInstance(f"{where}row {row_no}: expected '(' to open the row, got {shown(got)}", "grid")
        i = skip(i + 1)
        row: list[int] = []
        while True:
            cell_no = len(row) + 1
            match = _NUMBER.match(text, i)
            if not match:
                got = text[i : i + 10] or "the end"
                raise InvalidInstance(
                    f"{where}row {row_no}, cell {cell_no}: expected a positive integer, got {shown(got)}", "grid"
                )
            row.append(_cell_value(match.group(), f"{where}row {row_no}, cell {cell_no}"))
            if len(row) > MAX_ROWS:
                raise InvalidInstance(f"{where}row {row_no}: more than {MAX_ROWS} cells (the largest order is {MAX_ORDER})", "grid", 413)
            i = skip(match.end())
            if i < size and text[i] == ",":
                i = skip(i + 1)
                continue
            if i < size and text[i] == ")":
                i = skip(i + 1)
                break
            got = text[i : i + 10] or "the end"
            raise InvalidInstance(f"{where}row {row_no}, cell {cell_no}: expected ',' or ')' after the value, got {shown(got)}", "grid")
        rows.append(row)
        if len(rows) > MAX_ROWS:
            raise InvalidInstance(f"{where}grid: more than {MAX_ROWS} rows (the largest order is {MAX_ORDER})", "grid", 413)
        if i >= size:
            return rows
        if text[i] != ",":
            raise InvalidInstance(f"{where}row {row_no}: expected ',' between rows, got {text[i : i + 10]!r}", "grid")
        i = skip(i + 1)


def order_from_rows(rows: list[list[int]], where: str = "") -> int:
    """The order n of a grid given as rows (2n-1 rows); InvalidInstance if no n fits."""
    count = len(rows)
    if count % 2 == 0:
        raise InvalidInstance(f"{where}grid: a hexagon of order n has 2n-1 rows (an odd number), got {count}", "grid")
    n = (count + 1) // 2
    if n > MAX_ORDER:
        raise InvalidInstance(f"{where}grid: order {n} is larger than the maximum {MAX_ORDER}", "grid", 413)
    return n


def grid_values(rows: list[list[int]], n: int | None = None, where: str = "") -> tuple[int, tuple[int, ...]]:
    """(n, values in cell order) from rows; checks the row count, every row length and
    every value (a positive integer, at most MAX_VALUE) before building any geometry."""
    if n is None:
        n = order_from_rows(rows, where)
    elif len(rows) != 2 * n - 1:
        raise InvalidInstance(f"{where}grid: order {n} needs {2 * n - 1} rows, got {len(rows)}", "grid")
    values: list[int] = []
    for r, row in enumerate(rows, start=1):
        length = n + min(r - 1, 2 * n - 1 - r)  # as Hexagon.row_lengths
        if not isinstance(row, (list, tuple)):
            raise InvalidInstance(f"{where}row {r}: expected a list of {length} values", "grid")
        if len(row) != length:
            raise InvalidInstance(f"{where}row {r}: expected {length} cells, got {len(row)}", "grid")
        for c, value in enumerate(row, start=1):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise InvalidInstance(f"{where}row {r}, cell {c}: expected a positive integer, got {_shown(value)}", "grid")
            if value > MAX_VALUE:
                shown = str(int(value)) if value < 10**12 else "a number of over 12 digits"
                raise InvalidInstance(_value_error(f"{where}row {r}, cell {c}", shown), "grid")
            values.append(int(value))
    return n, tuple(values)


def _shown(value) -> str:
    """A cell that is not a positive integer, shown briefly (a list by its length: the
    repr of a list nested 100,000 deep is a RecursionError)."""
    if isinstance(value, (list, tuple, dict)):
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, str):
        return repr(value[:30]) + ("..." if len(value) > 30 else "")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return "a number of over 12 digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def format_grid(n: int, values) -> str:
    """Submission text of one grid: `(a,b,...), (...)` rows top to bottom."""
    return ", ".join("(" + ",".join(str(v) for v in row) + ")" for row in hexagon(n).rows_of(values))


def format_grids(grids: list[tuple[int, tuple[int, ...]]]) -> str:
    """Several grids, semicolon separated (as one submission file)."""
    return ";\n".join(format_grid(n, values) for n, values in grids)
