"""The `ray` backend: the same `run_tasks` contract as the local one, on a Ray cluster.

Tasks travel as they are: a module-level function (pickled by reference, so every node
needs puzzlelab installed) and small arguments -- puzzle name, instance JSON, method,
options, subtree or setting -- never solver state. Ray re-runs a task whose worker or
node died (`max_retries`); a task's own exceptions are not retried. A deadline, a
cancel or a portfolio's proven answer stops the rest with `ray.cancel(force=True)`,
because numba kernels and SAT calls do not see Python signals. Results come back to
the driver, which verifies them (the callers do) before anything is stored.

Ray is an optional extra: `pip install 'puzzlelab[cluster]'`.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import time
from typing import Any, Callable, Iterator, Sequence

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.parallel.tasks import Outcome, Task
from puzzlelab.core.result import Budget

__all__ = ["require_ray", "connect", "run_tasks", "MISSING_RAY"]

MISSING_RAY = "the Ray backend needs the 'cluster' extra: pip install 'puzzlelab[cluster]'"


def require_ray():
    """The ray module, or a RuntimeError naming the extra to install."""
    try:
        import ray
    except ImportError:
        raise RuntimeError(MISSING_RAY) from None
    return ray


REACH_SECONDS = 10.0  # how long the head's port may take to accept a connection


def connect(address: str | None = None):
    """Join the cluster at `address` (or RAY_ADDRESS; a local one-machine Ray when
    neither is set). Idempotent within a process. A HOST:PORT where nothing answers is
    refused up front (InvalidInstance, field 'address'): ray.init itself would retry
    for ever, printing a warning every few seconds."""
    ray = require_ray()
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        if address is not None:
            check_reachable(address)
        quiet = _DropMessage("SIGTERM handler is not set")  # the CLI connects from a worker thread on purpose
        logging.getLogger("ray._private.worker").addFilter(quiet)
        try:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, configure_logging=False)
        finally:
            logging.getLogger("ray._private.worker").removeFilter(quiet)
    return ray


def check_reachable(address: str, seconds: float = REACH_SECONDS) -> None:
    """InvalidInstance unless the head at `address` (HOST:PORT) accepts a connection.
    'auto', 'local' and Ray Client addresses (ray://...) are left to Ray."""
    if address in ("auto", "local") or "://" in address:
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InvalidInstance(f"address (--address or RAY_ADDRESS): expected HOST:PORT of a Ray head node, got {address!r}", "address")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise InvalidInstance(
            f"address (--address or RAY_ADDRESS): no Ray cluster answers at {address} ({reason}); "
            "expected a running head node (ray start --head)",
            "address",
        ) from None


class _DropMessage(logging.Filter):
    """Drops the log records that start with `prefix`."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.prefix)


def _run_task(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any], context: bool, seconds: float | None) -> Any:
    """What a Ray worker runs: the task, with its own Budget when it asks for one."""
    if context:
        kwargs = dict(kwargs, budget=Budget(seconds), interim=lambda value: None)
    return fn(*args, **kwargs)


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
    """`dispatch.run_tasks` on a Ray cluster: yields an Outcome per task as each
    finishes. `workers` caps the tasks in flight (default: as many as the cluster
    takes). Interim answers stay on the node (`on_interim` is not called): a task
    stopped at the deadline is cancelled without one."""
    ray = connect(address)
    budget = budget or Budget()
    remote = ray.remote(num_cpus=1, max_retries=max(0, retries), retry_exceptions=False)(_run_task)
    limit = workers or len(tasks) or 1
    waiting = list(range(len(tasks)))[::-1]
    running: dict[Any, tuple[int, float]] = {}  # ref -> (task index, start time)
    stopping: str | None = None

    def launch() -> None:
        while waiting and len(running) < limit and stopping is None and not budget.expired():
            index = waiting.pop()
            task = tasks[index]
            left = budget.seconds_left()
            placement = {"memory": task.memory} if task.memory else {}  # Ray places it on a node with that much left
            ref = remote.options(name=task.name or f"task-{index}", **placement).remote(
                task.fn, task.args, task.kwargs, task.context, None if math.isinf(left) else left
            )
            running[ref] = (index, time.monotonic())

    def stop_all(reason: str) -> Iterator[Outcome]:
        for ref, (index, started) in list(running.items()):
            ray.cancel(ref, force=True, recursive=True)
            yield Outcome(index, tasks[index].name, False, error=reason, seconds=time.monotonic() - started)
        running.clear()
        while waiting:
            index = waiting.pop()
            yield Outcome(index, tasks[index].name, False, error=reason, attempts=0)

    expired_at: float | None = None
    launch()
    while running or waiting:
        if stopping is None and budget.cancelled:
            stopping = "cancelled"
        if stopping is None and budget.limited and budget.expired():
            # Tasks not started never will be; running ones get `grace` to return.
            for index in waiting[::-1]:
                yield Outcome(index, tasks[index].name, False, error="deadline", attempts=0)
            waiting.clear()
            expired_at = expired_at or time.monotonic()
            if time.monotonic() - expired_at >= grace:
                stopping = "deadline"
        if stopping is not None:
            yield from stop_all(stopping)
            return
        ready, _ = ray.wait(list(running), num_returns=1, timeout=0.2)
        for ref in ready:
            index, started = running.pop(ref)
            seconds = time.monotonic() - started
            try:
                value = ray.get(ref)
                outcome = Outcome(index, tasks[index].name, True, value=value, seconds=seconds)
            except ray.exceptions.TaskCancelledError:
                outcome = Outcome(index, tasks[index].name, False, error="cancelled", seconds=seconds)
            except ray.exceptions.RayTaskError as exc:
                outcome = Outcome(index, tasks[index].name, False, error=str(exc), seconds=seconds)
            except ray.exceptions.RayError as exc:  # worker or node lost after the retries
                outcome = Outcome(index, tasks[index].name, False, error=f"worker died ({type(exc).__name__})", seconds=seconds)
            yield outcome
            if stop_when is not None and outcome.ok and stop_when(outcome):
                stopping = "cancelled"
        launch()

