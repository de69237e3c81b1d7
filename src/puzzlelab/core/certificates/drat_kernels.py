"""The numba kernels of the DRAT checker (drat.py is the interface and says why).

Literals are indices: variable v > 0 gives 2v (v true) and 2v + 1 (v false), so a
literal's negation is `lit ^ 1`; arrays of literals are int32 (a proof of a long
cube can hold hundreds of millions of them). The clause store is flat (`lits`, `start`, `size`,
`alive`); each clause of two or more literals has two watch nodes, 2c and 2c + 1,
watching its literals at positions 0 and 1, linked into one list per literal
(`head`, `nxt`). Assignments are made at the top level (never undone: a clause that
is the reason of one is never deleted, as in drat-trim) or temporarily, for one RUP
check, and then undone. The state lives between calls (drat_store.DratStore), so
feed_kernel checks a proof piece by piece; compact_kernel drops deleted clauses.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["parse_binary_drat", "feed_kernel", "compact_kernel", "rehash_kernel", "OK", "BAD_LEMMA", "MALFORMED", "GOAL_FAILED", "REFUTED"]

OK, BAD_LEMMA, MALFORMED, GOAL_FAILED, REFUTED = 0, 2, 3, 4, 5


@numba.njit(cache=True)
def _varint(data, at, n):
    """(value, next byte, state) of the variable-length number at data[at]: state 0 read,
    1 the bytes end inside it, 2 malformed (longer than 8 bytes)."""
    value = 0
    shift = 0
    while True:
        if shift > 56:
            return value, at, 2
        if at >= n:
            return value, at, 1
        b = data[at]
        at += 1
        value |= np.int64(b & 127) << shift
        shift += 7
        if b < 128:
            return value, at, 0


@numba.njit(cache=True)
def parse_binary_drat(data):
    """(status, kinds, starts, sizes, lits, offsets, consumed) of the complete steps of a
    binary DRAT proof: each step starts with 'a' (97, an addition: kind 0) or 'd' (100,
    a deletion: kind 1), then its literals as variable-length numbers (7 bits a byte,
    low bits first, 2v + sign) and a 0 byte. A last step that the bytes cut short is
    left out: `consumed` is the byte where it starts (len(data) when none is), for the
    caller to hold back or refuse. status MALFORMED when the bytes are not such a proof
    (a bad step byte, a literal 0 or 1, a literal too large); offsets[i] is the byte
    where step i starts."""
    steps = 0
    nlits = 0
    at = 0
    consumed = 0
    n = data.shape[0]
    empty = np.zeros(0, np.int64)
    no_lits = np.zeros(0, np.int32)
    while at < n:  # first pass: count the complete steps, and reject malformed input
        b = data[at]
        if b != 97 and b != 100:
            return MALFORMED, empty, empty, empty, no_lits, empty, 0
        at += 1
        count = 0
        state = 0
        while True:
            if at >= n:
                state = 1
                break
            if data[at] == 0:
                at += 1
                break
            value, at, state = _varint(data, at, n)
            if state == 2:
                return MALFORMED, empty, empty, empty, no_lits, empty, 0
            if state == 1:
                break
            if value < 2 or value > (1 << 31) - 1:
                return MALFORMED, empty, empty, empty, no_lits, empty, 0
            count += 1
        if state == 1:
            break
        steps += 1
        nlits += count
        consumed = at
    kinds = np.zeros(steps, np.int64)
    starts = np.zeros(steps, np.int64)
    sizes = np.zeros(steps, np.int64)
    lits = np.zeros(nlits, np.int32)
    offsets = np.zeros(steps, np.int64)
    at = 0
    k = 0
    for s in range(steps):  # second pass: fill (the steps are known to be well formed)
        kinds[s] = 0 if data[at] == 97 else 1
        starts[s] = k
        offsets[s] = at
        at += 1
        while data[at] != 0:
            value, at, _ = _varint(data, at, n)
            lits[k] = value
            k += 1
        at += 1
        sizes[s] = k - starts[s]
    return OK, kinds, starts, sizes, lits, offsets, consumed


@numba.njit(cache=True)
def _assign(lit, reason, val, why, trail, top):
    val[lit] = 1
    val[lit ^ 1] = -1
    why[lit >> 1] = reason
    trail[top] = lit
    return top + 1


@numba.njit(cache=True)
def _propagate(qhead, top, val, why, trail, lits, start, size, alive, head, nxt):
    """Unit propagation from trail[qhead:top]: (conflict, new top)."""
    while qhead < top:
        false_lit = trail[qhead] ^ 1
        qhead += 1
        prev = -1
        node = head[false_lit]
        while node != -1:
            following = nxt[node]
            c = node >> 1
            if not alive[c]:  # lazy removal of a deleted clause's watch
                if prev == -1:
                    head[false_lit] = following
                else:
                    nxt[prev] = following
                node = following
                continue
            pos = node & 1
            s = start[c]
            other = lits[s + 1 - pos]
            if val[other] == 1:
                prev = node
                node = following
                continue
            moved = False
            for j in range(s + 2, s + size[c]):
                candidate = lits[j]
                if val[candidate] != -1:
                    lits[j] = lits[s + pos]
                    lits[s + pos] = candidate
                    if prev == -1:
                        head[false_lit] = following
                    else:
                        nxt[prev] = following
                    nxt[node] = head[candidate]
                    head[candidate] = node
                    moved = True
                    break
            if moved:
                node = following
                continue
            if val[other] == -1:
                return True, top
            top = _assign(other, c, val, why, trail, top)
            prev = node
            node = following
    return False, top


@numba.njit(cache=True)
def _refutes(extra, ne, top, val, why, trail, lits, start, size, alive, head, nxt):
    """Whether assuming the negation of extra[:ne] (on top of the assignment) leads
    to a conflict by unit propagation; the trail is left at `top` either way."""
    t = top
    hit = False
    for i in range(ne):
        lit = extra[i]
        if val[lit] == 1:
            hit = True
            break
        if val[lit] == 0:
            t = _assign(lit ^ 1, -1, val, why, trail, t)
    if not hit:
        hit, t = _propagate(top, t, val, why, trail, lits, start, size, alive, head, nxt)
    for i in range(top, t):
        lit = trail[i]
        val[lit] = 0
        val[lit ^ 1] = 0
    return hit


@numba.njit(cache=True)
def _has_rat(c, nclauses, top, val, why, trail, lits, start, size, alive, head, nxt, work):
    """RAT on the lemma's first literal p: every resolvent with a live clause holding
    -p is a RUP clause (a tautological resolvent counts as one)."""
    s, m = start[c], size[c]
    if m == 0:
        return False
    pivot = lits[s]  # the lemma's first literal: kept first when it was stored
    for i in range(m):
        work[i] = lits[s + i]
    for d in range(nclauses):
        if not alive[d] or d == c:
            continue
        ds = start[d]
        holds = False
        tautology = False
        for j in range(ds, ds + size[d]):
            if lits[j] == pivot ^ 1:
                holds = True
            elif lits[j] == pivot:
                tautology = True
        if not holds or tautology:
            continue
        ne = m
        for j in range(ds, ds + size[d]):
            if lits[j] != pivot ^ 1:
                work[ne] = lits[j]
                ne += 1
        if not _refutes(work, ne, top, val, why, trail, lits, start, size, alive, head, nxt):
            return False
    return True


@numba.njit(cache=True)
def _attach(c, top, val, why, trail, lits, start, size, head, nxt):
    """Add clause c at the top level: watch two literals that are not false, or take it
    as a unit. Returns (conflict at the top level, new top)."""
    s, m = start[c], size[c]
    if m == 0:
        return True, top
    free = 0  # move the literals that are not false to the front
    for j in range(s, s + m):
        if val[lits[j]] != -1:
            tmp = lits[s + free]
            lits[s + free] = lits[j]
            lits[j] = tmp
            free += 1
    if m >= 2:
        for w in range(2):
            node = 2 * c + w
            nxt[node] = head[lits[s + w]]
            head[lits[s + w]] = node
    if free == 0:
        return True, top
    if free == 1 and val[lits[s]] == 0:
        top = _assign(lits[s], c, val, why, trail, top)
    return False, top


@numba.njit(cache=True)
def _clause_hash(lits, s, m):
    h = np.uint64(m)
    for j in range(s, s + m):
        x = np.uint64(lits[j]) * np.uint64(0x9E3779B97F4A7C15)
        h += (x ^ (x >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
    return h


@numba.njit(cache=True)
def _store(c, src, a, b, lits, start, size, used, seen, stamp):
    """Copy src[a:b] into clause c, dropping repeated literals (the first stays first).
    Returns (new end of `lits`, tautology)."""
    start[c] = used
    k = used
    tautology = False
    for j in range(a, b):
        lit = src[j]
        if seen[lit] == stamp:
            continue
        if seen[lit ^ 1] == stamp:
            tautology = True
        seen[lit] = stamp
        lits[k] = lit
        k += 1
    size[c] = k - used
    return k, tautology


@numba.njit(cache=True)
def _find(c, lits, start, size, alive, hashes, bucket, chain, seen, stamp, mask):
    """The live clause with the same literals as clause c (its hash stored), or -1."""
    s, m = start[c], size[c]
    for j in range(s, s + m):
        seen[lits[j]] = stamp
    d = bucket[hashes[c] & mask]
    while d != -1:
        if alive[d] and size[d] == m and hashes[d] == hashes[c]:
            same = True
            for j in range(start[d], start[d] + m):
                if seen[lits[j]] != stamp:
                    same = False
                    break
            if same:
                return d
        d = chain[d]
    return -1


@numba.njit(cache=True)
def feed_kernel(lits, start, size, alive, hashes, chain, bucket, head, nxt, val, why, trail, seen, work, counters, kinds, p_starts, p_sizes, p_lits, trusted, g_steps, g_starts, g_sizes, g_lits, rat_ok):
    """Forward DRAT check of one run of steps on the kept state (the clause store
    `lits`, `start`, `size`, `alive`, `hashes`; the deletion index `chain`, `bucket`;
    the watches `head`, `nxt`; the assignment `val`, `why`, `trail`; scratch `seen`,
    `work`; `counters` = [used, top, nclauses, stamp, rat lemmas], updated). The steps
    (kinds, starts, sizes, lits over literal indices) are clauses of the formula when
    `trusted` (added unchecked), else proof steps: a lemma must be RUP or, when `rat_ok`,
    RAT. Goal i (g_steps ascending) must be a RUP clause once the first g_steps[i] steps
    are in (it is not added). The caller sizes the arrays for the steps.
    Returns (status, index): OK (every step and goal checked), REFUTED (step `index`
    brought propagation to a conflict: the formula is refuted, every goal follows),
    BAD_LEMMA (step `index`) or GOAL_FAILED (goal `index`)."""
    used, top, nclauses, stamp, rats = counters[0], counters[1], counters[2], counters[3], counters[4]
    mask = np.uint64(bucket.shape[0] - 1)
    nsteps = p_starts.shape[0]
    ngoals = g_steps.shape[0]
    goal = 0
    status, index = OK, nsteps
    for step in range(nsteps + 1):
        while goal < ngoals and g_steps[goal] <= step:
            if not _refutes(g_lits[g_starts[goal] : g_starts[goal] + g_sizes[goal]], g_sizes[goal], top, val, why, trail, lits, start, size, alive, head, nxt):
                status, index = GOAL_FAILED, goal
                break
            goal += 1
        if status != OK or step == nsteps:
            break
        kind, a, b = kinds[step], p_starts[step], p_starts[step] + p_sizes[step]
        c = nclauses
        stamp += 1
        end, tautology = _store(c, p_lits, a, b, lits, start, size, used, seen, stamp)
        if kind == 1:  # a deletion: drop the matching clause unless it is a reason
            hashes[c] = _clause_hash(lits, start[c], size[c])
            stamp += 1
            d = _find(c, lits, start, size, alive, hashes, bucket, chain, seen, stamp, mask)
            if d != -1 and size[d] >= 2:
                s = start[d]
                reason = (why[lits[s] >> 1] == d and val[lits[s]] == 1) or (why[lits[s + 1] >> 1] == d and val[lits[s + 1]] == 1)
                if not reason:
                    alive[d] = False
            continue
        nclauses += 1
        used = end
        alive[c] = True
        if not trusted and not tautology and not _refutes(lits[start[c] : end], size[c], top, val, why, trail, lits, start, size, alive, head, nxt):
            # not RUP; it is visible to the RAT check's scan, not yet watched
            if not rat_ok or not _has_rat(c, nclauses, top, val, why, trail, lits, start, size, alive, head, nxt, work):
                status, index = BAD_LEMMA, step
                break
            rats += 1
        if tautology:
            alive[c] = False  # satisfied by every assignment: never propagates
            continue
        hashes[c] = _clause_hash(lits, start[c], size[c])
        slot = hashes[c] & mask
        chain[c] = bucket[slot]
        bucket[slot] = c
        q = top
        conflict, top = _attach(c, top, val, why, trail, lits, start, size, head, nxt)
        if not conflict:
            conflict, top = _propagate(q, top, val, why, trail, lits, start, size, alive, head, nxt)
        if conflict:  # the formula is refuted: every goal left follows
            status, index = REFUTED, step
            break
    counters[0], counters[1], counters[2], counters[3], counters[4] = used, top, nclauses, stamp, rats
    return status, index


@numba.njit(cache=True)
def compact_kernel(lits, start, size, alive, hashes, head, nxt, why, counters):
    """Drop the deleted clauses from the store, so that it stays the size of the live
    clauses: the live ones move to the front in their order (new numbers), with their
    literals; reasons are renumbered; each watch list is relinked in the same order
    without the dead clauses' nodes (as propagation would drop them lazily), so the
    check goes on exactly as it would have. The caller rebuilds the deletion index."""
    nclauses = counters[2]
    renumber = np.full(nclauses, -1, np.int64)
    k = 0
    used = 0
    for c in range(nclauses):
        if not alive[c]:
            continue
        s, m = start[c], size[c]
        for j in range(m):
            lits[used + j] = lits[s + j]
        start[k], size[k], hashes[k], alive[k] = used, m, hashes[c], True
        renumber[c] = k
        used += m
        k += 1
    alive[k:nclauses] = False
    for v in range(why.shape[0]):  # a reason is live; a stale entry (unassigned) is dropped
        r = why[v]
        if r >= 0:
            why[v] = renumber[r] if r < nclauses else -1
    relinked = np.full(nxt.shape[0], -1, np.int64)
    for lit in range(head.shape[0]):
        node = head[lit]
        head[lit] = -1
        last = -1
        while node != -1:
            c = node >> 1
            if renumber[c] != -1:
                moved = 2 * renumber[c] + (node & 1)
                if last == -1:
                    head[lit] = moved
                else:
                    relinked[last] = moved
                last = moved
            node = nxt[node]
    nxt[:] = relinked
    counters[0], counters[2] = used, k


@numba.njit(cache=True)
def rehash_kernel(alive, hashes, chain, bucket, nclauses):
    """Rebuild the deletion index (hash buckets chained newest first) of the live
    clauses, after the store was compacted or the buckets resized."""
    bucket[:] = -1
    mask = np.uint64(bucket.shape[0] - 1)
    for c in range(nclauses):
        if alive[c]:
            slot = hashes[c] & mask
            chain[c] = bucket[slot]
            bucket[slot] = c
