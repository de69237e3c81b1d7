"""The `prove` method: a proof of optimality for grids past the
exact DP's reach, or, when the budget ends first, the best tiling and the best proven
lower bound (status `feasible`; `optimal` only when every part below is proven).

1. Split, exactly. Every square of side 2 or more is a union of free 2 x 2 blocks that
   overlap in a chain, so it lies inside one group of 8-connected free 2 x 2 blocks
   (two blocks touching by a side or a corner share a cell). A free cell in no free
   2 x 2 block is only ever covered by a 1 x 1 square (forced); the other cells fall
   into the groups, and no square meets two groups, so the fewest squares are the
   forced cells plus each group's own fewest, and the lower bounds add up the same way.
   Random contest grids (5% blocked) make one large group and a dozen forced cells;
   at 15% blocked, 5 to 9 groups (measured on the field benchmark's puzzles).
2. Upper bound: `auto` on the whole grid for `search` seconds (its tiling and its LP
   bound; when they meet, done).
3. Each group, smallest first, with its share of the time left: the exact DP when its
   box's short side is at most 15; otherwise its own LP bound (`bounds.py`, the ceiling
   of each group's LP, at least the whole grid's), and while `auto`'s squares in the
   group are above it, CP-SAT hinted with them, at linearization level 2 (measured in
   `cpsat.py`: about 2 to 5 times faster to the proof than level 1 on contest puzzles),
   first its default search, then its LP-bound tree search (`CPSAT_PHASES`).
   A group whose CP-SAT model cannot fit the memory allowed keeps its tiling and bound.

Every answer is verified by the checker (`Puzzle.solve`). Measured in
`benchmarks/bench_tiling_prove.py` beside CP-SAT alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status, no_progress
from puzzlelab.puzzles.tiling.auto import EXACT_MAX_SHORT_SIDE, run_auto
from puzzlelab.puzzles.tiling.bounds import band_lower_bound, lp_lower_bound
from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling
from puzzlelab.puzzles.tiling.dp import DPStopped, solve_exact
from puzzlelab.puzzles.tiling.kernels import label_blocks
from puzzlelab.puzzles.tiling.model import Grid, format_solution, parse_squares

__all__ = ["Part", "split_free", "prove_part", "prove_tiling", "run_prove"]

Square = tuple[int, int, int]

# CP-SAT on a group, one phase after another while it is unproven: (name, share of the
# time left, parameters beside linearization level 2). The default search finds better
# tilings and proves most groups in seconds; CP-SAT's LP-bound tree search (best-first
# on the LP bound) raises the bound where the default search leaves it: measured on
# sparse-2 (33 x 29, 2% blocked; one worker, 120 s each) bound 76 against 74, while on
# contest-0, from a tiling 3 above the optimum, it took 90 s to the proof against 14 s.
CPSAT_PHASES = (("cpsat", 0.4, {}), ("cpsat lb tree search", 1.0, {"optimize_with_lb_tree_search": True}))


@dataclass
class Part:
    """One group of free 2 x 2 blocks: its cells (`free`, cropped to their box whose
    top-left cell is column `x0`, row `y0`) and, once solved, its answer."""

    y0: int
    x0: int
    free: np.ndarray
    squares: list[Square] = field(default_factory=list)  # in the grid's coordinates
    bound: int = 0
    proven: bool = False
    how: str = ""

    @property
    def cells(self) -> int:
        return int(self.free.sum())


def split_free(free: np.ndarray) -> tuple[np.ndarray, list[Part], np.ndarray]:
    """(forced, parts, label): `forced` marks the free cells only a 1 x 1 square can
    cover, `parts` the groups (see the module docstring), smallest first, and
    `label[y, x]` the 1-based index in `parts` of a cell's group (0: forced or blocked)."""
    free = np.asarray(free, dtype=bool)
    height, width = free.shape
    label = np.zeros((height, width), dtype=np.int64)
    if height >= 2 and width >= 2:
        blocks = free[:-1, :-1] & free[1:, :-1] & free[:-1, 1:] & free[1:, 1:]
        block_label, _ = label_blocks(np.ascontiguousarray(blocks))
        for dy in (0, 1):  # every block containing a cell carries the same label
            for dx in (0, 1):
                view = label[dy : dy + height - 1, dx : dx + width - 1]
                np.maximum(view, block_label, out=view)
    forced = free & (label == 0)
    ys, xs = np.nonzero(label)
    groups = label[ys, xs]
    order = np.argsort(groups, kind="stable")
    ys, xs, groups = ys[order], xs[order], groups[order]
    cuts = np.flatnonzero(np.diff(groups)) + 1
    parts = []
    for gy, gx in zip(np.split(ys, cuts), np.split(xs, cuts)):
        if not len(gy):
            continue
        y0, x0 = int(gy.min()), int(gx.min())
        crop = np.zeros((int(gy.max()) - y0 + 1, int(gx.max()) - x0 + 1), dtype=bool)
        crop[gy - y0, gx - x0] = True
        parts.append(Part(y0, x0, crop))
    parts.sort(key=lambda p: p.cells)
    relabel = np.zeros((height, width), dtype=np.int64)
    for k, part in enumerate(parts, start=1):
        h, w = part.free.shape
        window = relabel[part.y0 : part.y0 + h, part.x0 : part.x0 + w]
        window[part.free] = k
    return forced, parts, relabel


def _local(part: Part, squares: list[Square]) -> list[Square]:
    return [(x - part.x0, y - part.y0, s) for x, y, s in squares]


def _global(part: Part, squares: list[Square]) -> list[Square]:
    return [(int(x) + part.x0, int(y) + part.y0, int(s)) for x, y, s in squares]


def prove_part(part: Part, budget: Budget, threads: int = 0, seed: int = 0) -> Part:
    """Solve one group within `budget`, starting from `part.squares` (a tiling of it):
    the DP when the short side allows, else LP bound then CP-SAT (module docstring)."""
    started = time.perf_counter()
    if min(part.free.shape) <= EXACT_MAX_SHORT_SIDE:
        try:
            count, squares, _ = solve_exact(part.free, budget, upper=len(part.squares))
        except DPStopped:
            pass  # out of time or memory: the LP and CP-SAT below
        else:
            part.squares, part.bound, part.proven, part.how = _global(part, squares), count, True, "exact DP"
            return part
    band, _ = band_lower_bound(part.free)
    part.bound = max(part.bound, band, lp_lower_bound(part.free, time_limit=budget.seconds_left(), budget=budget))
    part.how = "lp bound"
    for name, share, extra in CPSAT_PHASES:
        if len(part.squares) <= part.bound or budget.expired():
            break
        try:
            status, count, squares, bound, _ = cpsat_tiling(
                part.free, budget=budget.sub(fraction=share), threads=threads, hint=_local(part, part.squares),
                upper_bound=len(part.squares), seed=seed, parameters={"linearization_level": 2, **extra},
            )  # fmt: skip
        except InvalidInstance:  # the model cannot fit the memory allowed
            part.how = "lp bound (CP-SAT model too large)"
            break
        if count is not None and count < len(part.squares):
            part.squares = _global(part, squares)
        part.bound = max(part.bound, bound)  # CP-SAT's, the count itself when optimal
        part.how = name
    part.proven = len(part.squares) <= part.bound
    part.how += f" ({time.perf_counter() - started:.1f} s)"
    return part


def prove_tiling(
    free: np.ndarray,
    squares: list[Square],
    budget: Budget,
    *,
    threads: int = 0,
    seed: int = 0,
    progress: ProgressFn = no_progress,
) -> tuple[list[Square], int, dict]:
    """Steps 1 and 3 of the module docstring from a tiling of `free`: (squares, proven
    lower bound, stats); the squares are never more than the ones given."""
    forced, parts, label = split_free(free)
    units: list[Square] = []
    for x, y, s in squares:
        home = int(label[y, x])
        (parts[home - 1].squares if home else units).append((int(x), int(y), int(s)))
    for k, part in enumerate(parts):
        prove_part(part, budget.sub(fraction=1.0 / (len(parts) - k)), threads=threads, seed=seed)
        done = len(units) + sum(len(p.squares) for p in parts)
        bound = len(units) + sum(p.bound for p in parts)
        progress(Progress(phase="prove", message=f"part {k + 1} of {len(parts)}: {part.how}", best=done, stats={"bound": bound}))
    stats = {
        "forced": int(forced.sum()),
        "parts": len(parts),
        "largest_part": max((p.cells for p in parts), default=0),
        "unproven_parts": sum(not p.proven for p in parts),
        "proof": [f"{p.cells} cells: {len(p.squares)} squares, bound {p.bound}, {p.how}" for p in parts[-5:]],
    }
    return units + [s for p in parts for s in p.squares], len(units) + sum(p.bound for p in parts), stats


def run_prove(
    grid: Grid,
    *,
    budget: Budget,
    progress: ProgressFn = no_progress,
    seed: int = 0,
    threads: int = 0,
    workers: int = 0,
    search: float = 10.0,
) -> Result:
    """The `prove` method (see the module docstring)."""
    started = time.perf_counter()
    search_budget = budget.sub(seconds=min(float(search), budget.seconds_left() * 0.5))
    first = run_auto(grid, budget=search_budget, progress=progress, seed=seed, workers=workers)
    stats = {"search": {"value": first.value, "bound": first.bound, "bound_source": first.stats.get("bound_source")}}
    if first.status == Status.OPTIMAL:
        stats.update(seconds=round(time.perf_counter() - started, 6), proof="auto (its bound met)", parts=0)
        return Result(first.value, first.solution, Status.OPTIMAL, "prove", bound=first.bound, stats=stats)
    squares, bound, more = prove_tiling(grid.free(), parse_squares(first.solution), budget, threads=threads, seed=seed, progress=progress)
    bound = max(int(first.bound or 0), bound)
    stats.update(more, seconds=round(time.perf_counter() - started, 6), bound_gap=len(squares) - bound)
    status = Status.OPTIMAL if len(squares) <= bound else Status.FEASIBLE
    return Result(len(squares), format_solution(grid, squares), status, "prove", bound=bound, stats=stats)
