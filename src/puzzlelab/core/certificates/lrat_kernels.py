"""The numba kernels of the LRAT checker (lrat.py is the interface and says why).

Clauses are kept in the order of their LRAT ids (which a proof must give in ascending
order), so an id is found by binary search; literals are DIMACS integers in the
proof and literal indices (2v, 2v + 1) in `val`.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["parse_text_lrat", "parse_binary_lrat", "lrat_kernel", "OK", "BAD_LEMMA", "MALFORMED", "GOAL_FAILED", "REFUTED", "BAD_ID"]

OK, BAD_LEMMA, MALFORMED, GOAL_FAILED, REFUTED, BAD_ID = 0, 2, 3, 4, 5, 6


@numba.njit(cache=True)
def parse_text_lrat(data, final):
    """(status, kinds, ids, starts, sizes, hint starts, hint sizes, numbers, offsets,
    consumed, largest variable among the literals) of the complete lines of a text LRAT proof: `id lits 0 hints 0` (kind 0)
    or `id d ids 0` (kind 1: the ids deleted, in the hints' place); lines starting with
    'c' skipped. Only lines ended by a newline are taken unless `final`; `consumed`:
    where the first line not taken starts. MALFORMED on anything else."""
    n = data.shape[0]
    end = n
    if not final:
        end = 0
        for i in range(n - 1, -1, -1):
            if data[i] == 10:
                end = i + 1
                break
    cap = 16
    kinds = np.zeros(cap, np.int64)
    ids = np.zeros(cap, np.int64)
    starts = np.zeros(cap, np.int64)
    sizes = np.zeros(cap, np.int64)
    hstarts = np.zeros(cap, np.int64)
    hsizes = np.zeros(cap, np.int64)
    offsets = np.zeros(cap, np.int64)
    numbers = np.zeros(max(16, end // 5), np.int64)  # a number takes two bytes at least, most take more: grown when short
    k = 0
    steps = 0
    at = 0
    top = 0
    while at < end:
        while at < end and (data[at] == 32 or data[at] == 10 or data[at] == 13 or data[at] == 9):
            at += 1
        if at >= end:
            break
        if data[at] == 99:  # a comment line
            while at < end and data[at] != 10:
                at += 1
            continue
        if steps == cap:
            cap *= 2
            kinds, ids, starts, sizes = np.resize(kinds, cap), np.resize(ids, cap), np.resize(starts, cap), np.resize(sizes, cap)
            hstarts, hsizes, offsets = np.resize(hstarts, cap), np.resize(hsizes, cap), np.resize(offsets, cap)
        offsets[steps] = at
        part = 0  # 0: the id, 1: literals, 2: hints, 3: done
        kind = 0
        count = 0
        while part < 3:
            while at < end and (data[at] == 32 or data[at] == 9):
                at += 1
            if at >= end or data[at] == 10 or data[at] == 13:
                return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
            if data[at] == 100 and part == 1 and count == 0:  # 'd': a deletion
                kind = 1
                part = 2
                hstarts[steps] = k
                starts[steps] = k
                sizes[steps] = 0
                at += 1
                continue
            sign = 1
            if data[at] == 45:
                sign = -1
                at += 1
            if at >= end or data[at] < 48 or data[at] > 57:
                return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
            value = 0
            digits = 0
            while at < end and 48 <= data[at] <= 57:
                value = value * 10 + (data[at] - 48)
                at += 1
                digits += 1
                if digits > 18:
                    return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
            value *= sign
            if part == 0:
                if value <= 0:
                    return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
                ids[steps] = value
                part = 1
                starts[steps] = k
                count = 0
                continue
            if value == 0:
                if part == 1:
                    sizes[steps] = k - starts[steps]
                    hstarts[steps] = k
                    part = 2
                else:
                    hsizes[steps] = k - hstarts[steps]
                    part = 3
                continue
            if part == 1 and abs(value) > top:
                top = abs(value)
            if k == numbers.shape[0]:
                numbers = np.resize(numbers, 2 * k)
            numbers[k] = value
            k += 1
            count += 1
        kinds[steps] = kind
        steps += 1
        while at < end and (data[at] == 32 or data[at] == 9 or data[at] == 13):
            at += 1
        if at < end and data[at] != 10:
            return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
    return OK, kinds[:steps], ids[:steps], starts[:steps], sizes[:steps], hstarts[:steps], hsizes[:steps], numbers[:k], offsets[:steps], end, top


@numba.njit(cache=True)
def parse_binary_lrat(data, final):
    """parse_text_lrat on binary LRAT (CaDiCaL's `binary` option): a lemma is 'a', its id,
    its literals, 0, its hints, 0; a deletion 'd', the ids, 0; every number a
    variable-length integer (7 bits a byte, low bits first) of 2|x| + (x < 0), as in
    binary DRAT. A last step the bytes cut short is left out (`consumed` is where it
    starts) unless `final`, when it is MALFORMED."""
    n = data.shape[0]
    cap = 16
    kinds = np.zeros(cap, np.int64)
    ids = np.zeros(cap, np.int64)
    starts = np.zeros(cap, np.int64)
    sizes = np.zeros(cap, np.int64)
    hstarts = np.zeros(cap, np.int64)
    hsizes = np.zeros(cap, np.int64)
    offsets = np.zeros(cap, np.int64)
    numbers = np.zeros(max(16, n // 3), np.int64)
    k = 0
    steps = 0
    at = 0
    consumed = 0
    top = 0
    while at < n:
        b = data[at]
        if b != 97 and b != 100:
            return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
        if steps == cap:
            cap *= 2
            kinds, ids, starts, sizes = np.resize(kinds, cap), np.resize(ids, cap), np.resize(starts, cap), np.resize(sizes, cap)
            hstarts, hsizes, offsets = np.resize(hstarts, cap), np.resize(hsizes, cap), np.resize(offsets, cap)
        step_at = at
        at += 1
        kind = 0 if b == 97 else 1
        part = 1 if kind == 0 else 2  # 1: the id, then literals; 2: hints (or ids deleted)
        first = kind == 0
        k0 = k
        cut = False
        if kind == 1:
            starts[steps], sizes[steps], hstarts[steps], ids[steps] = k, 0, k, 0
        while True:
            value = 0
            shift = 0
            while True:
                if at >= n:
                    cut = True
                    break
                if shift > 56:
                    return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
                x = data[at]
                at += 1
                value |= np.int64(x & 127) << shift
                shift += 7
                if x < 128:
                    break
            if cut:
                break
            signed = value >> 1
            if value & 1:
                signed = -signed
            if first:
                if value < 2 or value & 1:
                    return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
                ids[steps] = signed
                starts[steps] = k
                first = False
                continue
            if value == 0:
                if part == 1:
                    sizes[steps] = k - starts[steps]
                    hstarts[steps] = k
                    part = 2
                    continue
                hsizes[steps] = k - hstarts[steps]
                break
            if value == 1:
                return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
            if part == 1 and abs(signed) > top:
                top = abs(signed)
            if k == numbers.shape[0]:
                numbers = np.resize(numbers, 2 * k)
            numbers[k] = signed
            k += 1
        if cut:
            k = k0
            if final:
                return MALFORMED, kinds[:0], ids[:0], starts[:0], sizes[:0], hstarts[:0], hsizes[:0], numbers[:0], offsets[:0], 0, 0
            break
        kinds[steps] = kind
        offsets[steps] = step_at
        steps += 1
        consumed = at
    return OK, kinds[:steps], ids[:steps], starts[:steps], sizes[:steps], hstarts[:steps], hsizes[:steps], numbers[:k], offsets[:steps], consumed, top


@numba.njit(cache=True)
def _index(lit):
    return 2 * lit if lit > 0 else -2 * lit + 1


@numba.njit(cache=True)
def find_live_clause(cid, alive, n, key):
    """The slot of the live clause with id `key`, or -1."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) >> 1
        if cid[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < n and cid[lo] == key and alive[lo]:
        return lo
    return -1


@numba.njit(cache=True)
def _make_true(lit, val, trail, t):
    """Assign literal index `lit` true (its negation false) on trail position t; the
    next free position."""
    val[lit] = 1
    val[lit ^ 1] = -1
    trail[t] = lit
    return t + 1


@numba.njit(cache=True)
def _undo(val, trail, t):
    """Unassign the first t trail literals."""
    for i in range(t):
        val[trail[i]] = 0
        val[trail[i] ^ 1] = 0


@numba.njit(cache=True)
def _clause_state(c, cstart, csize, pool, val):
    """Clause c under the assignment: (1, -1) satisfied, (2, -1) two or more literals
    open, (0, -1) false throughout, (3, lit) unit with `lit` its one open literal."""
    opened = 0
    open_lit = -1
    for j in range(cstart[c], cstart[c] + csize[c]):
        v = val[pool[j]]
        if v == 1:
            return 1, -1
        if v == 0:
            opened += 1
            open_lit = pool[j]
            if opened > 1:
                return 2, -1
    if opened == 0:
        return 0, -1
    return 3, open_lit


@numba.njit(cache=True)
def _hinted(numbers, a, m, ha, hm, cid, alive, n, cstart, csize, pool, val, trail):
    """Whether the lemma numbers[a:a+m] follows from its hints numbers[ha:ha+hm]: with its
    literals false, each hinted clause in turn is unit (its one literal not false is made
    true) until one is false throughout. A hint that names no live clause, is negative
    (RAT), is satisfied or leaves two literals open fails the lemma."""
    t = 0
    ok = False
    for i in range(a, a + m):
        lit = _index(numbers[i])
        if val[lit] == 1:  # a tautology
            ok = True
            break
        if val[lit] == 0:
            t = _make_true(lit ^ 1, val, trail, t)
    if not ok:
        for h in range(ha, ha + hm):
            if numbers[h] <= 0:
                break
            c = find_live_clause(cid, alive, n, numbers[h])
            if c == -1:
                break
            state, open_lit = _clause_state(c, cstart, csize, pool, val)
            if state == 1 or state == 2:
                break
            if state == 0:
                ok = True
                break
            t = _make_true(open_lit, val, trail, t)
    _undo(val, trail, t)
    return ok


@numba.njit(cache=True)
def _goal_follows(g, gm, cid, alive, n, cstart, csize, pool, val, trail):
    """Whether the goal clause g[:gm] (literal indices) follows by unit propagation from
    the live clauses, by passes over all of them until nothing changes (no hints: a
    goal is the solver's answer under assumptions, which LRAT does not log)."""
    t = 0
    hit = False
    for i in range(gm):
        lit = g[i]
        if val[lit] == 1:
            hit = True
            break
        if val[lit] == 0:
            t = _make_true(lit ^ 1, val, trail, t)
    changed = not hit
    while changed and not hit:
        changed = False
        for c in range(n):
            if not alive[c]:
                continue
            state, open_lit = _clause_state(c, cstart, csize, pool, val)
            if state == 1 or state == 2:
                continue
            if state == 0:
                hit = True
                break
            t = _make_true(open_lit, val, trail, t)
            changed = True
    _undo(val, trail, t)
    return hit


@numba.njit(cache=True)
def lrat_kernel(cid, cstart, csize, alive, pool, val, trail, counters, kinds, ids, starts, sizes, hstarts, hsizes, numbers, trusted, g_steps, g_starts, g_sizes, g_lits):
    """Check one run of steps on the kept clauses (`cid` ascending, `cstart`, `csize`,
    `alive`, literals in `pool`; `counters` = [clauses, literals used, last id, lemmas
    checked]): a lemma (kind 0) must follow from its hints (unless `trusted`: clauses of
    the formula) and gets its id; a deletion (kind 1) drops the ids listed (an id not
    present is ignored); goal i (g_steps ascending, literal indices) must follow by unit
    propagation once the first g_steps[i] steps are in. The caller sizes the arrays.
    Returns (status, index): OK, REFUTED (step `index` is the empty clause, checked),
    BAD_LEMMA or BAD_ID (step `index`: an id not above the last one) or GOAL_FAILED."""
    n, used, last, checked = counters[0], counters[1], counters[2], counters[3]
    nsteps = kinds.shape[0]
    ngoals = g_steps.shape[0]
    goal = 0
    status, index = OK, nsteps
    for step in range(nsteps + 1):
        while goal < ngoals and g_steps[goal] <= step:
            if not _goal_follows(g_lits[g_starts[goal] : g_starts[goal] + g_sizes[goal]], g_sizes[goal], cid, alive, n, cstart, csize, pool, val, trail):
                status, index = GOAL_FAILED, goal
                break
            goal += 1
        if status != OK or step == nsteps:
            break
        if kinds[step] == 1:
            for h in range(hstarts[step], hstarts[step] + hsizes[step]):
                c = find_live_clause(cid, alive, n, numbers[h])
                if c != -1:
                    alive[c] = False
            continue
        if ids[step] <= last:
            status, index = BAD_ID, step
            break
        a, m = starts[step], sizes[step]
        if not trusted:
            if not _hinted(numbers, a, m, hstarts[step], hsizes[step], cid, alive, n, cstart, csize, pool, val, trail):
                status, index = BAD_LEMMA, step
                break
            checked += 1
        last = ids[step]
        cid[n], cstart[n], csize[n], alive[n] = last, used, m, True
        for i in range(m):
            pool[used + i] = _index(numbers[a + i])
        used += m
        n += 1
        if m == 0 and not trusted:
            status, index = REFUTED, step
            break
    counters[0], counters[1], counters[2], counters[3] = n, used, last, checked
    return status, index
