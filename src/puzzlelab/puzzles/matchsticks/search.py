"""Running the kernel: one subtree from its descriptor, splitting a search into subtrees,
and the driver that runs the subtrees (in this process or in worker processes), shares
the best bound between them, and checkpoints finished subtrees so a long run resumes.

Why subtrees: the proof of a large n takes hours of single-core time, but the tree below
a fixed placement of the first few squares is independent of every other such subtree
except through the bound. So a search is cut at a depth D (the placements of the
largest D squares), each cut is a small descriptor (`tables.py`), and descriptors are all
that travel -- to `core.parallel` workers today and to Ray nodes later.

Combining subtrees is exact: a subtree searched with bound U reports every answer below
U (or, counting, at most U), and the bound only ever falls to the value of an answer
found, so the best of the subtrees is the best of the whole tree and, when counting, the
number of optimal answers is the sum over the subtrees whose best equals it.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from puzzlelab.core.result import Budget, Progress
from puzzlelab.puzzles.matchsticks.checkpoint import Checkpoint
from puzzlelab.puzzles.matchsticks.limits import memory_allowed, prefix_bytes
from puzzlelab.puzzles.matchsticks.tables import prefix_ids, prefix_squares, roots_of, tables_of

__all__ = [
    "make_descriptor",
    "solve_subtree",
    "split_subtree",
    "plan_subtrees",
    "cut_finer",
    "SplitTooLarge",
    "run_search",
    "SearchOutcome",
    "unbounded",
]


def unbounded(n: int) -> int:
    """A bound above every answer: all sides of all squares, plus one."""
    return 2 * n * (n + 1) + 1


def make_descriptor(
    n: int,
    *,
    roam: int = 0,
    free_below: int | None = None,
    greedy: bool = False,
    greedy_slack: int = 0,
    max_added: bool = False,
    count: bool = False,
    bound: int | None = None,
    prefix: list[list[int]] | None = None,
    free_span: int | None = None,
) -> dict[str, Any]:
    """A JSON-able description of a search (or of one subtree of it, with `prefix`).
    A bound past every answer (`unbounded(n)`) is that bound: the kernel's is an int64.
    `free_span` (the free-placement search, `free.py`) roots it at the offsets of
    `tables.offset_roots`; the key is absent otherwise."""
    extra = {} if free_span is None else {"free_span": int(free_span)}
    return {
        **extra,
        "n": int(n),
        "roam": int(roam),
        "free_below": None if free_below is None else int(free_below),
        "greedy": bool(greedy),
        "greedy_slack": int(greedy_slack),
        "max_added": bool(max_added),
        "count": bool(count),
        "bound": None if bound is None else min(int(bound), unbounded(int(n))),
        "prefix": [list(map(int, s)) for s in (prefix or [])],
    }


def _flags(descriptor: dict[str, Any]) -> int:
    from puzzlelab.puzzles.matchsticks.kernels import FLAG_COUNT, FLAG_GREEDY, FLAG_LOOKAHEAD, FLAG_MAX_ADDED, FLAG_PAIRS, GREEDY_SLACK_SHIFT

    return (
        (FLAG_COUNT if descriptor["count"] else 0)
        | (FLAG_GREEDY if descriptor["greedy"] else 0)
        | (FLAG_MAX_ADDED if descriptor["max_added"] else 0)
        | (FLAG_LOOKAHEAD if descriptor.get("lookahead", True) else 0)
        | (FLAG_PAIRS if descriptor.get("pairs", False) else 0)  # fewer nodes, more CPU (docs/matchsticks.md)
        | (int(descriptor.get("greedy_slack", 0)) << GREEDY_SLACK_SHIFT if descriptor["greedy"] else 0)
    )


KEEP_ANSWERS = 64  # optimal solutions a counting subtree lists (for their classification)


def _run_kernel(descriptor: dict[str, Any], control: np.ndarray, split_depth: int = 0, capacity: int = 1, trace: np.ndarray | None = None):
    from puzzlelab.puzzles.matchsticks import kernels

    n = descriptor["n"]
    tables = tables_of(descriptor)
    ids = prefix_ids(tables, descriptor["prefix"])
    bound = descriptor["bound"]
    limit0 = unbounded(n) if bound is None else int(bound)
    split_out = np.zeros((max(1, capacity), max(1, split_depth)), np.int64)
    best_path = np.zeros(max(1, n), np.int64)
    stats = np.zeros(kernels.STATS_LEN, np.int64)
    kept = np.zeros((KEEP_ANSWERS if descriptor["count"] else 0, max(1, n)), np.int64)
    kernels.search_kernel(
        n,
        tables.area,
        tables.start,
        tables.x,
        tables.y,
        tables.h,
        tables.v,
        ids,
        limit0,
        _flags(descriptor),
        split_depth,
        split_out,
        best_path,
        control,
        stats,
        np.zeros((0, 0), np.int64) if trace is None else trace,
        kept,
    )
    if trace is not None or split_depth:
        return tables, stats, best_path, split_out
    return tables, stats, best_path, [prefix_squares(tables, kept[i, :n]) for i in range(int(stats[kernels.STAT_KEPT]))]


def solve_subtree(descriptor: dict[str, Any], budget: Budget | None = None) -> dict[str, Any]:
    """Search one subtree; returns {found, best, count, nodes, complete, solution, seconds}.

    `best` and `solution` are the best answer below the bound (None when there is none);
    `count` is the number of answers equal to `best` (meaningful when counting)."""
    from puzzlelab.puzzles.matchsticks import kernels

    started = time.perf_counter()
    budget = budget or Budget()
    if descriptor["n"] == 0:
        return {"found": True, "best": 0, "count": 1, "nodes": 0, "complete": True, "solution": [], "seconds": 0.0}
    tables, stats, best_path, answers = _run_kernel(descriptor, budget.control)
    found = bool(stats[kernels.STAT_FOUND])
    extra = {"answers": answers} if descriptor["count"] and found else {}
    return {
        **extra,
        "found": found,
        "best": int(stats[kernels.STAT_BEST]) if found else None,
        "count": int(stats[kernels.STAT_COUNT]) if found else 0,
        "nodes": int(stats[kernels.STAT_NODES]),
        "complete": int(stats[kernels.STAT_STATUS]) == kernels.STATUS_DONE,
        "solution": prefix_squares(tables, best_path[: descriptor["n"]]) if found else None,
        "seconds": time.perf_counter() - started,
    }


def run_subtree_task(descriptor: dict[str, Any], budget: Budget | None = None, interim: Callable | None = None) -> dict[str, Any]:
    """Worker-process entry point (module level so it pickles by name)."""
    return solve_subtree(descriptor, budget=budget)


class SplitTooLarge(Exception):
    """Splitting one level deeper would take more memory than allowed."""


def split_subtree(
    descriptor: dict[str, Any], depth: int, budget: Budget | None = None, max_prefixes: int | None = None
) -> list[list[list[int]]] | None:
    """Prefixes of the nodes at `depth` below the descriptor's prefix that are within its
    bound, in the kernel's visiting order. None when the budget ran out first;
    SplitTooLarge when there are more than `max_prefixes`."""
    from puzzlelab.puzzles.matchsticks import kernels

    n = descriptor["n"]
    if depth <= len(descriptor["prefix"]) or depth >= n:
        raise ValueError(f"split depth must lie strictly between {len(descriptor['prefix'])} and {n}")
    budget = budget or Budget()
    capacity = 1024 if max_prefixes is None else max(1, min(1024, max_prefixes))
    while True:
        tables, stats, _, split_out = _run_kernel(descriptor, budget.control, depth, capacity)
        status = int(stats[kernels.STAT_STATUS])
        if status == kernels.STATUS_SPLIT_OVERFLOW:
            if max_prefixes is not None and capacity >= max_prefixes:
                raise SplitTooLarge(f"more than {max_prefixes} subtrees at depth {depth}")
            capacity = capacity * 8 if max_prefixes is None else min(capacity * 8, max_prefixes)
            continue
        if status == kernels.STATUS_STOPPED:
            return None
        count = int(stats[kernels.STAT_SPLITS])
        return [prefix_squares(tables, split_out[i]) for i in range(count)]


def plan_subtrees(base: dict[str, Any], target: int, budget: Budget | None = None) -> list[list[list[int]]] | None:
    """Cut the whole search into at least `target` subtrees where the tree allows: the
    root prefixes (`tables.roots_of`) split one level deeper at a time. Returns the
    prefixes, or None if the budget ran out while planning. A level that would not fit
    the memory allowed (`limits.memory_allowed`) is not made: the plan then stays at
    the level before, with fewer subtrees than asked (the search is the same)."""
    return cut_finer(base, roots_of(base), target, budget)


def cut_finer(base: dict[str, Any], prefixes: list[list[list[int]]], target: int, budget: Budget | None = None) -> list[list[list[int]]] | None:
    """The subtrees below `prefixes`, each split one level deeper at a time until there
    are at least `target` (or a level would not fit the memory allowed, or the next
    square is the last). Together they hold every node of `prefixes` within the bound,
    in the same visiting order. None if the budget ran out first."""
    budget = budget or Budget()
    n = base["n"]
    room = memory_allowed(budget)
    while prefixes and len(prefixes) < target:
        deepest = max(len(p) for p in prefixes)
        if deepest >= n - 1:
            break  # the next square would be the last: nothing left to split
        most = room // prefix_bytes(deepest + 1)
        deeper: list[list[list[int]]] = []
        try:
            for prefix in prefixes:
                if budget.expired():
                    return None
                found = split_subtree(dict(base, prefix=prefix), len(prefix) + 1, budget, max_prefixes=most - len(deeper))
                if found is None:
                    return None
                deeper.extend(found)
        except SplitTooLarge:
            return prefixes
        prefixes = deeper
    return prefixes


@dataclass
class SearchOutcome:
    """What a (possibly split, possibly resumed) search established."""

    best: int | None
    solution: list[list[int]] | None
    count: int
    nodes: int
    complete: bool
    subtrees: int
    subtrees_done: int
    seconds: float
    resumed: int = 0
    details: dict[str, Any] = field(default_factory=dict)
    answers: list = field(default_factory=list)  # counting: optimal answers listed (up to 64 a subtree)


class _LazySubtreeTasks(Sequence):
    """The pending subtrees as `core.parallel` Tasks, built when a worker takes one, so
    each carries the best bound known at that moment."""

    def __init__(self, base: dict[str, Any], prefixes: list, indices: list[int], bound_of: Callable[[], int | None]):
        self.base, self.prefixes, self.indices, self.bound_of = base, prefixes, indices, bound_of

    def __len__(self) -> int:
        return len(self.indices)

    def __getitem__(self, i):  # type: ignore[override]
        from puzzlelab.core.parallel import Task

        index = self.indices[i]
        descriptor = dict(self.base, prefix=self.prefixes[index], bound=self.bound_of())
        return Task(run_subtree_task, (descriptor,), name=str(index), context=True)


class _Tally:
    """What the finished subtrees established so far: the best answer (the bound the
    next subtrees search below), the nodes, and per value the number of answers (for
    counting); recorded in the checkpoint as subtrees finish."""

    def __init__(self, base: dict[str, Any], known: tuple[int, list[list[int]]] | None, state: Checkpoint, report) -> None:
        self.base, self.state, self.report = base, state, report
        self.best = known[0] if known else None
        self.solution = known[1] if known else None
        self.nodes = 0
        self.per_value: dict[int, int] = {}
        self.answers: dict[int, list] = {}  # per value, the answers the subtrees listed
        self.results: dict[int, dict[str, Any]] = {}

    def absorb(self, result: dict[str, Any]) -> None:
        self.nodes += result["nodes"]
        if result["found"]:
            value = result["best"]
            self.per_value[value] = self.per_value.get(value, 0) + result["count"]
            self.answers.setdefault(value, []).extend(result.get("answers", []))
            if self.best is None or value < self.best or (value == self.best and self.solution is None):
                self.best, self.solution = value, result["solution"]
                self.state.data["bound"], self.state.data["solution"] = self.best, self.solution

    def finish(self, index: int, result: dict[str, Any]) -> bool:
        """Count one subtree's result; True when it completed (then it is recorded)."""
        self.absorb(result)
        if result["complete"]:
            self.results[index] = result
            self.state.finish(index, result)
        return bool(result["complete"])

    def bound_now(self) -> int | None:
        # The known answer's value or the descriptor's own bound (a limit with no answer
        # behind it), whichever is lower; none when there is neither. (Both are in the
        # kernel's terms: strict when proving, inclusive when counting.)
        bounds = [b for b in (self.best, self.base.get("bound")) if b is not None]
        return min(bounds) if bounds else None

    def tell(self, total: int) -> None:
        done = len(self.results)
        self.report(
            Progress(phase="subtrees", message=f"{done}/{total} subtrees", done=done, total=total, best=self.best, stats={"nodes": self.nodes})
        )


def _prefixes(base: dict[str, Any], tally: _Tally, target_subtrees: int, budget: Budget) -> list | None:
    """The subtrees' prefixes: the checkpoint's when it holds this search (its bound
    then joins the known answer), else planned now (None: the budget ran out first)."""
    state = tally.state
    if state.load():
        if state.data.get("bound") is not None and (tally.best is None or state.data["bound"] < tally.best):
            tally.best, tally.solution = state.data["bound"], state.data.get("solution")
        if not _recut_pending(base, tally, target_subtrees, budget):
            return None
        for index, result in state.data["done"].items():
            tally.results[int(index)] = result
            tally.absorb(result)
        return state.data["prefixes"]
    if target_subtrees:
        planning_bound = dict(base, bound=tally.bound_now())
        prefixes = plan_subtrees(planning_bound, target_subtrees, budget)
    else:
        prefixes = roots_of(base)
    if prefixes is not None:
        state.start(prefixes, tally.best, tally.solution)
    return prefixes


def _recut_pending(base: dict[str, Any], tally: _Tally, target_subtrees: int, budget: Budget) -> bool:
    """On resuming: when fewer subtrees are left than the plan's target, cut them finer
    (`cut_finer`) and record the new cut in the checkpoint. Subtrees differ widely in
    size (greedy n = 61's 1,112: median 18 million nodes, the largest 4.9 billion), and a
    search that resumed with one left ran it alone on one of two workers; cut again,
    every worker gets a share of what is left. False if the budget ran out while
    cutting."""
    state = tally.state
    prefixes, done = state.data["prefixes"], state.data["done"]
    pending = [prefix for i, prefix in enumerate(prefixes) if str(i) not in done]
    if not pending or len(pending) >= target_subtrees:
        return True
    bound = tally.best if tally.best is not None else base.get("bound")
    finer = cut_finer(dict(base, bound=bound), pending, target_subtrees, budget)
    if finer is None:
        return False
    if finer != pending:
        state.recut(finer)
    return True


def _run_here(base: dict[str, Any], prefixes: list, pending: list[int], tally: _Tally, budget: Budget) -> bool:
    """The pending subtrees one after another in this process; False if one did not finish."""
    for k, index in enumerate(pending):
        # The first subtree always runs: the kernel polls the budget itself (every
        # 2^16 nodes), so a small search still completes when numba compilation
        # ate the budget, and a large one stops promptly.
        if k and budget.expired():
            return False
        if not tally.finish(index, solve_subtree(dict(base, prefix=prefixes[index], bound=tally.bound_now()), budget)):
            return False
        tally.tell(len(prefixes))
    return True


def _run_tasks(base, prefixes, pending, tally: _Tally, budget: Budget, workers: int, backend: str, address: str | None) -> bool:
    """The pending subtrees as `core.parallel` tasks (worker processes or Ray), each
    taking the best bound known when it starts; False if one did not finish."""
    from puzzlelab.core.parallel import run_tasks

    complete = True
    tasks = _LazySubtreeTasks(base, prefixes, pending, tally.bound_now)
    for outcome in run_tasks(tasks, workers=workers, budget=budget, grace=2.0, backend=backend, address=address):
        if not outcome.ok or outcome.value is None:
            complete = False
            continue
        complete = tally.finish(pending[outcome.index], outcome.value) and complete
        tally.tell(len(prefixes))
    return complete


def run_search(
    base: dict[str, Any],
    *,
    known: tuple[int, list[list[int]]] | None = None,
    budget: Budget | None = None,
    progress: Callable[[Progress], None] | None = None,
    workers: int = 1,
    target_subtrees: int = 0,
    checkpoint: str | os.PathLike | None = None,
    backend: str = "local",
    address: str | None = None,
) -> SearchOutcome:
    """Search the whole space of `base` (a descriptor without prefix).

    - `known`: an answer (value, squares) already in hand; its value is the starting
      bound (proving: only better answers are searched; counting: ties are counted),
      unless the descriptor's own bound is lower (then that one: `full` searching below
      the published value with a shipped answer in hand).
    - `target_subtrees`: cut into at least this many subtrees (0: one per root prefix).
    - `workers` > 1 runs subtrees in `core.parallel` worker processes; `backend="ray"`
      (with `address`) hands the same descriptors to a Ray cluster through core.parallel.
    - `checkpoint`: a JSON file; finished subtrees are recorded there and skipped when
      the same search is run again.
    """
    started = time.perf_counter()
    budget = budget or Budget()
    tally = _Tally(base, known, Checkpoint(checkpoint, base), progress or (lambda _: None))
    prefixes = _prefixes(base, tally, target_subtrees, budget)
    if prefixes is None:
        return SearchOutcome(tally.best, tally.solution, 0, 0, False, 0, 0, time.perf_counter() - started)
    done_before = len(tally.results)
    pending = [i for i in range(len(prefixes)) if i not in tally.results]
    if backend == "local" and (workers <= 1 or len(pending) <= 1):
        complete = _run_here(base, prefixes, pending, tally, budget)
    else:
        complete = _run_tasks(base, prefixes, pending, tally, budget, workers, backend, address)
    complete = complete and len(tally.results) == len(prefixes)
    tally.state.write(force=True)
    count = tally.per_value.get(tally.best, 0) if tally.best is not None and base["count"] else 0
    return SearchOutcome(
        best=tally.best,
        solution=tally.solution,
        count=count,
        nodes=tally.nodes,
        complete=complete,
        subtrees=len(prefixes),
        subtrees_done=len(tally.results),
        seconds=time.perf_counter() - started,
        resumed=done_before if tally.state.loaded else 0,
        answers=tally.answers.get(tally.best, []) if count else [],
    )
