"""The `diagonal` method: every square of size k or more has its top-left corner on
the main diagonal of the largest one; the smaller ones go anywhere.

This is the write-up's first, fast bound ("Setting boundaries": all squares on the
diagonal down to some small size, typically 20). Its exact optimum for k = 1 and k = 20
is published with the record (columns `diagonal1` and `diagonal20` of A294249's table);
k = 20 reproduces that column only when the squares of size 20 itself are on the
diagonal too (n = 24: 348 as published, 340 if size 20 were free), so `free_below k`
frees exactly the sizes below k.
"""

from __future__ import annotations

from puzzlelab.core.puzzle import Method, Option
from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.common import BOUND, COUNT, ROAM, WORKERS, check_roam, limit_from
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.outcome import empty_result, to_result
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search

__all__ = ["METHOD", "diagonal_search"]

FREE_BELOW = Option(
    "free_below",
    "int",
    20,
    "sizes below k may go anywhere; sizes k and up sit on the main diagonal (1: all of them)",
    minimum=0,
    maximum=64,
)


def diagonal_search(
    instance: Instance,
    *,
    budget: Budget,
    progress=None,
    seed: int = 0,
    free_below: int = 20,
    bound: int | None = None,
    count_solutions: bool = False,
    roam: int = 0,
    workers: int = 1,
) -> Result:
    """Exact optimum of the diagonal-restricted search (status feasible; optimal when
    the restriction is vacuous: k >= n - 1 without roam)."""
    check_roam(instance, roam)
    n = instance.n
    if n == 0:
        return empty_result("diagonal")
    base = make_descriptor(n, roam=roam, free_below=free_below, count=count_solutions, bound=limit_from(bound))
    target = 8 * workers if workers > 1 else 0
    outcome = run_search(base, budget=budget, progress=progress, workers=workers, target_subtrees=target)
    vacuous = free_below > n or (roam == 0 and free_below >= n - 1)
    return to_result(outcome, "diagonal", roam=roam, proves=vacuous, counted=count_solutions, extra={"free_below": free_below, "bound_given": bound})


METHOD = Method(
    "diagonal",
    "fast bound: squares of size >= free_below on the main diagonal (exact optimum of that restricted search)",
    diagonal_search,
    options=(FREE_BELOW, BOUND, COUNT, ROAM, WORKERS),
)
