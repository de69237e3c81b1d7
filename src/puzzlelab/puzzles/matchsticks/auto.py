"""The `auto` method (the default): the bound methods on a share of the budget, then the
exhaustive search from their best answer for the rest of it. Optimal when the search
completes in time, else the best answer found (feasible)."""

from __future__ import annotations

from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.matchsticks.full import run_full
from puzzlelab.puzzles.matchsticks.model import Instance

__all__ = ["run_auto"]


def run_auto(instance: Instance, *, budget: Budget, progress=None, seed: int = 0, roam: int = 0, workers: int = 1) -> Result:
    """The `auto` method: `full` with its default bound phases, reported as `auto`."""
    return run_full(instance, budget=budget, progress=progress, seed=seed, roam=roam, workers=workers, method_name="auto")
