"""Lowest level penalties and the number of optimal grids at each level (seed
write-up, "Solution Counts" and the table of lowest penalties through each level).

What is counted: a level-k grid places the values 1..k and marks every other cell as
"more than k"; it is optimal at level k when its level-k penalty (the penalty edges
already decided, see scoring.py) is the lowest any level-k grid has. Level 6 grids are
whole solutions. No symmetry is factored out: a grid and its rotations and mirror images
all count (n = 3, level 1: one pattern, six images).

By default (method "dp") every level is counted by the row-by-row dynamic program of
rowdp/dp.py under one bound, the lowest penalty of the highest level asked for (the
published one, raised until a grid of that level fits it): it counts every level grid up to the bound by penalty, so the
lowest penalty of each level is proven and its count exact, without listing grids (n =
7, level 6: 135,214,596,096 grids). One grid of each level's lowest penalty is walked
out of the tables and checked (rule check and penalty; level 6 by the verifier).

Method "sat" (the first implementation, kept as the oracle the DP is tested against):
levels 1-4 are counted by SAT enumeration: descend to the lowest level-k penalty, then
list every level-k grid at that penalty with blocking clauses. Levels 5 and 6 start from
every level-4 grid whose penalty is at most the final optimum and multiply the
per-component counts of completion.component_polynomials (lowest level-5 penalty =
final optimum: level 6 never needs a penalty).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
from puzzlelab.puzzles.hexagon.cnf.solver import BoundedSolver, descend, penalty_estimate
from puzzlelab.puzzles.hexagon.completion.linear import component_polynomials, five_plus_components, poly_mul
from puzzlelab.puzzles.hexagon.model import HexInstance, format_grid, hexagon
from puzzlelab.puzzles.hexagon.reference import level_table
from puzzlelab.puzzles.hexagon.scoring import level_penalty

__all__ = ["level_minimum", "enumerate_level", "count_solutions", "BudgetExceeded"]


class BudgetExceeded(RuntimeError):
    """A count or a proof ran out of its budget before it was complete."""


def level_minimum(n: int, level: int, *, budget: Budget | None = None, symmetry: bool | str = "lex", encoding: str = "seqcounter") -> tuple[int, list[int]]:
    """(lowest level-`level` penalty, a level grid reaching it), proven by UNSAT.

    Level 5 is the whole puzzle (its penalty is the final one). Symmetry breaking is
    sound here (it only removes rotated and mirrored copies); see sat_encoding for the
    choices."""
    budget = budget or Budget()
    if budget.expired():  # building the model of a large order alone takes seconds
        raise BudgetExceeded(f"n={n} level {level}: no time left to build the model")
    geometry = hexagon(n)
    enc = HexEncoding(geometry, top=level, symmetry=symmetry)
    best_grid: list[int] = []
    best_penalty: int | None = None
    with BoundedSolver(enc.clauses, enc.count_lits, enc.n_vars, encoding) as solver:
        if not solver.solve_until(None, budget.expired):
            raise BudgetExceeded(f"n={n} level {level}: out of time before a first grid")

        def found() -> int:
            nonlocal best_grid, best_penalty
            grid = enc.decode(solver.model())
            penalty = level_penalty(geometry, grid, level)
            if best_penalty is None or penalty < best_penalty:
                best_grid, best_penalty = grid, penalty
            return penalty

        upper = found()
        lower, upper = descend(solver.solve, found, upper=upper, estimate=penalty_estimate(n, level), stop=budget.expired)
        if lower < upper:
            raise BudgetExceeded(f"n={n} level {level}: out of time between penalties {lower} and {upper}")
        return best_penalty, best_grid


def enumerate_level(n: int, level: int, max_penalty: int, *, budget: Budget | None = None, limit: int | None = None) -> list[list[int]]:
    """Every level-`level` grid with level penalty <= max_penalty (no symmetry breaking)."""
    budget = budget or Budget()
    geometry = hexagon(n)
    enc = HexEncoding(geometry, top=level, symmetry=False)
    grids: list[list[int]] = []
    with BoundedSolver(enc.clauses, enc.count_lits, enc.n_vars) as solver:
        while solver.solve(max_penalty):
            if budget.expired():
                raise BudgetExceeded(f"n={n} level {level}: out of time after {len(grids)} grids")
            grid = enc.decode(solver.model())
            grids.append(grid)
            if limit is not None and len(grids) > limit:
                raise BudgetExceeded(f"n={n} level {level}: more than {limit} grids")
            solver.add_clause(enc.block(grid))
    return grids


def count_solutions(
    n: int,
    levels=range(1, 7),
    *,
    budget: Budget | None = None,
    limit: int | None = 200_000,
    on_level: Callable[[int, int, int, float | None], None] | None = None,
    method: str = "dp",
    checkpoint: str | Path | None = None,
    progress: Callable[[dict], None] | None = None,
) -> dict[int, tuple[int, int]]:
    """level -> (lowest penalty at that level, number of level grids reaching it).
    `checkpoint` and `progress` are the DP's (count_by_dp)."""
    budget = budget or Budget()
    if method == "dp":
        return count_by_dp(n, levels, budget=budget, on_level=on_level, checkpoint=checkpoint, progress=progress)
    if method != "sat":
        raise ValueError(f"method: expected dp or sat, got {method!r}")
    geometry = hexagon(n)
    out: dict[int, tuple[int, int]] = {}
    levels = sorted(set(levels))
    for level in [k for k in levels if k <= 4]:
        t0 = time.perf_counter()
        minimum, _ = level_minimum(n, level, budget=budget)
        grids = enumerate_level(n, level, minimum, budget=budget, limit=limit)
        out[level] = (minimum, len(grids))
        if on_level:
            on_level(level, minimum, len(grids), time.perf_counter() - t0)
    if any(k >= 5 for k in levels):
        t0 = time.perf_counter()
        final, _ = level_minimum(n, 5, budget=budget)
        totals5 = 0
        totals6 = 0
        for grid in enumerate_level(n, 4, final, budget=budget, limit=limit):
            base = level_penalty(geometry, grid, 4)
            slack = final - base
            poly5, poly6 = [1], [1]
            for cells, cycle in five_plus_components(geometry, grid):
                p5, p6 = component_polynomials(len(cells), cycle, slack)
                poly5 = poly_mul(poly5, p5, slack)
                poly6 = poly_mul(poly6, p6, slack)
            totals5 += poly5[slack] if slack < len(poly5) else 0
            totals6 += poly6[slack] if slack < len(poly6) else 0
        seconds = time.perf_counter() - t0
        for level, total in ((5, totals5), (6, totals6)):
            if level in levels:
                out[level] = (final, total)
                if on_level:
                    on_level(level, final, total, seconds)
    return out


def count_by_dp(n: int, levels=range(1, 7), *, budget: Budget | None = None, on_level: Callable[[int, int, int, float | None], None] | None = None,
                checkpoint: str | Path | None = None, progress: Callable[[dict], None] | None = None) -> dict[int, tuple[int, int]]:
    """The counts by the row-by-row DP (see the module docstring). With a checkpoint
    folder, each bound tried keeps its min passes and finished counts in a subfolder
    (`bound-B`), so a stopped count resumes (rowdp/tables.py)."""
    from puzzlelab.puzzles.hexagon.rowdp.dp import TooLarge, count_levels
    from puzzlelab.puzzles.hexagon.verify import verify_grid

    budget = budget or Budget()
    wanted = sorted(set(levels))
    published = level_table().get(n)
    top = min(wanted[-1], 5)
    # the published lowest penalty of the highest level wanted (levels 4-6 share one)
    bound = published[min(top, 4) - 1] if published else level_minimum(n, top, budget=budget)[0]

    def show(level: int, histogram: dict[int, int], seconds: float | None) -> None:
        if on_level and histogram:
            low = min(histogram)
            on_level(level, low, histogram[low], seconds)

    while True:
        try:
            folder = Path(checkpoint) / f"bound-{bound}" if checkpoint is not None else None
            found = count_levels(n, wanted, bound, budget=budget, on_level=show, checkpoint=folder, progress=progress)
        except TooLarge as exc:
            raise BudgetExceeded(str(exc)) from exc
        if all(found[k][0] for k in wanted):
            break
        bound += 1  # no whole grid within the bound: the published figure was too low
    if 6 in wanted:
        verdict = verify_grid(HexInstance(n), format_grid(n, found[6][1]))
        if not verdict.ok:
            raise AssertionError(f"row DP level-6 grid rejected by the verifier: {verdict.message}")
    return {k: (min(found[k][0]), found[k][0][min(found[k][0])]) for k in wanted}
