"""One search in a worker process under the budget (core.parallel).

CaDiCaL and the numba kernels cannot be stopped by a timer, so the `sat`, `levels` and
`improve` methods run their search in a worker that reports every better answer as an
interim value; when the budget ends the worker is terminated if it has not stopped,
and the last interim value stands for the answer."""

from __future__ import annotations

from typing import Any, Callable

from puzzlelab.core.parallel import Task, run_tasks
from puzzlelab.core.result import Budget

__all__ = ["run_in_worker"]


def run_in_worker(fn: Callable[..., Any], args: tuple, budget: Budget, on_interim: Callable[[Any], None] | None = None) -> Any | None:
    """Run fn(*args, budget=, interim=) in a worker process; its return value, or the
    last interim value it reported when the budget ended first (None if it reported
    nothing). A worker that fails otherwise raises RuntimeError."""
    last: list[Any] = []

    def interim(_index: int, value: Any) -> None:
        last[:] = [value]
        if on_interim is not None:
            on_interim(value)

    summary = None
    task = Task(fn, args, name=getattr(fn, "__name__", "task"), context=True)
    for outcome in run_tasks([task], workers=1, budget=budget, grace=0.5, on_interim=interim):
        if outcome.ok or outcome.interim:
            summary = outcome.value
        elif outcome.error not in ("deadline", "cancelled"):
            raise RuntimeError(f"worker failed: {outcome.error}")
    if summary is not None:
        return summary
    return last[0] if last else None
