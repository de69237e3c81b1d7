"""The row3 store of partial solutions (seed write-up, "Storing Partial Solutions"):
a set of level-k grids kept as the chunks of three consecutive rows they contain (with
an empty row above the first and below the last), each chunk reduced by the four
symmetries that keep rows horizontal (identity, left-right mirror, top-bottom mirror,
180-degree turn). A dynamic program over the rows rebuilds and counts the grids whose
every chunk is in the store, so chunks found in different grids, or in hexagons of
other sizes (a chunk is known by its row lengths only), combine into new grids.

Costs. A chunk (above, middle, below) owns the penalty edges of its middle row: the
second supports its middle cells get (all their neighbours lie in the chunk), the
equal pairs inside the middle row and between the middle row and the row below. Every
penalty edge of a grid has exactly one owner, so a rebuilt grid's level penalty is the
sum of its chunks' costs; a rebuilt grid is a valid level grid (each middle row is
checked by its chunk), so rebuilding the chunks of every level-k grid within a bound
gives back exactly those grids.

File format (text, one chunk a line): `# row3 level=K` first, then comment lines
(`#`), then the chunks as three rows separated by `|`, each row its values as digits
(1..K, K+1 for "more than K") and `-` for the empty row, e.g. `-|3142|21313`. Each
chunk is written once, as the least (in text order) of its four images.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from puzzlelab.core.files import write_atomic
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import rule_violation

__all__ = ["Row3Store", "chunk_cost", "read_store", "from_grids", "from_array", "rows_of_grid", "canonical", "mine"]

Row = tuple[int, ...]
Chunk = tuple[Row, Row, Row]
_LINE = re.compile(r"^(-|[1-7]+)\|(-|[1-7]+)\|(-|[1-7]+)$")


def _images(chunk: Chunk) -> list[Chunk]:
    a, b, c = chunk
    flip = lambda r: tuple(reversed(r))  # noqa: E731
    return [(a, b, c), (flip(a), flip(b), flip(c)), (c, b, a), (flip(c), flip(b), flip(a))]


def _text(chunk: Chunk) -> str:
    return "|".join("".join(map(str, r)) or "-" for r in chunk)


def canonical(chunk: Chunk) -> Chunk:
    """The chunk's least image (by its text) under the four row-keeping symmetries."""
    return min(_images(chunk), key=_text)


def _neighbours(upper: int, lower: int, j: int) -> list[int]:
    """Cells of a row of length `lower` next to cell j of the adjacent row of length
    `upper` (rows of a hexagon differ in length by one)."""
    if lower == upper + 1:
        return [j, j + 1]
    return [t for t in (j - 1, j) if 0 <= t < lower]


@functools.lru_cache(maxsize=1 << 20)
def chunk_cost(chunk: Chunk, level: int) -> int | None:
    """Penalty edges the chunk owns (see the module docstring), or None when a middle
    cell lacks a support."""
    above, middle, below = chunk
    cost = 0
    for j, v in enumerate(middle):
        near = [middle[t] for t in (j - 1, j + 1) if 0 <= t < len(middle)]
        near += [above[t] for t in _neighbours(len(middle), len(above), j)] if above else []
        near += [below[t] for t in _neighbours(len(middle), len(below), j)] if below else []
        for w in range(1, min(v - 1, level) + 1):
            times = near.count(w)
            if times == 0:
                return None
            cost += times - 1
        if v <= level:
            cost += j + 1 < len(middle) and middle[j + 1] == v
            cost += sum(below[t] == v for t in _neighbours(len(middle), len(below), j)) if below else 0
    return cost


def rows_of_grid(n: int, values) -> list[Row]:
    return [tuple(r) for r in hexagon(n).rows_of(values)]


@dataclass
class Row3Store:
    """Chunks of one level, canonical images only."""

    level: int
    chunks: set[Chunk] = field(default_factory=set)

    def add_grid(self, n: int, values) -> None:
        rows = [()] + rows_of_grid(n, values) + [()]
        for r in range(1, len(rows) - 1):
            self.chunks.add(canonical((rows[r - 1], rows[r], rows[r + 1])))

    def merge(self, other: Row3Store) -> None:
        if other.level != self.level:
            raise ValueError(f"level: cannot merge a level-{other.level} store into a level-{self.level} one")
        self.chunks |= other.chunks

    def text(self) -> str:
        lines = [f"# row3 level={self.level}", f"# {len(self.chunks)} chunks"]
        return "\n".join(lines + sorted(_text(c) for c in self.chunks)) + "\n"

    def write(self, path: str | Path) -> int:
        """Write the store to `path` atomically (`core.files`); returns its bytes."""
        data = self.text().encode()
        write_atomic(path, data, "row3 store")
        return len(data)

    def _by_pair(self, n: int):
        """(above, middle) -> [(below, cost)] over every image of every chunk whose rows
        have the lengths of order n's rows at some height."""
        lengths = [0] + [n + min(r, 2 * n - 2 - r) for r in range(2 * n - 1)] + [0]
        shapes = {(lengths[r - 1], lengths[r], lengths[r + 1]) for r in range(1, len(lengths) - 1)}
        index: dict[tuple[Row, Row], list[tuple[Row, int]]] = defaultdict(list)
        for chunk in self.chunks:
            for a, b, c in set(_images(chunk)):
                if (len(a), len(b), len(c)) in shapes:
                    cost = chunk_cost((a, b, c), self.level)
                    if cost is not None:
                        index[a, b].append((c, cost))
        return index, lengths

    def _start(self, n: int):
        index, lengths = self._by_pair(n)
        first = {((), b) for (a, b) in index if a == () and len(b) == lengths[1]}
        return index, lengths, first

    def count(self, n: int, bound: int) -> dict[int, int]:
        """penalty -> number of grids of order n built from the chunks, up to `bound`:
        a DP over the rows, state = the last two rows and the penalty so far."""
        index, lengths, first = self._start(n)
        layer: dict[tuple[Row, Row, int], int] = {(a, b, 0): 1 for a, b in first}
        for r in range(1, len(lengths) - 1):
            nxt: dict[tuple[Row, Row, int], int] = defaultdict(int)
            for (a, b, pen), ways in layer.items():
                for c, cost in index.get((a, b), ()):
                    if pen + cost <= bound and len(c) == lengths[r + 1]:
                        nxt[b, c, pen + cost] += ways
            layer = nxt
        out: dict[int, int] = defaultdict(int)
        for (_, _, pen), ways in layer.items():
            out[pen] += ways
        return dict(sorted(out.items()))

    def grids(self, n: int, bound: int, limit: int = 1000) -> list[list[int]]:
        """Up to `limit` grids of order n built from the chunks within the bound, each
        checked by the verifier's rule check and the scoring module's penalty."""
        index, lengths, first = self._start(n)
        geometry = hexagon(n)
        out: list[list[int]] = []
        stack = [([a, b], 0) for a, b in sorted(first)]
        while stack and len(out) < limit:
            rows, pen = stack.pop()
            r = len(rows) - 1
            if r == len(lengths) - 1:
                values = [v for row in rows[1:-1] for v in row]
                if rule_violation(n, values) is not None or level_penalty(geometry, values, self.level) != pen:
                    raise AssertionError("row3 rebuilt a grid its chunks do not describe")
                out.append(values)
                continue
            for c, cost in index.get((rows[-2], rows[-1]), ()):
                if pen + cost <= bound and len(c) == lengths[r + 1]:
                    stack.append((rows + [c], pen + cost))
        return out


def mine(store: Row3Store, n: int, bound: int, limit: int = 1000) -> int:
    """New chunks the write-up's way: build grids of order n from the store, turn each
    by 60 and 120 degrees, cut the turned grids into chunks again. Returns how many
    chunks were new."""
    from puzzlelab.puzzles.hexagon.symmetry import cell_symmetries

    before = len(store.chunks)
    grids = store.grids(n, bound, limit)
    if grids:
        turns = cell_symmetries(hexagon(n))[1:3]  # 60 and 120 degrees
        array = np.array(grids, dtype=np.int8)
        for perm in turns:
            turned = np.empty_like(array)
            turned[:, perm] = array  # the value of cell c moves to cell perm[c]
            from_array(n, store.level, turned, store)
    return len(store.chunks) - before


def from_grids(level: int, grids) -> Row3Store:
    """A store of the chunks of (n, values) grids."""
    store = Row3Store(level)
    for n, values in grids:
        store.add_grid(n, values)
    return store


def from_array(n: int, level: int, grids: np.ndarray, store: Row3Store | None = None) -> Row3Store:
    """A store of the chunks of many grids of order n (one grid a row of `grids`, cells
    in order): the distinct chunks at each height first (numpy), then canonical."""
    store = store or Row3Store(level)
    g = hexagon(n)
    bounds = [(0, 0)] + [(a, a + k) for a, k in zip(g.row_starts, g.row_lengths)] + [(0, 0)]
    for r in range(1, len(bounds) - 1):
        cols = [np.arange(*bounds[t]) for t in (r - 1, r, r + 1)]
        block = np.unique(np.asarray(grids)[:, np.concatenate(cols)], axis=0)
        cut = np.cumsum([len(c) for c in cols])[:2]
        for line in block.tolist():
            chunk = (tuple(line[: cut[0]]), tuple(line[cut[0] : cut[1]]), tuple(line[cut[1] :]))
            if chunk_cost(chunk, level) is None:  # its middle row breaks the rule
                raise ValueError(f"row3: a grid of order {n} breaks the rule in row {r}")
            store.chunks.add(canonical(chunk))
    return store


def read_store(text: str) -> Row3Store:
    """A store from its text (see the module docstring); ValueError names the line."""
    lines = text.splitlines()
    head = re.match(r"^# row3 level=([1-6])$", lines[0].strip()) if lines else None
    if not head:
        raise ValueError("row3: line 1: expected '# row3 level=K' (K = 1..6)")
    store = Row3Store(int(head.group(1)))
    for number, line in enumerate(lines[1:], start=2):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"row3: line {number}: expected three rows of digits (or -) separated by '|', got {line[:40]!r}")
        chunk = tuple(() if g == "-" else tuple(int(ch) for ch in g) for g in m.groups())
        a, b, c = (len(r) for r in chunk)
        if b == 0 or any(x and abs(x - b) != 1 for x in (a, c)) or ((a == c == 0) != (b == 1)):
            raise ValueError(f"row3: line {number}: rows of lengths {a}, {b}, {c} are not three rows of a hexagon")
        if any(v > store.level + 1 for row in chunk for v in row):
            raise ValueError(f"row3: line {number}: a value above {store.level + 1} in a level-{store.level} store")
        store.chunks.add(canonical(chunk))
    return store
