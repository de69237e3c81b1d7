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
- `cpsat` (on one lane where the DP cannot go: the short side above 15, a model of at
  most `CPSAT_MAX_TERMS` terms that fits the memory allowed, at least two workers;
  `--cpsat` forces it, `--no-cpsat` leaves it out): CP-SAT with one thread, every
  constraint in its LP (linearization level 2) and its LP-bound tree search, started
  from a quick heuristic tiling (hint and upper bound, the bound in the objective's
  domain). Measured at 10 s on a shared 2-core machine (`bench_tiling_field.py
  --names ... --cpsat`), it changed no value on 10 contest-style puzzles and raised the
  bound: contest-18 and contest-1 proven, contest-54 167 and contest-9 155 against the
  LP's 166 and 154 (the default search instead proved contest-18 only, a little sooner:
  3.7-4.6 s against 6.2 s). At 25 s (default search) it found and proved contest-54's
  167 in 13 s, where the search members reached 167 at 24.5 s, unproven. At
  linearization level 1, or with its upper bound as a linear constraint, it did
  nothing within 10 s.

- `bound`, in one extra process beside them: the LP relaxation (`bounds.py`), a proven
  lower bound, in a second or two.
When the best tiling heard of meets the best bound, the answer is optimal and every
member is terminated at once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from puzzlelab.core import parallel
from puzzlelab.core.parallel import Task
from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status, no_progress
from puzzlelab.puzzles.tiling.beam import beam_tiling, greedy_tiling, oriented_beam
from puzzlelab.puzzles.tiling.bounds import band_lower_bound, lp_lower_bound
from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling
from puzzlelab.puzzles.tiling.dp import solve_exact
from puzzlelab.puzzles.tiling.dp_fallback import run_dp
from puzzlelab.puzzles.tiling.limits import memory_allowed, model_size, require_model_fits
from puzzlelab.puzzles.tiling.lns import improve_by_random_windows
from puzzlelab.puzzles.tiling.model import Grid, format_grid, format_solution, parse_grid
from puzzlelab.puzzles.tiling.stripes import improve_by_stripes

__all__ = [
    "run_auto",
    "MemberAnswer",
    "exact_member",
    "search_member",
    "bound_member",
    "cpsat_member",
    "cpsat_start_tiling",
    "wants_cpsat",
    "EXACT_MAX_SHORT_SIDE",
]

EXACT_MAX_SHORT_SIDE = 15  # the packed DP: 15 x 60 with 5% blocked takes 0.1-0.8 s, a full 15 x 100 0.02 s
INLINE_MAX_CELLS = 15 * 40  # with a short side <= 15 and this few cells: DP in-process

Square = tuple[int, int, int]


@dataclass
class MemberAnswer:
    """What a member sends the parent, as an interim answer or its last: a tiling
    (`count` squares, None for the bound member) and/or a proven lower `bound` (0: none)."""

    count: int | None
    squares: list[Square] | None
    bound: int
    member: str
    stats: dict[str, Any] = field(default_factory=dict)


def _free(grid_json: dict) -> np.ndarray:
    return parse_grid(grid_json).free()


def exact_member(grid_json: dict, share: float, *, budget: Budget, interim) -> MemberAnswer:
    """The exact DP within `share` of the time left."""
    count, squares, stats = solve_exact(_free(grid_json), budget.sub(fraction=share))
    return MemberAnswer(count, squares, count, "exact", stats)


# The beam settings a search member sweeps, cheapest first: (Cost Margin, Size Deviation,
# beam width); None is the margin the user gave (default 4). Measured on the ten contest
# puzzles (one core, no clock): a beam at margin 3 or 2 with 1,000 states, then one round
# of stripes, reaches all ten optima within its first 16 runs (8 orientations x 2
# settings), most in the first few; the write-up's single sweep at margin 4 with shrinking
# margins then stripes and windows stayed one square above on contest_4 in every run.
# Many cheap, different starting tilings matter more than one expensive one.
SWEEPS: tuple[tuple[int | None, int, int], ...] = ((3, 2, 1_000), (2, 2, 1_000), (None, 2, 3_000))
# every constraint in the LP, best-first on the LP bound (see the module docstring)
CPSAT_PARAMETERS = {"linearization_level": 2, "optimize_with_lb_tree_search": True}
# The largest model (cells of all candidate squares) given a CP-SAT member unasked: the
# field's contest-style puzzles have 4,000-142,000 (built in under 0.2 s); the larger
# grids' members are not measured, so they get none.
CPSAT_MAX_TERMS = 200_000
SWEEP_SHARE = 0.7  # of a search member's time for the sweeps; the rest re-solves windows


def search_member(
    grid_json: dict,
    orientations: tuple[int, ...],
    margin: int,
    seed: int,
    target: int,
    sweep_share: float = SWEEP_SHARE,
    *,
    budget: Budget,
    interim,
) -> MemberAnswer:
    """Beam + one round of stripes from each of `orientations` under each of `SWEEPS`
    (in `sweep_share` of the time), then randomised window re-solving of the best tiling until
    the deadline or until it reaches `target` (a lower bound known when it started)."""
    free = _free(grid_json)
    name = f"search {','.join(map(str, orientations))}"
    best = MemberAnswer(None, None, 0, name)
    best_how = ""

    def offer(squares, how: str) -> None:
        nonlocal best_how
        if best.squares is None or len(squares) < len(best.squares):
            best.squares, best.count, best_how = list(squares), len(squares), how
            interim(MemberAnswer(best.count, best.squares, 0, f"{name}: {how}"))

    def reached() -> bool:
        return best.squares is not None and len(best.squares) <= target

    runs = [(margin if m is None else min(m, margin), d, w, k) for m, d, w in SWEEPS for k in orientations]
    # Load the compiled kernels before the clock matters: a worker's first call reads
    # numba's cache, and a slow first column makes the pace rule below cut the margin.
    _warm_kernels()
    sweeps = budget.sub(fraction=sweep_share)
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
    best.stats = {"runs": done}
    if not reached():
        squares, window_stats = improve_by_random_windows(
            free, best.squares, budget=budget, seed=seed, target=target, on_improve=lambda s: offer(s, "windows")
        )
        offer(squares, "windows")
        best.stats.update(window_stats)
    best.member = f"{name}: {best_how}"
    return best


def bound_member(grid_json: dict, *, budget: Budget, interim) -> MemberAnswer:
    """The LP relaxation's lower bound (HiGHS)."""
    bound = lp_lower_bound(_free(grid_json), time_limit=budget.seconds_left(), budget=budget)
    return MemberAnswer(None, None, bound, "lp bound")


def cpsat_start_tiling(free: np.ndarray, budget: Budget) -> list[Square]:
    """The CP-SAT member's start: the search members' first run (the beam in
    orientation 0 at the first `SWEEPS` setting, half of `budget` before it is cut,
    then one round of stripes)."""
    m, d, w = SWEEPS[0]
    _, squares, _ = oriented_beam(free, 0, m, d, w, budget.sub(fraction=0.5), hard=budget)
    squares, _ = improve_by_stripes(free, squares, budget=budget, rounds=1)
    return squares


def cpsat_member(grid_json: dict, threads: int, seed: int, *, budget: Budget, interim) -> MemberAnswer:
    """A quick heuristic tiling (the search members' first run: a cheap beam, one round
    of stripes), then CP-SAT from it (hint and upper bound). The start matters: the
    beam at margin 2 with 5,000 states cut at 0.5 s gave 209, 190 and 185 squares on
    contest-54, -0 and -9, where this gives 169, 165 and 159 in 0.2-0.8 s."""
    free = _free(grid_json)
    _warm_kernels()
    squares = cpsat_start_tiling(free, budget.sub(seconds=2.0))
    interim(MemberAnswer(len(squares), squares, 0, "cpsat start"))
    best = MemberAnswer(len(squares), squares, 0, "cpsat")

    def found(count: int, sq, bound: int) -> None:
        best.count, best.squares, best.bound = count, sq, bound
        interim(MemberAnswer(count, sq, bound, "cpsat"))

    status, count, sq, bound, stats = cpsat_tiling(
        free, budget=budget, threads=threads, hint=squares, upper_bound=len(squares), seed=seed, on_solution=found,
        parameters=CPSAT_PARAMETERS,
    )  # fmt: skip
    if status == Status.INFEASIBLE:  # nothing below the start tiling: it is optimal
        bound = len(squares)
    if count is not None and count <= best.count:
        best.count, best.squares = count, sq
    best.bound = max(best.bound, bound)
    best.stats = stats
    return best


def wants_cpsat(free: np.ndarray, short: int, n_workers: int, budget: Budget | None = None) -> bool:
    """Whether the portfolio gets a CP-SAT member unasked (see the module docstring)."""
    if short <= EXACT_MAX_SHORT_SIDE or n_workers < 2:
        return False
    size = model_size(free)
    return size.terms <= CPSAT_MAX_TERMS and size.cpsat_bytes() <= memory_allowed(budget)


def _portfolio(data: dict, short: int, n_workers: int, margin: int, seed: int, cpsat: bool) -> list[Task]:
    """The members' tasks: the bound, the exact DP when the short side allows, CP-SAT
    if asked, and search members on the other lanes, the 8 orientations dealt out."""
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
        tasks.append(Task(search_member, (data, ks, margin, seed * 1000 + lane, 0, SWEEP_SHARE), name=f"search {lane}", context=True))
    return tasks


class _Best:
    """The best tiling and the best bound heard of so far from the members."""

    def __init__(self, progress: ProgressFn, on_proven) -> None:
        self.count: int | None = None
        self.squares: list | None = None
        self.bound = 0
        self.bound_source = "none"
        self.member: str | None = None
        self.heard: dict[str, int | None] = {}
        self.progress, self.on_proven = progress, on_proven

    def consider(self, value: Any) -> None:
        if not isinstance(value, MemberAnswer):
            return
        if value.squares is not None:
            self.heard[value.member] = value.count
            if self.count is None or value.count < self.count:
                self.count, self.squares, self.member = value.count, value.squares, value.member
        else:
            self.heard[value.member] = value.bound
        if int(value.bound or 0) > self.bound:
            self.bound, self.bound_source = int(value.bound), value.member
        self.progress(Progress(phase="auto", message=str(self.member), best=self.count, stats={"bound": self.bound}))
        if self.count is not None and self.count <= self.bound:
            self.on_proven()  # proven: stop every member now


def run_auto(
    grid: Grid,
    *,
    budget: Budget,
    progress: ProgressFn = no_progress,
    seed: int = 0,
    workers: int = 0,
    margin: int = 4,
    cpsat: bool | None = None,
) -> Result:
    """The `auto` method (see the module docstring); small grids the exact DP solves at
    once run in this process. `cpsat`: None lets `wants_cpsat` decide; with True, a grid
    whose CP-SAT model cannot fit the memory allowed is refused up front."""
    started = time.perf_counter()
    free = grid.free()
    if not free.any():
        return Result(0, format_solution(grid, []), Status.OPTIMAL, "auto", bound=0, stats={"seconds": 0.0})
    if cpsat:
        require_model_fits(free, "auto --cpsat", budget, advice="leave out --cpsat")
    rows = np.flatnonzero(free.any(axis=1))
    cols = np.flatnonzero(free.any(axis=0))
    box_h, box_w = int(rows[-1] - rows[0] + 1), int(cols[-1] - cols[0] + 1)
    short = min(box_h, box_w)
    if short <= EXACT_MAX_SHORT_SIDE and box_h * box_w <= INLINE_MAX_CELLS:
        result = run_dp(grid, budget=budget, progress=progress, seed=seed)
        result.method = "auto"
        result.stats["members"] = {"exact (in-process)": result.value}
        return result

    _warm_kernels()
    n_workers = workers or parallel.default_workers()
    if cpsat is None:
        cpsat = wants_cpsat(free, short, n_workers, budget)
    tasks = _portfolio(format_grid(grid), short, n_workers, margin, seed, cpsat)
    run_budget = budget.sub(seconds=max(0.0, budget.seconds_left() - 0.3))
    best = _Best(progress, run_budget.cancel)
    best.bound, best.bound_source = band_lower_bound(free)  # never empty, in milliseconds
    for outcome in parallel.run_tasks(
        tasks, workers=n_workers + 1, budget=run_budget, grace=0.2, on_interim=lambda _, v: best.consider(v)
    ):
        if outcome.ok or outcome.interim:
            best.consider(outcome.value)
    if best.count is None:  # no member answered in time: the greedy tiling
        best.count, best.squares = greedy_tiling(free)
        best.member = "greedy"
    squares = [tuple(map(int, s)) for s in best.squares]
    stats = {
        "seconds": round(time.perf_counter() - started, 6),
        "member": best.member,
        "members": dict(best.heard),
        "workers": n_workers,
        "short_side": short,
        "bound_source": best.bound_source,
        "bound_gap": best.count - best.bound,
        "cpsat_member": cpsat,
    }
    status = Status.OPTIMAL if best.count <= best.bound else Status.FEASIBLE
    return Result(best.count, format_solution(grid, squares), status, "auto", bound=best.bound, stats=stats)


def _warm_kernels() -> None:
    """Load the compiled kernels: in the parent before forking, so forked workers start
    with them, and in each search member before its clock starts (forkserver and Ray
    workers inherit nothing)."""
    tiny = np.ones((3, 4), dtype=bool)
    tiny[1, 2] = False
    solve_exact(tiny)
    beam_tiling(tiny, margin=1, deviation=1, width=10)
