"""A219158 rows past 15: the m x n rectangles with a short side m > 15, exactly.

Past 15 rows the DP runs the general step (5 bits a row in two words), and a full
strip keeps every frontier shape: A242551(m) states a column, 3.6 million at m = 20,
which is what made 18 x 40 take 48 s and 1.5 GB. The rows here prune, and
stay exact, with upper bounds that real tilings meet:

- `upper_bounds`: U(n) >= T(m, n) for every width, from tilings put together out of
  rectangles the packed DP solves at once (short side <= 15): an m x a block beside
  an m x (n - a) rest, an a x n strip above an (m - a) x n strip, an m x m square;
- `allowance`: a state of column x whose least and largest row values are a and b
  can only end in a tiling of width n >= x + b, with at least ceil((n - x - a) / m)
  more squares (its least covered row still needs them, no square being wider than
  m). If its squares exceed U(n) minus that for every width asked, it cannot end in
  an optimum of any of them and the step drops it (`kernels.general_column_step`).

Each answer is the DP's flush state at that width, so it is optimal; its tiling is
rebuilt and checked by the caller (`rectangles._checked`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from puzzlelab.puzzles.tiling.dp import PACKED_MAX_HEIGHT, ColumnDP

__all__ = ["allowance", "row_tilings", "short_table", "upper_bounds"]


@lru_cache(maxsize=4)
def short_table(width: int) -> np.ndarray:
    """T[a, n] for 1 <= a <= 15, 1 <= n <= width (row 0 and column 0 unused): one packed
    sweep per height, every width read off its flush states."""
    table = np.zeros((PACKED_MAX_HEIGHT + 1, width + 1), dtype=np.int64)
    for a in range(1, PACKED_MAX_HEIGHT + 1):
        dp = ColumnDP(np.ones((a, width), dtype=bool), record_flush=True)
        dp.run()
        table[a, 1:] = [count for _, count in dp.flush]
    return table


def upper_bounds(m: int, width: int, known: dict[tuple[int, int], int] | None = None) -> np.ndarray:
    """U[n] >= T(m, n) for 1 <= n <= width, each the squares of a tiling built from
    smaller rectangles (the module docstring). U[0] = 0. `known`: T of rectangles with a
    short side past 15 ((short, long) -> T, e.g. the shipped rows), for more splits."""
    short = short_table(max(width, m))
    known = known or {}

    def strip(a: int, n: int) -> int | None:  # T(a, n) when known
        if a <= PACKED_MAX_HEIGHT:
            return int(short[a, n])
        return known.get((min(a, n), max(a, n)))

    big = 1 << 30
    upper = np.full(width + 1, big, dtype=np.int64)
    upper[0] = 0
    for n in range(1, width + 1):
        best = 1 if n == m else big
        if n <= PACKED_MAX_HEIGHT:
            best = min(best, int(short[n, m]))
        for a in range(1, min(PACKED_MAX_HEIGHT, n - 1) + 1):  # an m x a block and the rest
            best = min(best, int(short[a, m]) + int(upper[n - a]))
        for a in range(1, m // 2 + 1):  # an a x n strip above an (m - a) x n one
            top, rest = strip(a, n), strip(m - a, n)
            if top is not None and rest is not None:
                best = min(best, top + rest)
        if n > m:
            best = min(best, int(upper[n - m]) + 1)
        for a in range(PACKED_MAX_HEIGHT + 1, n - PACKED_MAX_HEIGHT):  # two wide blocks
            best = min(best, int(upper[a]) + int(upper[n - a]))
        upper[n] = best
    return upper


def allowance(m: int, widths: list[int], upper: np.ndarray) -> np.ndarray:
    """allow[x, a, b]: the most squares a state of column x (least row value a, largest
    b) may hold and still end in an optimal tiling of some width in `widths`; -1 when
    none. `upper[n]` >= T(m, n)."""
    width = max(widths)
    ns = np.array(sorted(set(widths)), dtype=np.int64)
    values = np.arange(m + 1)
    allow = np.full((width, m + 1, m + 1), -1, dtype=np.int64)
    for x in range(width):
        rest = ns[None, :] - x - values[:, None]  # (a, n): cells the least covered row still needs
        need = np.where(rest > 0, -(-rest // m), 0)
        room = upper[ns][None, :] - need  # (a, n)
        reach = ns[None, :] >= x + values[:, None]  # (b, n): the state fits within width n
        masked = np.where(reach[None, :, :], room[:, None, :], -1)  # (a, b, n)
        allow[x] = masked.max(axis=2)
    return allow


def row_tilings(
    m: int, widths: list[int], max_memory_mb: float = 2000.0, known: dict[tuple[int, int], int] | None = None
) -> tuple[dict[int, tuple[int, list]], dict]:
    """One pruned sweep of the m-row strip: ({n: (T(m, n), a tiling of the m x n
    rectangle)} for n in widths, stats: peak states, memory). `known`: as for
    `upper_bounds` (tighter bounds, fewer states; the answers stay exact)."""
    width = max(widths)
    upper = upper_bounds(m, width, known)
    dp = ColumnDP(
        np.ones((m, width), dtype=bool), record_flush=True, max_memory_mb=max_memory_mb, allow=allowance(m, widths, upper)
    )
    dp.run()
    answers = {}
    for n in sorted(set(widths)):
        if dp.flush[n - 1] is None:
            raise RuntimeError(f"width {n}: no tiling survived the bounds (upper bound {upper[n]})")
        index, count = dp.flush[n - 1]
        if count > upper[n]:
            raise RuntimeError(f"width {n}: {count} squares above the tiling of {upper[n]} built from smaller ones")
        answers[n] = (int(count), [tuple(map(int, s)) for s in dp.squares(end_column=n - 1, index=index)])
    stats = {"peak_states": dp.peak_states, "memory_mb": round(dp.memory_bytes / 1e6, 1)}
    return answers, stats
