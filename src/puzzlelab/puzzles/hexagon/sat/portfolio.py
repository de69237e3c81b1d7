"""The `portfolio` method: several `sat` settings in parallel worker processes
(core.parallel). The first settings are the published program's arguments for this
n (best_scores.tsv), then the write-up's recipe around them (ring 4 with break 1 and 2,
growing --inner, ring 5), and, for orders where a proof is in reach, unrestricted
level-3 and level-4 runs that prove lower bounds on the penalty.

Answers combine across tasks: the best grid any task found, and the best lower bound any
unrestricted task proved. When the two meet, the grid is optimal and every worker is
stopped; so is the batch when a `target` score is reached. Work travels to the workers as
small descriptors (n, options, seed), so a Ray cluster runs them as well.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from puzzlelab.core.parallel import Outcome, Task, default_workers, run_tasks
from puzzlelab.core.result import Budget, Progress, Result, Status
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count
from puzzlelab.puzzles.hexagon.reference import published_arguments
from puzzlelab.puzzles.hexagon.sat.search import result_from_search, sat_task
from puzzlelab.puzzles.hexagon.sat.summary import SatOptions, SatSummary

__all__ = ["portfolio_settings", "PortfolioOutcome", "run_portfolio", "portfolio_search", "describe"]

PROOF_ORDERS = 12  # unrestricted lower-bound runs for n up to this

RECIPE = (  # the write-up's ring/inner/break settings around the published ones
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
)


def portfolio_settings(n: int) -> list[SatOptions]:
    """The settings tried for order n, most promising first."""
    settings: list[SatOptions] = []

    def add(options: dict[str, Any]) -> None:
        typed = SatOptions.of(options)
        if typed not in settings:
            settings.append(typed)

    published = published_arguments(n)
    if n <= 6:
        add({})
    if published or n > 6:
        add(published)
    if 6 < n <= PROOF_ORDERS:
        add({"levels": 3, "lower_only": True})
        add({"levels": 4, "lower_only": True})
    if n <= 9:
        add({})
    if n >= 4:
        for options in RECIPE:
            add(options)
    return settings


def describe(options: SatOptions | dict[str, Any]) -> str:
    """A setting's name in reports: its restrictions and level, or 'unrestricted'."""
    return SatOptions.of(options).describe()


@dataclass
class PortfolioOutcome:
    """The best summary any task reported, the setting that found it, the best lower
    bound an unrestricted task proved, one line per task (JSON-able), seconds."""

    best: SatSummary | None = None
    winner: SatOptions | None = None
    lower: int | None = None
    tasks: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def absorb(self, summary: SatSummary | None, options: SatOptions) -> bool:
        """Take a task's (interim or final) summary in; True when it is a better grid."""
        if summary is None:
            return False
        better = summary.grid is not None and (self.best is None or summary.penalty < self.best.penalty)
        if better:
            self.best, self.winner = summary, options
        if not summary.restricted and summary.lower is not None and (self.lower is None or summary.lower > self.lower):
            self.lower = summary.lower
        return better

    def settled(self, target_penalty: int | None) -> bool:
        """Proven optimal, or at the target."""
        if self.best is None:
            return False
        if self.lower is not None and self.best.penalty <= self.lower:
            return True
        return target_penalty is not None and self.best.penalty <= target_penalty


def _task_line(outcome: Outcome) -> dict[str, Any]:
    summary = outcome.value
    return {
        "setting": outcome.name,
        "ok": outcome.ok,
        "error": "" if outcome.ok else outcome.error.splitlines()[-1][:200] if outcome.error else "",
        "penalty": None if summary is None else summary.penalty,
        "lower": None if summary is None else summary.lower,
        "proven": None if summary is None else summary.proven,
        "seconds": round(outcome.seconds, 3),
    }


def portfolio_search(
    n: int,
    *,
    budget: Budget,
    seed: int = 0,
    workers: int | None = None,
    target: int | None = None,
    settings: list[SatOptions] | None = None,
    progress=None,
    backend: str = "local",
    address: str | None = None,
) -> PortfolioOutcome:
    """Run the settings side by side until one proves optimality, the target is reached
    or the budget ends. `backend`/`address` go to core.parallel.run_tasks ('local'
    worker processes or a 'ray' cluster)."""
    settings = [SatOptions.of(options) for options in (settings or portfolio_settings(n))]
    if target is not None:
        settings = [options if options.target is not None else options.with_target(target) for options in settings]
    tasks = [Task(sat_task, (n, options, seed), name=options.describe(), context=True) for options in settings]
    found = PortfolioOutcome()
    target_penalty = None if target is None else edge_count(n) - target

    def absorb(index: int, summary: SatSummary | None) -> None:
        if found.absorb(summary, settings[index]) and progress is not None:
            progress(Progress(phase="portfolio", message=settings[index].describe(), best=summary.raw))

    def on_outcome(outcome: Outcome) -> bool:
        absorb(outcome.index, outcome.value)
        return found.settled(target_penalty)

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
        found.tasks.append(_task_line(outcome))
        if outcome.error and outcome.error not in ("deadline", "cancelled") and not outcome.ok and "Traceback" in outcome.error:
            raise RuntimeError(f"portfolio task {outcome.name} failed: {outcome.error}")
    found.seconds = time.perf_counter() - started
    return found


def run_portfolio(instance: HexInstance, *, budget: Budget, progress, seed: int = 0, workers: int = 0, target: int | None = None) -> Result:
    n = instance.n
    started = time.perf_counter()
    found = portfolio_search(n, budget=budget, seed=seed, workers=workers or None, target=target, progress=progress)
    best, lower = found.best, found.lower
    winner = found.winner or SatOptions()
    result = result_from_search(n, best, winner, "portfolio", time.perf_counter() - started)
    result.stats["winner"] = winner.describe() if best else None
    result.stats["tasks"] = found.tasks
    if best is not None and lower is not None:
        result.stats["lower_penalty"] = lower
        if best.penalty <= lower:
            result.status, result.bound = Status.OPTIMAL, result.value
            result.stats["proven"] = f"optimal: penalty {best.penalty} found, no grid below {lower} (unrestricted lower bound)"
        else:
            result.bound = edge_count(n) - lower
            if result.status is not Status.OPTIMAL:
                result.status = Status.FEASIBLE
    elif best is not None and result.status is Status.OPTIMAL and winner.to_dict():
        result.status = Status.FEASIBLE
    return result
