"""Run tasks in worker processes, here or on a Ray cluster, under a Budget.

    tasks.py        Task, Outcome, Event: what travels, whatever the backend
    memory.py       memory limits for worker processes (per process and per group)
    pool.py         WorkerPool: this machine's worker processes (submit, cancel, events)
    local.py        the `local` backend: a batch on a WorkerPool
    ray_backend.py  the `ray` backend: the same batch on a Ray cluster (Ray imported lazily)
    dispatch.py     run_tasks / map / portfolio, the backend chosen by name
    driver.py       solve many instances, verify each answer here, store it

Each module imports only those listed above it. Callers import from this package:
`from puzzlelab.core.parallel import Task, run_tasks`.
"""

from puzzlelab.core.parallel.dispatch import BACKENDS, map, portfolio, run_tasks
from puzzlelab.core.parallel.driver import (
    Answer,
    BatchRun,
    Collector,
    Failure,
    accept,
    result_per_task,
    solve_instance,
    solve_many,
)
from puzzlelab.core.parallel.memory import machine_memory
from puzzlelab.core.parallel.pool import WorkerPool, start_method
from puzzlelab.core.parallel.tasks import Event, Outcome, Task, default_workers, spin

__all__ = [
    "Task",
    "Outcome",
    "Event",
    "WorkerPool",
    "machine_memory",
    "run_tasks",
    "map",
    "portfolio",
    "default_workers",
    "start_method",
    "spin",
    "BACKENDS",
    "Answer",
    "Failure",
    "BatchRun",
    "Collector",
    "accept",
    "solve_many",
    "result_per_task",
    "solve_instance",
]
