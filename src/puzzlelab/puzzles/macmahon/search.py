"""Tables and a resumable driver for the numba edge-matching search (`kernels.py`).

`SearchTables` turns an instance into arrays: the fill order of the cells, where each
position's side colours come from, and the candidate table (every piece in its distinct
orientations only, indexed by the colours demanded of its sides, a wildcard where a side
is still open). `SearchRun` owns one search's state; it can be started below a prefix
(the first positions forced), which is how the search splits into subtrees whose
descriptors are just lists of (piece, rotation) codes.

Fill orders: `ring` (the default) fills the border ring first, clockwise from the top
left, then the next ring inwards: the border cells are the most constrained (each needs
a border-coloured side) and a ring closes on itself, so dead ends show early. `rows` is
plain row-major order. `greedy` picks next the open cell with the most known sides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from puzzlelab.core.inputs import shown
from puzzlelab.puzzles.macmahon.kernels import CAPACITY, DEPTH, FLOOR, NBUF, STATE_SLOTS, STOP, TOTAL, search_kernel
from puzzlelab.puzzles.macmahon.model import Instance

__all__ = ["SearchTables", "SearchRun", "fill_order", "ORDERS"]

ORDERS = ("mrv", "ring", "rows", "greedy")


def _ring_layers(inst: Instance) -> list[int]:
    """Distance (in cell steps) of each cell from the cells that touch the border."""
    geometry = inst.board
    k, n = geometry.sides, geometry.cells
    layer = [-1] * n
    current = [c for c in range(n) if (geometry.neighbour[c] < 0).any()]
    for c in current:
        layer[c] = 0
    depth = 0
    while current:
        depth += 1
        nxt = []
        for c in current:
            for s in range(k):
                nb = int(geometry.neighbour[c, s])
                if nb >= 0 and layer[nb // k] < 0:
                    layer[nb // k] = depth
                    nxt.append(nb // k)
        current = nxt
    return layer


def fill_order(inst: Instance, name: str = "ring") -> list[int]:
    """The order in which the search fills the cells (see the module docstring)."""
    geometry = inst.board
    n, k = geometry.cells, geometry.sides
    if name == "rows":
        return list(range(n))
    layer = _ring_layers(inst)
    cent = geometry.centroids()
    centre = cent.mean(axis=0)
    if name == "ring":
        order: list[int] = []
        for depth in range(max(layer) + 1):
            cells = [c for c in range(n) if layer[c] == depth]
            start = min(cells)
            a0 = math.atan2(cent[start, 1] - centre[1], cent[start, 0] - centre[0])

            def angle(c: int) -> tuple[float, int]:
                a = math.atan2(cent[c, 1] - centre[1], cent[c, 0] - centre[0]) - a0
                return ((a + 1e-9) % (2 * math.pi), c)

            order.extend(sorted(cells, key=angle))
        return order
    if name == "greedy":
        placed = [False] * n
        order = []
        for _ in range(n):
            best, best_key = -1, None
            for c in range(n):
                if placed[c]:
                    continue
                known = 0
                touches_last = False
                for s in range(k):
                    nb = int(geometry.neighbour[c, s])
                    if nb < 0:
                        known += inst.border is not None
                    elif placed[nb // k]:
                        known += 1
                        touches_last = touches_last or (order and nb // k == order[-1])
                key = (-known, not touches_last, layer[c], c)
                if best_key is None or key < best_key:
                    best, best_key = c, key
            placed[best] = True
            order.append(best)
        return order
    raise ValueError(f"order: expected one of {', '.join(ORDERS)}, got {shown(name)}")


@dataclass
class SearchTables:
    """Arrays the kernels read; built once per (instance, order)."""

    sides: int
    colours: int
    cells: int
    neighbour: np.ndarray  # (cells, sides) flat index of the touching side, -1 on the border
    border: int  # border colour, -1 for a free border
    order: np.ndarray  # static fill order; tie-break order for `mrv`
    dynamic: bool
    matching: bool  # Hall check (cells vs pieces) at every node; needs at most 64 piece types
    mult: np.ndarray
    free_code: int
    cand_start: np.ndarray
    cand_piece: np.ndarray
    cand_code: np.ndarray
    cand_col: np.ndarray
    code_colour: np.ndarray  # (pieces*sides, sides): colours of piece*k + r
    counts: np.ndarray
    piece_colours: np.ndarray  # (pieces, colours): sides of each colour on each piece
    parity: bool  # fixed border: the open sides must pair up
    piece_key_start: np.ndarray  # piece p's candidate-table keys: piece_keys[start[p]:start[p+1]]
    piece_keys: np.ndarray
    orientations: list[tuple[int, int]]  # distinct (piece, rotation)

    @classmethod
    def build(cls, inst: Instance, order: str = "mrv") -> "SearchTables":
        geometry = inst.board
        k, n, c = geometry.sides, geometry.cells, len(inst.colours)
        tiles = inst.tiles
        dynamic = order in ("mrv", "mrv-nomatch")
        cell_order = fill_order(inst, "ring" if dynamic else order)
        mult = np.array([(c + 1) ** s for s in range(k)], dtype=np.int64)
        code_colour = np.zeros((len(tiles) * k, k), dtype=np.int8)
        for p, t in enumerate(tiles):
            for r in range(k):
                for s in range(k):
                    code_colour[p * k + r, s] = t[(s - r) % k]
        orientations = []
        for p, t in enumerate(tiles):
            if inst.counts[p] == 0:
                continue
            period = next(q for q in range(1, k + 1) if k % q == 0 and all(t[(s - q) % k] == t[s] for s in range(k)))
            orientations += [(p, r) for r in range(period)]
        entries = []  # (key, piece, rotation)
        for p, r in orientations:
            col = code_colour[p * k + r]
            for mask in range(1 << k):
                key = sum((c if mask >> s & 1 else int(col[s])) * int(mult[s]) for s in range(k))
                entries.append((key, p, r))
        entries.sort()
        keys = (c + 1) ** k
        cand_start = np.zeros(keys + 1, dtype=np.int64)
        for key, _, _ in entries:
            cand_start[key + 1] += 1
        cand_start = np.cumsum(cand_start).astype(np.int64)
        cand_piece = np.array([p for _, p, _ in entries], dtype=np.int64)
        cand_code = np.array([p * k + r for _, p, r in entries], dtype=np.int64)
        cand_col = np.array([code_colour[p * k + r] for _, p, r in entries], dtype=np.int8).reshape(-1, k)
        piece_colours = np.zeros((len(tiles), c), dtype=np.int64)
        for p, t in enumerate(tiles):
            for col in t:
                piece_colours[p, col] += 1
        by_piece = sorted((p, key) for key, p, _ in entries)
        piece_key_start = np.zeros(len(tiles) + 1, dtype=np.int64)
        for p, _ in by_piece:
            piece_key_start[p + 1] += 1
        piece_key_start = np.cumsum(piece_key_start).astype(np.int64)
        piece_keys = np.array([key for _, key in by_piece], dtype=np.int64)
        return cls(
            k, c, n, geometry.neighbour.astype(np.int64), -1 if inst.border is None else inst.border,
            np.array(cell_order, dtype=np.int64), dynamic, dynamic and len(tiles) <= 64 and order != "mrv-nomatch", mult, c, cand_start, cand_piece, cand_code, cand_col,
            code_colour, np.array(inst.counts, dtype=np.int64), piece_colours, inst.border is not None,
            piece_key_start, piece_keys, orientations,
        )


class SearchRun:
    """One search over the tables: the whole tree, or the subtree below `prefix`, a list
    of (cell, code) placements (code = piece*k + rotation). `stop` < cells makes the
    leaves prefixes (for splitting). `capacity` rows of emitted leaves per call."""

    def __init__(self, tables: SearchTables, prefix=(), stop: int | None = None, capacity: int = 0):
        self.t = tables
        n, k = tables.cells, tables.sides
        self.stop = n if stop is None else stop
        if len(prefix) >= self.stop:
            raise ValueError("a prefix must be shorter than the search depth")
        self.counts = tables.counts.copy()
        self.filled = np.zeros(n, dtype=np.int8)
        self.side_colour = np.full(n * k, -1, dtype=np.int8)
        self.placed = np.full(n, -1, dtype=np.int64)
        self.chosen = np.full(n + 1, -1, dtype=np.int64)
        self.pos = np.full(n + 1, -1, dtype=np.int64)
        self.hi = np.zeros(n + 1, dtype=np.int64)
        self.state = np.zeros(STATE_SLOTS, dtype=np.int64)
        self.buf = np.zeros((max(capacity, 1), n), dtype=np.int64)
        self.state[CAPACITY] = capacity
        self.remaining = (tables.counts[:, None] * tables.piece_colours).sum(axis=0).astype(np.int64)
        self.demand = np.zeros(tables.colours, dtype=np.int64)
        if tables.border >= 0:
            self.demand[tables.border] = int((tables.neighbour < 0).sum())
        keys = len(tables.cand_start) - 1
        self.key_count = np.diff(tables.cand_start).astype(np.int64)
        self.key_mask = np.zeros(keys, dtype=np.uint64)
        entry_key = np.repeat(np.arange(keys), self.key_count)
        np.bitwise_or.at(self.key_mask, entry_key, np.left_shift(np.uint64(1), (tables.cand_piece & 63).astype(np.uint64)))
        self.cell_key = np.zeros(n, dtype=np.int64)
        self.cell_known = np.zeros(n, dtype=np.int64)
        for cell in range(n):
            for s in range(k):
                fixed = tables.neighbour[cell, s] < 0 and tables.border >= 0
                self.cell_key[cell] += (tables.border if fixed else tables.free_code) * tables.mult[s]
                self.cell_known[cell] += fixed
        self.mate = np.full(n, -1, dtype=np.int64)
        self.load = np.zeros(len(tables.counts), dtype=np.int64)
        self.valid = self._apply_prefix([(int(c), int(code)) for c, code in prefix])
        self.state[FLOOR] = len(prefix)
        self.state[DEPTH] = len(prefix) if self.valid else len(prefix) - 1
        self.state[STOP] = self.stop

    def _apply_prefix(self, prefix: list[tuple[int, int]]) -> bool:
        """Place the prefix (as the kernel's `_place` would); False if it does not fit,
        which makes the subtree empty."""
        t = self.t
        k = t.sides
        for d, (cell, code) in enumerate(prefix):
            if not 0 <= cell < t.cells or self.filled[cell]:
                return False
            key = int(self.cell_key[cell])
            match = [q for q in range(t.cand_start[key], t.cand_start[key + 1]) if t.cand_code[q] == code]
            if not match or self.counts[code // k] == 0:
                return False
            q = match[0]
            piece = int(t.cand_piece[q])
            self.counts[piece] -= 1
            if self.counts[piece] == 0:
                for e in range(t.piece_key_start[piece], t.piece_key_start[piece + 1]):
                    key2 = t.piece_keys[e]
                    self.key_count[key2] -= 1
                    self.key_mask[key2] &= ~(np.uint64(1) << np.uint64(piece & 63))
            self.remaining -= t.piece_colours[piece]
            self.filled[cell] = 1
            for s in range(k):
                col = int(t.cand_col[q, s])
                nb = int(t.neighbour[cell, s])
                if nb < 0:
                    if t.border >= 0:
                        self.demand[col] -= 1
                    continue
                other = nb // k
                if self.filled[other]:
                    self.demand[col] -= 1
                else:
                    self.demand[col] += 1
                    self.cell_key[other] += (col - t.free_code) * t.mult[nb % k]
                    self.cell_known[other] += 1
                self.side_colour[cell * k + s] = col
            self.side_colour[cell * k : cell * k + k] = t.cand_col[q]
            self.placed[cell] = code
            self.chosen[d] = cell
        return True

    @property
    def total(self) -> int:
        return int(self.state[TOTAL])

    @property
    def done(self) -> bool:
        return int(self.state[DEPTH]) < int(self.state[FLOOR])

    def step(self, control: np.ndarray, quota: int = 1 << 24) -> int:
        """Run until done / buffer full / quota / budget; returns the kernel status.
        Emitted rows are `self.buf[:self.emitted]`; call `drain()` after using them."""
        t = self.t
        return int(
            search_kernel(
                t.neighbour, np.int64(t.border), np.int64(t.free_code), t.mult, t.cand_start, t.cand_piece,
                t.cand_code, t.cand_col, t.order, bool(t.dynamic), bool(t.matching), t.piece_colours, bool(t.parity), t.piece_key_start,
                t.piece_keys, self.counts, self.filled, self.side_colour, self.placed, self.chosen, self.pos, self.hi,
                self.remaining, self.demand, self.key_mask, self.key_count, self.cell_key, self.cell_known,
                self.mate, self.load, self.state, self.buf, np.int64(quota), control,
            )
        )

    def prefix_of(self, row) -> list[list[int]]:
        """The (cell, code) prefix of the row just emitted by a split run (stop < cells;
        run it with capacity 1, as `chosen` holds the path of the latest leaf only)."""
        return [[int(self.chosen[d]), int(row[self.chosen[d]])] for d in range(self.stop)]

    @property
    def emitted(self) -> int:
        return int(self.state[NBUF])

    def drain(self) -> None:
        self.state[NBUF] = 0

    def fraction(self) -> float:
        """Rough share of the tree already searched, from the first free levels."""
        floor = int(self.state[FLOOR])
        if self.done:
            return 1.0
        frac, width = 0.0, 1.0
        t = self.t
        for d in range(floor, min(floor + 3, int(self.state[DEPTH]) + 1)):
            p = int(self.pos[d])
            if p < 0:
                break
            start = int(np.searchsorted(t.cand_start, p, side="right")) - 1
            lo = int(t.cand_start[start])
            span = max(1, int(self.hi[d]) - lo)
            frac += width * (p - lo) / span
            width /= span
        return min(1.0, frac)
