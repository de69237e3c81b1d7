"""The `auto` method: a portfolio of worker processes under one budget (default 10 s,
the contest's), returning the best tiling by the deadline, `optimal` when proven.

One member per worker (each a small descriptor: the grid's JSON and a few numbers, so
the Ray backend can ship it unchanged):
- `exact` (on one lane, when the short side of the free cells' box is at most 15): the
  column DP; when it finishes its answer is proven and the portfolio stops.
- `search` (the other lanes): the eight orientations of the write-up's heuristic
  (section 2.3) are dealt out round-robin to the search members. Each member runs,
  for each beam setting of `SWEEPS` and each of its orientations, a beam sweep and
  one round of the write-up's stripe re-solving (2.2) on its tiling; then randomised
  window re-solving (`lns.py`) of the best until its deadline. Every better tiling
  goes to the parent as an interim answer.
- `cpsat` (optional, `--cpsat`): CP-SAT started from a quick heuristic tiling (hint and
  upper bound). Measured here with one thread it neither improved the hint nor raised
  its bound within 10 s on the contest puzzles, so it is off by default.

- `bound`, in one extra process beside them: the LP relaxation (`bounds.py`), a proven
  lower bound, in a second or two.
When the best tiling heard of meets the best bound, the answer is optimal and every
member is terminated at once.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from puzzlelab.core import parallel
from puzzlelab.core.parallel import Task
from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status, no_progress

__all__ = ["run_auto", "exact_member", "search_member", "bound_member", "cpsat_member", "EXACT_MAX_SHORT_SIDE"]

EXACT_MAX_SHORT_SIDE = 15  # the packed DP: 15 x 60 with 5% blocked takes 0.1-0.8 s, a full 15 x 100 0.02 s
INLINE_MAX_CELLS = 15 * 40  # with a short side <= 15 and this few cells: DP in-process


def _free(grid_json: dict) -> np.ndarray:
    from puzzlelab.puzzles.tiling.model import parse_grid

    return parse_grid(grid_json).free()


def exact_member(grid_json: dict, share: float, *, budget: Budget, interim) -> dict:
    """The exact DP within `share` of the time left."""
    from puzzlelab.puzzles.tiling.dp import solve_exact

    count, squares, stats = solve_exact(_free(grid_json), budget.sub(fraction=share))
    return {"count": count, "squares": squares, "bound": count, "member": "exact", "stats": stats}


# The beam settings a search member sweeps, cheapest first: (Cost Margin, Size Deviation,
# beam width); None is the margin the user gave (default 4). Measured on the ten contest
# puzzles (one core, no clock): a beam at margin 3 or 2 with 1,000 states, then one round
# of stripes, reaches all ten optima within its first 16 runs (8 orientations x 2
# settings), most in the first few; the write-up's single sweep at margin 4 with shrinking
# margins then stripes and windows stayed one square above on contest_4 in every run.
# Many cheap, different starting tilings matter more than one expensive one.
SWEEPS: tuple[tuple[int | None, int, int], ...] = ((3, 2, 1_000), (2, 2, 1_000), (None, 2, 3_000))


def search_member(
    grid_json: dict, orientations: tuple[int, ...], margin: int, seed: int, target: int, *, budget: Budget, interim
) -> dict:
    """Beam + one round of stripes from each of `orientations` under each of `SWEEPS`
    (in 70% of the time), then randomised window re-solving of the best tiling until
    the deadline or until it reaches `target` (a lower bound known when it started)."""
    from puzzlelab.puzzles.tiling.beam import oriented_beam
    from puzzlelab.puzzles.tiling.lns import improve_by_random_windows
    from puzzlelab.puzzles.tiling.stripes import improve_by_stripes

    free = _free(grid_json)
    name = f"search {','.join(map(str, orientations))}"
    best: dict[str, Any] = {"squares": None, "member": name}

    def offer(squares, how: str) -> None:
        if best["squares"] is None or len(squares) < len(best["squares"]):
            best.update(squares=list(squares), how=how)
            interim({"count": len(squares), "squares": best["squares"], "bound": 0, "member": f"{name}: {how}"})

    def reached() -> bool:
        return best["squares"] is not None and len(best["squares"]) <= target

    runs = [(margin if m is None else min(m, margin), d, w, k) for m, d, w in SWEEPS for k in orientations]
    # Load the compiled kernels before the clock matters: a worker's first call reads
    # numba's cache, and a slow first column makes the pace rule below cut the margin.
    _warm_kernels()
    sweeps = budget.sub(fraction=0.7)
    done = 0
    for m, d, w, k in runs:
        if reached() or (done > 0 and sweeps.expired()):
            break
        done += 1
        # The margins shrink (section 2.4) only when one sweep would outrun the sweep
        # phase (half of it for the first, so a large grid's first tiling comes early);
        # a sweep still running at the end of the phase is abandoned for the greedy
        # tiling, so every run ends with a tiling.
        how = f"beam {k} margin {m}"
        clock = sweeps.sub(fraction=0.5) if done == 1 else sweeps
        _, squares, _ = oriented_beam(free, k, m, d, w, clock, hard=sweeps)
        offer(squares, how)
        squares, _ = improve_by_stripes(free, squares, budget=sweeps, rounds=1, on_improve=lambda s: offer(s, how + " + stripes"))
        offer(squares, how + " + stripes")
    stats: dict[str, Any] = {"runs": done}
    if not reached():
        squares, window_stats = improve_by_random_windows(
            free, best["squares"], budget=budget, seed=seed, target=target, on_improve=lambda s: offer(s, "windows")
        )
        offer(squares, "windows")
        stats.update(window_stats)
    return {"count": len(best["squares"]), "squares": best["squares"], "bound": 0, "member": f"{name}: {best['how']}", "stats": stats}


def bound_member(grid_json: dict, *, budget: Budget, interim) -> dict:
    """The LP relaxation's lower bound (HiGHS)."""
    from puzzlelab.puzzles.tiling.bounds import lp_lower_bound

    bound = lp_lower_bound(_free(grid_json), time_limit=budget.seconds_left())
    return {"count": None, "squares": None, "bound": bound, "member": "lp bound"}


def cpsat_member(grid_json: dict, threads: int, seed: int, *, budget: Budget, interim) -> dict:
    """A quick heuristic tiling, then CP-SAT from it (hint and upper bound)."""
    from puzzlelab.puzzles.tiling.beam import beam_tiling
    from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling

    free = _free(grid_json)
    _, squares, _ = beam_tiling(free, margin=2, deviation=1, width=5000, budget=budget.sub(seconds=0.5))
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
    cpsat: bool = False,
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
    if short <= EXACT_MAX_SHORT_SIDE:
        # alone on a single worker it leaves time for a search after it
        share = 1.0 if n_workers > 1 else 0.6
        tasks.append(Task(exact_member, (data, share), name="exact", context=True))
    if cpsat:
        tasks.append(Task(cpsat_member, (data, 1, seed), name="cpsat", context=True))
    lanes = max(1, n_workers - len(tasks))
    # the bound runs beside the others in one extra process (it takes a second or two)
    tasks.insert(0, Task(bound_member, (data,), name="bound", context=True))
    for lane in range(lanes):
        ks = tuple(k for k in range(8) if k % lanes == lane) or (lane % 8,)
        tasks.append(Task(search_member, (data, ks, margin, seed * 1000 + lane, 0), name=f"search {lane}", context=True))

    best: dict[str, Any] = {"count": None, "squares": None, "bound": 0, "member": None}
    heard: dict[str, int] = {}
    run_budget = budget.sub(seconds=max(0.0, budget.seconds_left() - 0.3))

    def consider(value: Any) -> None:
        if not isinstance(value, dict):
            return
        if value.get("squares") is not None:
            heard[value["member"]] = value["count"]
            if best["count"] is None or value["count"] < best["count"]:
                best.update(count=value["count"], squares=value["squares"], member=value["member"])
        else:
            heard[value["member"]] = value.get("bound")
        best["bound"] = max(best["bound"], int(value.get("bound") or 0))
        progress(Progress(phase="auto", message=str(best["member"]), best=best["count"], stats={"bound": best["bound"]}))
        if best["count"] is not None and best["count"] <= best["bound"]:
            run_budget.cancel()  # proven: stop every member now

    for outcome in parallel.run_tasks(
        tasks, workers=n_workers + 1, budget=run_budget, grace=0.2, on_interim=lambda _, v: consider(v)
    ):
        if outcome.ok or outcome.interim:
            consider(outcome.value)
    if best["count"] is None:  # no member answered in time: the greedy tiling
        from puzzlelab.puzzles.tiling.beam import greedy_tiling

        count, squares = greedy_tiling(free)
        best.update(count=count, squares=squares, member="greedy")
    squares = [tuple(map(int, s)) for s in best["squares"]]
    optimal = best["count"] <= best["bound"]
    stats = {
        "seconds": round(time.perf_counter() - started, 6),
        "member": best["member"],
        "members": dict(heard),
        "workers": n_workers,
        "short_side": short,
    }
    status = Status.OPTIMAL if optimal else Status.FEASIBLE
    return Result(best["count"], format_solution(grid, squares), status, "auto", bound=best["bound"] or None, stats=stats)


def _warm_kernels() -> None:
    """Load the compiled kernels and the members' modules: in the parent before
    forking, so forked workers start with them, and in each search member before its
    clock starts (forkserver and Ray workers inherit nothing)."""
    from puzzlelab.puzzles.tiling import lns, stripes  # noqa: F401
    from puzzlelab.puzzles.tiling.beam import beam_tiling
    from puzzlelab.puzzles.tiling.dp import solve_exact

    tiny = np.ones((3, 4), dtype=bool)
    tiny[1, 2] = False
    solve_exact(tiny)
    beam_tiling(tiny, margin=1, deviation=1, width=10)
