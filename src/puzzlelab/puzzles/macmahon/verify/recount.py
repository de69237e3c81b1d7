"""The checker's own count of MacMahon solutions: a plain backtracking search written in
the checker's terms (the geometry of `verify_rules`, no solver module, no solver table),
so that a claimed total, or a claimed number of solutions a symmetry fixes, can be
recounted wherever the search is small enough.

A solution is counted once per assignment of side colours (a symmetric piece placed in
two equivalent rotations is one solution): every cell is offered each piece type that
has a copy left in each of its distinct orientations, so two different choices always
give two different colourings. Before the search, options no solution can use are
dropped: those that break the border, those a touching cell cannot answer (arc
consistency), and those outside a set of cells that a set of pieces must fill exactly
(Hall's theorem on the cells grouped by their border sides). During the search the cell
with the fewest options goes next, and a branch ends when some open cell has none, when
the open cells cannot all get their own piece (a bipartite matching, by augmenting
paths), or when the colours left cannot cover the sides that demand them (with a fixed
border the other open sides pair up, so each colour's slack is even; the parity
argument of edge-matching puzzles).

With a symmetry element g (an `Action`) only the solutions g maps onto themselves are
counted: placing a piece in a cell places its images around the cell's cycle under g.

The search stops after `work_limit` cell examinations and answers None: not checked,
which is never read as wrong nor as right.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from puzzlelab.puzzles.macmahon.model import Instance
from puzzlelab.puzzles.macmahon.tiles import rotate
from puzzlelab.puzzles.macmahon.verify.rules import Action, cell_geometry, touching

__all__ = ["recount", "Recount", "WORK_LIMIT", "MAX_CELLS"]

WORK_LIMIT = 40_000  # cell examinations: about a second of plain Python on a 24-cell board
MAX_CELLS = 150  # beyond this the search is not attempted (its recursion is one level per cell)

Option = tuple[int, tuple[int, ...]]  # (piece type, side colours of the orientation)


class Recount(NamedTuple):
    """The count (None: the search stopped at its work limit) and the work it took."""

    value: int | None
    work: int


class _Stop(Exception):
    """The work limit was reached."""


class _Search:
    def __init__(self, inst: Instance, action: Action | None, work_limit: int):
        _, polys = cell_geometry(inst)
        k = self.k = len(polys[0])
        n = self.n = len(polys)
        self.partner = [-1] * (n * k)
        for (c, s), other in touching(polys).items():
            if other is not None:
                self.partner[c * k + s] = other[0] * k + other[1]
        self.border = inst.border
        self.counts = list(inst.counts)
        self.colours_of = [[tile.count(col) for col in range(len(inst.colours))] for tile in inst.tiles]
        self.type_of = {rotate(tile, r): t for t, tile in enumerate(inst.tiles) for r in range(k)}
        self.cand: list[list[Option]] = []
        for c in range(n):
            self.cand.append([
                (t, o)
                for t, tile in enumerate(inst.tiles)
                if self.counts[t]
                for o in sorted({rotate(tile, r) for r in range(k)})
                if self.border is None or all(self.partner[c * k + s] >= 0 or o[s] == self.border for s in range(k))
            ])
        self.colours = [-1] * (n * k)
        self.placed: list[tuple[int, ...] | None] = [None] * n
        self.cache: dict[tuple, list[Option]] = {}
        self.action = action
        self.image_cell = [action[0][c * k] // k for c in range(n)] if action is not None else []
        self.work, self.work_limit = 0, work_limit

    # ------------------------------------------------------------ before the search
    def image(self, c: int, o: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        """The cell and side colours that g makes of orientation o in cell c."""
        perm, cmap, _ = self.action  # type: ignore[misc]
        k, c2 = self.k, self.image_cell[c]
        out = [0] * k
        for s in range(k):
            out[perm[c * k + s] - c2 * k] = cmap[o[s]]
        return c2, tuple(out)

    def cycle_fits(self, c: int, o: tuple[int, ...], allowed: list[set]) -> bool:
        """Whether o in c, with its images around the cycle of g, is possible on its own:
        the cycle closes on o, every image is allowed in its cell, the pieces suffice and
        cycle cells that touch agree."""
        cells = {c: o}
        c2, o2 = self.image(c, o)
        while c2 != c:
            if c2 in cells or o2 not in allowed[c2]:
                return False
            cells[c2] = o2
            c2, o2 = self.image(c2, o2)
        if o2 != o:
            return False
        need: dict[int, int] = {}
        for o3 in cells.values():
            t = self.type_of[o3]
            need[t] = need.get(t, 0) + 1
            if need[t] > self.counts[t]:
                return False
        k = self.k
        for c3, o3 in cells.items():
            for s in range(k):
                p = self.partner[c3 * k + s]
                if p >= 0 and p // k in cells and cells[p // k][p % k] != o3[s]:
                    return False
        return True

    def arc_consistent(self) -> None:
        """Drop options a touching cell cannot answer, until nothing changes."""
        k, changed = self.k, True
        while changed:
            changed = False
            shown = [[{o[s] for _, o in self.cand[c]} for s in range(k)] for c in range(self.n)]
            for c in range(self.n):
                keep = [
                    (t, o)
                    for t, o in self.cand[c]
                    if all(self.partner[c * k + s] < 0 or o[s] in shown[self.partner[c * k + s] // k][self.partner[c * k + s] % k] for s in range(k))
                ]
                if len(keep) < len(self.cand[c]):
                    self.cand[c], changed = keep, True

    def hall_tight(self) -> bool:
        """Hall's condition on the cells grouped by their border sides: False if some
        set of pieces needs more cells than it fits; where a set of pieces fills a set of
        groups exactly, those cells lose every other piece. True if anything changed."""
        k = self.k
        group: dict[tuple, int] = {}
        of = []
        for c in range(self.n):
            sides = tuple(self.partner[c * k + s] < 0 for s in range(k))
            of.append(group.setdefault(min(sides[r:] + sides[:r] for r in range(k)), len(group)))
        m = len(group)
        if m < 2 or m > 8:
            return False
        cells_in = [of.count(g) for g in range(m)]
        mask = [0] * len(self.counts)
        for c in range(self.n):
            for t, _ in self.cand[c]:
                mask[t] |= 1 << of[c]
        changed = False
        for size in range(1, m):
            for chosen in combinations(range(m), size):
                u = sum(1 << g for g in chosen)
                need = sum(n for t, n in enumerate(self.counts) if n and mask[t] & ~u == 0)
                if need > sum(cells_in[g] for g in chosen):
                    self.cand = [[] for _ in range(self.n)]  # no solution
                    return False
                if need == sum(cells_in[g] for g in chosen):
                    for c in range(self.n):
                        if u >> of[c] & 1:
                            keep = [(t, o) for t, o in self.cand[c] if mask[t] & ~u == 0]
                            changed |= len(keep) < len(self.cand[c])
                            self.cand[c] = keep
        return changed

    def prepare(self) -> None:
        if self.action is not None:
            allowed = [{o for _, o in self.cand[c]} for c in range(self.n)]
            self.cand = [[(t, o) for t, o in self.cand[c] if self.cycle_fits(c, o, allowed)] for c in range(self.n)]
        for _ in range(self.n):
            self.arc_consistent()
            if not self.hall_tight():
                break

    # ------------------------------------------------------------ the search
    def options(self, c: int) -> list[Option]:
        """The options of open cell c that agree with its placed neighbours and still
        have a piece."""
        k, partner, colours = self.k, self.partner, self.colours
        need = tuple(colours[partner[c * k + s]] if partner[c * k + s] >= 0 else -1 for s in range(k))
        fits = self.cache.get((c, need))
        if fits is None:
            fits = [(t, o) for t, o in self.cand[c] if all(r < 0 or r == x for r, x in zip(need, o))]
            self.cache[(c, need)] = fits
        counts = self.counts
        return [(t, o) for t, o in fits if counts[t]]

    def assign(self, c: int, o: tuple[int, ...], trail: list[tuple[int, int]]) -> bool:
        """Place o in c (and, under g, its images around the cycle); False if it clashes."""
        if self.placed[c] is not None:
            return self.placed[c] == o
        t = self.type_of[o]
        if not self.counts[t] or (t, o) not in self.options(c):
            return False
        k = self.k
        self.counts[t] -= 1
        self.placed[c] = o
        self.colours[c * k : c * k + k] = o
        trail.append((c, t))
        if self.action is None:
            return True
        return self.assign(*self.image(c, o), trail)

    def undo(self, trail: list[tuple[int, int]]) -> None:
        k = self.k
        for c, t in reversed(trail):
            self.counts[t] += 1
            self.placed[c] = None
            self.colours[c * k : c * k + k] = [-1] * k

    def balanced(self, open_cells: list[int]) -> bool:
        """Every colour still has as many sides as the open sides demand of it; with a
        fixed border the rest pair up inside, so the slack is even."""
        slack = [0] * len(self.colours_of[0])
        for t, n in enumerate(self.counts):
            if n:
                for col, m in enumerate(self.colours_of[t]):
                    slack[col] += n * m
        k = self.k
        for c in open_cells:
            for s in range(k):
                p = self.partner[c * k + s]
                if p < 0:
                    if self.border is not None:
                        slack[self.border] -= 1
                elif self.colours[p] >= 0:
                    slack[self.colours[p]] -= 1
        return all(x >= 0 and (self.border is None or x % 2 == 0) for x in slack)

    def matched(self, domains: dict[int, set[int]]) -> bool:
        """Can every open cell get its own piece among those that fit it? (Kuhn's
        augmenting paths, piece type t taken at most counts[t] times.)"""
        holders: dict[int, list[int]] = {}

        def augment(c: int, seen: set[int]) -> bool:
            for t in domains[c]:
                if t in seen:
                    continue
                seen.add(t)
                held = holders.setdefault(t, [])
                if len(held) < self.counts[t]:
                    held.append(c)
                    return True
                for i, other in enumerate(held):
                    if augment(other, seen):
                        held[i] = c
                        return True
            return False

        return all(augment(c, set()) for c in domains)

    def search(self) -> int:
        open_cells = [c for c in range(self.n) if self.placed[c] is None]
        if not open_cells:
            return 1
        self.work += len(open_cells)
        if self.work > self.work_limit:
            raise _Stop
        best: list[Option] | None = None
        domains: dict[int, set[int]] = {}
        for c in open_cells:
            opts = self.options(c)
            if not opts:
                return 0
            domains[c] = {t for t, _ in opts}
            if best is None or len(opts) < len(best):
                best, cell = opts, c
        if not self.balanced(open_cells) or not self.matched(domains):
            return 0
        total = 0
        for _, o in best:  # type: ignore[union-attr]
            trail: list[tuple[int, int]] = []
            if self.assign(cell, o, trail):
                total += self.search()
            self.undo(trail)
        return total


def recount(inst: Instance, action: Action | None = None, work_limit: int = WORK_LIMIT) -> Recount:
    """The number of solutions (with `action`: of the solutions it maps onto themselves),
    or None when the search would take more than `work_limit` cell examinations."""
    _, polys = cell_geometry(inst)
    if len(polys) > MAX_CELLS or sum(inst.counts) != len(polys):
        return Recount(None, 0)
    search = _Search(inst, action, work_limit)
    search.prepare()
    try:
        return Recount(search.search(), search.work)
    except _Stop:
        return Recount(None, search.work)
