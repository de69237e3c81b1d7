"""The level solvers side by side (seed write-up, "Algorithms": beam search, SAT and
dancing links; here ILP too), one entry point for the `levels` method, the `hexagon
level` verb and the benchmark: `solve_level(question, method, budget)`.

- `sat`: the penalty-edge CNF of cnf/encoding.py at level k, the base pinned, bound
  tightened on one incremental CaDiCaL until UNSAT (exact; from nothing with the
  sound lex-leader symmetry clauses, as `count.level_minimum`);
- `beam`: beam search over the free cells (spiral order, `width` states), the base
  pinned (a heuristic: never proven);
- `dlx`: dancing links, miniexact's algorithms C and M (levels/dlx.py: exact; penalty 0
  is an exact cover, a penalty p a search with p slack options);
- `ilp`: HiGHS branch and bound (levels/ilp.py: exact).

Every answer is checked (level_question.check_answer) before it is returned. A DLX
call is native code that no timer stops, so under a budget it runs in a worker
process; the other three stop by themselves.
"""

from __future__ import annotations

import time

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.levels.question import LevelAnswer, LevelQuestion, check_answer

__all__ = ["LEVEL_METHODS", "solve_level", "sat_level", "beam_level", "dlx_level", "count_level"]

LEVEL_METHODS = ("sat", "beam", "dlx", "ilp")


def sat_level(question: LevelQuestion, budget: Budget | None = None, encoding: str = "seqcounter") -> LevelAnswer:
    """The least level-k penalty by SAT, proven by UNSAT below it."""
    from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
    from puzzlelab.puzzles.hexagon.cnf.solver import BoundedSolver, descend, penalty_estimate

    budget = budget or Budget()
    t0 = time.perf_counter()
    b, k = question.b, question.k
    fixed = {c: v for c, v in enumerate(question.base) if v <= b} if b else None
    enc = HexEncoding(question.geometry, top=k, fixed=fixed, symmetry="lex" if not b else "none")
    for c in question.free() if b else ():
        enc.clauses.extend([-enc.x(c, v)] for v in range(1, b + 1))
    answer = LevelAnswer("sat", lower=question.base_penalty())
    with BoundedSolver(enc.clauses, enc.count_lits, enc.n_vars, encoding) as solver:
        first = solver.solve_until(None, budget.expired)
        if not first:
            answer.seconds = time.perf_counter() - t0
            if first is False:
                raise ValueError("level question has no level grid at all")
            return answer

        def found() -> int:
            grid = enc.decode(solver.model())
            penalty = check_answer(question, grid)
            if answer.penalty is None or penalty < answer.penalty:
                answer.penalty, answer.grid = penalty, grid
            return penalty

        upper = found()
        lower, upper = descend(
            lambda bound: solver.solve_until(bound, budget.expired),
            found,
            upper=upper,
            estimate=penalty_estimate(question.n, k) if not b else answer.lower + 4,
            stop=budget.expired,
            lower=answer.lower,
        )
        answer.lower, answer.proven = lower, lower >= upper
    answer.seconds = time.perf_counter() - t0
    return answer


def beam_level(question: LevelQuestion, budget: Budget | None = None, width: int = 2000, order: str = "spiral", seed: int = 0) -> LevelAnswer:
    """The best level grid one beam run finds (never proven least)."""
    from puzzlelab.puzzles.hexagon.beam.search import beam_search

    t0 = time.perf_counter()
    b, k = question.b, question.k
    fixed = {c: v for c, v in enumerate(question.base) if v <= b} if b else None
    found = beam_search(question.n, width=width, order=order, top=k, seed=seed, budget=budget, fixed=fixed, floor=b)
    answer = LevelAnswer("beam", lower=question.base_penalty(), stats={"width": width, "order": order})
    if found:
        penalty, grid = found[0]
        answer.penalty, answer.grid = check_answer(question, grid), grid
        if answer.penalty != penalty:
            raise AssertionError(f"beam counted {penalty} penalty edges, the scorer {answer.penalty}")
    answer.seconds = time.perf_counter() - t0
    return answer


def _dlx_task(question: LevelQuestion, *, budget: Budget, interim) -> LevelAnswer:
    from puzzlelab.puzzles.hexagon.levels.dlx import dlx_minimum

    return dlx_minimum(question, budget, report=interim)


def dlx_level(question: LevelQuestion, budget: Budget | None = None, isolate: bool = True) -> LevelAnswer:
    """DLX's least penalty; under a budget in a worker process (the answer it had when
    the budget ended: the proven lower bound); `isolate=False` for a caller that is a
    worker already (a daemonic worker may not start another)."""
    from puzzlelab.puzzles.hexagon.levels.dlx import dlx_minimum
    from puzzlelab.puzzles.hexagon.worker import run_in_worker

    budget = budget or Budget()
    if not budget.limited or not isolate:
        return dlx_minimum(question, budget)
    t0 = time.perf_counter()
    answer = run_in_worker(_dlx_task, (question,), budget)
    if answer is None:
        answer = LevelAnswer("dlx", lower=question.base_penalty())
    if not answer.proven:
        answer.seconds = time.perf_counter() - t0
    if answer.grid is not None:
        answer.penalty = check_answer(question, answer.grid)  # checked again on this side
    return answer


def _count_task(question: LevelQuestion, allowance: int, *, budget: Budget, interim) -> int | None:
    from puzzlelab.puzzles.hexagon.levels.dlx import dlx_count

    return dlx_count(question, allowance, budget)


def count_level(question: LevelQuestion, allowance: int, budget: Budget | None = None) -> int | None:
    """The number of level grids with at most `allowance` new penalty edges (DLX), None
    when the budget ends first: in a worker under a budget, since one search for the
    next solution (or for none) is native code that only returns when it is done."""
    from puzzlelab.puzzles.hexagon.levels.dlx import dlx_count
    from puzzlelab.puzzles.hexagon.worker import run_in_worker

    budget = budget or Budget()
    if not budget.limited:
        return dlx_count(question, allowance, budget)
    return run_in_worker(_count_task, (question, allowance), budget)


def solve_level(question: LevelQuestion, method: str, budget: Budget | None = None, **options) -> LevelAnswer:
    """The answer of one level solver (see the module docstring); `options`: beam's
    width, order and seed; dlx's isolate."""
    budget = budget or Budget()
    if method == "sat":
        return sat_level(question, budget)
    if method == "beam":
        return beam_level(question, budget, **options)
    if method == "dlx":
        return dlx_level(question, budget, **options)
    if method == "ilp":
        from puzzlelab.puzzles.hexagon.levels.ilp import ilp_minimum

        return ilp_minimum(question, budget)
    raise InvalidInstance(f"method: expected one of {', '.join(LEVEL_METHODS)}, got {str(method)[:20]!r}", "method")
