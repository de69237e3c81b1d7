"""Level questions by dancing links: Knuth's algorithms C (exact cover with colours)
and M (multiplicities) in miniexact 1.6 (native code, a maintained PyPI wheel).

The model (one per question, see levels/question.py: place b+1..k on a level-b grid,
F = the free cells, those holding more than b; N(c) = c's free neighbours):

- primary item `c` per free cell, covered by exactly one option "c holds v": v in
  b+1..k+1 (k+1 = more than k), with the supporter s(j) in N(c) named for each j in
  b+1..min(v-1, k) (the supports 1..b come from the base);
- secondary items `E[j,x]` coloured 1 when x holds j, else 0 (c's own option colours
  E[., c]; the option naming s(j) colours E[j, s(j)] = 1 and E[j, y] = 0 for the
  neighbours y after s(j) in the canonical edge order, so the supporter named is the
  useful edge of scoring.py: every grid is one solution, not one per choice);
- primary item `L[j,c,x]` per level j and ordered pair of free neighbours: c's option
  covers it when c does not care about x's j (c holds less than j; or c holds j and
  x < c, so an equal pair is charged once) or x is c's supporter; otherwise it is left
  to a *filler* option {L[j,c,x], E[j,x] = 0} (x does not hold j: no penalty) or, with
  a penalty allowance, a *slack* option {L[j,c,x], E[j,x] = 1, PEN}: an equal pair or
  a second support, one penalty edge each;
- PEN: a primary item of multiplicity 0..p (Algorithm M).

Penalty p = 0 is exactly the write-up's exact cover (Algorithm C, no slack options;
for one level it is the perfect codes of the free cells' graph, which `exact_cover_*`
state as a plain exact cover for Algorithm X, the faster of the two there); p > 0 enumerates the
grids whose new penalty is at most p, one solution each (tested against the row DP's
histogram). So DLX answers penalty-0 feasibility and counts at any penalty; the least
penalty is the first p whose problem has a solution, every lower one refuted by
exhausting its search tree, which grows fast with p (the slack options multiply the
branching): see docs/hexagon.md for what that costs beside SAT and ILP.
"""

from __future__ import annotations

import itertools
import time

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.levels.question import LevelAnswer, LevelQuestion, check_answer

__all__ = ["dlx_model", "dlx_grids", "dlx_minimum", "dlx_count", "exact_cover_count", "exact_cover_grid"]

SOLUTION = 10  # miniexact's answer code for "a solution" (20: none left)


class _Model:
    """The miniexact problem of a question under a penalty allowance (None: none)."""

    def __init__(self, question: LevelQuestion, allowance: int):
        import miniexact

        self.question = question
        g = question.geometry
        b, k = question.b, question.k
        free = question.free()
        is_free = set(free)
        self.near = {c: [x for _, x in sorted((g.edge(c, x), x) for x in g.neighbours_of(c) if x in is_free)] for c in free}
        levels = range(b + 1, k + 1)
        solver = miniexact.miniexacts_m() if allowance > 0 else miniexact.miniexacts_c()
        self.cell = {c: solver.primary(f"c{c}") for c in free}
        self.link = {(j, c, x): solver.primary(f"L{j}.{c}.{x}") for c in free for x in self.near[c] for j in levels}
        self.pen = solver.primary("PEN", 0, allowance) if allowance > 0 else None
        self.eq = {(j, c): solver.secondary(f"E{j}.{c}") for c in free for j in levels}
        self.one, self.zero = solver.color("1"), solver.color("0")
        self.solver = solver
        self.option_value: dict[int, tuple[int, int]] = {}
        self.options = 0
        for c in free:
            for v in range(b + 1, k + 2):
                self._cell_options(c, v)
        for (j, c, x), item in self.link.items():
            self._add([(item, None), (self.eq[j, x], self.zero)])
            if self.pen is not None:
                self._add([(item, None), (self.eq[j, x], self.one), (self.pen, None)])

    def _add(self, items) -> int:
        for item, colour in items:
            if colour is None:
                self.solver.add(item)
            else:
                self.solver.add(item, colour)
        self.options += 1
        return self.solver.add(0)

    def _cell_options(self, c: int, v: int) -> None:
        """Every option "c holds v" (one per choice of named supporters)."""
        b, k = self.question.b, self.question.k
        near = self.near[c]
        need = list(range(b + 1, min(v - 1, k) + 1))
        fixed = [(self.cell[c], None)] + [(self.eq[j, c], self.one if j == v else self.zero) for j in range(b + 1, k + 1)]
        for j in range(v, k + 1):  # levels c does not look at (or its own: lower partners)
            fixed += [(self.link[j, c, x], None) for x in near if j > v or x < c]
        for chosen in itertools.permutations(range(len(near)), len(need)):
            items = list(fixed)
            for j, position in zip(need, chosen):
                s = near[position]
                items += [(self.link[j, c, s], None), (self.eq[j, s], self.one)]
                items += [(self.eq[j, y], self.zero) for y in near[position + 1 :]]
            index = self._add(items)
            self.option_value[index] = (c, v)

    def next_grid(self) -> list[int] | None:
        """The next solution's level grid (None when there is none left)."""
        if self.solver.solve() != SOLUTION:
            return None
        grid = self.question.start() if self.question.b else [self.question.k + 1] * self.question.geometry.cells
        for index in self.solver.selected_options():
            if index in self.option_value:
                c, v = self.option_value[index]
                grid[c] = v
        return grid


def dlx_model(question: LevelQuestion, allowance: int = 0) -> _Model:
    """The model of `question` with at most `allowance` new penalty edges."""
    return _Model(question, allowance)


def dlx_grids(question: LevelQuestion, allowance: int = 0, limit: int | None = None):
    """Every level grid with at most `allowance` new penalty edges (one per grid), each
    checked; stops after `limit`."""
    model = _Model(question, allowance)
    bound = question.base_penalty() + allowance
    found = 0
    while limit is None or found < limit:
        grid = model.next_grid()
        if grid is None:
            return
        if check_answer(question, grid) > bound:
            raise AssertionError(f"DLX grid above the penalty allowed ({bound})")
        found += 1
        yield grid


def dlx_count(question: LevelQuestion, allowance: int = 0, budget: Budget | None = None) -> int | None:
    """How many level grids have at most `allowance` new penalty edges (by enumeration;
    None when the budget ran out first)."""
    budget = budget or Budget()
    total = 0
    for _ in dlx_grids(question, allowance):
        total += 1
        if budget.expired():
            return None
    return total


def dlx_minimum(question: LevelQuestion, budget: Budget | None = None, report=None, start: int = 0) -> LevelAnswer:
    """The least level-k penalty: allowance p = start, start+1, ... until a solution
    exists. A call cannot be interrupted (native code): run it in a worker under a
    deadline (level_solvers does); `report(answer)` is called as each allowance is
    refuted, so the proven lower bound survives a stop."""
    budget = budget or Budget()
    t0 = time.perf_counter()
    base = question.base_penalty()
    answer = LevelAnswer("dlx", lower=base + start)
    for allowance in itertools.count(start):
        if allowance == 0 and question.first == question.last:
            grid = exact_cover_grid(question)  # the plain exact cover: faster (see exact_cover_count)
        else:
            model = _Model(question, allowance)
            grid = model.next_grid()
            answer.stats["options"] = model.options
        if grid is not None:
            answer.penalty, answer.grid, answer.proven = check_answer(question, grid), grid, True
            answer.lower = answer.penalty
            break
        answer.lower = base + allowance + 1
        answer.seconds = time.perf_counter() - t0
        if report is not None:
            report(answer)
        if budget.expired() or allowance >= 3 * len(question.geometry.edges):
            break
    answer.seconds = time.perf_counter() - t0
    return answer


def _exact_cover(question: LevelQuestion):
    """One level's penalty-free grids as the write-up states it, a plain exact cover
    (Algorithm X): items = the free cells, one option per free cell c, its closed free
    neighbourhood (c holds k: it and its free neighbours are covered once). Returns the
    solver and the cell of each option."""
    import miniexact

    if question.first != question.last:
        raise ValueError("a plain exact cover models one level only")
    g = question.geometry
    free = question.free()
    is_free = set(free)
    solver = miniexact.miniexacts_x()
    item = {c: solver.primary(f"c{c}") for c in free}
    cell_of = {}
    for c in free:
        for x in [c] + [x for x in g.neighbours_of(c) if x in is_free]:
            solver.add(item[x])
        cell_of[solver.add(0)] = c
    return solver, cell_of


def exact_cover_count(question: LevelQuestion, limit: int | None = None) -> int:
    """The penalty-free grids of one level by Algorithm X: the same grids as
    `dlx_count(question, 0)` by another model (tested), 4 to 17 times faster
    (docs/hexagon.md), so `dlx_minimum` asks it first."""
    solver, _ = _exact_cover(question)
    found = 0
    while (limit is None or found < limit) and solver.solve() == SOLUTION:
        found += 1
    return found


def exact_cover_grid(question: LevelQuestion) -> list[int] | None:
    """A penalty-free level grid of one level by Algorithm X (None when there is none)."""
    solver, cell_of = _exact_cover(question)
    if solver.solve() != SOLUTION:
        return None
    k = question.k
    grid = [min(v, k + 1) for v in question.start()] if question.b else [k + 1] * question.geometry.cells
    for c in question.free():
        grid[c] = k + 1
    for index in solver.selected_options():
        grid[cell_of[index]] = k
    return grid
