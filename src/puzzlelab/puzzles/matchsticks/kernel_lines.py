"""The board's line counts and the tests built on them, for the matchstick kernel
(`kernels.py`): a row or column of the area is one uint64 word with bit i set while
segment i is empty; each line's match count is kept as the board changes (`_refill`),
also bit-sliced (`planes[b]`: bit i set when bit b of line i's count is), so that "the
lines holding at least k" is one mask (`_at_least`).

On the counts: the word test (`_may_fit`: two row lines and two column lines u apart
each holding at least u - slack), the floors (`_side_floor`: a size-t square on lines i
and i + t adds at least 2t - min(t, count i) - min(t, count i + t) there; the least row
floor plus the least column floor bound what any size-t square adds, `_least_floor`),
the same on a child's counts from its parent's (`_may_fit_after`, `_line_floor_after`,
`_diagonal_floor_after`: only the corners on the child's four lines change), and the
scan for a placement within a slack (`_fits_within`), which walks only the rows and
columns the floors leave (`_rows_within`, `_column_masks`).

Every function here is compiled without reference counting (`_nrt=False`: they take
arrays but never make one); with it, the atomic increments numba puts around the array
arguments of each call cost about 17 % of a proof's time.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.bits import ctz, popcount

__all__: list[str] = []  # the kernel's own pieces, imported by name by kernels.py and the tests


@numba.njit(cache=True, nogil=True, _nrt=False)
def _bits(x):
    """`core.bits.popcount` behind one call: the intrinsic is typed and inlined here
    once instead of at every call site (numba's inline="always" re-types its body at
    each site); LLVM still inlines it. Returned as int64: popcount's uint64 mixed with
    the int64 totals would turn every sum and comparison into float64."""
    return np.int64(popcount(x))


@numba.njit(cache=True, nogil=True, _nrt=False)
def _added(rows, cols, t, x, y, h, v):
    return (
        _bits(rows[y] & h)
        + _bits(rows[y + t] & h)
        + _bits(cols[x] & v)
        + _bits(cols[x + t] & v)
    )


@numba.njit(cache=True, nogil=True, _nrt=False)
def _low(x):
    """`core.bits.ctz` as an int64 (see `_bits`)."""
    return np.int64(ctz(x))


@numba.njit(cache=True, nogil=True, _nrt=False)
def _recount(f, rich, i, new):
    """Line i now holds `new` matches: flip bit i in the count planes whose bit changed."""
    diff = f[i] ^ new
    bit = np.uint64(1) << np.uint64(i)
    while diff:
        b = _low(np.uint64(diff))
        diff &= diff - 1
        rich[b] ^= bit
    f[i] = new


@numba.njit(cache=True, nogil=True, _nrt=False)
def _refill(rows, cols, empty, fr, fc, rr, rc, t, x, y):
    """Recount the matches of the four words a size-t square at (x, y) touches."""
    _recount(fr, rr, y, _bits(~rows[y] & empty))
    _recount(fr, rr, y + t, _bits(~rows[y + t] & empty))
    _recount(fc, rc, x, _bits(~cols[x] & empty))
    _recount(fc, rc, x + t, _bits(~cols[x + t] & empty))


@numba.njit(cache=True, nogil=True, _nrt=False)
def _mark(rows, cols, asym, i):
    """`asym` with bit i set exactly when row i and column i differ."""
    bit = np.uint64(1) << np.uint64(i)
    if rows[i] != cols[i]:
        return asym | bit
    return asym & ~bit


@numba.njit(cache=True, nogil=True, _nrt=False)
def _resym(rows, cols, asym, t, x, y):
    """The lines i with rows[i] != cols[i] (a bit mask), after lines y, y + t, x, x + t changed."""
    asym = _mark(rows, cols, asym, y)
    asym = _mark(rows, cols, asym, y + t)
    asym = _mark(rows, cols, asym, x)
    return _mark(rows, cols, asym, x + t)


@numba.njit(cache=True, nogil=True, _nrt=False)
def _at_least(planes, k):
    """The lines holding at least k matches (1 <= k <= 63), as a bit mask, from the
    counts kept bit-sliced: planes[b] has bit i set when bit b of line i's count is."""
    gt = np.uint64(0)
    eq = ~np.uint64(0)
    for b in range(5, -1, -1):
        kb = np.uint64(0) - np.uint64((k >> b) & 1)  # all ones where k has bit b
        gt |= eq & planes[b] & ~kb
        eq &= ~(planes[b] ^ kb)
    return gt | eq


@numba.njit(cache=True, nogil=True, _nrt=False)
def _pairs(planes, t, slack, side):
    """Lines i < side such that lines i and i + t both hold at least t - slack matches
    (a size-t side on each adds at most slack only then), as a bit mask."""
    low = (np.uint64(1) << np.uint64(side)) - np.uint64(1)
    k = t - slack
    if k <= 0:
        return low
    ge = _at_least(planes, k)
    return ge & (ge >> np.uint64(t)) & low


@numba.njit(cache=True, nogil=True, _nrt=False)
def _may_fit(rr, rc, area, u, diagonal_only, slack):
    """A necessary condition for `_fits_within`, in a few word operations: some pair of
    row lines and some pair of column lines (the same pair, diagonal sizes) u apart
    both hold at least u - slack matches."""
    side = area - u + 1
    r = _pairs(rr, u, slack, side)
    if r == 0:
        return False
    c = _pairs(rc, u, slack, side)
    if diagonal_only:
        return (r & c) != 0
    return c != 0


@numba.njit(cache=True, nogil=True, _nrt=False)
def _pairs_after(g, counts, u, k, low, i, add_i, j, add_j):
    """Lines l < side with l and l + u both holding at least k matches, where `g` holds
    the lines that do now and lines i and j are about to gain add_i and add_j matches."""
    one = np.uint64(1)
    if counts[i] + add_i >= k:
        g |= one << np.uint64(i)
    if counts[j] + add_j >= k:
        g |= one << np.uint64(j)
    return g & (g >> np.uint64(u)) & low


@numba.njit(cache=True, nogil=True, _nrt=False)
def _floor_after(filled, i, t, a, add_a, b, add_b):
    """`_side_floor` of lines i and i + t once lines a and b have gained add_a, add_b."""
    near = filled[i] + (add_a if i == a else 0) + (add_b if i == b else 0)
    far = filled[i + t] + (add_a if i + t == a else 0) + (add_b if i + t == b else 0)
    return 2 * t - min(t, near) - min(t, far)


@numba.njit(cache=True, nogil=True, _nrt=False)
def _least_floor(fr, fc, t, side, diagonal_only):
    """Over the corners of size t (side of them per line): the least row floor and the
    least column floor (`_side_floor`), or, for a size placed on the diagonal only, the
    least row floor plus column floor of one diagonal corner (returned twice as
    halves' sum: (that, 0))."""
    if diagonal_only:
        both = 4 * t + 1
        for i in range(side):
            both = min(both, _side_floor(fr, i, t) + _side_floor(fc, i, t))
        return both, 0
    row = 2 * t + 1
    col = 2 * t + 1
    for i in range(side):
        row = min(row, _side_floor(fr, i, t))
        col = min(col, _side_floor(fc, i, t))
    return row, col


@numba.njit(cache=True, nogil=True, _nrt=False)
def _line_floor_after(least, filled, t, side, a, s, add_a, add_b):
    """`least` (the least `_side_floor` of size t over its corner lines, before) once lines
    a and a + s (the two sides of a size-s square, s > t) have gained add_a and add_b
    matches: only the corner lines a, a + s, a - t and a + s - t see a gain, one line
    each, and floors only fall."""
    near = min(t, filled[a] + add_a)
    far = min(t, filled[a + s] + add_b)
    least = min(least, 2 * t - near - min(t, filled[a + t]))  # corner line a (a + t < a + s)
    least = min(least, 2 * t - far - min(t, filled[a + s - t]))  # corner line a + s - t
    if a + s < side:
        least = min(least, 2 * t - far - min(t, filled[a + s + t]))
    if a >= t:
        least = min(least, 2 * t - near - min(t, filled[a - t]))
    return least


@numba.njit(cache=True, nogil=True, _nrt=False)
def _corner_floor_after(least, fr, fc, i, t, side, s, x, y, top, bottom, left, right):
    """min(least, the row plus column floor of diagonal corner i after the gains)."""
    if 0 <= i < side:
        return min(least, _floor_after(fr, i, t, y, top, y + s, bottom) + _floor_after(fc, i, t, x, left, x + s, right))
    return least


@numba.njit(cache=True, nogil=True, _nrt=False)
def _diagonal_floor_after(least, fr, fc, t, side, s, x, y, top, bottom, left, right):
    """For a size placed on the diagonal only: `least` (its least row plus column floor
    over the diagonal corners, before) once a size-s square at (x, y) has added top,
    bottom, left, right matches to its four lines: the corners on those lines change.
    (Written out corner by corner: as a loop, LLVM vectorised it into wide register
    shuffles set up for every child tested, a quarter of a proof's time.)"""
    least = _corner_floor_after(least, fr, fc, y, t, side, s, x, y, top, bottom, left, right)
    least = _corner_floor_after(least, fr, fc, y + s, t, side, s, x, y, top, bottom, left, right)
    least = _corner_floor_after(least, fr, fc, y - t, t, side, s, x, y, top, bottom, left, right)
    least = _corner_floor_after(least, fr, fc, y + s - t, t, side, s, x, y, top, bottom, left, right)
    least = _corner_floor_after(least, fr, fc, x, t, side, s, x, y, top, bottom, left, right)
    least = _corner_floor_after(least, fr, fc, x + s, t, side, s, x, y, top, bottom, left, right)
    least = _corner_floor_after(least, fr, fc, x - t, t, side, s, x, y, top, bottom, left, right)
    return _corner_floor_after(least, fr, fc, x + s - t, t, side, s, x, y, top, bottom, left, right)


@numba.njit(cache=True, nogil=True, _nrt=False)
def _may_fit_after(rr, rc, fr, fc, area, u, diagonal_only, slack, s, x, y, top, bottom, left, right):
    """`_may_fit` on the board after a size-s square at (x, y) that adds top, bottom,
    left, right matches to lines y, y + s (rows) and x, x + s (columns): the counts only
    grow there, so those lines join the masks where they reach the threshold."""
    k = u - slack
    if k <= 0:
        return True
    low = (np.uint64(1) << np.uint64(area - u + 1)) - np.uint64(1)
    r = _pairs_after(_at_least(rr, k), fr, u, k, low, y, top, y + s, bottom)
    if r == 0:
        return False
    c = _pairs_after(_at_least(rc, k), fc, u, k, low, x, left, x + s, right)
    if diagonal_only:
        return (r & c) != 0
    return c != 0


@numba.njit(cache=True, nogil=True, _nrt=False)
def _side_floor(filled, i, t):
    """At least this many matches a size-t square adds on the two lines i and i + t
    (each line holds `filled` matches in all, the square's side at most t of them)."""
    return 2 * t - min(t, filled[i]) - min(t, filled[i + t])


@numba.njit(cache=True, nogil=True, _nrt=False)
def _floor_min(filled, lines, t):
    """The least `_side_floor` over the lines i of the mask `lines` (a large number for none)."""
    least = 4 * t + 1
    one = np.uint64(1)
    while lines:
        i = _low(lines)
        lines &= lines - one
        least = min(least, _side_floor(filled, i, t))
    return least


@numba.njit(cache=True, nogil=True, _nrt=False)
def _rows_within(fr, rmask, t, slack, least_column):
    """The rows y of `rmask` whose `_side_floor` leaves room for the columns' least
    floor: the only rows where a placement within the slack can lie."""
    one = np.uint64(1)
    keep = np.uint64(0)
    rest = rmask
    while rest:
        y = _low(rest)
        rest &= rest - one
        if _side_floor(fr, y, t) + least_column <= slack:
            keep |= one << np.uint64(y)
    return keep


@numba.njit(cache=True, nogil=True, _nrt=False)
def _column_masks(fc, t, cand, slack, masks):
    """masks[k] (k <= the returned top) = the corner columns x whose two column lines
    leave a size-t square at least k matches short (`_side_floor` <= k): a row whose own
    floor leaves room k need look at those columns only."""
    top = min(slack, 2 * t)
    for k in range(top + 1):
        masks[k] = np.uint64(0)
    one = np.uint64(1)
    c = cand
    while c:
        x = _low(c)
        c &= c - one
        f = _side_floor(fc, x, t)
        if f <= top:
            masks[f] |= one << np.uint64(x)
    for k in range(1, top + 1):
        masks[k] |= masks[k - 1]
    return top


@numba.njit(cache=True, nogil=True, _nrt=False)
def _fits_within(rows, cols, area, u, diagonal_only, slack, hint_x, hint_y, fr, fc, rr, rc, masks):
    """True when some placement of size u adds at most `slack` matches. Tries the last
    placement that passed first (the board only grows along a path, so it usually still
    does), then scans row by row, skipping the rows and columns whose lines hold too
    few matches for any placement on them to pass (`_side_floor` on the match counts
    `fr`, `fc` of each line; `_column_masks`)."""
    one = np.uint64(1)
    run = (one << np.uint64(u)) - one
    x = hint_x[u]
    y = hint_y[u]
    h = run << np.uint64(x)
    v = run << np.uint64(y)
    if _added(rows, cols, u, x, y, h, v) <= slack:
        return True
    last = area - u
    rmask = _pairs(rr, u, slack, last + 1)
    if rmask == 0:
        return False
    cmask = _pairs(rc, u, slack, last + 1)
    if cmask == 0:
        return False
    if diagonal_only:
        dm = rmask & cmask
        while dm:
            y = _low(dm)
            dm &= dm - one
            if _side_floor(fr, y, u) + _side_floor(fc, y, u) > slack:
                continue
            h = run << np.uint64(y)
            if _added(rows, cols, u, y, y, h, h) <= slack:
                hint_x[u] = y
                hint_y[u] = y
                return True
        return False
    # Most scans that fail end here: no candidate row's floor plus the columns' least
    # floor fits the slack (so the column masks are not built).
    rmask = _rows_within(fr, rmask, u, slack, _floor_min(fc, cmask, u))
    if rmask == 0:
        return False
    top_k = _column_masks(fc, u, cmask, slack, masks)
    while rmask:
        y = _low(rmask)
        rmask &= rmask - one
        room = slack - _side_floor(fr, y, u)
        if room < 0:
            continue
        top = rows[y]
        bottom = rows[y + u]
        v = run << np.uint64(y)
        m = masks[min(room, top_k)]
        while m:
            x = _low(m)
            m &= m - one
            h = run << np.uint64(x)
            if _bits(top & h) + _bits(bottom & h) + _bits(cols[x] & v) + _bits(cols[x + u] & v) <= slack:
                hint_x[u] = x
                hint_y[u] = y
                return True
    return False
