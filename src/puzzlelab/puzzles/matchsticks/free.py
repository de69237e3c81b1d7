"""The `free` method: squares anywhere, not only inside the largest one.

The record (and every other search here) keeps every square inside the largest one;
A294249's definition does not. This method proves, for one n at a time, that letting
the squares go anywhere does not lower the value. The argument (docs/matchsticks.md,
"Free placement"):

1. Components. Call two squares joined when they share a unit segment. Squares of
   different components share no segment, so the count is the sum of the components'
   counts; translating a component that holds no largest square until one of its
   segments lies on the largest square's side does not raise it (|A u B| <= |A| + |B|)
   and joins the two. So the least count over all configurations is the least over
   connected ones. (Squares sharing a segment lie on one unit grid, turned alike, and a
   component moves, or turns, as a whole: squares off the grid or turned change nothing.)
2. Lines per column. In a connected configuration the squares' x-ranges make one
   interval of W unit columns, and every column lies inside some square's x-range. A
   column inside the x-ranges of k squares (distinct sizes) holds their tops and
   bottoms: k pairs of horizontal lines whose distances are k distinct sizes, so at least
   m(k) distinct lines, the least m with m(m - 1) / 2 >= k (`column_lines_floor`),
   hence at least m(k) horizontal matches. Rows and vertical matches alike.
3. Span floors. The columns' k add up to 1 + 2 + ... + n (a size-t square covers t
   columns), each k is 1..n, and at most (j + 1)(j + 2) / 2 columns have k >= n - j
   (such a column lies in one of any j + 1 squares, say the j + 1 smallest, which cover
   that many columns at most). The least sum of m(k) over W columns under these rules,
   `span_floors(n)[W]` (a small exact DP), is a lower bound on the horizontal matches of
   every connected configuration W columns wide; the vertical matches alike with its
   height H. So count >= floor[W] + floor[H].
4. The span. A configuration of fewer than V matches (V: the proven optimum inside the
   largest square) has floor[W] + min floor <= V - 1; `free_span` is the largest W - n
   that allows. Every such configuration, moved so that its bounding box starts at the
   corner, lies in an area of n + span units with its largest square at an offset
   (ox, oy), which one of the area's eight symmetries brings to 0 <= ox <= oy <= span // 2.
5. The search. The kernel's exhaustive search below the bound V, rooted at the largest
   square at each such offset (`tables.offset_roots`) with every other square anywhere
   in the area, finds every configuration of fewer than V matches there (its pruning
   rules are lower bounds that hold in any area; a placement adding no match dominates
   anywhere; the diagonal symmetry it breaks is the area's). It finding none proves the
   free optimum is V; any it found would be the free optimum (step 4 holds for every
   value below V).

The area must fit one 64-bit word per row: n + span <= 63 (`model.MAX_AREA`). The span
floors grow about like n^1.5 while V grows like n^2 / 2, so the span outgrows the area
at n = 21; n <= 20 can be proven this way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.matchsticks.model import MAX_AREA, Instance, format_solution
from puzzlelab.puzzles.matchsticks.outcome import empty_result

__all__ = ["column_lines_floor", "span_floors", "free_span", "run_free", "FREE_ASSUMPTION"]

FREE_ASSUMPTION = "none: the squares may lie anywhere (free placement, proven through the span floors)"


def column_lines_floor(k: int) -> int:
    """The fewest points on a line whose pairwise distances include k distinct values:
    the least m with m(m - 1) / 2 >= k (0 for k = 0)."""
    if k <= 0:
        return 0
    m = 2
    while m * (m - 1) // 2 < k:
        m += 1
    return m


@lru_cache(maxsize=64)
def span_floors(n: int, widest: int | None = None) -> tuple[int, ...]:
    """floors[W] for W = 0..widest (default n(n + 1) / 2, the widest a connected
    configuration can be): the least sum of `column_lines_floor(k_c)` over W columns
    with k_c in 1..n summing to n(n + 1) / 2 and at most (j + 1)(j + 2) / 2 columns of
    k_c >= n - j; -1 where no such columns exist. A DP over the coverage levels, highest
    first: after level k, w counts the columns of coverage >= k."""
    total = n * (n + 1) // 2
    widest = total if widest is None else min(int(widest), total)
    impossible = np.iinfo(np.int64).max // 4
    best = np.full((widest + 1, total + 1), impossible, np.int64)  # [columns, coverage]
    best[0, 0] = 0
    for k in range(n, 0, -1):
        cost = column_lines_floor(k)
        new = best.copy()
        for a in range(1, min(widest, total // k) + 1):
            np.minimum(new[a:, a * k :], best[: widest + 1 - a, : total + 1 - a * k] + a * cost, out=new[a:, a * k :])
        cap = (n - k + 1) * (n - k + 2) // 2
        new[cap + 1 :, :] = impossible
        best = new
    return tuple(int(v) if v < impossible else -1 for v in best[:, total])


def free_span(n: int, value: int) -> int:
    """The largest total extension W - n (beyond the largest square, both sides of one
    axis together) that a connected configuration of fewer than `value` matches can
    have: floor[W] + (least floor of a height >= n) <= value - 1. Widths past
    (value - 1) / 2 - n need not be looked at: every column holds two matches at least."""
    if n <= 1:
        return 0
    widest = max(n, (value - 1) // 2 - n)
    floors = span_floors(n, widest)
    # The least floor of any height >= n: those computed, and 2 a row past them.
    least = min([f for f in floors[n:] if f >= 0] + [2 * len(floors)])
    fitting = [w for w in range(n, len(floors)) if floors[w] >= 0 and floors[w] + least <= value - 1]
    return max(fitting) - n if fitting else 0


def _centred(squares: list[list[int]]) -> tuple[list[tuple[int, int, int]], int]:
    """An answer of the search moved so that its largest square is at (0, 0), and the
    margin its squares need around it (the solution's `roam`)."""
    largest = max(squares, key=lambda s: s[0])
    n, x0, y0 = largest
    moved = [(s, x - x0, y - y0) for s, x, y in squares]
    margin = max([0] + [max(-x, -y, x + s - n, y + s - n) for s, x, y in moved])
    return moved, margin


def run_free(
    instance: Instance,
    *,
    budget: Budget,
    progress=None,
    seed: int = 0,
    workers: int = 1,
    subtrees: int = 0,
    checkpoint: str | None = None,
) -> Result:
    """The optimum inside the largest square (`full`), then the search of step 5 below
    it. Optimal with no assumption when both complete; the inside answer, feasible,
    with the reason, when the inside search does not finish or the span does not fit."""
    from puzzlelab.puzzles.matchsticks.full import run_full
    from puzzlelab.puzzles.matchsticks.plan import check_search_plan
    from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search

    n = instance.n
    if n == 0:
        return empty_result("free")
    inside = run_full(instance, budget=budget.sub(fraction=0.5), progress=progress, workers=workers)
    stats: dict[str, Any] = {"inside": {k: inside.stats.get(k) for k in ("nodes", "search_seconds", "complete")}}
    if inside.status is not Status.OPTIMAL or inside.value is None:
        return _inside_only(inside, stats, "the search inside the largest square did not complete within the budget")
    value = int(inside.value)
    span = free_span(n, value)
    stats.update(free_span=span, free_area=n + span)
    if n + span > MAX_AREA:
        return _inside_only(inside, stats, f"the span floors allow a configuration {n + span} units wide, past the {MAX_AREA} a search row holds")
    base = make_descriptor(n, roam=span // 2, bound=value, free_span=span)  # the area: n + span units
    check_search_plan(base, checkpoint, subtrees, budget)
    if subtrees == 0:
        # One subtree per offset (171 at n = 17, 253 at n = 20): enough to share among
        # workers, and a checkpoint of a few hundred prefixes; a target of 1 is never
        # below what is pending, so neither the plan nor a resume cuts them finer (one
        # level finer, n = 17 made 210,276 prefixes, a 25 MB checkpoint).
        subtrees = 1
    outcome = run_search(base, budget=budget, progress=progress, workers=workers, target_subtrees=subtrees, checkpoint=checkpoint)
    stats.update(
        nodes=outcome.nodes, subtrees=outcome.subtrees, subtrees_done=outcome.subtrees_done, complete=outcome.complete, search_seconds=round(outcome.seconds, 6)
    )
    if outcome.resumed:
        stats["resumed_subtrees"] = outcome.resumed
    if not outcome.complete:
        return _inside_only(inside, stats, "the free-placement search did not complete within the budget")
    if outcome.best is None:
        stats["assumption"] = FREE_ASSUMPTION
        return Result(value, inside.solution, Status.OPTIMAL, "free", bound=value, stats=stats)
    squares, margin = _centred(outcome.solution)
    stats.update(assumption=FREE_ASSUMPTION, below_inside_optimum=value)
    return Result(outcome.best, format_solution(squares, margin), Status.OPTIMAL, "free", bound=outcome.best, stats=stats)


def _inside_only(inside: Result, stats: dict[str, Any], why: str) -> Result:
    """The inside search's answer as a bound of the free problem, with the reason the
    free placement was not proven."""
    stats["free_placement"] = f"not proven: {why}"
    return Result(inside.value, inside.solution, Status.FEASIBLE if inside.value is not None else Status.UNKNOWN, "free", stats=stats)
