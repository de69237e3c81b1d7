"""CNF of the hexagon puzzle with penalty-edge variables (seed write-up, "Improving the
Encoding"). Like PySAT's encoders it only returns clauses; it never touches a solver.

Variables: x[c, v] for every cell c and explicit value v = 1..top (top = 5 for the whole
puzzle: 6s and 7s are split afterwards, see `completion.split_sixes`); a cell with no
x true holds "more than top". p[e] for every edge: true when the edge is counted as a
penalty. Clauses:

- at most one value per cell; a cell with d neighbours holds at most d+1;
- support: a cell holding more than k has a neighbour holding k (k = 1..top);
- equal values v <= top on an edge force p[e];
- a cell holding more than k with two neighbours holding k forces p of the earlier of
  the two edges (canonical order: lower distance first, so penalties go to the rim).

Every real penalty edge forces its p[e]; spurious p[e] only make the count larger, so
"sum of p <= K" is satisfiable exactly when a grid with at most K penalties exists.

Restrictions (the competitor's program's -r, -I, -O, -b): `ring=d` forbids penalties at
edge distance >= d except `inner` of them in all (counted by a small totalizer whose
unary outputs join the main count) and one at each distance listed in `allow_at` (an
indicator per distance joins the count). `break_=1|2` fixes two 1s near the centre in
the pattern of the plane's perfect 7-cluster tiling (q + 3s = 0 mod 7): not sound for a
proof. `symmetry` is sound symmetry breaking, one of SYMMETRY_CHOICES: "centre" adds the
clause "the centre or its right neighbour holds 1" (rotate any grid so that it does);
"lex" adds lex-leader clauses for all twelve symmetries (symmetry.py), one grid per
orbit; "none" adds nothing (True and False mean "centre" and "none"). Both are off with
`break_`, `fixed` or `active`. `fixed` pins cells (values above `top` pin "more than
top"); `active` limits the constraints to a set of cells (the region `improve` re-solves).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from puzzlelab.puzzles.hexagon.model import Hexagon
from puzzlelab.puzzles.hexagon.symmetry import cell_symmetries, lex_leader_clauses

__all__ = ["HexEncoding", "unary_count", "BREAK_CELLS", "SYMMETRY_CHOICES", "symmetry_mode"]

SYMMETRY_CHOICES = ("none", "centre", "lex")


def symmetry_mode(value: bool | str | None) -> str:
    """One of SYMMETRY_CHOICES from an option value (booleans: the older on/off form)."""
    if value is True:
        return "centre"
    if value is False or value is None:
        return "none"
    if value not in SYMMETRY_CHOICES:
        raise ValueError(f"symmetry must be one of {SYMMETRY_CHOICES}, got {value!r}")
    return value

# Axial offsets of the two 1s fixed by --break 1 / --break 2 (centre = (0, 0)).
BREAK_CELLS = {1: ((0, 0), (1, 2)), 2: ((1, 0), (0, -2))}


def unary_count(lits: Sequence[int], cap: int, new_var, clauses: list[list[int]]) -> list[int]:
    """Totalizer outputs o[0..m-1], m = min(len(lits), cap+1): o[i] is forced true when at
    least i+1 of `lits` are true (one direction only, which is all an upper bound needs)."""
    layer = [[lit] for lit in lits]
    if not layer:
        return []
    while len(layer) > 1:
        merged = []
        for i in range(0, len(layer) - 1, 2):
            a, b = layer[i], layer[i + 1]
            size = min(len(a) + len(b), cap + 1)
            out = [new_var() for _ in range(size)]
            for i_a in range(len(a) + 1):
                for i_b in range(len(b) + 1):
                    total = i_a + i_b
                    if total == 0:
                        continue
                    clause = [out[min(total, size) - 1]]
                    if i_a:
                        clause.append(-a[i_a - 1])
                    if i_b:
                        clause.append(-b[i_b - 1])
                    clauses.append(clause)
            merged.append(out)
        if len(layer) % 2:
            merged.append(layer[-1])
        layer = merged
    return layer[0]


@dataclass
class HexEncoding:
    """The clauses of one hexagon problem and the literals whose sum is the penalty count."""

    geometry: Hexagon
    top: int = 5
    ring: int | None = None
    inner: int = 0
    allow_at: tuple[int, ...] = ()
    break_: int = 0
    symmetry: bool | str = False
    fixed: dict[int, int] | None = None
    active: Iterable[int] | None = None
    ladder: bool = True
    clauses: list[list[int]] = field(default_factory=list, init=False)
    count_lits: list[int] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        if not 1 <= self.top <= 5:
            raise ValueError("top must be 1..5")
        g = self.geometry
        self.cells = g.cells
        self.n_vars = self.cells * self.top + len(g.edges) + (self.cells * self.top if self.ladder else 0)
        self.active_cells = sorted(set(range(self.cells)) if self.active is None else set(self.active))
        self._build()

    # ------------------------------------------------------------------ variables
    def x(self, cell: int, value: int) -> int:
        return 1 + cell * self.top + value - 1

    def p(self, edge: int) -> int:
        return 1 + self.cells * self.top + edge

    def more(self, cell: int, value: int) -> int:
        """Ladder variable 'cell holds more than value' (value = 1..top)."""
        return 1 + self.cells * self.top + len(self.geometry.edges) + cell * self.top + value - 1

    def _above(self, cell: int, k: int) -> list[int]:
        """Literals whose disjunction says 'cell holds at most k' (negation of 'more')."""
        if self.ladder:
            return [-self.more(cell, k)]
        return [self.x(cell, v) for v in range(1, k + 1)]

    def new_var(self) -> int:
        self.n_vars += 1
        return self.n_vars

    # ------------------------------------------------------------------ clauses
    def _build(self) -> None:
        g, top, add = self.geometry, self.top, self.clauses.append
        x = self.x
        active = set(self.active_cells)
        # Cells whose value matters: the active ones and their neighbours.
        touched = set(active)
        for c in active:
            touched.update(g.neighbours_of(c))
        for c in sorted(touched):
            if self.ladder:
                # x(c,k) <-> more(c,k-1) and not more(c,k); more(c,k+1) -> more(c,k)
                m = self.more
                for k in range(1, top + 1):
                    add([-x(c, k), -m(c, k)])
                    if k > 1:
                        add([-x(c, k), m(c, k - 1)])
                        add([-m(c, k - 1), m(c, k), x(c, k)])
                        add([-m(c, k), m(c, k - 1)])
                    else:
                        add([m(c, 1), x(c, 1)])
            else:
                for a in range(1, top + 1):
                    for b in range(a + 1, top + 1):
                        add([-x(c, a), -x(c, b)])
            cap = int(g.degree[c]) + 1
            if cap <= top:
                add(self._above(c, cap))
        for c in self.active_cells:
            nbrs = g.neighbours_of(c)
            for k in range(1, top + 1):
                add(self._above(c, k) + [x(j, k) for j in nbrs])
        # Penalty edges: those with an active endpoint (both endpoints' values known).
        edge_ids = sorted({int(e) for c in active for e in g.incident[c] if e >= 0})
        self.edge_ids = edge_ids
        for e in edge_ids:
            u, v = int(g.edges[e, 0]), int(g.edges[e, 1])
            for k in range(1, top + 1):
                add([-x(u, k), -x(v, k), self.p(e)])
        for c in self.active_cells:
            incident = sorted((int(e), int(j)) for e, j in zip(g.incident[c], g.neighbours[c]) if e >= 0)
            for i in range(len(incident)):
                e1, a = incident[i]
                for e2, b in incident[i + 1 :]:
                    for k in range(1, top + 1):
                        add([-x(a, k), -x(b, k)] + self._above(c, k) + [self.p(e1)])
        self._pins()
        self._restrict(edge_ids)

    def _pins(self) -> None:
        g, add = self.geometry, self.clauses.append
        pins: dict[int, int] = dict(self.fixed or {})
        if self.break_:
            for q, s in BREAK_CELLS[self.break_]:
                cell = g.cell_at(q, s)
                if cell is not None:
                    pins[cell] = 1
        for cell, value in pins.items():
            if value <= self.top:
                add([self.x(cell, value)])
            else:
                for v in range(1, self.top + 1):
                    add([-self.x(cell, v)])
                if self.ladder:
                    add([self.more(cell, self.top)])
        mode = symmetry_mode(self.symmetry)
        if mode == "none" or g.n < 2 or self.fixed or self.break_ or self.active is not None:
            return
        if mode == "centre":
            right = g.cell_at(1, 0)
            add([self.x(g.centre, 1), self.x(right, 1)])
        else:  # rings and allowed distances are symmetric, so --ring keeps it sound
            centre_out = sorted(range(g.cells), key=lambda c: (-int(g.ring[c]), c))
            lex_leader_clauses(cell_symmetries(g), centre_out, self.top, self.x, self.new_var, self.clauses)

    def _restrict(self, edge_ids: list[int]) -> None:
        g, add = self.geometry, self.clauses.append
        if self.ring is None:
            if self.allow_at or self.inner:
                raise ValueError("allow_at and inner need a ring")
            self.count_lits = [self.p(e) for e in edge_ids]
            return
        outer, inner, by_distance = [], [], {}
        allowed = set(self.allow_at)
        for e in edge_ids:
            distance = int(g.edge_distance[e])
            if distance < self.ring:
                outer.append(self.p(e))
            elif distance in allowed:
                by_distance.setdefault(distance, []).append(self.p(e))
            else:
                inner.append(self.p(e))
        count = list(outer)
        for distance, lits in sorted(by_distance.items()):
            indicator = self.new_var()
            for i, a in enumerate(lits):
                add([-a, indicator])
                for b in lits[i + 1 :]:
                    add([-a, -b])
            count.append(indicator)
        if self.inner <= 0:
            for lit in inner:
                add([-lit])
        else:
            outputs = unary_count(inner, self.inner, self.new_var, self.clauses)
            if len(outputs) > self.inner:
                add([-outputs[self.inner]])
            count.extend(outputs[: self.inner])
        self.count_lits = count

    # ------------------------------------------------------------------ decoding
    def decode(self, model: Sequence[int]) -> list[int]:
        """Cell values from a model: 1..top, or top+1 for 'more than top'."""
        truth = set(lit for lit in model if lit > 0)
        values = []
        for c in range(self.cells):
            value = self.top + 1
            for v in range(1, self.top + 1):
                if self.x(c, v) in truth:
                    value = v
                    break
            values.append(value)
        return values

    def block(self, values: Sequence[int], cells: Iterable[int] | None = None) -> list[int]:
        """A clause excluding this assignment of the given cells (all active by default)."""
        clause = []
        for c in self.active_cells if cells is None else cells:
            value = values[c]
            if value <= self.top:
                clause.append(-self.x(c, value))
            else:
                clause.extend(self.x(c, v) for v in range(1, self.top + 1))
        return clause
