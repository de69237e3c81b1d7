"""The `levels` method: the write-up's earlier pipeline (seed write-up, "Level by
Level" and "Algorithms"). Beam search places the 1s and 2s together (levels 1-2, the
hard ones), SAT places the 3s and 4s on each of the best level-2 grids, and the 5s, 6s
and 7s follow in linear time (completion/linear.py). The best completed grid wins.

Each half's solver is chosen (`low`, `high`: beam, sat, dlx or ilp; levels/solvers.py),
as the write-up's programs could "recast any single or multiple levels" by each of
them. An exact `low` gives one least-penalty level-2 grid; a `high` other than sat
completes the least-penalty level-4 grid it finds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from puzzlelab.core.result import Budget, Progress, Result
from puzzlelab.puzzles.hexagon.beam.search import beam_search, require_beam_memory
from puzzlelab.puzzles.hexagon.completion.from_level import complete_partial
from puzzlelab.puzzles.hexagon.completion.linear import complete_from_level4
from puzzlelab.puzzles.hexagon.levels.question import level_question
from puzzlelab.puzzles.hexagon.levels.solvers import solve_level
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, hexagon
from puzzlelab.puzzles.hexagon.results import feasible_result
from puzzlelab.puzzles.hexagon.scoring import penalty_edges
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


def _level2_grids(n: int, low: str, width: int, order: str, keep: int, seed: int, budget: Budget) -> list[tuple[int, list[int]]]:
    """(level-2 penalty, level-2 grid) pairs, best first, by the `low` method."""
    if low == "beam":
        return beam_search(n, width=width, order=order, top=2, seed=seed, budget=budget, keep=keep)
    answer = solve_level(level_question(n, "1-2"), low, budget, **_beam_options(low, width, order, seed))
    return [] if answer.grid is None else [(answer.penalty, answer.grid)]


def _beam_options(method: str, width: int, order: str, seed: int) -> dict:
    # DLX runs in this worker already (run_levels): no second worker inside it
    return {"width": width, "order": order, "seed": seed} if method == "beam" else ({"isolate": False} if method == "dlx" else {})


def _complete(n: int, partial: list[int], high: str, width: int, order: str, seed: int, budget: Budget) -> tuple[list[int] | None, int | None]:
    """The best whole grid on a level-2 grid by the `high` method (None when it found none)."""
    if high == "sat":
        return complete_partial(n, partial, 2, budget)
    answer = solve_level(level_question(n, "3-4", partial), high, budget, **_beam_options(high, width, order, seed))
    if answer.grid is None:
        return None, None
    geometry = hexagon(n)
    grid, _ = complete_from_level4(geometry, answer.grid)
    return grid, len(penalty_edges(geometry, grid))


def levels_search(n: int, *, width: int, order: str, keep: int, seed: int, budget: Budget, report=None, low: str = "beam", high: str = "sat") -> LevelsSummary:
    """Levels 1-2 by `low` (beam: its best `keep` distinct grids), then 3-4 by `high` on each."""
    started = time.perf_counter()
    partials = _level2_grids(n, low, width, order, keep, seed, budget)
    best = LevelsSummary(n, level2=[p for p, _ in partials])
    for level2_penalty, partial in partials:
        if budget.expired() and best.grid is not None:
            break
        if best.penalty is not None and level2_penalty >= best.penalty:
            continue  # cannot complete below what we have
        grid, penalty = _complete(n, partial, high, width, order, seed, budget)
        best.completed += 1
        if penalty is not None and (best.penalty is None or penalty < best.penalty):
            best.grid, best.penalty = grid, penalty
            if report is not None:
                report(replace(best))
    best.final = True
    best.seconds = round(time.perf_counter() - started, 3)
    return best


def _levels_task(n: int, width: int, order: str, keep: int, seed: int, low: str, high: str, *, budget: Budget, interim) -> LevelsSummary:
    return levels_search(n, width=width, order=order, keep=keep, seed=seed, budget=budget, report=interim, low=low, high=high)


def run_levels(instance: HexInstance, *, budget: Budget, progress, seed: int = 0, width: int = 3000, order: str = "spiral", keep: int = 16, low: str = "beam", high: str = "sat") -> Result:
    n = instance.n
    if "beam" in (low, high):
        require_beam_memory(n, width, 4 if high == "beam" else 2, budget)  # here, before the worker starts: a clear refusal
    started = time.perf_counter()

    def on_interim(summary: LevelsSummary) -> None:
        progress(Progress(phase="levels", message=f"completed {summary.completed}", best=summary.raw))

    summary = run_in_worker(_levels_task, (n, width, order, keep, seed, low, high), budget, on_interim)
    if summary is None:
        return feasible_result(n, None, "levels", time.perf_counter() - started)
    extra = {"level2_penalties": summary.level2, "completed": summary.completed, "low": low, "high": high}
    return feasible_result(n, summary.grid, "levels", time.perf_counter() - started, extra)
