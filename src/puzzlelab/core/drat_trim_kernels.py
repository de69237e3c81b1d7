"""The numba kernels of the backward DRAT check (drat_backward.py says why and how).

Same clause store, watches and literal indices as drat_kernels.py. Two passes over a
piece of the proof: `trim_forward` takes its steps in without checking the lemmas
(they are stored, watched and propagated at the top level, exactly as the forward
check would), checks each goal by unit propagation and marks the clauses its
conflict used (conflict analysis back through the reasons, top-level ones included);
`trim_backward` then walks the steps in reverse on a copy of the state, rewinding it
(a lemma is taken out and the top-level assignments made since it undone; a deleted
clause comes back as a fresh copy), and checks each marked lemma against the clauses
as they were when it was added, marking in turn what its check used (Wetzler, Heule
and Hunt, "DRAT-trim", SAT 2014).
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.drat_kernels import BAD_LEMMA, GOAL_FAILED, OK, REFUTED, _assign, _attach, _clause_hash, _find, _store

__all__ = ["trim_forward", "trim_backward", "UNMARKED", "MARKED", "VERIFIED"]

UNMARKED, MARKED, VERIFIED = 0, 1, 2  # a clause's mark: not used, used (to check), checked


@numba.njit(cache=True)
def _propagate_c(qhead, top, val, why, trail, lits, start, size, alive, head, nxt):
    """drat_kernels._propagate that names the conflict: (conflicting clause or -1, new top)."""
    while qhead < top:
        false_lit = trail[qhead] ^ 1
        qhead += 1
        prev = -1
        node = head[false_lit]
        while node != -1:
            following = nxt[node]
            c = node >> 1
            if not alive[c]:
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
                return c, top
            top = _assign(other, c, val, why, trail, top)
            prev = node
            node = following
    return -1, top


@numba.njit(cache=True, inline="always")
def _visit(false_lit, core, top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, first):
    """One pass over the watches of `false_lit` (just made false): the clauses that are
    preferred (`core`: checked before this piece, or marked) or the others (not `core`),
    the others stopping at their first unit. Returns (conflict or -1, new top, whether
    the pass was cut short by a unit). `blk[node]`: a literal of the node's clause (its
    blocker): when it is true the clause is satisfied and is passed over unread."""
    prev = -1
    node = head[false_lit]
    while node != -1:
        following = nxt[node]
        if val[blk[node]] == 1:
            prev = node
            node = following
            continue
        c = node >> 1
        if not alive[c]:
            if prev == -1:
                head[false_lit] = following
            else:
                nxt[prev] = following
            node = following
            continue
        o = origin[c]
        if first >= 0 and (o < first or mark[o] != UNMARKED) != core:
            prev = node
            node = following
            continue
        pos = node & 1
        s = start[c]
        other = lits[s + 1 - pos]
        if val[other] == 1:
            blk[node] = other
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
                blk[node] = other
                moved = True
                break
        if moved:
            node = following
            continue
        if val[other] == -1:
            return c, top, False
        top = _assign(other, c, val, why, trail, top)
        if not core:
            return -1, top, True
        prev = node
        node = following
    return -1, top, False


@numba.njit(cache=True)
def _propagate_core(qhead, top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, first):
    """Unit propagation core first, as drat-trim does: the preferred clauses (those
    checked before this piece, and the marked ones: using them costs nothing more) to a
    fixpoint, then one unit of another clause, and again. Fewer new clauses get marked,
    so fewer lemmas need checking. `first` < 0: plain propagation, every clause alike.
    Returns (conflicting clause or -1, new top)."""
    qcore = qhead
    qall = qhead
    while True:
        while qcore < top:
            confl, top, _ = _visit(trail[qcore] ^ 1, True, top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, first)
            qcore += 1
            if confl != -1:
                return confl, top
        if qall >= top or first < 0:
            return -1, top
        confl, top, cut = _visit(trail[qall] ^ 1, False, top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, first)
        if confl != -1:
            return confl, top
        if not cut:
            qall += 1


@numba.njit(cache=True)
def _analyze(confl, var0, lits, start, size, why, mark, origin, vseen, stamp, stack):
    """Mark the clauses that a conflict used: the conflicting clause `confl` (or, when
    -1, the variable `var0` whose value made the check succeed) and, back through the
    implication graph, the reason of every variable involved (assumed ones have none)."""
    sp = 0
    if confl != -1:
        if mark[origin[confl]] == UNMARKED:
            mark[origin[confl]] = MARKED
        for j in range(start[confl], start[confl] + size[confl]):
            v = lits[j] >> 1
            if vseen[v] != stamp:
                vseen[v] = stamp
                stack[sp] = v
                sp += 1
    else:
        vseen[var0] = stamp
        stack[0] = var0
        sp = 1
    while sp > 0:
        sp -= 1
        r = why[stack[sp]]
        if r < 0:
            continue
        if mark[origin[r]] == UNMARKED:
            mark[origin[r]] = MARKED
        for j in range(start[r], start[r] + size[r]):
            v = lits[j] >> 1
            if vseen[v] != stamp:
                vseen[v] = stamp
                stack[sp] = v
                sp += 1


@numba.njit(cache=True)
def _rup_mark(extra, ne, top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, vseen, stamp, stack, first):
    """drat_kernels._refutes, core first, that marks what the conflict used (when there is one)."""
    t = top
    hit = -1
    for i in range(ne):
        lit = extra[i]
        if val[lit] == 1:
            hit = lit >> 1
            break
        if val[lit] == 0:
            t = _assign(lit ^ 1, -1, val, why, trail, t)
    confl = -1
    if hit == -1:
        confl, t = _propagate_core(top, t, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, first)
    found = hit != -1 or confl != -1
    if found:
        _analyze(confl, hit, lits, start, size, why, mark, origin, vseen, stamp, stack)
    for i in range(top, t):
        lit = trail[i]
        val[lit] = 0
        val[lit ^ 1] = 0
    return found


@numba.njit(cache=True)
def _naive_rup_mark(extra, ne, top, val, why, trail, lits, start, size, alive, nclauses, mark, origin, vseen, stamp, stack):
    """_rup_mark by scanning every live clause until nothing changes, watches aside: the
    second opinion before a lemma is refused, so that a rewound watch can never make
    the backward check refuse what the forward one accepts."""
    t = top
    hit = -1
    for i in range(ne):
        lit = extra[i]
        if val[lit] == 1:
            hit = lit >> 1
            break
        if val[lit] == 0:
            t = _assign(lit ^ 1, -1, val, why, trail, t)
    confl = -1
    changed = hit == -1
    while changed and confl == -1:
        changed = False
        for c in range(nclauses):
            if not alive[c] or size[c] == 0:
                continue
            free = -1
            count = 0
            satisfied = False
            for j in range(start[c], start[c] + size[c]):
                if val[lits[j]] == 1:
                    satisfied = True
                    break
                if val[lits[j]] == 0:
                    free = lits[j]
                    count += 1
            if satisfied or count > 1:
                continue
            if count == 0:
                confl = c
                break
            t = _assign(free, c, val, why, trail, t)
            changed = True
    found = hit != -1 or confl != -1
    if found:
        _analyze(confl, hit, lits, start, size, why, mark, origin, vseen, stamp, stack)
    for i in range(top, t):
        lit = trail[i]
        val[lit] = 0
        val[lit ^ 1] = 0
    return found


@numba.njit(cache=True)
def trim_forward(lits, start, size, alive, hashes, chain, bucket, head, nxt, val, why, trail, seen, work, counters, kinds, p_starts, p_sizes, p_lits, g_steps, g_starts, g_sizes, g_lits, step_clause, step_top, mark, origin, vseen, stack, first, blk):
    """feed_kernel's pass over the steps with the lemmas taken in unchecked, each goal
    checked and its conflict's clauses marked. Records per step the clause it added
    (`step_clause`, -1 for a tautology) or deleted (-1 when the deletion was ignored),
    and the top of the trail before a lemma (`step_top`). Returns (status, index): OK,
    REFUTED (step `index` brought the top level to a conflict, which is marked) or
    GOAL_FAILED (goal `index` does not follow even with every lemma)."""
    used, top, nclauses, stamp = counters[0], counters[1], counters[2], counters[3]
    mask = np.uint64(bucket.shape[0] - 1)
    nsteps = p_starts.shape[0]
    ngoals = g_steps.shape[0]
    goal = 0
    status, index = OK, nsteps
    for step in range(nsteps + 1):
        while goal < ngoals and g_steps[goal] <= step:
            stamp += 1
            if not _rup_mark(g_lits[g_starts[goal] : g_starts[goal] + g_sizes[goal]], g_sizes[goal], top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, vseen, stamp, stack, first):
                status, index = GOAL_FAILED, goal
                break
            goal += 1
        if status != OK or step == nsteps:
            break
        kind, a, b = kinds[step], p_starts[step], p_starts[step] + p_sizes[step]
        c = nclauses
        stamp += 1
        end, tautology = _store(c, p_lits, a, b, lits, start, size, used, seen, stamp)
        step_clause[step] = -1
        if kind == 1:
            hashes[c] = _clause_hash(lits, start[c], size[c])
            stamp += 1
            d = _find(c, lits, start, size, alive, hashes, bucket, chain, seen, stamp, mask)
            if d != -1 and size[d] >= 2:
                s = start[d]
                reason = (why[lits[s] >> 1] == d and val[lits[s]] == 1) or (why[lits[s + 1] >> 1] == d and val[lits[s + 1]] == 1)
                if not reason:
                    alive[d] = False
                    step_clause[step] = d
            continue
        nclauses += 1
        used = end
        step_top[step] = top
        if tautology:
            alive[c] = False
            continue
        alive[c] = True
        step_clause[step] = c
        hashes[c] = _clause_hash(lits, start[c], size[c])
        slot = hashes[c] & mask
        chain[c] = bucket[slot]
        bucket[slot] = c
        q = top
        conflict, top = _attach(c, top, val, why, trail, lits, start, size, head, nxt)
        if size[c] >= 2:
            blk[2 * c], blk[2 * c + 1] = lits[start[c] + 1], lits[start[c]]
        confl = c if conflict else -1
        if not conflict:
            confl, top = _propagate_c(q, top, val, why, trail, lits, start, size, alive, head, nxt)
        if confl != -1:
            stamp += 1
            _analyze(confl, -1, lits, start, size, why, mark, origin, vseen, stamp, stack)
            status, index = REFUTED, step
            break
    counters[0], counters[1], counters[2], counters[3] = used, top, nclauses, stamp
    return status, index


@numba.njit(cache=True)
def _reattach(e, top, val, trail, lits, start, size, head, nxt, blk, seen, stamp):
    """Watch a clause brought back by the rewind: two literals not false if it has them,
    else its true one and the false one assigned last (the first to be undone further
    back), so that the watches stay sound as the rewind goes on."""
    s, m = start[e], size[e]
    if m < 2:
        return
    free = 0
    for j in range(s, s + m):
        if val[lits[j]] != -1:
            tmp = lits[s + free]
            lits[s + free] = lits[j]
            lits[j] = tmp
            free += 1
    if free < 2:
        for j in range(s + free, s + m):
            seen[lits[j] ^ 1] = stamp
        for i in range(top - 1, -1, -1):
            if seen[trail[i]] == stamp:
                for j in range(s + free, s + m):
                    if lits[j] == trail[i] ^ 1:
                        tmp = lits[s + free]
                        lits[s + free] = lits[j]
                        lits[j] = tmp
                        break
                break
    for w in range(2):
        node = 2 * e + w
        nxt[node] = head[lits[s + w]]
        head[lits[s + w]] = node
        blk[node] = lits[s + 1 - w]


@numba.njit(cache=True)
def _has_rat_mark(pivot, lemma, m, nclauses, top, val, why, trail, lits, start, size, alive, head, nxt, blk, work, mark, origin, vseen, stamp, stack, first):
    """drat_kernels._has_rat on the lemma's literals (its first, `pivot`, as the proof
    gave it), marking what each resolvent's check used. Returns (RAT, stamp)."""
    for i in range(m):
        work[i] = lemma[i]
    for d in range(nclauses):
        if not alive[d]:
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
        stamp += 1
        if not _rup_mark(work, ne, top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, vseen, stamp, stack, first):
            return False, stamp
    return True, stamp


@numba.njit(cache=True)
def trim_backward(lits, start, size, alive, origin, cur, head, nxt, blk, val, why, trail, seen, work, counters, kinds, p_starts, p_sizes, p_lits, step_clause, step_top, last, mark, vseen, stack, checked, rat_ok, first):
    """Steps last, last - 1, ..., 0 in reverse on a copy of trim_forward's final state
    (arrays sized for the clauses that come back; `counters` = [used, top, nclauses,
    stamp, rat lemmas, lemmas checked, second opinions that succeeded]): each marked
    lemma is checked (RUP, else RAT when `rat_ok`) against the clauses present before
    it, and what its check used is marked; `checked[step]` is set for it. `cur[c]` is
    clause c's copy in the store (itself until it is brought back). Returns (OK, -1)
    or (BAD_LEMMA, step)."""
    used, top, nclauses, stamp, rats, verified, second = counters[0], counters[1], counters[2], counters[3], counters[4], counters[5], counters[6]
    status, index = OK, -1
    for step in range(last, -1, -1):
        c = step_clause[step]
        if c == -1:
            continue
        if kinds[step] == 1:  # the deleted clause comes back, as a fresh copy with its own watches
            d = cur[c]
            e = nclauses
            nclauses += 1
            start[e], size[e] = used, size[d]
            for j in range(size[d]):
                lits[used + j] = lits[start[d] + j]
            used += size[d]
            alive[e] = True
            origin[e] = origin[d]
            cur[c] = e
            stamp += 1
            _reattach(e, top, val, trail, lits, start, size, head, nxt, blk, seen, stamp)
            continue
        for i in range(step_top[step], top):  # the lemma leaves, with what it brought to the top level
            lit = trail[i]
            val[lit] = 0
            val[lit ^ 1] = 0
        top = step_top[step]
        alive[cur[c]] = False
        if mark[c] != MARKED:
            continue
        a, m = p_starts[step], p_sizes[step]
        lemma = p_lits[a : a + m]
        stamp += 1
        ok = _rup_mark(lemma, m, top, val, why, trail, lits, start, size, alive, head, nxt, blk, mark, origin, vseen, stamp, stack, first)
        if not ok:
            stamp += 1
            ok = _naive_rup_mark(lemma, m, top, val, why, trail, lits, start, size, alive, nclauses, mark, origin, vseen, stamp, stack)
            second += ok
        if not ok and rat_ok and m > 0:
            ok, stamp = _has_rat_mark(p_lits[a], lemma, m, nclauses, top, val, why, trail, lits, start, size, alive, head, nxt, blk, work, mark, origin, vseen, stamp, stack, first)
            rats += ok
        if not ok:
            status, index = BAD_LEMMA, step
            break
        mark[c] = VERIFIED
        checked[step] = True
        verified += 1
    counters[0], counters[1], counters[2], counters[3], counters[4], counters[5], counters[6] = used, top, nclauses, stamp, rats, verified, second
    return status, index
