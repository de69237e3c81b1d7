"""What a service worker process runs for one job. It receives a small descriptor
(puzzle name, instance JSON, method, options, seed) -- never solver state -- and sends
its process id and then its progress back as interim messages. The solving is the core
driver's worker side (`core.parallel.solve_instance`); the parent re-verifies whatever
comes back (`core.parallel.accept`).

`processes` is the most processes or threads one job may start (the operator's cap):
the options that ask for them are capped at the door, and a method that picks a count
itself (`core.parallel.default_workers`) reads it from PUZZLELAB_WORKERS, set here."""

from __future__ import annotations

import os
from typing import Any, Callable

from puzzlelab.core.parallel import solve_instance
from puzzlelab.core.result import Budget
from puzzlelab.puzzles import get


def run_job(
    puzzle_name: str,
    instance_json: Any,
    method: str,
    options: dict[str, Any],
    seed: int,
    *,
    budget: Budget,
    interim: Callable[[Any], None],
    processes: int | None = None,
) -> dict[str, Any]:
    """Solve one job; returns the Result as a dict (without the worker's verdict)."""
    if processes is not None:
        os.environ["PUZZLELAB_WORKERS"] = str(int(processes))
    interim({"pid": os.getpid()})
    return solve_instance(get(puzzle_name), instance_json, method, options, seed=seed, budget=budget, interim=interim)
