"""A219158 by the column DP: the fewest squares tiling every m x n rectangle.

One DP sweep of an h-row strip W columns long answers every h x n rectangle with
n <= W at once: a state of column n-1 in which no square sticks out past that column
(all rows at 1) is a tiling of the h x n rectangle, and the DP keeps the cheapest one.
So the table needs one sweep per short side h, each as long as the longest side asked
for with it.

The sweeps are independent, so `table_rows` ships one small descriptor per short side
(h, the widths wanted, the memory limit) to `puzzlelab.core.parallel.map`, locally or on
a Ray cluster, and checks every tiling that comes back with the independent verifier on
the driver before it returns it. `rectangle_table` is the same table computed in this
process, streamed row by row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from puzzlelab.core import parallel
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.tiling.dp import PACKED_MAX_HEIGHT, ColumnDP, DPStopped
from puzzlelab.puzzles.tiling.model import Grid, format_solution
from puzzlelab.puzzles.tiling.rows import row_tilings
from puzzlelab.puzzles.tiling.verify import check_result

__all__ = ["RectangleAnswer", "rectangle_table", "strip_tilings", "table_rows"]


@dataclass
class RectangleAnswer:
    m: int
    n: int
    squares: int
    result: Result


def _longest_per_short_side(ms: list[int], ns: list[int]) -> dict[int, int]:
    longest: dict[int, int] = {}
    for m in ms:
        for n in ns:
            h, w = min(m, n), max(m, n)
            longest[h] = max(longest.get(h, 0), w)
    return longest


def _checked(m: int, n: int, count: int, strip_squares: list) -> RectangleAnswer:
    """The answer for the m x n rectangle from a tiling of the min x max strip,
    verified by the independent checker (raises WrongAnswer otherwise)."""
    squares = [tuple(map(int, s)) for s in strip_squares]
    if m > n:  # the DP ran on the n-row strip; the instance has m rows
        squares = [(y, x, s) for x, y, s in squares]
    grid = Grid.rectangle(n, m)
    result = Result(count, format_solution(grid, squares), Status.OPTIMAL, "dp", bound=count)
    check_result(grid, result)
    return RectangleAnswer(m, n, count, result)


def strip_tilings(
    height: int, widths: list[int], max_memory_mb: float = 2000.0, known: dict | None = None
) -> dict[int, tuple[int, list]]:
    """One DP sweep of the full height x max(widths) strip: {w: (squares, tiling of the
    height x w rectangle)}. A batch task: its arguments and answer are plain data.
    Past 15 rows the sweep prunes with bounds from smaller rectangles (`rows.py`;
    `known`: T of rectangles with a short side past 15, for tighter bounds)."""
    if height > PACKED_MAX_HEIGHT:
        return row_tilings(height, widths, max_memory_mb, known)[0]
    dp = ColumnDP(np.ones((height, max(widths)), dtype=bool), record_flush=True, max_memory_mb=max_memory_mb)
    dp.run()
    answers = {}
    for w in sorted(set(widths)):
        index, count = dp.flush[w - 1]
        answers[w] = (int(count), [tuple(map(int, s)) for s in dp.squares(end_column=w - 1, index=index)])
    return answers


def rectangle_table(
    ms: list[int], ns: list[int], *, budget: float | None = None, max_memory_mb: float = 2000.0
) -> Iterator[RectangleAnswer]:
    """Verified answers for every (m, n), m in ms, n in ns, in that order, computed in
    this process (one sweep per short side, started when first needed)."""
    clock = Budget(budget)
    longest = _longest_per_short_side(ms, ns)
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
            yield _checked(m, n, count, dp.squares(end_column=w - 1, index=index))


def table_rows(
    ms: list[int],
    ns: list[int],
    *,
    budget: float | None = None,
    max_memory_mb: float = 2000.0,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    known: dict[tuple[int, int], int] | None = None,
) -> list[RectangleAnswer]:
    """Verified answers for every (m, n), in the order of ms then ns, with one
    `strip_tilings` task per short side run by `parallel.map` on `backend` ('local'
    worker processes or 'ray' at `address`). Raises DPStopped when a strip did not
    finish (budget, memory, a lost worker). `known`: (short, long) -> T past 15 rows,
    for the rows sweep's bounds (a wrong value stops it with an error, never a wrong T)."""
    longest = _longest_per_short_side(ms, ns)
    wanted: dict[int, set[int]] = {h: set() for h in longest}
    for m in ms:
        for n in ns:
            wanted[min(m, n)].add(max(m, n))
    heights = sorted(wanted, key=lambda h: -h * longest[h])  # the longest sweeps first
    items = [(h, sorted(wanted[h]), max_memory_mb, known) for h in heights]
    outcomes = parallel.map(
        strip_tilings, items, workers=workers, budget=Budget(budget), backend=backend, address=address
    )
    strips: dict[int, dict] = {}
    for outcome in outcomes:
        h = heights[outcome.index]
        if not outcome.ok:
            reason = "budget" if outcome.error in ("deadline", "cancelled") else outcome.error.strip().splitlines()[-1]
            raise DPStopped(f"strip of height {h}: {reason}", 0)
        strips[h] = {int(w): v for w, v in outcome.value.items()}
    if len(strips) < len(heights):
        raise DPStopped("budget", 0)
    rows = []
    for m in ms:
        for n in ns:
            count, squares = strips[min(m, n)][max(m, n)]
            rows.append(_checked(m, n, count, squares))
    return rows
