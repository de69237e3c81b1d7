"""A batch of matchstick instances solved side by side through the core driver
(`core.parallel.solve_many`).

What travels is a small descriptor per instance -- the instance JSON, the method's name,
its options and the seconds allowed -- never solver state, so the same call runs in local
worker processes or on a Ray cluster (`backend="ray"`, `address=...`). Each answer comes
back as a plain Result dict and is checked on the driver by the independent verifier
(`Puzzle.check`) before anyone sees it: a worker's word is not trusted.

Used by the `table` verb (`--jobs`, `--backend`, `--address`) and usable from Python:

    from puzzlelab.puzzles.matchsticks.batch import solve_batch
    rows = solve_batch([5, 6, 12, 16], "full", seconds=60, options={"count_solutions": True})
"""

from __future__ import annotations

from typing import Any, Iterable

from puzzlelab.core.parallel import Task, result_per_task, solve_instance, solve_many
from puzzlelab.core.result import Budget, Status

__all__ = ["solve_batch", "solve_one"]


def solve_one(instance_json: Any, method: str, options: dict[str, Any], seconds: float | None) -> dict[str, Any]:
    """Worker entry point: solve one instance (given as JSON) and return the Result as a
    dict, without the worker's verdict (the driver verifies again). Module level so it
    ships by name to a worker process or a Ray node."""
    from puzzlelab.puzzles.matchsticks import PUZZLE

    return solve_instance(PUZZLE, instance_json, method, options, budget=Budget(seconds))


def solve_batch(
    ns: Iterable[int],
    method: str = "full",
    *,
    seconds: float | None = 60.0,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[dict[str, Any]]:
    """Solve every n with one method, one task per n, through the core driver
    (`core.parallel.solve_many`).

    Returns one row per n, in the order given: {n, value, status, verified, result}
    where `result` is the verified `Result` (None, with `error`, when the task failed or
    ran out of time before returning). Raises `InvalidInstance` for a bad n, method or
    option before anything is shipped, and `WrongAnswer` if a worker's answer fails the
    checker."""
    from puzzlelab.puzzles.matchsticks import PUZZLE

    options = dict(options or {})
    instances = [PUZZLE.parse(n) for n in ns]
    PUZZLE.method(method).parse_options(options)  # bad options fail here, not on a node
    tasks = [Task(solve_one, (PUZZLE.format_instance(inst), method, options, seconds), name=str(i)) for i, inst in enumerate(instances)]
    # Each task keeps its own deadline; the batch gets a little more so that a task
    # returning its best at the deadline is not cut off by the pool.
    batch_budget = None if seconds is None else Budget(seconds * len(tasks) + 30.0)
    run = solve_many(
        PUZZLE, tasks, result_per_task(PUZZLE, instances), budget=batch_budget, workers=workers, backend=backend, address=address
    )
    answers = {answer.task: answer.result for answer in run.answers}
    failures = {failure.task: failure.reason for failure in run.failures}
    rows = []
    for i, instance in enumerate(instances):
        row: dict[str, Any] = {"n": instance.n, "value": None, "status": Status.UNKNOWN.value, "verified": False, "result": None}
        result = answers.get(i)
        if result is None:
            row["error"] = failures.get(i, "not run")
        else:
            row.update(value=result.value, status=result.status.value, verified=result.verified, result=result)
        rows.append(row)
    return rows
