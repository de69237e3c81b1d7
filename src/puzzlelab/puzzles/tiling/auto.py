"""The `auto` method: a portfolio of worker processes under one budget (default 10 s,
the contest's), returning the best verified tiling by the deadline, `optimal` when it
is proven.

Members (each a small descriptor: the grid's JSON and a few numbers, so the Ray
backend can ship them unchanged):
- `exact`: the column DP when the short side of the free cells' box is small enough;
  when it finishes its answer is proven and the portfolio stops.
- `beam k` for the eight orientations k (write-up 2.3): the heuristic with margins that
  shrink with the member's share of the clock, then stripe re-solving; each sends its
  tiling as an interim answer as soon as it has one.
- `cpsat`: the set-partition model, started from its own quick beam + stripes tiling
  (hint and upper bound); it sends every better tiling and its proven lower bound.

The parent keeps the best tiling and the best lower bound it has heard of; when they
meet, the answer is optimal and every member is terminated at once.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from puzzlelab.core import parallel
from puzzlelab.core.parallel import Task
from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status, no_progress

__all__ = ["run_auto", "exact_member", "beam_member", "cpsat_member", "EXACT_MAX_SHORT_SIDE"]

EXACT_MAX_SHORT_SIDE = 15  # the packed DP: a full 15 x 100 strip takes about a second
INLINE_MAX_CELLS = 15 * 40  # below this the exact DP runs in-process, no workers


def _grid(data: dict[str, Any]):
    from puzzlelab.puzzles.tiling.model import parse_grid

    return parse_grid(data)


def exact_member(grid_json: dict, *, budget: Budget, interim) -> dict:
    from puzzlelab.puzzles.tiling.dp import solve_exact

    count, squares, stats = solve_exact(_grid(grid_json).free(), budget)
    return {"count": count, "squares": squares, "bound": count, "member": "exact", "stats": stats}


def beam_member(
    grid_json: dict, orientation: int, margin: int, share: float, stripe_step: int, *, budget: Budget, interim
) -> dict:
    """Beam on one orientation within `share` of the time left, then stripes."""
    from puzzlelab.puzzles.tiling.beam import oriented_beam
    from puzzlelab.puzzles.tiling.stripes import improve_by_stripes

    free = _grid(grid_json).free()
    member = f"beam {orientation}"
    mine = budget.sub(seconds=budget.seconds_left() * share)
    count, squares, stats = oriented_beam(free, orientation, margin, 2, 100_000, mine.sub(fraction=0.7))
    interim({"count": count, "squares": squares, "bound": 0, "member": member})

    def better(sq) -> None:
        interim({"count": len(sq), "squares": sq, "bound": 0, "member": member + " + stripes"})

    squares, info = improve_by_stripes(free, squares, step=stripe_step, budget=mine, on_improve=better)
    stats.update(info)
    return {"count": len(squares), "squares": squares, "bound": 0, "member": member + " + stripes", "stats": stats}


def cpsat_member(grid_json: dict, threads: int, seed: int, *, budget: Budget, interim) -> dict:
    """A quick heuristic tiling, then CP-SAT from it (hint and upper bound)."""
    from puzzlelab.puzzles.tiling.beam import beam_tiling
    from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling
    from puzzlelab.puzzles.tiling.stripes import improve_by_stripes

    free = _grid(grid_json).free()
    _, squares, _ = beam_tiling(free, margin=1, deviation=1, width=2000, budget=budget.sub(seconds=0.5))
    squares, _ = improve_by_stripes(free, squares, budget=budget.sub(seconds=1.0), rounds=1)
    interim({"count": len(squares), "squares": squares, "bound": 0, "member": "cpsat start"})
    best = {"count": len(squares), "squares": squares, "bound": 0}

    def found(count: int, sq, bound: int) -> None:
        best.update(count=count, squares=sq, bound=bound)
        interim({"count": count, "squares": sq, "bound": bound, "member": "cpsat"})

    status, count, sq, bound, stats = cpsat_tiling(
        free, budget=budget, threads=threads, hint=squares, upper_bound=len(squares), seed=seed, on_solution=found
    )
    if status == Status.INFEASIBLE:  # nothing below the start tiling: it is optimal
        bound = len(squares)
    if count is not None and count <= best["count"]:
        best.update(count=count, squares=sq)
    best["bound"] = max(best["bound"], bound)
    return dict(best, member="cpsat", stats=stats)


def run_auto(
    grid,
    *,
    budget: Budget,
    progress: ProgressFn = no_progress,
    seed: int = 0,
    workers: int = 0,
    margin: int = 4,
    cpsat: bool = True,
) -> Result:
    from puzzlelab.puzzles.tiling.model import format_grid, format_solution

    started = time.perf_counter()
    free = grid.free()
    if not free.any():
        return Result(0, format_solution(grid, []), Status.OPTIMAL, "auto", bound=0, stats={"seconds": 0.0})
    rows = np.flatnonzero(free.any(axis=1))
    cols = np.flatnonzero(free.any(axis=0))
    box_h, box_w = int(rows[-1] - rows[0] + 1), int(cols[-1] - cols[0] + 1)
    short = min(box_h, box_w)
    if short <= EXACT_MAX_SHORT_SIDE and box_h * box_w <= INLINE_MAX_CELLS:
        from puzzlelab.puzzles.tiling.dp import run_dp

        result = run_dp(grid, budget=budget, progress=progress, seed=seed)
        result.method = "auto"
        result.stats["members"] = {"exact (in-process)": result.value}
        return result

    _warm_kernels()
    data = format_grid(grid)
    n_workers = workers or parallel.default_workers()
    tasks: list[Task] = []
    if cpsat:
        tasks.append(Task(cpsat_member, (data, 1, seed), name="cpsat", context=True))
    if short <= EXACT_MAX_SHORT_SIDE:
        tasks.append(Task(exact_member, (data,), name="exact", context=True))
    beam_lanes = max(1, n_workers - len(tasks))
    orientations = list(range(8))
    for i, k in enumerate(orientations):
        # the lanes left for beams share the clock: each member gets its slice of it
        rounds_left = (len(orientations) - i + beam_lanes - 1) // beam_lanes
        tasks.append(Task(beam_member, (data, k, margin, 1.0 / max(1, rounds_left), 10), name=f"beam {k}", context=True))

    best: dict[str, Any] = {"count": None, "squares": None, "bound": 0, "member": None}
    heard: dict[str, int] = {}
    run_budget = budget.sub(seconds=max(0.0, budget.seconds_left() - 0.25))

    def consider(value: Any) -> None:
        if not isinstance(value, dict) or value.get("squares") is None:
            return
        heard[value["member"]] = value["count"]
        if best["count"] is None or value["count"] < best["count"]:
            best.update(count=value["count"], squares=value["squares"], member=value["member"])
        best["bound"] = max(best["bound"], int(value.get("bound") or 0))
        progress(Progress(phase="auto", message=value["member"], best=best["count"], stats={"bound": best["bound"]}))
        if best["count"] is not None and best["count"] <= best["bound"]:
            run_budget.cancel()  # proven: stop every member now

    for outcome in parallel.run_tasks(
        tasks, workers=n_workers, budget=run_budget, grace=0.2, on_interim=lambda _, v: consider(v)
    ):
        if outcome.ok:
            consider(outcome.value)
    if best["count"] is None:  # no member answered in time: the greedy tiling
        from puzzlelab.puzzles.tiling.beam import greedy_tiling

        count, squares = greedy_tiling(free)
        best.update(count=count, squares=[tuple(s) for s in squares], member="greedy")
    squares = [tuple(map(int, s)) for s in best["squares"]]
    optimal = best["count"] <= best["bound"]
    stats = {
        "seconds": round(time.perf_counter() - started, 6),
        "member": best["member"],
        "members": heard,
        "workers": n_workers,
        "short_side": short,
    }
    status = Status.OPTIMAL if optimal else Status.FEASIBLE
    return Result(best["count"], format_solution(grid, squares), status, "auto", bound=best["bound"] or None, stats=stats)


def _warm_kernels() -> None:
    """Load the compiled kernels before forking, so every worker starts with them."""
    from puzzlelab.puzzles.tiling.beam import beam_tiling
    from puzzlelab.puzzles.tiling.dp import solve_exact

    tiny = np.ones((3, 4), dtype=bool)
    tiny[1, 2] = False
    solve_exact(tiny)
    beam_tiling(tiny, margin=1, deviation=1, width=10)
