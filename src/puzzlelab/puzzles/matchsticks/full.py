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

Where the search starts (`start`): by default below the published best value of the
A294249 table (`data/a294249.tsv`), with the best answer that ships in hand (a new record
or a restricted column's, `records.best_shipped`, each verified on load). The search
looks for answers of at most the published value; it proves whatever it finds, and the
published value is only where it starts (if no answer of at most it existed, the search
would go on from the shipped answer). For n = 28 the bound methods give 436 and the
published optimum is 435, so the proof explores less before its first optimum; and the
bound methods need not run. `start="bounds"` is the search as it was: from the best
answer of the bound methods (diagonal, greedy), each run first.

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

__all__ = ["run_full", "best_bound", "published_start", "STARTS"]

STARTS = ("published", "bounds")  # where the search starts (`start` option; module docstring)

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


def published_start(n: int, roam: int, max_added: bool) -> tuple[int, tuple[int, list[list[int]]] | None] | None:
    """(the published best value of n, the best shipped answer (value, squares) or None),
    or None where the published table does not apply: squares that may leave the
    largest one (roam), or the restricted max_added search."""
    from puzzlelab.puzzles.matchsticks.records import best_shipped
    from puzzlelab.puzzles.matchsticks.reference import published_table

    table = published_table()
    if roam or max_added or n not in table:
        return None
    shipped = best_shipped(n)
    return int(table[n]["best_known"]), (None if shipped is None else (shipped[1], shipped[2]))


def _starting_point(n, roam, max_added, count_solutions, start, budget, progress, extra):
    """(descriptor bound, known answer) the search starts from, filling `extra` with
    where they came from. Published start: answers of at most the published value
    (the kernel's bound is strict when proving, inclusive when counting), with the
    shipped answer in hand when it is above that value."""
    if start == "published":
        found = published_start(n, roam, max_added)
        if found is not None:
            published, shipped = found
            extra["start"] = {"published": published, "shipped": None if shipped is None else shipped[0]}
            if shipped is not None and shipped[0] <= published:
                return None, shipped
            return (published if count_solutions else published + 1), shipped
    found = best_bound(n, roam, budget, progress)
    if found is None:
        return None, None
    extra["bounds"] = found[2]
    return None, (found[0], found[1])


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
    start: str = "published",
    method_name: str = "full",
) -> Result:
    """Exhaustive search; status optimal when it completes (unless max_added)."""
    check_roam(instance, roam)
    n = instance.n
    if n == 0:
        return empty_result(method_name)
    if bound is not None and bound < 0:
        raise InvalidInstance(f"option --bound: expected a non-negative total, got {bound}", field="bound")
    if start not in STARTS:
        raise InvalidInstance(f"option --start: expected one of {', '.join(STARTS)}, got {start!r}", field="start")
    # A bound given without an answer: look for answers of at most that many matches.
    base = make_descriptor(n, roam=roam, max_added=max_added, count=count_solutions, bound=None if bound is None else bound + 1)
    check_search_plan(base, checkpoint, subtrees, budget)
    extra: dict[str, Any] = {"max_added": max_added}
    known = None
    if bound is None:
        limit, known = _starting_point(n, roam, max_added, count_solutions, start, budget, progress, extra)
        base = dict(base, bound=limit)
    else:
        extra["bound_given"] = bound
    if known is not None and extra.get("bounds", {}).get("proven") and not count_solutions and not max_added:
        # The bound search was the whole search (nothing restricted for this n).
        done = SearchOutcome(known[0], known[1], 0, extra["bounds"]["nodes"], True, 1, 1, extra["bounds"]["bound_seconds"])
        return to_result(done, method_name, roam=roam, proves=not max_added, counted=False, extra=extra)
    if subtrees == 0:
        subtrees = default_subtrees(n, workers, checkpoint)
    if backend != "local" and subtrees < 64:
        subtrees = 64
    plan = {"budget": budget, "progress": progress, "workers": workers, "target_subtrees": subtrees, "backend": backend, "address": address}
    outcome = _search(base, known, checkpoint, plan)
    if "start" in extra and base["bound"] is not None and outcome.complete and (known is None or outcome.best == known[0]):
        # Nothing of at most the published value: the answers above it are searched
        # now, from the shipped answer (else the bound methods'), in a fresh search
        # (the checkpoint holds subtrees searched below the published value only).
        extra["start"]["below_published"] = False
        if known is None:
            _, known = _starting_point(n, roam, max_added, count_solutions, "bounds", budget, progress, extra)
        outcome = _search(dict(base, bound=None), known, None, plan)
    if known is not None and outcome.best == known[0]:
        extra["improved_bound"] = False
    elif known is not None and outcome.best is not None:
        extra["improved_bound"] = True
    return to_result(outcome, method_name, roam=roam, proves=not max_added, counted=count_solutions, extra=extra)


def _search(base: dict[str, Any], known, checkpoint: str | None, plan: dict[str, Any]) -> SearchOutcome:
    """`run_search` with its errors reported as the option they came from."""
    try:
        return run_search(base, known=known, checkpoint=checkpoint, **plan)
    except InvalidInstance:
        raise  # already names its field (an unreachable cluster: 'address')
    except ValueError as exc:  # a checkpoint of another search, a damaged file, a folder not writable
        raise InvalidInstance(f"option --checkpoint: {exc}", field="checkpoint") from None
    except RuntimeError as exc:  # e.g. the ray backend is not installed here
        raise InvalidInstance(f"option --backend: {exc}", field="backend") from None
