"""A219158 by the column DP: the fewest squares tiling every m x n rectangle.

One DP sweep of an h-row strip W columns long answers every h x n rectangle with
n <= W at once: a state of column n-1 in which no square sticks out past that column
(all rows at 1) is a tiling of the h x n rectangle, and the DP keeps the cheapest one.
So the table needs one sweep per short side h, each as long as the longest side asked
for with it. Every tiling is rebuilt from the parent links and checked by the
independent verifier before it is returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from puzzlelab.core.result import Budget, Result, Status

__all__ = ["RectangleAnswer", "rectangle_table"]


@dataclass
class RectangleAnswer:
    m: int
    n: int
    squares: int
    result: Result


def rectangle_table(
    ms: list[int], ns: list[int], *, budget: float | None = None, max_memory_mb: float = 2000.0
) -> Iterator[RectangleAnswer]:
    """Verified answers for every (m, n), m in ms, n in ns, in that order."""
    import numpy as np

    from puzzlelab.puzzles.tiling import PUZZLE
    from puzzlelab.puzzles.tiling.dp import ColumnDP
    from puzzlelab.puzzles.tiling.model import Grid, format_solution

    clock = Budget(budget)
    longest: dict[int, int] = {}
    for m in ms:
        for n in ns:
            h, w = min(m, n), max(m, n)
            longest[h] = max(longest.get(h, 0), w)
    runs: dict[int, ColumnDP] = {}
    for m in ms:
        for n in ns:
            h, w = min(m, n), max(m, n)
            if h not in runs:
                dp = ColumnDP(np.ones((h, longest[h]), dtype=bool), record_flush=True, max_memory_mb=max_memory_mb)
                dp.run(clock)
                runs[h] = dp
            dp = runs[h]
            index, count = dp.flush[w - 1]
            squares = dp.squares(end_column=w - 1, index=index)
            if m > n:  # the DP ran on the n-row strip; the instance has m rows
                squares = [(y, x, s) for x, y, s in squares]
            grid = Grid.rectangle(n, m)
            result = Result(count, format_solution(grid, squares), Status.OPTIMAL, "dp", bound=count)
            PUZZLE.check(grid, result)
            yield RectangleAnswer(m, n, count, result)
