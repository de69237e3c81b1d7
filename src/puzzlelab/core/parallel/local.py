"""The `local` backend: a batch of tasks on a `WorkerPool` of this machine's processes."""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from puzzlelab.core.parallel.pool import WorkerPool
from puzzlelab.core.parallel.tasks import Outcome, Task, default_workers
from puzzlelab.core.result import Budget

__all__ = ["run_tasks"]


def run_tasks(
    tasks: Sequence[Task],
    *,
    workers: int | None = None,
    budget: Budget | None = None,
    grace: float = 1.0,
    retries: int = 0,
    stop_when: Callable[[Outcome], bool] | None = None,
    on_interim: Callable[[int, Any], None] | None = None,
    address: str | None = None,
) -> Iterator[Outcome]:
    """`dispatch.run_tasks` on worker processes here (`address` is not used).

    Tasks are taken from `tasks` one at a time, as a worker comes free (as the Ray
    backend does), not all at once: a lazy sequence then builds each task with what
    the finished ones established (the matchsticks subtrees take the best bound known
    when they start; taken all at once, every subtree of a fresh search ran unbounded).
    When the run stops early, the tasks not yet taken are taken and cancelled, so every
    task still gets its Outcome."""
    budget = budget or Budget()
    n_workers = max(1, min(workers or default_workers(), len(tasks) or 1))
    with WorkerPool(n_workers, grace=grace, retries=retries) as pool:
        tickets: dict[int, int] = {}  # ticket -> task index, for every task taken
        remaining = len(tasks)  # tasks without an Outcome yet

        def take(everything: bool = False) -> None:
            while len(tickets) < len(tasks):
                running = len(tickets) - (len(tasks) - remaining)  # taken, less those with an Outcome
                if running >= n_workers and not everything:
                    return
                index = len(tickets)
                tickets[pool.submit(tasks[index], budget)] = index

        def stop() -> None:
            take(everything=True)
            for ticket in list(tickets):
                pool.cancel(ticket)

        take()
        stopping = False
        while remaining:
            if budget.cancelled and not stopping:
                stopping = True
                stop()
            for event in pool.events(0.2):
                index = tickets[event.ticket]
                if event.kind == "interim" and on_interim is not None:
                    on_interim(index, event.value)
                if event.kind != "done":
                    continue
                remaining -= 1
                outcome = event.outcome
                outcome.index = index
                yield outcome
                if stop_when is not None and outcome.ok and not stopping and stop_when(outcome):
                    stopping = True
                    stop()
                elif not stopping:
                    take()  # after the yield: the caller has seen this outcome
