"""The numba kernels of the row-by-row dynamic program (rowdp/dp.py): one transfer step
over a cell, the backward pass that marks the states with a completion within the
bound, and the depth-first walk that lists the grids.

A state is the frontier of a partial level-k grid in row order (the cells already
placed that still have a neighbour to come), one code per frontier slot: 0 = empty,
else a (value, missing lower values) pair numbered by `rowdp.codes`. Codes are packed
`bits` to a field, `spw` fields to a uint64 word. In count mode a table entry is
(frontier, penalty) -> number of partial grids; in min mode it is frontier -> the
lowest penalty reaching it (used for the lower bounds).

Hash tables are open addressing: keys (cap, W) uint64, pens (cap,) int32 (-1 = empty
slot), vals (cap,) int64; cap is a power of two, kept at most half full.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.result import should_stop
from puzzlelab.puzzles.hexagon.rowdp.compact import FAR, _read_xor, lookup

__all__ = ["new_table", "dp_step", "fill_future", "fill_future_compact", "walk_grids"]


@numba.njit(cache=True)
def new_table(cap, words):
    return np.zeros((cap, words), dtype=np.uint64), np.full(cap, -1, dtype=np.int32), np.zeros(cap, dtype=np.int64)


@numba.njit(cache=True)
def _mix(z):
    """splitmix64's finaliser."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def _hash(key, pen, with_pen):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(key.shape[0]):
        h = _mix(h ^ key[w])
    if with_pen:
        h = _mix(h ^ np.uint64(pen + 1))
    return h


@numba.njit(cache=True)
def _find(tk, tp, key, pen, with_pen):
    """Index of key (and pen in count mode) in the table, or of the empty slot where it goes."""
    mask = tk.shape[0] - 1
    h = np.int64(_hash(key, pen, with_pen) & np.uint64(mask))
    while True:
        if tp[h] < 0:
            return h
        same = (not with_pen) or tp[h] == pen
        if same:
            for w in range(key.shape[0]):
                if tk[h, w] != key[w]:
                    same = False
                    break
        if same:
            return h
        h = (h + 1) & mask


@numba.njit(cache=True)
def _grow(tk, tp, tv, with_pen):
    nk, np_, nv = new_table(2 * tk.shape[0], tk.shape[1])
    for s in range(tk.shape[0]):
        if tp[s] >= 0:
            h = _find(nk, np_, tk[s], tp[s], with_pen)
            nk[h] = tk[s]
            np_[h] = tp[s]
            nv[h] = tv[s]
    return nk, np_, nv


@numba.njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@numba.njit(cache=True)
def _transition(key, pen, v, i, own_slot, own_rem, prev_slot, prev_rem, code_v, code_m, code_of, k, bits, spw, out):
    """Place value v on the cell of step i after the state (key, pen): writes the new
    frontier into `out`, returns the new penalty, or -1 when the partial grid is dead
    (a closed cell lacks a support, or a cell lacks more supports than it has
    neighbours to come)."""
    fmask = np.uint64((1 << bits) - 1)
    for w in range(key.shape[0]):
        out[w] = key[w]
    top = v - 1 if v - 1 < k else k
    mx = (1 << top) - 1
    for j in range(6):
        slot = prev_slot[i, j]
        if slot < 0:
            break
        w = slot // spw
        sh = np.uint64((slot % spw) * bits)
        c = np.int64((out[w] >> sh) & fmask)
        vy = code_v[c]
        my = code_m[c]
        if vy == v and v <= k:
            pen += 1
        elif v < vy:
            b = 1 << (v - 1)
            if my & b:
                my &= ~b
            else:
                pen += 1
        elif vy < v:
            b = 1 << (vy - 1)
            if mx & b:
                mx &= ~b
            else:
                pen += 1
        rem = prev_rem[i, j]
        if _popcount(my) > rem:
            return -1
        nc = 0 if rem == 0 else code_of[vy, my]
        out[w] = (out[w] & ~(fmask << sh)) | (np.uint64(nc) << sh)
    if _popcount(mx) > own_rem[i]:
        return -1
    slot = own_slot[i]
    w = slot // spw
    sh = np.uint64((slot % spw) * bits)
    nc = 0 if own_rem[i] == 0 else code_of[v, mx]
    out[w] = (out[w] & ~(fmask << sh)) | (np.uint64(nc) << sh)
    return pen


@numba.njit(cache=True)
def _project(key, out, proj, bits, spw, bits2, spw2, slots):
    """Repack a frontier in the codes of the level below (proj maps the codes)."""
    fmask = np.uint64((1 << bits) - 1)
    for w in range(out.shape[0]):
        out[w] = 0
    for slot in range(slots):
        c = np.int64((key[slot // spw] >> np.uint64((slot % spw) * bits)) & fmask)
        out[slot // spw2] |= np.uint64(proj[c]) << np.uint64((slot % spw2) * bits2)


@numba.njit(cache=True)
def _future(guide, key, low, cur, proj, bits, spw, bits2, spw2, slots, same):
    """The least penalty still to come after a frontier, from the table of the lowest
    penalties to the end at this step: of this level (same) or of the level below
    (through the projection); -1 when the frontier is not there (it has no completion
    within the bound). `guide` is (compact, hk, hp, hv, heads, starts, futures, xors,
    block): a wide table (hk, hp, hv) or a compact one (rowdp/compact.py)."""
    if not same:
        _project(key, low, proj, bits, spw, bits2, spw2, slots)
        key = low
    compact, hk, hp, hv, ch, cs, cf, cx, block = guide
    if compact:
        h = lookup(ch, cs, cx, block, key, cur)
        return -1 if h < 0 else np.int64(cf[h])
    h = _find(hk, hp, key, 0, False)
    if hp[h] < 0:
        return -1
    return hv[h]


@numba.njit(cache=True)
def dp_step(tk, tp, tv, i, own_slot, own_rem, prev_slot, prev_rem, allowed, code_v, code_m, code_of, k, bits, spw, limit, count_mode,
            use_h, guide, proj, bits2, spw2, same, max_states, control):
    """One transfer step: every state of the table (tk, tp, tv) extended by every
    allowed value of the cell of step i. Dropped: states above `limit`, and with use_h
    those whose penalty plus the least penalty still to come (the guide's table of
    this step, see _future) exceeds it. Returns the new table and its size; size -1
    when the table passed max_states or the budget ran out (control) on the way."""
    words = tk.shape[1]
    slots = own_slot.max() + 1
    cap = 1024
    while cap < tk.shape[0] // 2:
        cap *= 2
    nk, np_, nv = new_table(cap, words)
    size = 0
    out = np.zeros(words, dtype=np.uint64)
    low = np.zeros(guide[4].shape[1] if guide[0] else guide[1].shape[1], dtype=np.uint64)  # the guide's words
    cur = np.zeros(low.shape[0], dtype=np.uint64)
    for s in range(tk.shape[0]):
        if tp[s] < 0:
            continue
        if (s & 0x3FFF) == 0 and (size > max_states or should_stop(control)):
            return nk, np_, nv, -1
        for v in range(1, k + 2):
            if not (allowed[i] >> (v - 1)) & 1:
                continue
            pen = _transition(tk[s], tp[s], v, i, own_slot, own_rem, prev_slot, prev_rem, code_v, code_m, code_of, k, bits, spw, out)
            if pen < 0 or pen > limit:
                continue
            if use_h:
                rest = _future(guide, out, low, cur, proj, bits, spw, bits2, spw2, slots, same)
                if rest < 0 or pen + rest > limit:
                    continue
            h = _find(nk, np_, out, pen, count_mode)
            if np_[h] < 0:
                nk[h] = out
                np_[h] = pen
                nv[h] = tv[s] if count_mode else 0
                size += 1
                if 2 * size > nk.shape[0]:
                    nk, np_, nv = _grow(nk, np_, nv, count_mode)
            elif count_mode:
                nv[h] += tv[s]
            elif pen < np_[h]:
                np_[h] = pen
    return nk, np_, nv, size


@numba.njit(cache=True)
def fill_future(tk, tp, tv, nk, np_, nv, i, own_slot, own_rem, prev_slot, prev_rem, allowed, code_v, code_m, code_of, k, bits, spw, last):
    """tv[s] = the least penalty still to come after state s of the table after step
    i-1 (min mode), from the next table (nk, np_, nv) of step i: the least over the
    values of cell i of what the value costs plus the next state's. With `last`, the
    next table is the final one (nothing to come). Unreachable: a large number."""
    out = np.zeros(tk.shape[1], dtype=np.uint64)
    for s in range(tk.shape[0]):
        if tp[s] < 0:
            continue
        best = 1 << 30
        for v in range(1, k + 2):
            if not (allowed[i] >> (v - 1)) & 1:
                continue
            pen = _transition(tk[s], 0, v, i, own_slot, own_rem, prev_slot, prev_rem, code_v, code_m, code_of, k, bits, spw, out)
            if pen < 0:
                continue
            h = _find(nk, np_, out, 0, False)
            if np_[h] < 0:
                continue
            rest = 0 if last else nv[h]
            if pen + rest < best:
                best = pen + rest
        tv[s] = best


@numba.njit(cache=True)
def fill_future_compact(prev, nxt, i, own_slot, own_rem, prev_slot, prev_rem, allowed, code_v, code_m, code_of, k, bits, spw, last):
    """fill_future on compact tables (rowdp/compact.py): the futures of the table
    after step i-1 (`prev`) from the next table (`nxt`), each a tuple (heads, starts,
    futures, xors, states, block); FAR stands for FAR or more, and for no completion."""
    heads, starts, futures, xors, states, block = prev
    nh, ns, nf, nx, _, nblock = nxt
    cur = np.zeros(heads.shape[1], dtype=np.uint64)
    out = np.zeros(heads.shape[1], dtype=np.uint64)
    scratch = np.zeros(heads.shape[1], dtype=np.uint64)
    pos = 0
    for s in range(states):
        if s % block == 0:
            cur[:] = heads[s // block]
            pos = starts[s // block]
        else:
            pos = _read_xor(xors, pos, cur)
        best = FAR
        for v in range(1, k + 2):
            if not (allowed[i] >> (v - 1)) & 1:
                continue
            pen = _transition(cur, 0, v, i, own_slot, own_rem, prev_slot, prev_rem, code_v, code_m, code_of, k, bits, spw, out)
            if pen < 0:
                continue
            h = lookup(nh, ns, nx, nblock, out, scratch)
            if h < 0:
                continue
            rest = 0 if last else np.int64(nf[h])
            if pen + rest < best:
                best = pen + rest
        futures[s] = best


@numba.njit(cache=True)
def walk_grids(compact, tables, blocks, own_slot, own_rem, prev_slot, prev_rem, allowed, code_v, code_m, code_of, k, bits, spw,
               bound, exact, max_grids):
    """Every grid with penalty <= bound (== bound when exact), as the values of the
    steps in order, by a depth-first walk from the empty frontier that enters a state
    only when its penalty plus the least still to come (tables_v) is within the bound:
    no dead end is entered. The min-mode tables of the steps come as typed lists of
    their arrays, in place (memory-mapped ones too: n = 12's tables fill 27 GB, which a
    copy into one array would have to hold in memory): `tables` = (keys, pens, values)
    of wide tables or (heads, starts, futures, xors) of compact ones (each in blocks
    of blocks[step] keys), as `compact` says (the other lists hold one dummy). Stops after max_grids grids (and says so by
    returning max_grids + 1)."""
    tables_k, tables_p, tables_v, c_heads, c_starts, c_futures, c_xors = tables
    steps = own_slot.shape[0]
    words = c_heads[0].shape[1] if compact else tables_k[0].shape[1]
    scratch = np.zeros(words, dtype=np.uint64)
    grids = np.zeros((min(max_grids, 1024), steps), dtype=np.int8)  # doubled as needed
    found = 0
    keys = np.zeros((steps + 1, words), dtype=np.uint64)
    pens = np.zeros(steps + 1, dtype=np.int64)
    value = np.zeros(steps, dtype=np.int64)
    out = np.zeros(words, dtype=np.uint64)
    depth = 0
    while depth >= 0:
        value[depth] += 1
        if value[depth] > k + 1:
            value[depth] = 0
            depth -= 1
            continue
        v = value[depth]
        if not (allowed[depth] >> (v - 1)) & 1:
            continue
        pen = _transition(keys[depth], pens[depth], v, depth, own_slot, own_rem, prev_slot, prev_rem, code_v, code_m, code_of, k, bits, spw, out)
        if pen < 0 or pen > bound:
            continue
        if depth == steps - 1:
            if exact and pen != bound:
                continue
            if found == max_grids:
                return grids, found + 1
            if found == grids.shape[0]:
                bigger = np.zeros((min(max_grids, 2 * found), steps), dtype=np.int8)
                bigger[:found] = grids
                grids = bigger
            for t in range(steps):
                grids[found, t] = value[t]
            found += 1
            continue
        if compact:
            h = lookup(c_heads[depth], c_starts[depth], c_xors[depth], blocks[depth], out, scratch)
            if h < 0 or pen + c_futures[depth][h] > bound:
                continue
        else:
            sub_k = tables_k[depth]
            sub_p = tables_p[depth]
            h = _find(sub_k, sub_p, out, 0, False)
            if sub_p[h] < 0 or pen + tables_v[depth][h] > bound:
                continue
        keys[depth + 1] = out
        pens[depth + 1] = pen
        depth += 1
        value[depth] = 0
    return grids, found
