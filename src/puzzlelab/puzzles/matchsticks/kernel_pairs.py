"""A two-size bound for the matchstick kernel, tried and left off by default (descriptor
key "pairs", `kernels.FLAG_PAIRS`): it halves the nodes of a proof but costs more CPU
than it saves (docs/matchsticks.md)."""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.puzzles.matchsticks.kernel_lines import (
    _added,
    _bits,
    _column_masks,
    _fits_within,
    _low,
    _may_fit_after,
    _pairs,
    _refill,
    _side_floor,
)

__all__ = ["PAIR_SIZES"]

PAIR_SIZES = 4


@numba.njit(cache=True, nogil=True, _nrt=False)
def _pair_dead(rows, cols, empty, area, t, slack, hint_x, hint_y, fr, fc, rr, rc, masks, diagonal_only, lx, ly, lcost):
    """0, or a size w (t - 3 >= w > t - 3 - PAIR_SIZES) that no placement of size t - 1
    within the slack leaves room for: for each such placement Q (adding c), w must fit
    within slack - c on the board with Q (the two squares' new matches together). A
    bound on every completion, so a node it cuts has none within the limit."""
    u = t - 1
    if t - 3 < 1:
        return 0
    one = np.uint64(1)
    side = area - u + 1
    run = (one << np.uint64(u)) - one
    # Quick way out: the last placement of u that passed, then t - 3 in the corner.
    hx = hint_x[u]
    hy = hint_y[u]
    if _added(rows, cols, u, hx, hy, run << np.uint64(hx), run << np.uint64(hy)) + 2 * (t - 3) <= slack:
        return 0
    rmask = _pairs(rr, u, slack, side)
    cmask = _pairs(rc, u, slack, side)
    top_k = _column_masks(fc, u, cmask, slack, masks)
    count = 0
    cheapest = 4 * u + 1
    while rmask:
        y = _low(rmask)
        rmask &= rmask - one
        room = slack - _side_floor(fr, y, u)
        if room < 0:
            continue
        if diagonal_only[u]:
            m = (one << np.uint64(y)) if _side_floor(fc, y, u) <= room and (cmask >> np.uint64(y)) & one else np.uint64(0)
        else:
            m = masks[min(room, top_k)]
        v = run << np.uint64(y)
        while m:
            x = _low(m)
            m &= m - one
            c = _added(rows, cols, u, x, y, run << np.uint64(x), v)
            if c <= slack:
                lx[count] = x
                ly[count] = y
                lcost[count] = c
                count += 1
                cheapest = min(cheapest, c)
    for w in range(t - 3, max(0, t - 3 - PAIR_SIZES), -1):
        if cheapest + 2 * w <= slack:
            return 0  # (and every smaller w) the cheapest Q, then w in the largest square's corner
        feasible = False
        for i in range(count):
            rest = slack - lcost[i]
            x = lx[i]
            y = ly[i]
            h = run << np.uint64(x)
            v = run << np.uint64(y)
            top = _bits(rows[y] & h)
            bottom = _bits(rows[y + u] & h)
            left = _bits(cols[x] & v)
            right = _bits(cols[x + u] & v)
            if not _may_fit_after(rr, rc, fr, fc, area, w, diagonal_only[w], rest, u, x, y, top, bottom, left, right):
                continue
            s0 = rows[y]
            s1 = rows[y + u]
            s2 = cols[x]
            s3 = cols[x + u]
            rows[y] &= ~h
            rows[y + u] &= ~h
            cols[x] &= ~v
            cols[x + u] &= ~v
            _refill(rows, cols, empty, fr, fc, rr, rc, u, x, y)
            feasible = _fits_within(rows, cols, area, w, diagonal_only[w], rest, hint_x, hint_y, fr, fc, rr, rc, masks)
            rows[y] = s0
            rows[y + u] = s1
            cols[x] = s2
            cols[x + u] = s3
            _refill(rows, cols, empty, fr, fc, rr, rc, u, x, y)
            if feasible:
                break
        if not feasible:
            return w
    return 0
