"""The `greedy` method: every size is placed only where it adds the fewest new
matches, all placements tied at that minimum tried (the write-up's second bound).

Its exact optimum is published with the record (column `greedy` of A294249's table).
The search is the full kernel with the GREEDY flag, so it shares the symmetry breaking,
the free-placement rule and the subtree machinery (workers, checkpoint).

It starts with no bound: its first descent is a greedy answer and bounds the rest. The
write-up fed the diagonal bound in instead, and so did this method until the restricted
columns' campaign measured it (commit 2d34d18, `puzzlelab matchsticks solve N --method
greedy` with and without `--bound 1000000`, which skipped the seed; one core): where the
diagonal answer is below the greedy optimum (n = 40, 45, 50, 60 among the published
rows) the search within it finds nothing and everything is searched twice -- n = 40
took 49.1 s seeded against 27.3 s unbounded (87 million wasted nodes) -- and where it is
above it saves 2-7 % (n = 41: 27.7 s against 29.8 s; n = 36: 5.9 s against 6.3 s).

Where its time goes (docs/matchsticks.md): the ties, not the bound. Every
large square sharing two sides with the lines already drawn costs the same 2t, so
depths 2..7 hold 1, 5, 27, 168, 1112, 7455 nodes for every n; 89 % of the nodes are
then ended by the lookahead in a band of depths. No two nodes of a depth hold the same
board (measured on greedy 24 with the plain-Python twin), so a transposition table would
not help. Its nodes grow about 1.35x per n (n = 36: 20.4 million, 44: 223 million).
"""

from __future__ import annotations

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.options import check_roam, limit_from
from puzzlelab.puzzles.matchsticks.outcome import empty_result, to_result
from puzzlelab.puzzles.matchsticks.plan import check_search_plan, default_subtrees
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
    subtrees: int = 0,
    checkpoint: str | None = None,
) -> Result:
    """Exact optimum of the greedy-restricted search (status feasible). `slack` s also
    keeps the placements adding up to s matches more than the cheapest (a wider,
    slower search; s = 0 is the published greedy); `bound` keeps only answers of at
    most that many matches (unknown when there is none); `checkpoint` keeps finished
    subtrees so that a stopped run resumes."""
    check_roam(instance, roam)
    n = instance.n
    if n == 0:
        return empty_result("greedy")
    base = make_descriptor(n, roam=roam, greedy=True, greedy_slack=slack, count=count_solutions, bound=limit_from(bound))
    check_search_plan(base, checkpoint, subtrees, budget)
    try:
        outcome = run_search(
            base,
            budget=budget,
            progress=progress,
            workers=workers,
            target_subtrees=subtrees or default_subtrees(n, workers, checkpoint),
            checkpoint=checkpoint,
        )
    except ValueError as exc:  # a checkpoint of another search, a damaged file, a folder not writable
        raise InvalidInstance(f"option --checkpoint: {exc}", field="checkpoint") from None
    return to_result(outcome, "greedy", roam=roam, proves=False, counted=count_solutions, extra={"slack": slack, "bound_given": bound})
