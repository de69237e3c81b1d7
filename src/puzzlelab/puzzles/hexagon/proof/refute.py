"""Refuting cubes: the work a cube-and-conquer proof's worker tasks do (proof/cube_and_conquer.py
shares the cubes out and keeps the score).

`refute_cubes` tries a run of cubes at the proof's own level on one incremental solver
(what it learns carries from cube to cube: n = 7 at level 3, 449 cubes of depth 12, took
101 s against 115 s for the single call), in rounds of conflicts so that a budget stops
it between rounds, and reports every refuted cube as it goes. A cube still open after
SPLIT_CONFLICTS is handed back split three cells deeper, so no worker is left alone on
one hard cube at the end. A cube found satisfiable ends the task with a counterexample
grid, which the caller checks with the independent scorer.

`screen_cubes` refutes cubes at a lower level first (the write-up's "Level by Level":
the penalties charged at levels 1..k are part of a grid's total, most of them from the
1s and 2s). Either may bound a cube by core-guided MaxSAT instead of CaDiCaL (cnf/maxsat.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from puzzlelab.core.inputs import shown
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
from puzzlelab.puzzles.hexagon.cnf.maxsat import penalty_lower_bound
from puzzlelab.puzzles.hexagon.cnf.solver import solve_in_rounds
from puzzlelab.puzzles.hexagon.fields import FieldsByName
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.proof.certify import ProofLog
from puzzlelab.puzzles.hexagon.proof.cubes import cube_assumptions, extend_cube, proof_formula, split_cells

__all__ = [
    "REFUTE_METHODS",
    "ROUND_CONFLICTS",
    "SPLIT_CONFLICTS",
    "SCREEN_CONFLICTS",
    "check_method",
    "Refuted",
    "RefuteOutcome",
    "ScreenOutcome",
    "refute_cubes",
    "screen_cubes",
]

ROUND_CONFLICTS = 20_000  # per round of one cube's call: the budget is checked between rounds
SPLIT_CONFLICTS = 100_000  # a cube still open after this many conflicts is split deeper: the
# last cubes of n = 8 at level 3 took minutes each, one worker alone while the other idled
SCREEN_CONFLICTS = 20_000  # per cube and lower level: n = 9's open cubes at level 3 took
# minutes each, while 149 of the first 242 fell at level 1 within this many conflicts
REFUTE_METHODS = ("sat", "maxsat")  # how a cube is refuted: CaDiCaL, or a core-guided lower bound (cnf/maxsat.py)


def check_method(what: str, method: str) -> None:
    """Refuse a refute method outside REFUTE_METHODS, naming the option (`what`)."""
    if method not in REFUTE_METHODS:
        raise ValueError(f"{what} method: expected one of {REFUTE_METHODS}, got {shown(method)}")


@dataclass(frozen=True)
class Refuted(FieldsByName):
    """A task's interim report: one more cube refuted (and its seconds, at the proof's
    level; in a certified run, its certificate's figures, certify.CubeCertificate)."""

    refuted: str
    seconds: float | None = None
    certificate: list[float] | None = None  # certified: [solve seconds, proof bytes, check seconds]


@dataclass
class RefuteOutcome(FieldsByName):
    """A refuting task's answer: the cubes refuted, those left open (budget over, or
    after a split or a counterexample), a counterexample (its pattern and level grid)
    when a cube is satisfiable, the cubes split (parent -> pieces), conflicts spent;
    certified: each refuted cube's certificate figures, and why a certificate was
    refused (then those cubes stay open)."""

    refuted: list[str] = field(default_factory=list)
    open: list[str] = field(default_factory=list)
    grid: list[int] | None = None
    pattern: str | None = None
    split: dict[str, list[str]] = field(default_factory=dict)
    conflicts: int = 0
    certificates: dict[str, list[float]] = field(default_factory=dict)
    certificate_failure: str | None = None


@dataclass
class ScreenOutcome(FieldsByName):
    """A screening task's answer: the cubes a lower level refuted, and the rest."""

    refuted: list[str] = field(default_factory=list)
    open: list[str] = field(default_factory=list)


def _maxsat_bound(free: HexEncoding, order: list[int], pattern: str, bound: int, budget: Budget):
    """(least, exact, model) of maxsat.penalty_lower_bound for `free` (a formula with no
    cardinality bound) under the cube `pattern`, stopped once it passes `bound`."""
    return penalty_lower_bound(free, [[lit] for lit in cube_assumptions(free, order, pattern)], target=bound + 1, budget=budget)


def refute_cubes(
    n: int,
    level: int,
    bound: int,
    symmetry: str,
    patterns: list[str],
    *,
    split_conflicts: int | None = None,
    split_extra: int = 3,
    method: str = "sat",
    budget: Budget | None = None,
    interim: Callable[[Refuted], None] | None = None,
    certified: bool = False,
) -> RefuteOutcome:
    """One task: try the cubes in turn on one incremental solver. A cube that took more
    than `split_conflicts` conflicts comes back as its extensions by `split_extra` more
    cells (the task stops there, so the caller can share them among idle workers).
    Each refutation is also sent through `interim`. `method` "maxsat": each cube gets
    a core-guided lower bound on the same formula without its cardinality constraint
    (maxsat.penalty_lower_bound), run until it passes `bound` (refuted) or meets the
    cube's minimum (a counterexample); no splits. `certified`: CaDiCaL logs a DRAT
    proof that core.certificates.drat checks (proof/certify.py); a cube counts as refuted only once its
    certificate holds (maxsat has none: refused)."""
    budget = budget or Budget()
    check_method("cube", method)
    if method == "maxsat":
        if certified:
            raise ValueError("cube method: maxsat gives no certificate; a certified proof refutes its cubes with CaDiCaL (sat)")
        return _refute_by_maxsat(n, level, bound, symmetry, patterns, budget, interim)
    return _refute_by_sat(n, level, bound, symmetry, patterns, split_conflicts, split_extra, budget, interim, certified)


def _refute_by_maxsat(n, level, bound, symmetry, patterns, budget: Budget, interim) -> RefuteOutcome:
    out = RefuteOutcome()
    order = split_cells(n)
    free = HexEncoding(hexagon(n), top=level, symmetry=symmetry)
    for i, pattern in enumerate(patterns):
        if budget.expired():
            out.open = patterns[i:]
            break
        t0 = time.perf_counter()
        least, exact, model = _maxsat_bound(free, order, pattern, bound, budget)
        if least <= bound:
            if exact and model is not None:
                out.pattern, out.grid = pattern, free.decode(model)
                out.open = patterns[i + 1 :]
            else:  # the budget ran out
                out.open = patterns[i:]
            break
        out.refuted.append(pattern)
        if interim is not None:
            interim(Refuted(pattern, round(time.perf_counter() - t0, 3)))
    return out


def _refute_by_sat(n, level, bound, symmetry, patterns, split_conflicts: int | None, split_extra: int, budget: Budget, interim, certified: bool = False) -> RefuteOutcome:
    from pysat.solvers import Solver

    out = RefuteOutcome()
    order = split_cells(n)
    enc, clauses = proof_formula(n, level, bound, symmetry)
    log = ProofLog(clauses) if certified else None
    solver = log.solver if log is not None else Solver(name="cadical195", bootstrap_with=clauses)
    try:
        for i, pattern in enumerate(patterns):
            if budget.expired():
                out.open = patterns[i:]
                break
            if log is not None and log.due():  # check the proof written since the last check
                if not _certify(log, out, interim):
                    out.open = patterns[i:]
                    break
            assumptions = cube_assumptions(enc, order, pattern)
            t0, c0 = time.perf_counter(), _conflicts(solver)
            splittable = split_conflicts is not None and len(pattern) + split_extra <= len(order)
            too_hard = False

            def stop() -> bool:
                nonlocal too_hard
                if budget.expired():
                    return True
                too_hard = splittable and _conflicts(solver) - c0 >= split_conflicts
                return too_hard

            answer = solve_in_rounds(solver, assumptions, stop, ROUND_CONFLICTS)
            if too_hard:
                out.split[pattern] = extend_cube(solver, enc, order, pattern, len(pattern) + split_extra)
                out.open = patterns[i + 1 :]
                break
            if answer is None:
                out.open = patterns[i:]
                break
            if answer:
                out.pattern, out.grid = pattern, enc.decode(solver.get_model())
                out.open = patterns[i + 1 :]
                break
            seconds = round(time.perf_counter() - t0, 3)
            if log is not None:
                log.mark(pattern, assumptions, seconds)
                continue
            out.refuted.append(pattern)
            if interim is not None:
                interim(Refuted(pattern, seconds))
        out.conflicts = _conflicts(solver)
        if log is not None and out.certificate_failure is None:
            _certify(log, out, interim, final=True)
        if out.certificate_failure is not None:  # refuted, but not certified: still open
            out.open = sorted(set(out.open) | set(log.patterns), key=patterns.index)
    finally:
        (log or solver).delete()
    return out


def _conflicts(solver) -> int:
    return int((solver.accum_stats() or {}).get("conflicts", 0))


def _certify(log: ProofLog, out: RefuteOutcome, interim, final: bool = False) -> bool:
    """Check the cubes refuted since the last check (certify.ProofLog; `final`: the
    run is over): those whose certificate holds count as refuted (and are reported);
    when it fails, the failure is noted and they stay open. Returns whether it held."""
    verdict, certificates = log.check(final)
    if verdict is None:
        return True
    if not verdict.ok:
        out.certificate_failure = f"cubes {log.patterns[0]} .. {log.patterns[-1]}: {verdict.message}"
        return False
    for pattern, certificate in certificates.items():
        out.refuted.append(pattern)
        out.certificates[pattern] = certificate.as_list()
        if interim is not None:
            interim(Refuted(pattern, certificate.solve_seconds, certificate.as_list()))
    return True


def screen_cubes(
    n: int,
    level: int,
    bound: int,
    patterns: list[str],
    *,
    conflicts: int = SCREEN_CONFLICTS,
    method: str = "sat",
    seconds: float | None = None,
    budget: Budget | None = None,
    interim: Callable[[Refuted], None] | None = None,
) -> ScreenOutcome:
    """One task: refute cubes at a lower level than the proof's. A cube in which every
    level-`level` grid has more than `bound` penalties holds no full grid within `bound`
    either. The formula has no symmetry breaking (the proof's lex-leader grids need not
    project to lex leaders). Each cube gets CaDiCaL with `conflicts` conflicts at most;
    with `method` "maxsat" a cube that this leaves unsettled gets a core-guided lower
    bound (maxsat.penalty_lower_bound), run until it exceeds `bound`, meets the cube's
    minimum or has run `seconds` (None: no cap). The cubes left open go on to the
    proof's own level."""
    from pysat.solvers import Solver

    budget = budget or Budget()
    check_method("screen", method)
    enc, clauses = proof_formula(n, level, bound, symmetry="none")
    order = split_cells(n)
    out = ScreenOutcome()
    maxsat_refutes: Callable[[str], bool] | None = None
    if method == "maxsat":
        free = HexEncoding(hexagon(n), top=level, symmetry="none")  # no cardinality bound: RC2 counts

        def maxsat_refutes(pattern: str) -> bool:
            least, _, _ = _maxsat_bound(free, order, pattern, bound, budget if seconds is None else budget.sub(seconds))
            return least > bound

    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for i, pattern in enumerate(patterns):
            if budget.expired():
                out.open.extend(patterns[i:])
                break
            solver.conf_budget(conflicts)
            answer = solver.solve_limited(assumptions=cube_assumptions(enc, order, pattern))
            # satisfiable: a level grid within the bound, the cube stays open; not settled
            # within `conflicts`: the MaxSAT bound decides, when asked for
            if answer is False or (answer is None and maxsat_refutes is not None and maxsat_refutes(pattern)):
                out.refuted.append(pattern)
                if interim is not None:
                    interim(Refuted(pattern))
            else:
                out.open.append(pattern)
    return out
