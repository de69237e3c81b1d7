"""A batch of matchstick instances solved side by side through `core.parallel.map`.

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

from puzzlelab.core.result import Budget, Result, Status

__all__ = ["solve_batch", "solve_one"]


def solve_one(instance_json: Any, method: str, options: dict[str, Any], seconds: float | None) -> dict[str, Any]:
    """Worker entry point: solve one instance (given as JSON) and return the Result as a
    dict. Module level so it ships by name to a worker process or a Ray node."""
    from puzzlelab.puzzles.matchsticks import PUZZLE

    instance = PUZZLE.parse(instance_json)
    result = PUZZLE.solve(instance, method, budget=Budget(seconds), **options)
    data = result.to_dict()
    data["verdict"] = None  # the driver verifies again; do not carry the worker's verdict
    return data


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
    """Solve every n with one method, one task per n, through `core.parallel.map`.

    Returns one row per n, in the order given: {n, value, status, verified, result}
    where `result` is the verified `Result` (None, with `error`, when the task failed or
    ran out of time before returning). Raises `InvalidInstance` for a bad n, method or
    option before anything is shipped, and `WrongAnswer` if a worker's answer fails the
    checker."""
    from puzzlelab.core.parallel import map as parallel_map
    from puzzlelab.puzzles.matchsticks import PUZZLE

    options = dict(options or {})
    instances = [PUZZLE.parse(n) for n in ns]
    PUZZLE.method(method).parse_options(options)  # bad options fail here, not on a node
    items = [(PUZZLE.format_instance(inst), method, options, seconds) for inst in instances]
    # Each task keeps its own deadline; the batch gets a little more so that a task
    # returning its best at the deadline is not cut off by the pool.
    batch_budget = None if seconds is None else Budget(seconds * len(items) + 30.0)
    outcomes = parallel_map(solve_one, items, workers=workers, budget=batch_budget, backend=backend, address=address)
    by_index = {outcome.index: outcome for outcome in outcomes}
    rows = []
    for i, instance in enumerate(instances):
        outcome = by_index.get(i)
        row: dict[str, Any] = {"n": instance.n, "value": None, "status": Status.UNKNOWN.value, "verified": False, "result": None}
        if outcome is None or not outcome.ok or outcome.value is None:
            row["error"] = "not run" if outcome is None else (outcome.error.strip().splitlines() or ["failed"])[-1]
        else:
            result = PUZZLE.check(instance, Result.from_dict(outcome.value))
            row.update(value=result.value, status=result.status.value, verified=result.verified, result=result)
        rows.append(row)
    return rows
