"""The `levels` method: the write-up's earlier pipeline (seed write-up, "Level by
Level" and "Algorithms"). Beam search places the 1s and 2s together (levels 1-2, the
hard ones), SAT places the 3s and 4s on each of the best level-2 grids, and the 5s, 6s
and 7s follow in linear time (completion.py). The best completed grid wins.
"""

from __future__ import annotations

import time

from puzzlelab.core.result import Budget, Progress, Result
from puzzlelab.puzzles.hexagon.model import edge_count

__all__ = ["levels_search", "run_levels"]


def levels_search(n: int, *, width: int, order: str, keep: int, seed: int, budget: Budget, report=None) -> dict:
    """Beam for levels 1-2 (best `keep` distinct grids), SAT completion of each."""
    from puzzlelab.puzzles.hexagon.beam import beam_search
    from puzzlelab.puzzles.hexagon.sat import complete_partial

    started = time.perf_counter()
    partials = beam_search(n, width=width, order=order, top=2, seed=seed, budget=budget, keep=keep)
    best = {"n": n, "grid": None, "penalty": None, "level2": [p for p, _ in partials], "completed": 0, "final": False}
    for level2_penalty, partial in partials:
        if budget.expired() and best["grid"] is not None:
            break
        if best["penalty"] is not None and level2_penalty >= best["penalty"]:
            continue  # cannot complete below what we have
        grid, penalty = complete_partial(n, partial, 2, budget)
        best["completed"] += 1
        if best["penalty"] is None or penalty < best["penalty"]:
            best["grid"], best["penalty"] = grid, penalty
            best["raw"] = edge_count(n) - penalty
            if report is not None:
                report(dict(best))
    best["final"] = True
    best["seconds"] = round(time.perf_counter() - started, 3)
    return best


def _levels_task(n, options, seed, *, budget, interim):
    return levels_search(n, seed=seed, budget=budget, report=interim, **options)


def run_levels(instance, *, budget: Budget, progress, seed: int = 0, width: int = 3000, order: str = "spiral", keep: int = 16) -> Result:
    from puzzlelab.puzzles.hexagon.sat import result_from_worker, run_in_worker

    n = instance.n
    started = time.perf_counter()

    def on_interim(value):
        progress(Progress(phase="levels", message=f"completed {value['completed']}", best=value["raw"]))

    summary = run_in_worker(_levels_task, (n, {"width": width, "order": order, "keep": keep}, seed), budget, on_interim)
    extra = {} if not summary else {"level2_penalties": summary.get("level2"), "completed": summary.get("completed")}
    return result_from_worker(n, summary, "levels", time.perf_counter() - started, extra)
