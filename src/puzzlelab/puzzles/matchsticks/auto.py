"""The `auto` method (the default): the bound methods on a share of the budget, then the
exhaustive search from their best answer for the rest of it. Optimal when the search
completes in time, else the best answer found (feasible)."""

from __future__ import annotations

from puzzlelab.core.puzzle import Method
from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.common import ROAM, WORKERS
from puzzlelab.puzzles.matchsticks.full import full_search
from puzzlelab.puzzles.matchsticks.model import Instance

__all__ = ["METHOD", "auto_search"]


def auto_search(instance: Instance, *, budget: Budget, progress=None, seed: int = 0, roam: int = 0, workers: int = 1) -> Result:
    return full_search(instance, budget=budget, progress=progress, seed=seed, roam=roam, workers=workers, method_name="auto")


METHOD = Method("auto", "bounds (diagonal, greedy), then the exhaustive search within the budget", auto_search, options=(ROAM, WORKERS), exact=True)
