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

from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.options import check_roam, limit_from
from puzzlelab.puzzles.matchsticks.outcome import empty_result, to_result
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search

__all__ = ["run_diagonal", "seed_answer"]

def run_diagonal(
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
    the restriction is vacuous: k >= n - 1 without roam).

    Without a given `bound`, k > 1 is seeded with the answer of k = 1 (every square on
    the diagonal): that space lies inside the space of every k, so its answer is a
    valid starting bound and the search then looks only for strictly better ones --
    the write-up's chaining of bounds. At n = 46, k = 20 completes from that seed where
    the unseeded search does not in a minute."""
    check_roam(instance, roam)
    n = instance.n
    if n == 0:
        return empty_result("diagonal")
    extra: dict = {"free_below": free_below, "bound_given": bound}
    known = seed_answer(n, roam, free_below, budget) if bound is None else None
    if known is not None:
        extra["seed"] = known[0]
    base = make_descriptor(n, roam=roam, free_below=free_below, count=count_solutions, bound=limit_from(bound))
    target = 8 * workers if workers > 1 else 0
    outcome = run_search(base, known=known, budget=budget, progress=progress, workers=workers, target_subtrees=target)
    vacuous = free_below > n or (roam == 0 and free_below >= n - 1)
    return to_result(outcome, "diagonal", roam=roam, proves=vacuous, counted=count_solutions, extra=extra)


def seed_answer(n: int, roam: int, free_below: int, budget: Budget) -> tuple[int, list[list[int]]] | None:
    """The best all-on-the-diagonal answer found within a fifth of the budget (None for
    k <= 1, where it would be the search itself). Its space is a subset of every
    diagonal-k space, so it bounds each of them from above."""
    if free_below <= 1:
        return None
    outcome = run_search(make_descriptor(n, roam=roam, free_below=1), budget=budget.sub(fraction=0.2))
    if outcome.best is None or outcome.solution is None:
        return None
    return outcome.best, outcome.solution

