"""One incremental CaDiCaL solver with a movable bound on a count of literals.

`PenaltyBound` encodes "count_lits plus K0 dummy literals <= K0" with any PySAT
cardinality encoding; assuming j dummies true tightens the bound to K0 - j, so a whole
descent runs on one solver and a bound may be loosened again down there. `BoundedSolver`
owns the solver: `solve(bound)` answers "is there a model with count <= bound?", and
only when a bound above K0 is asked for does it rebuild the solver with a larger K0
(keeping every clause added since).

`descend` is the search both the `sat` method and the counts use: proven lower bound
and best upper bound close in on each other, starting from an estimate (the published
penalty where known) so the encoding stays small.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from puzzlelab.puzzles.hexagon.reference import published_penalty

__all__ = ["SOLVER", "ENCODINGS", "DEFAULT_ENCODING", "new_solver", "solve_in_rounds", "PenaltyBound", "BoundedSolver", "descend", "penalty_estimate"]

SOLVER = "cadical195"
# PySAT's cardinality encodings (pysat.card.EncType), any of which can bound the penalty.
ENCODINGS = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer", "ladder")
DEFAULT_ENCODING = "totalizer"  # chosen by measurement: benchmarks/bench_hexagon_encodings.py


def new_solver(clauses, seed: int = 0):
    """A CaDiCaL 1.9.5 solver loaded with `clauses` (shuffled when seed != 0: SAT run
    times vary wildly with clause order, so a seed gives a different run)."""
    from pysat.solvers import Solver

    if seed:
        clauses = list(clauses)
        random.Random(seed).shuffle(clauses)
    return Solver(name=SOLVER, bootstrap_with=clauses)


def solve_in_rounds(solver, assumptions: Sequence[int], stop: Callable[[], bool], conflicts: int = 20_000) -> bool | None:
    """One SAT call in rounds of `conflicts` conflicts (CaDiCaL keeps what it learnt
    between rounds: the n = 6 level-3 proof took 75-79 thousand conflicts in rounds of
    20,000 against 70-78 thousand in one call), giving up with None once `stop()` is
    true after a round: a call that a timer can stop and that can report progress,
    where one plain call could run for hours."""
    while True:
        solver.conf_budget(conflicts)
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return bool(answer)
        if stop():
            return None


class PenaltyBound:
    """sum(lits) <= K on an incremental solver, K moved at will through assumptions on
    dummy literals (K <= start)."""

    def __init__(self, solver, lits: list[int], start: int, encoding: str, top_id: int):
        from pysat.card import CardEnc, EncType

        self.start = max(0, start)
        self.dummies = list(range(top_id + 1, top_id + 1 + self.start))
        top = top_id + self.start
        cnf = CardEnc.atmost(list(lits) + self.dummies, bound=self.start, top_id=top, encoding=getattr(EncType, encoding))
        solver.append_formula(cnf.clauses)
        self.top_id = max(top, cnf.nv)
        self.clauses = len(cnf.clauses)

    def assumptions(self, bound: int) -> list[int] | None:
        """Assumptions making the sum at most `bound` (<= start); None when bound < 0."""
        if bound < 0:
            return None
        if bound > self.start:
            raise ValueError(f"bound {bound} above the encoded start {self.start}")
        return self.dummies[: self.start - bound]


class BoundedSolver:
    """A solver for `clauses` plus a cardinality bound on `count_lits`."""

    def __init__(self, clauses: Sequence[Sequence[int]], count_lits: list[int], n_vars: int, encoding: str = "seqcounter", seed: int = 0):
        self.base = clauses
        self.count_lits = count_lits
        self.n_vars = n_vars
        self.encoding = encoding
        self.seed = seed
        self.extra: list[list[int]] = []
        self.solver = new_solver(clauses, seed)
        self.bound: PenaltyBound | None = None
        self.rebuilds = 0
        self.card_clauses = 0

    def _ensure(self, bound: int) -> None:
        if self.bound is not None and bound <= self.bound.start:
            return
        if self.bound is not None:  # a looser bound than encoded: start afresh
            self.solver.delete()
            self.solver = new_solver(self.base, self.seed)
            for clause in self.extra:
                self.solver.add_clause(clause)
            self.rebuilds += 1
        self.bound = PenaltyBound(self.solver, self.count_lits, bound, self.encoding, self.n_vars)
        self.card_clauses = self.bound.clauses

    def solve(self, bound: int | None = None) -> bool:
        """Satisfiable with count <= bound (no bound when None)?"""
        if bound is None:
            return bool(self.solver.solve())
        if bound < 0:
            return False
        self._ensure(bound)
        return bool(self.solver.solve(assumptions=self.bound.assumptions(bound)))

    def solve_until(self, bound: int | None, deadline: Callable[[], bool], conflicts: int = 20_000) -> bool | None:
        """Like `solve(bound)`, but by `solve_in_rounds`: None once `deadline()` is true
        after a round."""
        if bound is not None and bound < 0:
            return False
        assumptions: list[int] = []
        if bound is not None:
            self._ensure(bound)
            assumptions = self.bound.assumptions(bound)
        return solve_in_rounds(self.solver, assumptions, deadline, conflicts)

    def conflicts(self) -> int:
        """Conflicts so far on this solver (all calls), for progress reports."""
        stats = self.solver.accum_stats() or {}
        return int(stats.get("conflicts", 0))

    def model(self) -> list[int]:
        return self.solver.get_model()

    def add_clause(self, clause: list[int]) -> None:
        self.extra.append(list(clause))
        self.solver.add_clause(clause)

    def delete(self) -> None:
        self.solver.delete()

    def __enter__(self) -> "BoundedSolver":
        return self

    def __exit__(self, *exc) -> None:
        self.delete()


def next_guess(lower: int, upper: int, first: int | None) -> int:
    """The next bound to ask for, knowing lower <= optimum <= upper: the estimate on the
    first call, then one below the best found; after a failed estimate (an UNSAT far
    below the best found) climb from below in steps so the encoding stays small."""
    if first is not None:
        return max(lower, min(upper - 1, first))
    gap = upper - 1 - lower
    if lower == 0 or gap <= 3:
        return upper - 1
    return lower + max(2, gap // 4)


def descend(
    solve: Callable[[int | None], bool | None],
    found: Callable[[], int],
    *,
    upper: int,
    estimate: int | None,
    stop: Callable[[], bool],
    on_unsat: Callable[[int], None] | None = None,
    lower: int = 0,
) -> tuple[int, int]:
    """Close in on the least count: `solve(bound)` answers (None: stopped without an
    answer, which ends the descent), `found()` reads the model just found and returns
    its count. Returns (proven lower bound, best upper)."""
    guess = next_guess(lower, upper, estimate)
    while lower < upper and not stop():
        answer = solve(guess)
        if answer is None:  # stopped before answering: nothing learnt about this bound
            break
        if answer:
            upper = min(upper, found())
        else:
            lower = guess + 1
            if on_unsat is not None:
                on_unsat(lower)
        guess = next_guess(lower, upper, None)
    return lower, upper


def penalty_estimate(n: int, top: int) -> int:
    """The first bound `descend` asks for: twice the published penalty plus a margin
    where known (every level's optimum is at most the final one), else about 7 per unit
    of order. Generous on purpose: the search then steps down one penalty at a time on a
    small encoding, as the write-up's program did (asking for the published value at
    once left n = 10 with -r 5 -I 6 -b 2 at raw 699 of 728 after 300 s)."""
    penalty = published_penalty(n)
    if penalty is not None:
        return 2 * penalty + 8
    return max(0, round(7 * n))
