"""Batch: SAT settings over several orders at once, in worker processes (or on a Ray
cluster) through `core.parallel.run_tasks`.

Each task is a small descriptor, (n, sat options, seed), run by `sat.sat_search` in a
worker; the worker reports every better grid as an interim answer, so a task stopped by
the deadline still gives its best. Per order, the driver keeps the best grid any task
found and the best lower bound any *unrestricted* task proved; when they meet, the grid
is proven optimal. Every answer is checked by the independent verifier on the driver
before it is returned (a Ray worker's word is not trusted any more than a local one).

Settings per order (`settings`):
  published     the published program's arguments for n (best_scores.tsv; unrestricted
                for n <= 5), the contest recipe that reached each record;
  portfolio     `portfolio.portfolio_settings(n)`: the published arguments first, then
                the write-up's ring/inner/break recipe and, for n <= 12, unrestricted
                level-3/level-4 lower-bound runs;
  unrestricted  plain SAT (an UNSAT answer proves optimality): for small orders.

Tasks are queued setting-rank first (every order's first setting, then every order's
second ...), so a short budget gives each order its most promising setting early. With
`stop_at_record` each task stops once it reaches the published score of its order, and
the batch stops once every order has reached it (or is proven). Unrestricted tasks are
never stopped at the record: their UNSAT answer is the proof of optimality.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from puzzlelab.core.parallel import Task, default_workers, run_tasks
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count
from puzzlelab.puzzles.hexagon.portfolio import describe, portfolio_settings
from puzzlelab.puzzles.hexagon.reference import published_arguments, published_raw
from puzzlelab.puzzles.hexagon.sat import result_from_search, sat_search
from puzzlelab.puzzles.hexagon.sat_summary import SatSummary
from puzzlelab.puzzles.hexagon.verify import checked

__all__ = ["SETTINGS", "batch_settings", "run_batch"]

SETTINGS = ("published", "portfolio", "unrestricted")


def batch_settings(n: int, settings: str) -> list[dict[str, Any]]:
    """The sat option sets tried for order n under a batch `settings` name, in the
    keyword form (defaults left out)."""
    if settings == "published":
        return [dict(published_arguments(n))]
    if settings == "portfolio":
        return [options.to_dict() for options in portfolio_settings(n)]
    if settings == "unrestricted":
        return [{}]
    raise ValueError(f"settings: expected one of {', '.join(SETTINGS)}, got {settings!r}")


def _batch_task(n: int, options: dict[str, Any], seed: int, *, budget: Budget | None = None, interim=None) -> SatSummary:
    """Worker side: one sat search (module-level so any backend can ship it by name).
    `budget`/`interim` come with context=True tasks; a backend that passes neither still
    gets the final summary (the search then runs until done or its `target`)."""
    return sat_search(n, options, seed=seed, budget=budget, report=interim)


def _restricted(options: dict[str, Any]) -> bool:
    return options.get("ring") is not None or bool(options.get("break"))


def run_batch(
    orders: list[int],
    *,
    settings: str = "published",
    budget: float | Budget = 60.0,
    seed: int = 0,
    workers: int | None = None,
    stop_at_record: bool = True,
    backend: str = "local",
    address: str | None = None,
    on_order: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run the settings of every order in `orders`; returns one row per order (in the
    order given): n, raw, penalty, status, lower (proven penalty lower bound), setting
    (the winning one), published, reached, seconds, solution (submission text), result
    (the verified Result). `on_order(row)` sees each row once its order is settled or
    the batch ends."""
    budget = budget if isinstance(budget, Budget) else Budget(float(budget))
    orders = list(dict.fromkeys(int(n) for n in orders))
    per_order = {n: batch_settings(n, settings) for n in orders}
    records = {n: published_raw(n) for n in orders}
    descriptors: list[tuple[int, dict[str, Any]]] = []
    for rank in range(max(len(s) for s in per_order.values())):
        for n in orders:
            if rank < len(per_order[n]):
                options = dict(per_order[n][rank])
                if stop_at_record and records[n] is not None and _restricted(options):
                    options["target"] = records[n]
                descriptors.append((n, options))
    tasks = [Task(_batch_task, (n, options, seed), name=f"n={n} {describe(options)}", context=True) for n, options in descriptors]
    state = {n: {"best": None, "options": {}, "lower": None, "reported": False} for n in orders}
    started = time.perf_counter()

    def absorb(index: int, summary: SatSummary | None) -> None:
        if not summary:
            return
        n, options = descriptors[index]
        slot = state[n]
        if summary.grid is not None and (slot["best"] is None or summary.penalty < slot["best"].penalty):
            slot["best"], slot["options"] = summary, options
        if not summary.restricted and summary.lower is not None:
            if slot["lower"] is None or summary.lower > slot["lower"]:
                slot["lower"] = summary.lower

    proof_wanted = {n: any(not _restricted(o) for o in per_order[n]) for n in orders}

    def settled(n: int) -> bool:
        """Proven optimal; or, when no unrestricted task is at work on it, at the record."""
        best, lower = state[n]["best"], state[n]["lower"]
        if best is None:
            return False
        if lower is not None and best.penalty <= lower:
            return True
        return stop_at_record and not proof_wanted[n] and records[n] is not None and best.raw >= records[n]

    def row_for(n: int) -> dict[str, Any]:
        slot = state[n]
        result = result_from_search(n, slot["best"], slot["options"], "sat", time.perf_counter() - started)
        lower = slot["lower"]
        if result.solution is not None and lower is not None:
            result.stats["lower_penalty"] = lower
            if result.stats["penalty"] <= lower:
                result.status, result.bound = Status.OPTIMAL, result.value
                result.stats["proven"] = f"optimal: penalty {result.stats['penalty']} found, no grid below {lower}"
            elif result.status is not Status.OPTIMAL:
                result.status, result.bound = Status.FEASIBLE, edge_count(n) - lower
        checked(HexInstance(n), result)  # raises WrongAnswer on a rejected grid
        return {
            "n": n,
            "raw": result.value,
            "penalty": result.stats.get("penalty"),
            "status": result.status.value,
            "lower": lower,
            "setting": describe(slot["options"]) if slot["best"] is not None else None,
            "published": records[n],
            "reached": result.value is not None and records[n] is not None and result.value >= records[n],
            "verified": result.verified,
            "seconds": round(time.perf_counter() - started, 3),
            "solution": result.solution,
            "result": result,
        }

    rows: dict[int, dict[str, Any]] = {}

    def report(n: int) -> None:
        if n not in rows:
            rows[n] = row_for(n)
            if on_order is not None:
                on_order(rows[n])

    def on_outcome(outcome) -> bool:
        absorb(outcome.index, outcome.value)
        n = descriptors[outcome.index][0]
        if settled(n):
            report(n)
        return all(settled(m) for m in orders)

    for outcome in run_tasks(
        tasks,
        workers=workers or default_workers(),
        budget=budget,
        grace=0.5,
        stop_when=on_outcome,
        on_interim=absorb,
        backend=backend,
        address=address,
    ):
        if outcome.error and "Traceback" in outcome.error and not outcome.value:
            raise RuntimeError(f"batch task {outcome.name} failed: {outcome.error}")
    for n in orders:
        report(n)
    return [rows[n] for n in orders]


def row_json(row: dict[str, Any]) -> dict[str, Any]:
    """A batch row without the Result object (JSON-able)."""
    return {k: v for k, v in row.items() if k != "result"}


def result_of(row: dict[str, Any]) -> Result:
    return row["result"]
