"""What one client may take of a shared server, as its operator set it (`puzzlelab serve
--workers / --job-workers / --job-memory-mb / --max-budget / --max-queued`).

A request may ask for less, never more. The caps follow the options' own declarations
(`Option.resource`, in each puzzle's methods.py), not a list kept here:

- "processes" (worker counts, solver threads): at most `job_processes`; 0, which asks
  for as many as the machine allows, becomes `job_processes`;
- "memory" (an amount of MB or GB, a beam's width, a count of planned subtrees): the
  value times the option's `unit_bytes` at most `job_memory_bytes`;
- the budget: at most `max_budget` seconds.

An option the client sets above its cap is refused (422, naming the option and the
cap); one it leaves at a default above the cap gets the cap. The queue holds at most
`max_queued` jobs: past it a job is refused with 503 and a Retry-After (`QueueFull`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance, Method, Option
from puzzlelab.core.result import format_bytes

__all__ = [
    "Capacity",
    "QueueFull",
    "DEFAULT_MAX_BUDGET",
    "DEFAULT_MAX_QUEUED",
    "DEFAULT_FINISHED_KEPT",
    "REQUEST_SECONDS",
    "KEEP_ALIVE_SECONDS",
    "MAX_CONNECTIONS",
    "option_cap",
]

DEFAULT_MAX_BUDGET = 3600.0  # seconds: one job holds a worker at most an hour
DEFAULT_MAX_QUEUED = 64
DEFAULT_FINISHED_KEPT = 500  # finished jobs kept in memory; the store keeps all of them
# The HTTP server's (service.http_server): seconds a request has to arrive whole, from
# its first byte; seconds an idle connection is kept (uvicorn's 5 s default races with
# clients that poll a job every few seconds on a loaded machine: "connection reset by
# peer"); connections open at once, past which a request is answered 503.
REQUEST_SECONDS = 15.0
KEEP_ALIVE_SECONDS = 30
MAX_CONNECTIONS = 256


class QueueFull(Exception):
    """The queue is at its bound: answered 503 with `Retry-After: retry_after`."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Capacity:
    """The operator's caps. `job_memory_bytes` None: the machine's memory is not known,
    and memory options are not capped (the budget and the worker's limits still are)."""

    job_processes: int = 2
    job_memory_bytes: int | None = None
    max_budget: float = DEFAULT_MAX_BUDGET
    max_queued: int = DEFAULT_MAX_QUEUED
    finished_kept: int = DEFAULT_FINISHED_KEPT

    def to_dict(self) -> dict[str, Any]:
        return {
            "job_processes": self.job_processes,
            "job_memory_bytes": self.job_memory_bytes,
            "max_budget": self.max_budget,
            "max_queued": self.max_queued,
            "finished_kept": self.finished_kept,
        }

    def budget(self, seconds: float) -> float:
        """The budget of a job, refused (422) above `max_budget`."""
        if seconds > self.max_budget:
            raise InvalidInstance(
                f"budget: at most {self.max_budget:g} s on this server (its operator's cap, serve --max-budget), got {seconds:g}",
                "budget",
            )
        return seconds

    def options(self, method: Method, asked: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        """`values` (the method's parsed options) within the caps: 422 for an option the
        request set above its cap; a default above it, or 0 for "as many as allowed",
        becomes the cap. `asked` is the request's own options (names as sent)."""
        given = {str(k).lstrip("-").replace("-", "_") for k, v in asked.items() if v is not None}
        capped = dict(values)
        for option in method.options:
            cap = option_cap(option, self)
            value = capped.get(option.name)
            if cap is None or not isinstance(value, (int, float)) or isinstance(value, bool):
                continue
            if value > cap and option.name in given:
                raise InvalidInstance(f"option {option.flag}: at most {_shown(cap)} on this server ({_why(option, self)}), got {_shown(value)}",
                                      option.name)
            if value > cap or (value == 0 and option.resource == "processes"):
                capped[option.name] = cap
        return capped


def option_cap(option: Option, capacity: Capacity) -> int | float | None:
    """The largest value of `option` this server takes, or None where none applies."""
    if option.resource == "processes":
        cap: float = capacity.job_processes
    elif option.resource == "memory" and capacity.job_memory_bytes is not None:
        cap = capacity.job_memory_bytes / option.unit_bytes
        cap = math.floor(cap) if option.kind == "int" else round(cap, 3)
    else:
        return None
    if option.maximum is not None:
        cap = min(cap, option.maximum)
    if option.minimum is not None:
        cap = max(cap, option.minimum)  # below its least value the run's own checks refuse it
    return int(cap) if option.kind == "int" else float(cap)


def _why(option: Option, capacity: Capacity) -> str:
    if option.resource == "processes":
        return "the processes one job may start, serve --job-workers"
    return f"what fits the memory of one job, {format_bytes(capacity.job_memory_bytes)}, serve --job-memory-mb"


def _shown(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
