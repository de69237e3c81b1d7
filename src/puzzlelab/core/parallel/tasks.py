"""What travels between a caller and its workers, whatever the backend: a `Task` out,
an `Outcome` back, and the `Event`s a long-lived `WorkerPool` reports on the way."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from puzzlelab.core.inputs import check_int

__all__ = ["Task", "Outcome", "Event", "default_workers", "spin"]


@dataclass
class Task:
    """One unit of work: `fn(*args, **kwargs)`, run in a worker process.

    With `context=True` the call also gets `budget=` (the task's own Budget, the time it
    has left) and `interim=` (a function sending a value to the parent while the task
    runs). `fn` must be importable by name (a module-level function). `memory`: bytes
    the task holds at its peak, when large; the Ray backend asks the cluster for them,
    so a node runs only as many such tasks as its memory holds (the local pool sizes
    its workers itself).
    """

    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    context: bool = False
    memory: int = 0


@dataclass
class Outcome:
    """What became of one task. `ok` is true when it returned normally or left an
    interim answer; otherwise `error` says why (a traceback, 'worker died ...',
    'cancelled', 'deadline'). `value` is the return value, or the last interim value of
    a task stopped early (`interim=True`)."""

    index: int
    name: str
    ok: bool
    value: Any = None
    error: str = ""
    seconds: float = 0.0
    attempts: int = 1
    interim: bool = False


@dataclass
class Event:
    """What a WorkerPool reports: 'started', 'interim' (value = the interim payload) or
    'done' (outcome set)."""

    kind: str
    ticket: int
    value: Any = None
    outcome: Outcome | None = None


def default_workers() -> int:
    """Worker count when none is given: PUZZLELAB_WORKERS, else the machine's CPUs."""
    env = os.environ.get("PUZZLELAB_WORKERS")
    if env:
        return check_int(env, "PUZZLELAB_WORKERS", minimum=1, maximum=4096)
    return max(1, os.cpu_count() or 1)


def spin(seconds: float, token: Any = None) -> Any:
    """A calibration task: keep one core busy for `seconds`, then return `token`. The
    backend benchmark uses it to measure what dispatch costs beside real work."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return token
