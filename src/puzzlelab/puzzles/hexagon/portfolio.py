"""The `portfolio` method: several `sat` settings in parallel worker processes
(core/parallel.py). The first settings are the published program's arguments for this
n (best_scores.tsv), then the write-up's recipe around them (ring 4 with break 1 and 2,
growing --inner, ring 5), and, for orders where a proof is in reach, unrestricted
level-3 and level-4 runs that prove lower bounds on the penalty.

Answers combine across tasks: the best grid any task found, and the best lower bound any
unrestricted task proved. When the two meet, the grid is optimal and every worker is
stopped; so is the batch when a `target` score is reached. Work travels to the workers as
small descriptors (n, options, seed), as issue 9's Ray backend will ship them.
"""

from __future__ import annotations

import time
from typing import Any

from puzzlelab.core.parallel import Outcome, Task, default_workers, run_tasks
from puzzlelab.core.result import Budget, Progress, Result, Status
from puzzlelab.puzzles.hexagon.model import edge_count
from puzzlelab.puzzles.hexagon.sat import describe_restrictions, result_from_search, sat_search

__all__ = ["portfolio_settings", "run_portfolio", "portfolio_search"]

PROOF_ORDERS = 12  # unrestricted lower-bound runs for n up to this


def portfolio_settings(n: int) -> list[dict[str, Any]]:
    """The settings tried for order n, most promising first."""
    from puzzlelab.puzzles.hexagon.reference import published_arguments

    settings: list[dict[str, Any]] = []

    def add(options: dict[str, Any]) -> None:
        if options not in settings:
            settings.append(options)

    published = published_arguments(n)
    if n <= 6:
        add({})
    if published or n > 6:
        add(dict(published))
    if 6 < n <= PROOF_ORDERS:
        add({"levels": 3, "lower_only": True})
        add({"levels": 4, "lower_only": True})
    if n <= 9:
        add({})
    for options in (
        {"ring": 4, "break": 1},
        {"ring": 4, "break": 2},
        {"ring": 4, "inner": 1, "break": 1},
        {"ring": 4, "inner": 1, "break": 2},
        {"ring": 4, "inner": 2, "break": 1},
        {"ring": 4, "inner": 2, "break": 2},
        {"ring": 4, "inner": 3, "break": 2},
        {"ring": 5, "inner": 1, "break": 1},
        {"ring": 5, "inner": 1, "break": 2},
        {"ring": 4, "inner": 4, "break": 2},
        {"ring": 4, "inner": 5, "break": 2},
    ):
        if n >= 4:
            add(options)
    return settings


def _portfolio_task(n: int, options: dict[str, Any], seed: int, *, budget: Budget | None = None, interim=None) -> dict[str, Any]:
    return sat_search(n, options, seed=seed, budget=budget, report=interim)


def portfolio_search(
    n: int,
    *,
    budget: Budget,
    seed: int = 0,
    workers: int | None = None,
    target: int | None = None,
    settings: list[dict[str, Any]] | None = None,
    progress=None,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, Any]:
    """Run the settings; returns {'best': summary, 'lower': proven penalty bound,
    'tasks': per-task lines}. `backend`/`address` go to core.parallel.run_tasks
    ('local' worker processes or a 'ray' cluster)."""
    settings = settings or portfolio_settings(n)
    for options in settings:
        if target is not None:
            options.setdefault("target", target)
    tasks = [Task(_portfolio_task, (n, options, seed), name=describe(options), context=True) for options in settings]
    state: dict[str, Any] = {"best": None, "lower": None, "winner": None}
    lines: list[dict[str, Any]] = []
    target_penalty = None if target is None else edge_count(n) - target

    def absorb(index: int, summary: dict[str, Any] | None) -> None:
        if not summary:
            return
        if summary.get("grid") is not None and (state["best"] is None or summary["penalty"] < state["best"]["penalty"]):
            state["best"], state["winner"] = summary, settings[index]
            if progress is not None:
                progress(Progress(phase="portfolio", message=describe(settings[index]), best=summary["raw"]))
        if not summary.get("restricted") and summary.get("lower") is not None:
            if state["lower"] is None or summary["lower"] > state["lower"]:
                state["lower"] = summary["lower"]

    def settled(_outcome: Outcome | None = None) -> bool:
        best = state["best"]
        if best is None:
            return False
        if state["lower"] is not None and best["penalty"] <= state["lower"]:
            return True
        return target_penalty is not None and best["penalty"] <= target_penalty

    def on_outcome(outcome: Outcome) -> bool:
        absorb(outcome.index, outcome.value)
        return settled()

    started = time.perf_counter()
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
        if not outcome.ok:
            absorb(outcome.index, outcome.value)
        summary = outcome.value or {}
        lines.append(
            {
                "setting": outcome.name,
                "ok": outcome.ok,
                "error": "" if outcome.ok else outcome.error.splitlines()[-1][:200] if outcome.error else "",
                "penalty": summary.get("penalty"),
                "lower": summary.get("lower"),
                "proven": summary.get("proven"),
                "seconds": round(outcome.seconds, 3),
            }
        )
        if outcome.error and outcome.error not in ("deadline", "cancelled") and not outcome.ok and "Traceback" in outcome.error:
            raise RuntimeError(f"portfolio task {outcome.name} failed: {outcome.error}")
    return {"best": state["best"], "lower": state["lower"], "winner": state["winner"], "tasks": lines, "seconds": time.perf_counter() - started}


def describe(options: dict[str, Any]) -> str:
    text = describe_restrictions(options)
    if options.get("levels") and options["levels"] < 5:
        text = (text + f" --levels {options['levels']}").strip()
    return text or "unrestricted"


def run_portfolio(instance, *, budget: Budget, progress, seed: int = 0, workers: int = 0, target: int | None = None) -> Result:
    n = instance.n
    started = time.perf_counter()
    found = portfolio_search(n, budget=budget, seed=seed, workers=workers or None, target=target, progress=progress)
    best, lower = found["best"], found["lower"]
    winner = found["winner"] or {}
    result = result_from_search(n, best, winner, "portfolio", time.perf_counter() - started)
    result.stats["winner"] = describe(winner) if best else None
    result.stats["tasks"] = found["tasks"]
    if best is not None and lower is not None:
        result.stats["lower_penalty"] = lower
        if best["penalty"] <= lower:
            result.status, result.bound = Status.OPTIMAL, result.value
            result.stats["proven"] = f"optimal: penalty {best['penalty']} found, no grid below {lower} (unrestricted lower bound)"
        else:
            result.bound = edge_count(n) - lower
            if result.status is Status.OPTIMAL:
                pass
            else:
                result.status = Status.FEASIBLE
    elif best is not None and result.status is Status.OPTIMAL and winner:
        result.status = Status.FEASIBLE
    return result
