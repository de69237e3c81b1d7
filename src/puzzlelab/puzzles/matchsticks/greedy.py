"""The `greedy` method: every size is placed only where it adds the fewest new
matches, all placements tied at that minimum tried (the write-up's second bound).

Its exact optimum is published with the record (column `greedy` of A294249's table).
The search is the full kernel with the GREEDY flag, so it shares the symmetry breaking,
the free-placement rule and the subtree machinery; it needs no outside bound (the first
greedy descent finds an answer at once and bounds the rest).

Where its time goes (issue 24, docs/matchsticks.md): the ties, not the bound. Every
large square sharing two sides with the lines already drawn costs the same 2t, so
depths 2..7 hold 1, 5, 27, 168, 1112, 7455 nodes for every n; 89 % of the nodes are
then ended by the lookahead in a band of depths. Its nodes grow about 1.5x per n
(n = 35: 11.8 million, 40: 101 million), so n = 63 is out of reach of one machine.
"""

from __future__ import annotations

from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.common import check_roam, limit_from
from puzzlelab.puzzles.matchsticks.diagonal import seed_answer
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.outcome import empty_result, to_result
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search

__all__ = ["run_greedy"]


def run_greedy(
    instance: Instance,
    *,
    budget: Budget,
    progress=None,
    seed: int = 0,
    slack: int = 0,
    bound: int | None = None,
    count_solutions: bool = False,
    roam: int = 0,
    workers: int = 1,
) -> Result:
    """Exact optimum of the greedy-restricted search (status feasible). `slack` s also
    keeps the placements adding up to s matches more than the cheapest (a wider,
    slower search; s = 0 is the published greedy); `bound` keeps only answers of at
    most that many matches (unknown when there is none)."""
    check_roam(instance, roam)
    n = instance.n
    if n == 0:
        return empty_result("greedy")
    extra: dict = {"slack": slack, "bound_given": bound}
    target = 8 * workers if workers > 1 else 0
    if bound is None:
        # The write-up feeds the diagonal bound into the greedy search. The diagonal
        # answer need not be a greedy one, so it is an inclusive limit, not a known
        # answer: a complete search within it that finds something has the exact greedy
        # optimum; one that finds nothing is redone without the limit.
        seeded = seed_answer(n, roam, 2, budget)
        if seeded is not None:
            extra["seed"] = seeded[0]
            base = make_descriptor(n, roam=roam, greedy=True, greedy_slack=slack, count=count_solutions, bound=limit_from(seeded[0]))
            outcome = run_search(base, budget=budget, progress=progress, workers=workers, target_subtrees=target)
            if outcome.best is not None:
                return to_result(outcome, "greedy", roam=roam, proves=False, counted=count_solutions, extra=extra)
            extra["seed_nodes"] = outcome.nodes  # nothing within the seed: search on unlimited
    base = make_descriptor(n, roam=roam, greedy=True, greedy_slack=slack, count=count_solutions, bound=limit_from(bound))
    outcome = run_search(base, budget=budget, progress=progress, workers=workers, target_subtrees=target)
    return to_result(outcome, "greedy", roam=roam, proves=False, counted=count_solutions, extra=extra)

