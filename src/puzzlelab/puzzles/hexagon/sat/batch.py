"""Batch: SAT settings over several orders at once, in worker processes (or on a Ray
cluster) through the core driver (`core.parallel.solve_many`).

Each task is a small descriptor, (n, sat options, seed), run by `sat.sat_search` in a
worker; the worker reports every better grid as an interim answer, so a task stopped by
the deadline still gives its best. Per order, the driver keeps the best grid any task
found and the best lower bound any *unrestricted* task proved; when they meet, the grid
is proven optimal (`_Orders`, this batch's merge). Every answer is checked by the
independent verifier on the driver before it is returned (a Ray worker's word is not
trusted any more than a local one).

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

from puzzlelab.core.inputs import shown
from puzzlelab.core.parallel import Answer, Collector, Failure, Task, default_workers, solve_many
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count
from puzzlelab.puzzles.hexagon.reference import published_arguments, published_raw
from puzzlelab.puzzles.hexagon.sat.portfolio import describe, portfolio_settings
from puzzlelab.puzzles.hexagon.sat.search import result_from_search, sat_search
from puzzlelab.puzzles.hexagon.sat.summary import SatSummary
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
    raise ValueError(f"settings: expected one of {', '.join(SETTINGS)}, got {shown(settings)}")


def _batch_task(n: int, options: dict[str, Any], seed: int, *, budget: Budget | None = None, interim=None) -> SatSummary:
    """Worker side: one sat search (module-level so any backend can ship it by name).
    `budget`/`interim` come with context=True tasks; a backend that passes neither still
    gets the final summary (the search then runs until done or its `target`)."""
    return sat_search(n, options, seed=seed, budget=budget, report=interim)


def _restricted(options: dict[str, Any]) -> bool:
    return options.get("ring") is not None or bool(options.get("break"))


def _queue(orders: list[int], per_order: dict[int, list[dict[str, Any]]], records: dict[int, int | None], stop_at_record: bool) -> list[tuple[int, dict[str, Any]]]:
    """The (n, options) descriptors, setting-rank first; a restricted setting stops at
    its order's record when `stop_at_record`."""
    descriptors: list[tuple[int, dict[str, Any]]] = []
    for rank in range(max(len(s) for s in per_order.values())):
        for n in orders:
            if rank < len(per_order[n]):
                options = dict(per_order[n][rank])
                if stop_at_record and records[n] is not None and _restricted(options):
                    options["target"] = records[n]
                descriptors.append((n, options))
    return descriptors


class _Orders(Collector):
    """The batch's own merge: per order, the best grid any task found and the best lower
    bound any *unrestricted* task proved. An order is answered once it is settled, or
    when the batch ends."""

    def __init__(
        self,
        orders: list[int],
        descriptors: list[tuple[int, dict[str, Any]]],
        per_order: dict[int, list[dict[str, Any]]],
        records: dict[int, int | None],
        stop_at_record: bool,
    ):
        self.orders, self.descriptors, self.records, self.stop_at_record = orders, descriptors, records, stop_at_record
        self.state = {n: {"best": None, "options": {}, "lower": None} for n in orders}
        self.proof_wanted = {n: any(not _restricted(o) for o in per_order[n]) for n in orders}
        self.answered: set[int] = set()
        self.started = time.perf_counter()

    def interim(self, task: int, summary: SatSummary | None) -> None:
        if not summary:
            return
        n, options = self.descriptors[task]
        slot = self.state[n]
        if summary.grid is not None and (slot["best"] is None or summary.penalty < slot["best"].penalty):
            slot["best"], slot["options"] = summary, options
        if not summary.restricted and summary.lower is not None:
            if slot["lower"] is None or summary.lower > slot["lower"]:
                slot["lower"] = summary.lower

    def finished(self, task: int, summary: SatSummary | None) -> list[Answer]:
        self.interim(task, summary)
        n = self.descriptors[task][0]
        return self._answer(n) if self._settled(n) else []

    def settled(self) -> bool:
        return all(self._settled(n) for n in self.orders)

    def leftover(self) -> list[Answer]:
        return [answer for n in self.orders for answer in self._answer(n)]

    def _settled(self, n: int) -> bool:
        """Proven optimal; or, when no unrestricted task is at work on it, at the record."""
        best, lower = self.state[n]["best"], self.state[n]["lower"]
        if best is None:
            return False
        if lower is not None and best.penalty <= lower:
            return True
        return self.stop_at_record and not self.proof_wanted[n] and self.records[n] is not None and best.raw >= self.records[n]

    def _answer(self, n: int) -> list[Answer]:
        """Order n's Result (once): the best grid, proven optimal where the lower bound meets it."""
        if n in self.answered:
            return []
        self.answered.add(n)
        slot = self.state[n]
        result = result_from_search(n, slot["best"], slot["options"], "sat", time.perf_counter() - self.started)
        lower = slot["lower"]
        if result.solution is not None and lower is not None:
            result.stats["lower_penalty"] = lower
            if result.stats["penalty"] <= lower:
                result.status, result.bound = Status.OPTIMAL, result.value
                result.stats["proven"] = f"optimal: penalty {result.stats['penalty']} found, no grid below {lower}"
            elif result.status is not Status.OPTIMAL:
                result.status, result.bound = Status.FEASIBLE, edge_count(n) - lower
        return [Answer(str(n), HexInstance(n), result)]

    def row(self, answer: Answer) -> dict[str, Any]:
        """The batch's row for a verified answer."""
        n, result, slot = answer.instance.n, answer.result, self.state[answer.instance.n]
        return {
            "n": n,
            "raw": result.value,
            "penalty": result.stats.get("penalty"),
            "status": result.status.value,
            "lower": slot["lower"],
            "setting": describe(slot["options"]) if slot["best"] is not None else None,
            "published": self.records[n],
            "reached": result.value is not None and self.records[n] is not None and result.value >= self.records[n],
            "verified": result.verified,
            "seconds": round(time.perf_counter() - self.started, 3),
            "solution": result.solution,
            "result": result,
        }


class _Checker:
    """What the shared driver asks of a puzzle here (the checker and the instance's
    key), from verify.py alone: the batch sits below the Puzzle object."""

    name = "hexagon"

    def check(self, instance: HexInstance, result: Result) -> Result:
        return checked(instance, result)  # raises WrongAnswer on a rejected grid

    def instance_key(self, instance: HexInstance) -> str:
        return str(instance.n)


_CHECKER = _Checker()


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
    descriptors = _queue(orders, per_order, records, stop_at_record)
    tasks = [Task(_batch_task, (n, options, seed), name=f"n={n} {describe(options)}", context=True) for n, options in descriptors]
    merge = _Orders(orders, descriptors, per_order, records, stop_at_record)
    rows: dict[int, dict[str, Any]] = {}

    def report(answer: Answer) -> None:
        rows[answer.instance.n] = row = merge.row(answer)
        if on_order is not None:
            on_order(row)

    def failed(failure: Failure) -> None:
        if "Traceback" in failure.error:
            raise RuntimeError(f"batch task {failure.name} failed: {failure.error}")

    solve_many(
        _CHECKER, tasks, merge, budget=budget, workers=workers or default_workers(), grace=0.5,
        backend=backend, address=address, on_result=report, on_failure=failed,
    )
    return [rows[n] for n in orders]


def row_json(row: dict[str, Any]) -> dict[str, Any]:
    """A batch row without the Result object (JSON-able)."""
    return {k: v for k, v in row.items() if k != "result"}


def result_of(row: dict[str, Any]) -> Result:
    return row["result"]
