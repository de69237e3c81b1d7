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
from dataclasses import dataclass, replace

from puzzlelab.core.result import Budget, Progress, Result
from puzzlelab.puzzles.hexagon.beam.search import ORDERS, beam_search
from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
from puzzlelab.puzzles.hexagon.cnf.solver import PenaltyBound, new_solver
from puzzlelab.puzzles.hexagon.completion.linear import split_sixes
from puzzlelab.puzzles.hexagon.model import Hexagon, HexInstance, edge_count, hexagon
from puzzlelab.puzzles.hexagon.results import feasible_result
from puzzlelab.puzzles.hexagon.scoring import penalty_edges
from puzzlelab.puzzles.hexagon.verify import given_grid
from puzzlelab.puzzles.hexagon.worker import run_in_worker

__all__ = ["region_around", "resolve_region", "sideways_region", "ImproveSummary", "improve_search", "run_improve"]


def region_around(geometry: Hexagon, centre: int, radius: int) -> list[int]:
    """Cells within hex distance `radius` of `centre`."""
    q0, s0 = int(geometry.q[centre]), int(geometry.s[centre])
    out = []
    for c in range(geometry.cells):
        dq, ds = int(geometry.q[c]) - q0, int(geometry.s[c]) - s0
        if max(abs(dq), abs(ds), abs(dq + ds)) <= radius:
            out.append(c)
    return out


def _region_model(geometry: Hexagon, grid: list[int], region: list[int]) -> tuple[set[int], HexEncoding, set[int], int]:
    """(the region's cells, the model with everything else pinned, the grid's penalty
    edges, how many of them the model counts)."""
    inside = set(region)
    active = set(inside)
    for c in inside:
        active.update(geometry.neighbours_of(c))
    fixed = {c: min(v, 6) for c, v in enumerate(grid) if c not in inside}
    enc = HexEncoding(geometry, top=5, fixed=fixed, active=active)
    current = set(penalty_edges(geometry, grid))
    return inside, enc, current, sum(1 for e in enc.edge_ids if e in current)


def resolve_region(geometry: Hexagon, grid: list[int], region: list[int], budget: Budget | None = None) -> list[int] | None:
    """The best grid that differs from `grid` only inside `region`, if it has fewer
    penalty edges than `grid`; else None (the region is locally best)."""
    inside, enc, current, baseline = _region_model(geometry, grid, region)
    if baseline == 0:
        return None
    solver = new_solver(enc.clauses)
    try:
        bound = PenaltyBound(solver, enc.count_lits, baseline - 1, "seqcounter", enc.n_vars)
        best, best_local = None, baseline
        counted = set(enc.edge_ids)
        target = baseline - 1
        while target >= 0 and (budget is None or not budget.expired()):
            if not solver.solve(assumptions=bound.assumptions(target)):
                break
            values = enc.decode(solver.get_model())
            candidate = [values[c] if c in inside else min(grid[c], 6) for c in range(geometry.cells)]
            candidate = split_sixes(geometry, candidate)
            local = sum(1 for e in penalty_edges(geometry, candidate) if e in counted)
            if local < best_local:
                best, best_local = candidate, local
            # The model merges the values above 5; once split, a filling it counted below
            # the target can score no better than before (n = 17's shipped grid, which has
            # 7s): go one lower all the same, so that the loop ends.
            target = min(target, local) - 1
        return best
    finally:
        solver.delete()


def sideways_region(geometry: Hexagon, grid: list[int], region: list[int], budget: Budget | None = None) -> list[int] | None:
    """A grid that differs from `grid` inside `region` only, with no more penalty edges
    (fewer when the region allows it), or None when the region has no other filling
    as good. A plateau step: a grid whose every region is locally best can still be
    walked to one that is not (the "sideways moves" of local search; Selman, Levesque
    and Mitchell, GSAT, 1992)."""
    inside, enc, current, baseline = _region_model(geometry, grid, region)
    solver = new_solver(enc.clauses)
    try:
        solver.add_clause(enc.block([min(v, 6) for v in grid], sorted(inside)))
        bound = PenaltyBound(solver, enc.count_lits, baseline, "seqcounter", enc.n_vars)
        if (budget is not None and budget.expired()) or not solver.solve(assumptions=bound.assumptions(baseline)):
            return None
        values = enc.decode(solver.get_model())
        candidate = split_sixes(geometry, [values[c] if c in inside else min(grid[c], 6) for c in range(geometry.cells)])
        return candidate if len(penalty_edges(geometry, candidate)) <= len(current) else None
    finally:
        solver.delete()


@dataclass
class ImproveSummary:
    """The grid so far, its penalty, regions tried and improvements made."""

    n: int
    grid: list[int]
    penalty: int
    rounds: int = 0
    improvements: int = 0
    final: bool = False
    sideways: int = 0  # plateau steps taken (`improve_search(sideways=...)`)

    @property
    def raw(self) -> int:
        return edge_count(self.n) - self.penalty


def improve_search(n: int, start: list[int], *, radius: int, rounds: int, seed: int, budget: Budget, report=None,
                   sideways: float = 0.0) -> ImproveSummary:
    """Re-solve regions of `radius` around random cells (half the time a penalty edge's
    end) until `rounds` regions are tried (0: until the budget ends) or no penalty is left.
    A region that is locally best is, with probability `sideways`, refilled another way
    with as few penalty edges (`sideways_region`): the walk then leaves a grid whose
    every region is locally best, which plain re-solving never does."""
    geometry = hexagon(n)
    rng = random.Random(seed)
    summary = ImproveSummary(n, list(start), len(penalty_edges(geometry, start)))
    if report is not None:
        report(replace(summary))
    while not budget.expired() and (rounds == 0 or summary.rounds < rounds) and summary.penalty > 0:
        edges = penalty_edges(geometry, summary.grid)
        if edges and rng.random() < 0.5:
            centre = int(geometry.edges[rng.choice(edges), rng.randrange(2)])
        else:
            centre = rng.randrange(geometry.cells)
        better = resolve_region(geometry, summary.grid, region_around(geometry, centre, radius), budget)
        summary.rounds += 1
        if better is None and sideways and rng.random() < sideways:
            moved = sideways_region(geometry, summary.grid, region_around(geometry, centre, radius), budget)
            if moved is not None and len(penalty_edges(geometry, moved)) == summary.penalty:
                summary.grid = moved
                summary.sideways += 1
                continue
            better = moved
        if better is not None:
            new_penalty = len(penalty_edges(geometry, better))
            if new_penalty < summary.penalty:
                summary.grid, summary.penalty = better, new_penalty
                summary.improvements += 1
                if report is not None:
                    report(replace(summary))
    summary.final = True
    return summary


def _improve_task(n: int, start: list[int], radius: int, rounds: int, seed: int, sideways: float = 0.0, *, budget: Budget, interim) -> ImproveSummary:
    return improve_search(n, start, radius=radius, rounds=rounds, seed=seed, budget=budget, report=interim, sideways=sideways)


def _first_beam(n: int, seed: int, budget: Budget, whole: Budget) -> tuple[list, str]:
    """A starting grid from a narrow beam. A beam can die (on n = 5 the spiral order's
    does, every state with a hidden dead end), so the other cell orders, then other
    seeds, are tried while the whole budget lasts (the first with its share of it)."""
    orders = ("spiral",) + tuple(o for o in ORDERS if o != "spiral")
    attempt = 0
    while True:
        order = orders[attempt % len(orders)]
        share = budget if attempt == 0 else whole  # a dead first beam: the rest of the time is the start's
        found = beam_search(n, width=200, order=order, top=5, seed=seed + attempt // len(orders), budget=share)
        attempt += 1
        if found or whole.expired() or attempt >= 4 * len(orders):
            return found, order


def run_improve(instance: HexInstance, *, budget: Budget, progress, seed: int = 0, radius: int = 3, rounds: int = 0, sideways: float = 0.0) -> Result:
    n = instance.n
    started = time.perf_counter()
    start = given_grid(instance, "to improve")
    if start is not None:
        origin = "given grid"
    else:
        found, order = _first_beam(n, seed, budget.sub(fraction=0.3), budget)
        if not found:
            return feasible_result(n, None, "improve", time.perf_counter() - started)
        start = split_sixes(hexagon(n), found[0][1])
        origin = f"beam width 200, {order} order"
    start_penalty = len(penalty_edges(hexagon(n), start))

    def on_interim(summary: ImproveSummary) -> None:
        progress(Progress(phase="improve", message=f"round {summary.rounds}", best=summary.raw))

    summary = run_in_worker(_improve_task, (n, start, radius, rounds, seed, sideways), budget, on_interim)
    rounds_done, improvements = (None, None) if summary is None else (summary.rounds, summary.improvements)
    extra = {"start": origin, "start_penalty": start_penalty, "rounds": rounds_done, "improvements": improvements,
             "sideways": None if summary is None else summary.sideways}
    grid = start if summary is None else summary.grid
    return feasible_result(n, grid, "improve", time.perf_counter() - started, extra)
