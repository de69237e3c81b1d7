"""The `levels` method: the write-up's earlier pipeline (seed write-up, "Level by
Level" and "Algorithms"). Beam search places the 1s and 2s together (levels 1-2, the
hard ones), SAT places the 3s and 4s on each of the best level-2 grids, and the 5s, 6s
and 7s follow in linear time (completion.py). The best completed grid wins.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from puzzlelab.core.result import Budget, Progress, Result
from puzzlelab.puzzles.hexagon.beam import beam_search, require_beam_memory
from puzzlelab.puzzles.hexagon.level_completion import complete_partial
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count
from puzzlelab.puzzles.hexagon.results import feasible_result
from puzzlelab.puzzles.hexagon.worker import run_in_worker

__all__ = ["LevelsSummary", "levels_search", "run_levels"]


@dataclass
class LevelsSummary:
    """The pipeline's best grid so far, the level-2 penalties of the beam's grids, and
    how many of them were completed."""

    n: int
    grid: list[int] | None = None
    penalty: int | None = None
    level2: list[int] = field(default_factory=list)
    completed: int = 0
    final: bool = False
    seconds: float = 0.0

    @property
    def raw(self) -> int | None:
        return None if self.penalty is None else edge_count(self.n) - self.penalty


def levels_search(n: int, *, width: int, order: str, keep: int, seed: int, budget: Budget, report=None) -> LevelsSummary:
    """Beam for levels 1-2 (best `keep` distinct grids), SAT completion of each."""
    started = time.perf_counter()
    partials = beam_search(n, width=width, order=order, top=2, seed=seed, budget=budget, keep=keep)
    best = LevelsSummary(n, level2=[p for p, _ in partials])
    for level2_penalty, partial in partials:
        if budget.expired() and best.grid is not None:
            break
        if best.penalty is not None and level2_penalty >= best.penalty:
            continue  # cannot complete below what we have
        grid, penalty = complete_partial(n, partial, 2, budget)
        best.completed += 1
        if best.penalty is None or penalty < best.penalty:
            best.grid, best.penalty = grid, penalty
            if report is not None:
                report(replace(best))
    best.final = True
    best.seconds = round(time.perf_counter() - started, 3)
    return best


def _levels_task(n: int, width: int, order: str, keep: int, seed: int, *, budget: Budget, interim) -> LevelsSummary:
    return levels_search(n, width=width, order=order, keep=keep, seed=seed, budget=budget, report=interim)


def run_levels(instance: HexInstance, *, budget: Budget, progress, seed: int = 0, width: int = 3000, order: str = "spiral", keep: int = 16) -> Result:
    n = instance.n
    require_beam_memory(n, width, 2, budget)  # here, before the worker starts: a clear refusal
    started = time.perf_counter()

    def on_interim(summary: LevelsSummary) -> None:
        progress(Progress(phase="levels", message=f"completed {summary.completed}", best=summary.raw))

    summary = run_in_worker(_levels_task, (n, width, order, keep, seed), budget, on_interim)
    if summary is None:
        return feasible_result(n, None, "levels", time.perf_counter() - started)
    extra = {"level2_penalties": summary.level2, "completed": summary.completed}
    return feasible_result(n, summary.grid, "levels", time.perf_counter() - started, extra)
