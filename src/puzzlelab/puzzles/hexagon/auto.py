"""The `auto` method: the method that fits the instance."""

from __future__ import annotations

from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.hexagon.model import HexInstance
from puzzlelab.puzzles.hexagon.sat.improve import run_improve
from puzzlelab.puzzles.hexagon.sat.portfolio import run_portfolio
from puzzlelab.puzzles.hexagon.sat.search import run_sat

__all__ = ["run_auto", "SAT_ORDERS"]

SAT_ORDERS = 6  # unrestricted SAT proves these orders optimal in seconds


def run_auto(instance: HexInstance, *, budget: Budget, progress, seed: int = 0) -> Result:
    """Small orders: unrestricted SAT (proves optimality); a given grid: improve it;
    larger orders: the portfolio of published SAT settings."""
    if instance.start is not None:
        return run_improve(instance, budget=budget, progress=progress, seed=seed, rounds=0, radius=3)
    if instance.n <= SAT_ORDERS:
        return run_sat(instance, budget=budget, progress=progress, seed=seed)
    return run_portfolio(instance, budget=budget, progress=progress, seed=seed, workers=0, target=None)
