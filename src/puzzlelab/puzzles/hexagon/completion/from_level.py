"""The best whole grid extending a level grid (seed write-up, "Level by Level").

A level-k grid places the values 1..k and marks every other cell "more than k". From
level 4 the rest is linear-time (completion/linear.py); below, the levels k+1..4 are placed by
SAT, tightening the penalty bound on one incremental solver, and every level-4 grid
found is completed in linear time. The `sat` search completes each level grid it finds
this way, `beam` and `levels` their best partial grids, `prove` a counterexample."""

from __future__ import annotations

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
from puzzlelab.puzzles.hexagon.cnf.solver import BoundedSolver, descend
from puzzlelab.puzzles.hexagon.completion.linear import complete_from_level4, split_sixes
from puzzlelab.puzzles.hexagon.model import Hexagon, hexagon
from puzzlelab.puzzles.hexagon.scoring import level_penalty, penalty_edges

__all__ = ["complete_partial"]


def complete_partial(n: int, partial: list[int], top: int, budget: Budget | None = None) -> tuple[list[int], int]:
    """The best full grid extending a level-`top` grid (values > top meaning 'more'),
    and its penalty. Levels 5-6 are linear-time; lower levels are re-solved by SAT
    (levels top+1..4, every level-4 grid found completed in linear time)."""
    geometry = hexagon(n)
    if top >= 5:
        grid = split_sixes(geometry, partial)
        return grid, len(penalty_edges(geometry, grid))
    if top == 4:
        grid, _ = complete_from_level4(geometry, partial)
        return grid, len(penalty_edges(geometry, grid))
    encoding = _extension_encoding(geometry, partial, top)
    best_grid: list[int] = []
    best_penalty: int | None = None
    with BoundedSolver(encoding.clauses, encoding.count_lits, encoding.n_vars) as solver:
        if not solver.solve(None):
            raise ValueError("level grid cannot be completed (not a valid level grid)")

        def found() -> int:
            """Complete the level-4 model just found; its level-4 penalty."""
            nonlocal best_grid, best_penalty
            level4 = encoding.decode(solver.model())
            grid, _ = complete_from_level4(geometry, level4)
            penalty = len(penalty_edges(geometry, grid))
            if best_penalty is None or penalty < best_penalty:
                best_grid, best_penalty = grid, penalty
            return level_penalty(geometry, level4, 4)

        upper = found()
        base = level_penalty(geometry, partial, top)
        descend(
            solver.solve,
            found,
            upper=upper,
            estimate=base + 4,
            stop=lambda: (budget is not None and budget.expired()) or best_penalty <= base,
        )
    return best_grid, best_penalty


def _extension_encoding(geometry: Hexagon, partial: list[int], top: int) -> HexEncoding:
    """Levels 1..4 with the cells holding 1..top pinned and the others barred from 1..top."""
    encoding = HexEncoding(geometry, top=4, fixed={c: v for c, v in enumerate(partial) if v <= top})
    for c, v in enumerate(partial):
        if v > top:
            for value in range(1, top + 1):
                encoding.clauses.append([-encoding.x(c, value)])
    return encoding
