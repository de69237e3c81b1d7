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
    """`dispatch.run_tasks` on worker processes here (`address` is not used)."""
    budget = budget or Budget()
    n_workers = max(1, min(workers or default_workers(), len(tasks) or 1))
    with WorkerPool(n_workers, grace=grace, retries=retries) as pool:
        tickets = {pool.submit(task, budget): index for index, task in enumerate(tasks)}
        remaining = len(tasks)
        stopping = False
        while remaining:
            if budget.cancelled and not stopping:
                stopping = True
                for ticket in list(tickets):
                    pool.cancel(ticket)
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
                    for ticket in list(tickets):
                        pool.cancel(ticket)
