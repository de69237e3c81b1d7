"""The `full` method: the exhaustive search that proves a value optimal.

It is the write-up's depth-first search (largest square first, the two largest sharing
their top-left corner, placements on or above the main diagonal while the board is
symmetric, a free placement taken at once), started from the best answer of the bound
methods (diagonal, greedy) and searching only for strictly better ones -- or, with
`count_solutions`, for every answer as good, so that the optimal solutions are counted
up to the symmetry it breaks.

Beyond the write-up the kernel prunes a node as soon as some smaller size cannot be
added anywhere within the remaining slack: the final board contains the current one
plus that square, so it would exceed the bound (see `kernels.py`). That halves the
nodes for n = 16..23 without changing any answer or count.

Long runs are cut into subtrees (`search.py`): `workers` > 1 shares them among worker
processes, `checkpoint` records finished ones so that an interrupted proof resumes.
Both are checked before the bound searches start: a `checkpoint` file that is not this
search's checkpoint is refused (never overwritten), and `subtrees` whose plan cannot
fit the memory allowed is refused with the figure (`limits.py`).
"""

from __future__ import annotations

import time
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.options import check_roam
from puzzlelab.puzzles.matchsticks.outcome import empty_result, to_result
from puzzlelab.puzzles.matchsticks.plan import check_search_plan, default_subtrees
from puzzlelab.puzzles.matchsticks.search import SearchOutcome, make_descriptor, run_search

__all__ = ["run_full", "best_bound"]

BOUND_PHASES = (
    # (label, descriptor options, share of the time left, cap in seconds)
    ("diagonal free_below=1", {"free_below": 1}, 0.10, 30.0),
    ("diagonal free_below=20", {"free_below": 20}, 0.15, 60.0),
    ("greedy", {"greedy": True}, 0.25, 120.0),
)


def best_bound(n: int, roam: int, budget: Budget, progress=None) -> tuple[int, list[list[int]], dict[str, Any]] | None:
    """The best answer of the bound searches, each run on a share of the budget (a
    search stopped early still gives its best answer so far). `notes["proven"]` is set
    when a diagonal search whose restriction is vacuous (n <= k + 1) completed: that
    search was the full one, its answer is optimal already."""
    best: tuple[int, list[list[int]]] | None = None
    notes: dict[str, Any] = {}
    started = time.perf_counter()
    for k, (label, options, share, cap) in enumerate(BOUND_PHASES):
        if k and budget.expired():
            break
        phase = budget.sub(seconds=cap, fraction=share)
        # Each phase after the first looks only for answers strictly better than the
        # best so far (the write-up chains its bounds the same way); None in the notes
        # then means "nothing better".
        below = None if best is None else best[0]
        outcome = run_search(make_descriptor(n, roam=roam, bound=below, **options), budget=phase, progress=progress)
        notes[label] = outcome.best
        notes["nodes"] = notes.get("nodes", 0) + outcome.nodes
        if outcome.best is not None and (best is None or outcome.best < best[0]):
            best = (outcome.best, outcome.solution)
            notes["bound_method"] = label
        vacuous = "free_below" in options and roam == 0 and options["free_below"] >= n - 1
        if vacuous and outcome.complete:
            notes["proven"] = True
            break
    notes["bound_seconds"] = round(time.perf_counter() - started, 6)
    if best is None:
        return None
    notes["bound"] = best[0]
    return best[0], best[1], notes


def run_full(
    instance: Instance,
    *,
    budget: Budget,
    progress=None,
    seed: int = 0,
    max_added: bool = False,
    count_solutions: bool = False,
    bound: int | None = None,
    workers: int = 1,
    subtrees: int = 0,
    checkpoint: str | None = None,
    roam: int = 0,
    backend: str = "local",
    address: str | None = None,
    method_name: str = "full",
) -> Result:
    """Exhaustive search; status optimal when it completes (unless max_added)."""
    check_roam(instance, roam)
    n = instance.n
    if n == 0:
        return empty_result(method_name)
    if bound is not None and bound < 0:
        raise InvalidInstance(f"option --bound: expected a non-negative total, got {bound}", field="bound")
    # A bound given without an answer: look for answers of at most that many matches.
    base = make_descriptor(n, roam=roam, max_added=max_added, count=count_solutions, bound=None if bound is None else bound + 1)
    check_search_plan(base, checkpoint, subtrees, budget)
    extra: dict[str, Any] = {"max_added": max_added}
    known = None
    if bound is None:
        found = best_bound(n, roam, budget, progress)
        if found is not None:
            known = (found[0], found[1])
            extra["bounds"] = found[2]
    else:
        extra["bound_given"] = bound
    if known is not None and extra["bounds"].get("proven") and not count_solutions and not max_added:
        # The bound search was the whole search (nothing restricted for this n).
        done = SearchOutcome(known[0], known[1], 0, extra["bounds"]["nodes"], True, 1, 1, extra["bounds"]["bound_seconds"])
        return to_result(done, method_name, roam=roam, proves=not max_added, counted=False, extra=extra)
    if subtrees == 0:
        subtrees = default_subtrees(n, workers, checkpoint)
    if backend != "local" and subtrees < 64:
        subtrees = 64
    try:
        outcome = run_search(
            base,
            known=known,
            budget=budget,
            progress=progress,
            workers=workers,
            target_subtrees=subtrees,
            checkpoint=checkpoint,
            backend=backend,
            address=address,
        )
    except InvalidInstance:
        raise  # already names its field (an unreachable cluster: 'address')
    except ValueError as exc:  # a checkpoint of another search, a damaged file, a folder not writable
        raise InvalidInstance(f"option --checkpoint: {exc}", field="checkpoint") from None
    except RuntimeError as exc:  # e.g. the ray backend is not installed here
        raise InvalidInstance(f"option --backend: {exc}", field="backend") from None
    if known is not None and outcome.best == known[0]:
        extra["improved_bound"] = False
    elif known is not None and outcome.best is not None:
        extra["improved_bound"] = True
    return to_result(outcome, method_name, roam=roam, proves=not max_added, counted=count_solutions, extra=extra)
