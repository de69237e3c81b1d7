"""What a service worker process runs for one job. It receives a small descriptor
(puzzle name, instance JSON, method, options, seed) -- never solver state -- and sends
progress back as interim messages. The parent re-verifies whatever comes back."""

from __future__ import annotations

import os
from typing import Any, Callable

from puzzlelab.core.result import Budget, Progress, throttle
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
) -> dict[str, Any]:
    """Solve one job; returns {'result': Result.to_dict()}."""
    interim({"pid": os.getpid()})
    puzzle = get(puzzle_name)
    instance = puzzle.parse(instance_json)
    send = throttle(lambda event: interim({"progress": event.to_dict()}), every_seconds=0.5)

    def progress(event: Progress) -> None:
        send(event)

    result = puzzle.solve(instance, method, budget=budget, progress=progress, seed=seed, **options)
    return {"result": result.to_dict()}
