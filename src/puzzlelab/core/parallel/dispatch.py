"""One entry point for every backend, chosen by name: `run_tasks` (outcomes as they
finish), and on top of it `map` for batches and a first-wins `portfolio`.

Backends: `local` (worker processes on this machine, the default) and `ray` (a Ray
cluster; Ray itself is imported only when that backend runs). Both take the same
arguments and yield the same `Outcome`s, so a caller switches with one word.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Sequence

from puzzlelab.core.parallel import local, ray_backend
from puzzlelab.core.parallel.tasks import Outcome, Task
from puzzlelab.core.result import Budget

__all__ = ["BACKENDS", "run_tasks", "map", "portfolio"]

_RUNNERS = {"local": local.run_tasks, "ray": ray_backend.run_tasks}
BACKENDS = tuple(_RUNNERS)


def run_tasks(
    tasks: Sequence[Task],
    *,
    workers: int | None = None,
    budget: Budget | None = None,
    grace: float = 1.0,
    retries: int = 0,
    stop_when: Callable[[Outcome], bool] | None = None,
    on_interim: Callable[[int, Any], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[Outcome]:
    """Run `tasks`, yielding one Outcome per task as each finishes (finishing order;
    `Outcome.index` is the task's position in `tasks`).

    - `budget`: when it expires, tasks not started are reported 'deadline'; running ones
      get `grace` seconds to return, then are terminated (their last interim value, if
      any, comes back with `interim=True`). `budget.cancel()` from another thread stops
      the batch the same way ('cancelled').
    - `retries`: a task whose worker died (crash, kill, lost node) is re-run up to this
      many times before it is reported failed. Exceptions raised by the task itself are
      not retried: they would fail again.
    - `stop_when(outcome)`: once true, every other task is terminated and reported
      'cancelled' (the first-wins rule of a portfolio). It is asked after the caller
      has seen the outcome.
    - `on_interim(index, value)`: interim answers as they arrive (local backend only: a
      Ray task's interim answers stay on its node).
    - `backend`: 'local' or 'ray'; `address`: the Ray cluster (default RAY_ADDRESS).
    """
    if backend not in _RUNNERS:
        raise ValueError(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    return _RUNNERS[backend](
        tasks, workers=workers, budget=budget, grace=grace, retries=retries, stop_when=stop_when, on_interim=on_interim, address=address
    )


def map(
    fn: Callable[..., Any],
    items: Iterable[Any],
    *,
    workers: int | None = None,
    budget: Budget | None = None,
    retries: int = 0,
    on_outcome: Callable[[Outcome], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[Outcome]:
    """fn(item) for every item in worker processes; Outcomes in the order of `items`.

    `on_outcome` sees each Outcome as it finishes (store it there to make a long batch
    resumable). Items that are tuples are spread as positional arguments.
    """
    tasks = [Task(fn, item if isinstance(item, tuple) else (item,), name=str(i)) for i, item in enumerate(items)]
    outcomes: list[Outcome | None] = [None] * len(tasks)
    for outcome in run_tasks(tasks, workers=workers, budget=budget, retries=retries, backend=backend, address=address):
        outcomes[outcome.index] = outcome
        if on_outcome is not None:
            on_outcome(outcome)
    return [o for o in outcomes if o is not None]


def portfolio(
    tasks: Sequence[Task],
    *,
    is_final: Callable[[Any], bool],
    workers: int | None = None,
    budget: Budget | None = None,
    grace: float = 1.0,
    on_interim: Callable[[int, Any], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[Outcome]:
    """Run competing tasks; the first whose value satisfies `is_final` (a proven answer)
    stops all the others, which are terminated. Returns every Outcome (index order),
    interim answers of stopped tasks included, so the caller can pick the best."""
    outcomes: list[Outcome | None] = [None] * len(tasks)
    for outcome in run_tasks(
        tasks,
        workers=workers,
        budget=budget,
        grace=grace,
        stop_when=lambda o: is_final(o.value),
        on_interim=on_interim,
        backend=backend,
        address=address,
    ):
        outcomes[outcome.index] = outcome
    return [o for o in outcomes if o is not None]
