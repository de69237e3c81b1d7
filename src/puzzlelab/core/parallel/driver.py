"""Solve many instances in workers, verify each answer on the calling side, store it.

The one driver behind the batch verbs (coins, hexagon, matchsticks) and the service's
job runner. What travels to a worker is a small descriptor -- a module-level function
and plain arguments (puzzle, instance JSON, method, options, seconds) -- never solver
state, so the same tasks run on any backend (`dispatch.run_tasks`: local processes or
a Ray cluster). What comes back is not trusted: every answer is replayed by the
puzzle's independent checker (`Puzzle.check`) here, before anyone sees it or the
records store keeps it, and a worker's own verdict is discarded first.

A puzzle keeps only what is its own: how to plan its tasks (the descriptors), and how a
task's values, final or interim, become answers (a `Collector`, or a plain function
for the common case of one Result per task: `result_per_task`). This module knows no
puzzle: the `Puzzle` object comes in as an argument.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from puzzlelab.core.parallel.dispatch import run_tasks
from puzzlelab.core.parallel.tasks import Task
from puzzlelab.core.puzzle import Puzzle
from puzzlelab.core.result import Budget, Result, throttle
from puzzlelab.core.store import Store

__all__ = ["Answer", "Failure", "BatchRun", "Collector", "accept", "solve_many", "result_per_task", "solve_instance"]


@dataclass
class Answer:
    """One instance's answer as it came back: `key` (the instance's name in the records
    store), the instance, its Result, and the index of the task that gave it."""

    key: str
    instance: Any
    result: Result
    task: int = -1


@dataclass
class Failure:
    """A task that returned nothing: stopped ('deadline', 'cancelled') or failed (its
    traceback, 'worker died ...')."""

    task: int
    name: str
    error: str

    @property
    def stopped(self) -> bool:
        """Stopped by the budget or a cancel, rather than broken."""
        return self.error in ("deadline", "cancelled")

    @property
    def reason(self) -> str:
        """The error's last line (a traceback's exception), for a person to read."""
        lines = self.error.strip().splitlines()
        return lines[-1] if lines else "failed"


@dataclass
class BatchRun:
    """What `solve_many` did: the verified answers (in arrival order), the tasks that
    gave nothing, and the seconds it took."""

    answers: list[Answer] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0


class Collector:
    """How a batch's task values become answers: the puzzle's own part of a batch.

    `finished(task, value)` gets each task's final value (or the last interim value of
    a task stopped early) and returns the answers it settles; `interim(task, value)`
    sees interim values as they arrive (local backend); `settled()` true stops every
    task still running; `leftover()` gives the answers still owed when the batch ends
    (an order with a grid but no proof, say). Subclass it where answers are merged over
    several tasks; a plain function `(task, value) -> answers` does for the rest."""

    def finished(self, task: int, value: Any) -> Iterable[Answer]:
        raise NotImplementedError

    def interim(self, task: int, value: Any) -> None:
        """Interim values are ignored unless a subclass merges them."""

    def settled(self) -> bool:
        return False

    def leftover(self) -> Iterable[Answer]:
        return ()


class _Function(Collector):
    def __init__(self, answers: Callable[[int, Any], Iterable[Answer]]):
        self._answers = answers

    def finished(self, task: int, value: Any) -> Iterable[Answer]:
        return self._answers(task, value)


def result_per_task(puzzle: Puzzle, instances: Sequence[Any]) -> Callable[[int, Any], list[Answer]]:
    """The collector of a batch whose task i returns one Result dict (or None) for
    `instances[i]`."""

    def answers(task: int, value: Any) -> list[Answer]:
        if value is None:
            return []
        instance = instances[task]
        return [Answer(puzzle.instance_key(instance), instance, Result.from_dict(value), task)]

    return answers


def accept(puzzle: Puzzle, answer: Answer, store: Store | None = None) -> Result:
    """Verify an answer here, whatever the worker said, and keep it in `store` when the
    checker accepts it. Raises WrongAnswer on a rejected solution; a result without a
    solution (unknown, infeasible) gets a verdict saying so and is not stored."""
    result = answer.result
    result.verdict = None  # the worker's verdict is not evidence
    puzzle.check(answer.instance, result)
    if store is not None and result.verified:
        store.add(puzzle.name, answer.key, result, puzzle.sense, instance_json=puzzle.format_instance(answer.instance))
    return result


def solve_many(
    puzzle: Puzzle,
    tasks: Sequence[Task],
    collect: Collector | Callable[[int, Any], Iterable[Answer]],
    *,
    store: Store | None = None,
    budget: Budget | None = None,
    workers: int | None = None,
    grace: float = 1.0,
    retries: int = 0,
    backend: str = "local",
    address: str | None = None,
    on_result: Callable[[Answer], None] | None = None,
    on_failure: Callable[[Failure], None] | None = None,
) -> BatchRun:
    """Run `tasks` on `backend` (see `dispatch.run_tasks` for budget, grace, retries,
    workers, address); turn what each returns into answers with `collect`; verify every
    answer with `puzzle.check` here and, with `store`, keep the verified ones as they
    arrive (so a long batch is resumable). `on_result(answer)` sees each answer once it
    is verified (and stored); `on_failure(failure)` each task that returned nothing.
    Raises WrongAnswer if a worker's answer fails the checker."""
    collector = collect if isinstance(collect, Collector) else _Function(collect)
    run = BatchRun()
    started = time.perf_counter()

    def keep(answers: Iterable[Answer]) -> None:
        for answer in answers:
            accept(puzzle, answer, store)
            run.answers.append(answer)
            if on_result is not None:
                on_result(answer)

    outcomes = run_tasks(
        tasks,
        workers=workers,
        budget=budget,
        grace=grace,
        retries=retries,
        stop_when=lambda _: collector.settled(),  # asked after the outcome below is kept
        on_interim=collector.interim,
        backend=backend,
        address=address,
    )
    for outcome in outcomes:
        if outcome.ok:
            keep(collector.finished(outcome.index, outcome.value))
            continue
        failure = Failure(outcome.index, outcome.name, outcome.error)
        run.failures.append(failure)
        if on_failure is not None:
            on_failure(failure)
    keep(collector.leftover())
    run.seconds = time.perf_counter() - started
    return run


def solve_instance(
    puzzle: Puzzle,
    instance: Any,
    method: str | None,
    options: dict[str, Any],
    *,
    seed: int = 0,
    budget: Budget | None = None,
    interim: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Worker side of one instance: parse its JSON form, solve it under `budget`, and
    return the Result as a dict without the worker's verdict (the caller verifies
    again). With `interim`, progress goes back as `{'progress': event}` messages, at
    most two a second."""
    progress = None
    if interim is not None:
        progress = throttle(lambda event: interim({"progress": event.to_dict()}), every_seconds=0.5)
    result = puzzle.solve(puzzle.parse(instance), method, budget=budget, progress=progress, seed=seed, **options)
    data = result.to_dict()
    data["verdict"] = None
    return data
