"""Re-placing a band of sizes exactly, every other square held where it is: the
neighbourhood of a large-neighbourhood search (Shaw, CP 1998) over matchstick answers
(the try at beating the published bounds for n = 47..63).

Given an answer and a band of sizes hi..lo, the other squares' segments form a fixed
board B; the band's squares add |F| - |B| matches. `improve_band` searches every
placement of the band's sizes (anywhere in the area, largest first, a placement adding
nothing taken at once as in the full search) for strictly fewer, so a band searched to
completion with nothing found shows the answer cannot be improved by moving those
squares alone. The search is exact, not a heuristic: its answer is the band's optimum
given the rest. What it finds is a whole answer, and the caller verifies it with the
checker before using it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numba
import numpy as np

from puzzlelab.core.bits import popcount
from puzzlelab.core.result import NODES, Budget, should_stop

__all__ = ["BandOutcome", "improve_band", "improve_sizes", "board_words"]

_POLL_MASK = (1 << 8) - 1  # a node scans every placement of its size: polling is cheap beside it


@dataclass(frozen=True)
class BandOutcome:
    """`squares`: the whole answer with the band re-placed (None when nothing better);
    `added`: the band's matches before and after; `complete`: searched to the end."""

    squares: list[list[int]] | None
    added_before: int
    added_after: int | None
    nodes: int
    complete: bool


def board_words(squares: list[list[int]], area: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns as bit words (bit i set while unit segment i is empty), the
    layout of `kernels.py`: row word y holds the horizontal segments on line y."""
    full = (1 << area) - 1
    rows = [full] * (area + 1)
    cols = [full] * (area + 1)
    for size, x, y in squares:
        run = (1 << size) - 1
        rows[y] &= ~(run << x)
        rows[y + size] &= ~(run << x)
        cols[x] &= ~(run << y)
        cols[x + size] &= ~(run << y)
    return np.array(rows, np.uint64), np.array(cols, np.uint64)


def _empty_segments(rows: np.ndarray, cols: np.ndarray) -> int:
    return sum(int(w).bit_count() for w in rows) + sum(int(w).bit_count() for w in cols)


def improve_band(squares: list[list[int]], area: int, low: int, high: int, budget: Budget | None = None) -> BandOutcome:
    """Re-place sizes high..low of `squares` (an answer inside a square of side
    `area`) for strictly fewer matches, all other squares fixed."""
    return improve_sizes(squares, area, range(low, high + 1), budget)


def improve_sizes(squares: list[list[int]], area: int, sizes: Iterable[int], budget: Budget | None = None) -> BandOutcome:
    """`improve_band` for any set of sizes, consecutive or not (a scattered band: the
    sizes that interact need not be neighbours, as 8 and 5, 4 at n = 56)."""
    budget = budget or Budget()
    if budget.expired():
        return BandOutcome(None, 0, None, 0, False)
    moving = set(sizes)
    fixed = [list(map(int, s)) for s in squares if s[0] not in moving]
    band = sorted((list(map(int, s)) for s in squares if s[0] in moving), key=lambda s: -s[0])
    if not band:
        return BandOutcome(None, 0, None, 0, True)
    rows, cols = board_words(fixed, area)
    all_rows, all_cols = board_words(fixed + band, area)
    before = _empty_segments(rows, cols) - _empty_segments(all_rows, all_cols)
    sizes = np.array([s[0] for s in band], np.int64)
    best_x = np.zeros(len(band), np.int64)
    best_y = np.zeros(len(band), np.int64)
    stats = np.zeros(3, np.int64)
    _band_kernel(rows, cols, area, sizes, before - 1, best_x, best_y, stats, budget.control)
    found, nodes, stopped = int(stats[0]), int(stats[1]), bool(stats[2])
    if found < 0:
        return BandOutcome(None, before, None, nodes, not stopped)
    placed = [[int(sizes[i]), int(best_x[i]), int(best_y[i])] for i in range(len(band))]
    whole = sorted(fixed + placed, key=lambda s: -s[0])
    return BandOutcome(whole, before, found, nodes, not stopped)


@numba.njit(cache=True, nogil=True)
def _cost(rows, cols, u, x, y):
    run = (np.uint64(1) << np.uint64(u)) - np.uint64(1)
    h = run << np.uint64(x)
    v = run << np.uint64(y)
    return np.int64(popcount(rows[y] & h) + popcount(rows[y + u] & h) + popcount(cols[x] & v) + popcount(cols[x + u] & v))


@numba.njit(cache=True, nogil=True)
def _band_kernel(rows, cols, area, sizes, limit0, best_x, best_y, stats, control):
    """Depth-first over the band's sizes (largest first): at each depth the placements
    adding at most what is left of the limit, cheapest first; a free one alone. stats:
    [best total added (-1: none within limit0), nodes, stopped]."""
    k = sizes.shape[0]
    cells = (area + 1) * (area + 1)
    cand = np.empty((k, cells), np.int64)
    cand_cost = np.empty((k, cells), np.int64)
    ncand = np.zeros(k, np.int64)
    pos = np.zeros(k, np.int64)
    saved = np.empty((k, 4), np.uint64)
    chosen = np.zeros(k, np.int64)
    totals = np.zeros(k + 1, np.int64)
    bucket = np.zeros(4 * 64 + 2, np.int64)
    raw = np.empty(cells, np.int64)
    raw_cost = np.empty(cells, np.int64)
    limit = limit0
    best = -1
    nodes = 0
    stopped = 0
    depth = 0
    expand = True
    while depth >= 0:
        d = depth
        u = sizes[d]
        side = area - u + 1
        if expand:
            expand = False
            room = limit - totals[d]
            m = 0
            free = -1
            for y in range(side):
                for x in range(side):
                    c = _cost(rows, cols, u, x, y)
                    if c == 0:
                        free = y * side + x
                        break
                    if c <= room:
                        raw[m] = y * side + x
                        raw_cost[m] = c
                        m += 1
                if free >= 0:
                    break
            if free >= 0:
                cand[d, 0] = free
                cand_cost[d, 0] = 0
                ncand[d] = 1
            else:
                top = min(room, 4 * u)
                for c in range(top + 2):
                    bucket[c] = 0
                for i in range(m):
                    bucket[raw_cost[i] + 1] += 1
                for c in range(1, top + 2):
                    bucket[c] += bucket[c - 1]
                for i in range(m):
                    j = bucket[raw_cost[i]]
                    bucket[raw_cost[i]] = j + 1
                    cand[d, j] = raw[i]
                    cand_cost[d, j] = raw_cost[i]
                ncand[d] = m
            pos[d] = 0
        if pos[d] < ncand[d]:
            i = pos[d]
            pos[d] = i + 1
            c = cand_cost[d, i]
            if totals[d] + c > limit:
                pos[d] = ncand[d]
                continue
            p = cand[d, i]
            y = p // side
            x = p - y * side
            run = (np.uint64(1) << np.uint64(u)) - np.uint64(1)
            saved[d, 0] = rows[y]
            saved[d, 1] = rows[y + u]
            saved[d, 2] = cols[x]
            saved[d, 3] = cols[x + u]
            rows[y] &= ~(run << np.uint64(x))
            rows[y + u] &= ~(run << np.uint64(x))
            cols[x] &= ~(run << np.uint64(y))
            cols[x + u] &= ~(run << np.uint64(y))
            chosen[d] = p
            totals[d + 1] = totals[d] + c
            nodes += 1
            if (nodes & _POLL_MASK) == 0:
                control[NODES] = nodes
                if should_stop(control):
                    stopped = 1
                    break
            if d + 1 == k:
                best = totals[k]
                limit = best - 1
                for j in range(k):
                    q = chosen[j]
                    s = area - sizes[j] + 1
                    best_y[j] = q // s
                    best_x[j] = q - (q // s) * s
            else:
                depth = d + 1
                expand = True
                continue
            rows[y] = saved[d, 0]
            rows[y + u] = saved[d, 1]
            cols[x] = saved[d, 2]
            cols[x + u] = saved[d, 3]
        else:
            if d == 0:
                break
            depth = d - 1
            d = depth
            u = sizes[d]
            side = area - u + 1
            p = chosen[d]
            y = p // side
            x = p - y * side
            rows[y] = saved[d, 0]
            rows[y + u] = saved[d, 1]
            cols[x] = saved[d, 2]
            cols[x + u] = saved[d, 3]
    control[NODES] = nodes
    stats[0] = best
    stats[1] = nodes
    stats[2] = stopped
