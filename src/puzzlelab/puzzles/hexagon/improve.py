"""The `improve` method: take a grid, blank a region of it and re-solve the region
with SAT, keeping everything else fixed; repeat on new regions (seed write-up, "Other
Programs": blanking a large region of a solution and solving it again gave some of the
author's best early results).

Only what the region can change is encoded: the region's cells are free, their
neighbours' rule and every edge touching either are re-checked, everything else is
pinned. The penalty on those edges is bounded below its current count and tightened
until UNSAT, so each round either improves the grid or proves the region locally best.
Regions are hexagonal balls around a random cell, half the time one on a penalty edge.
"""

from __future__ import annotations

import random
import time
from typing import Any

from puzzlelab.core.result import Budget, Progress, Result
from puzzlelab.puzzles.hexagon.completion import split_sixes
from puzzlelab.puzzles.hexagon.model import Hexagon, edge_count, hexagon
from puzzlelab.puzzles.hexagon.sat_encoding import HexEncoding
from puzzlelab.puzzles.hexagon.sat_solver import PenaltyBound, new_solver
from puzzlelab.puzzles.hexagon.scoring import penalty_edges

__all__ = ["region_around", "resolve_region", "improve_search", "run_improve"]


def region_around(geometry: Hexagon, centre: int, radius: int) -> list[int]:
    """Cells within hex distance `radius` of `centre`."""
    q0, s0 = int(geometry.q[centre]), int(geometry.s[centre])
    out = []
    for c in range(geometry.cells):
        dq, ds = int(geometry.q[c]) - q0, int(geometry.s[c]) - s0
        if max(abs(dq), abs(ds), abs(dq + ds)) <= radius:
            out.append(c)
    return out


def resolve_region(geometry: Hexagon, grid: list[int], region: list[int], budget: Budget | None = None) -> list[int] | None:
    """The best grid that differs from `grid` only inside `region`, if it has fewer
    penalty edges than `grid`; else None (the region is locally best)."""
    inside = set(region)
    active = set(inside)
    for c in inside:
        active.update(geometry.neighbours_of(c))
    fixed = {c: min(v, 6) for c, v in enumerate(grid) if c not in inside}
    enc = HexEncoding(geometry, top=5, fixed=fixed, active=active)
    current = set(penalty_edges(geometry, grid))
    baseline = sum(1 for e in enc.edge_ids if e in current)
    if baseline == 0:
        return None
    solver = new_solver(enc.clauses)
    try:
        bound = PenaltyBound(solver, enc.count_lits, baseline - 1, "seqcounter", enc.n_vars)
        best = None
        target = baseline - 1
        while target >= 0 and (budget is None or not budget.expired()):
            if not solver.solve(assumptions=bound.assumptions(target)):
                break
            values = enc.decode(solver.get_model())
            candidate = [values[c] if c in inside else min(grid[c], 6) for c in range(geometry.cells)]
            candidate = split_sixes(geometry, candidate)
            local = sum(1 for e in penalty_edges(geometry, candidate) if e in set(enc.edge_ids))
            best = candidate
            target = local - 1
        return best
    finally:
        solver.delete()


def improve_search(n: int, start: list[int], *, radius: int, rounds: int, seed: int, budget: Budget, report=None) -> dict[str, Any]:
    geometry = hexagon(n)
    rng = random.Random(seed)
    grid = list(start)
    penalty = len(penalty_edges(geometry, grid))
    summary = {"n": n, "grid": grid, "penalty": penalty, "raw": edge_count(n) - penalty, "rounds": 0, "improvements": 0, "final": False}
    if report is not None:
        report(dict(summary))
    while not budget.expired() and (rounds == 0 or summary["rounds"] < rounds) and penalty > 0:
        edges = penalty_edges(geometry, grid)
        if edges and rng.random() < 0.5:
            centre = int(geometry.edges[rng.choice(edges), rng.randrange(2)])
        else:
            centre = rng.randrange(geometry.cells)
        better = resolve_region(geometry, grid, region_around(geometry, centre, radius), budget)
        summary["rounds"] += 1
        if better is not None:
            new_penalty = len(penalty_edges(geometry, better))
            if new_penalty < penalty:
                grid, penalty = better, new_penalty
                summary.update(grid=grid, penalty=penalty, raw=edge_count(n) - penalty)
                summary["improvements"] += 1
                if report is not None:
                    report(dict(summary))
    summary["final"] = True
    return summary


def _improve_task(n, start, options, seed, *, budget, interim):
    return improve_search(n, start, seed=seed, budget=budget, report=interim, **options)


def run_improve(instance, *, budget: Budget, progress, seed: int = 0, radius: int = 3, rounds: int = 0) -> Result:
    from puzzlelab.puzzles.hexagon.beam import beam_search
    from puzzlelab.puzzles.hexagon.sat import given_grid, result_from_worker, run_in_worker

    n = instance.n
    started = time.perf_counter()
    start = given_grid(instance, "to improve")
    if start is not None:
        origin = "given grid"
    else:
        found = beam_search(n, width=200, order="spiral", top=5, seed=seed, budget=budget.sub(fraction=0.3))
        if not found:
            return result_from_worker(n, None, "improve", time.perf_counter() - started)
        start = split_sixes(hexagon(n), found[0][1])
        origin = "beam width 200"
    start_penalty = len(penalty_edges(hexagon(n), start))

    def on_interim(value):
        progress(Progress(phase="improve", message=f"round {value['rounds']}", best=value["raw"]))

    summary = run_in_worker(_improve_task, (n, start, {"radius": radius, "rounds": rounds}, seed), budget, on_interim)
    if summary is None:
        summary = {"grid": start}
    extra = {"start": origin, "start_penalty": start_penalty, "rounds": summary.get("rounds"), "improvements": summary.get("improvements")}
    return result_from_worker(n, summary, "improve", time.perf_counter() - started, extra)
