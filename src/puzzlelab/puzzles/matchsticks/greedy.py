"""The `greedy` method: every size is placed only where it adds the fewest new
matches, all placements tied at that minimum tried (the write-up's second bound).

Its exact optimum is published with the record (column `greedy` of A294249's table).
The search is the full kernel with the GREEDY flag, so it shares the symmetry breaking,
the free-placement rule and the subtree machinery; it needs no outside bound (the first
greedy descent finds an answer at once and bounds the rest).
"""

from __future__ import annotations

from puzzlelab.core.puzzle import Method
from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.common import COUNT, ROAM, WORKERS, check_roam
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.outcome import empty_result, to_result
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search

__all__ = ["METHOD", "greedy_search"]


def greedy_search(instance: Instance, *, budget: Budget, progress=None, seed: int = 0, count_solutions: bool = False, roam: int = 0, workers: int = 1) -> Result:
    """Exact optimum of the greedy-restricted search (status feasible)."""
    check_roam(instance, roam)
    n = instance.n
    if n == 0:
        return empty_result("greedy")
    base = make_descriptor(n, roam=roam, greedy=True, count=count_solutions)
    target = 8 * workers if workers > 1 else 0
    outcome = run_search(base, budget=budget, progress=progress, workers=workers, target_subtrees=target)
    return to_result(outcome, "greedy", roam=roam, proves=False, counted=count_solutions)


METHOD = Method(
    "greedy",
    "bound: each size only where it adds the fewest matches, all ties tried (exact optimum of that search)",
    greedy_search,
    options=(COUNT, ROAM, WORKERS),
)
