"""The backward DRAT check of one piece of a proof (drat.DratChecker with backward=True).

Why: a forward check proves every lemma, but a CDCL solver deletes most of what it
learns without ever using it; drat-trim (Wetzler, Heule and Hunt, SAT 2014) checks
only the lemmas that the refutation uses, found backwards from the conflict. On
CaDiCaL's proofs of n = 8's hexagon cubes that is the difference between checking
and not checking most of the proof (docs/hexagon.md, `prove --certified`).

How it fits a proof that arrives piece by piece, with goals over time: each piece is
taken in unchecked (drat_trim_kernels.trim_forward: stored, watched, propagated at
the top level, each goal checked by propagation and the clauses its conflict used
marked), then walked backwards on a copy of the state (trim_backward), checking each
marked lemma against the clauses as they were when it was added and marking what its
check used. The roots of the marking are the piece's goals (or the conflict that
refutes the formula) and, unless the proof ends with this piece, every lemma of the
piece still present at its end: a later goal may use any of those, and the state they
were added in is gone once the piece is over. So every clause present between pieces
is checked, and each piece is checked on its own; what is skipped is what the solver
learned and deleted within one piece without the piece's goals needing it.

What `ok` means is drat-trim's: every goal follows by unit propagation from the
formula and lemmas that were themselves checked, recursively; a lemma that does not
follow but is never used (deleted within its piece, or in the last piece and not
used) does not change the verdict, while the forward check refuses it. Lemma checks
that fail by watched propagation get a second opinion by plain propagation over all
clauses (drat_trim_kernels._naive_rup_mark) before the lemma is refused.

Core-first propagation (drat-trim's default: the clauses already checked or marked
first) is here but off: with one watch list per literal it walks each list twice, and
on n = 8's certificates that cost more than the lemmas it spared (docs/hexagon.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from puzzlelab.core.drat_kernels import REFUTED
from puzzlelab.core.drat_store import DratStore
from puzzlelab.core.drat_trim_kernels import MARKED, trim_backward, trim_forward

__all__ = ["Piece", "check_piece", "CORE_FIRST"]

CORE_FIRST = False  # drat-trim's core-first propagation (True), or plain: measured faster here (docs/hexagon.md)


@dataclass(frozen=True)
class Piece:
    """check_piece's answer: `status` (drat_kernels' OK, REFUTED, BAD_LEMMA, GOAL_FAILED)
    and `index` (the step or goal in question), lemmas `checked` and, when asked, which
    steps (`core`: a boolean per step); `second`: lemmas that only the second opinion passed."""

    status: int
    index: int
    checked: int = 0
    second: int = 0
    core: np.ndarray | None = None


def _working_copy(store: DratStore, deleted: np.ndarray) -> tuple:
    """Copies of the store's clauses, watches and assignment, with room for the deleted
    clauses to come back: (lits, start, size, alive, origin, cur, head, nxt, val, why, trail)."""
    used, nclauses = int(store.counters[0]), int(store.counters[2])
    extra, extra_lits = len(deleted), int(store.size[deleted].sum())

    def room(array, length, fill):
        out = np.full(length, fill, dtype=array.dtype)
        out[: min(len(array), length)] = array[:length]
        return out

    cap = nclauses + extra
    lits = room(store.lits[:used], used + extra_lits, 0)
    start, size, alive = room(store.start[:nclauses], cap, 0), room(store.size[:nclauses], cap, 0), room(store.alive[:nclauses], cap, False)
    nxt = room(store.nxt[: 2 * nclauses], 2 * cap, -1)
    origin, cur = np.arange(cap, dtype=np.int64), np.arange(nclauses, dtype=np.int64)
    return lits, start, size, alive, origin, cur, store.head.copy(), nxt, store.val.copy(), store.why.copy(), store.trail.copy()


def _blockers(store: DratStore, nodes: int) -> np.ndarray:
    """Each watch node's first blocker: the clause's other watched literal (any literal
    of the clause will do; literal index 0 names no variable and is never true)."""
    blk = np.zeros(nodes, np.int32)
    n = int(store.counters[2])
    ids = np.flatnonzero(store.size[:n] >= 2)
    blk[2 * ids] = store.lits[store.start[ids] + 1]
    blk[2 * ids + 1] = store.lits[store.start[ids]]
    return blk


def check_piece(store: DratStore, kinds, starts, sizes, lits, g_steps, goals: tuple, rat: bool, *, survivors: bool, keep_core: bool = False) -> Piece:
    """Take in the steps (kinds, starts, sizes over `lits`) and check the goals
    (g_steps: before which step each is due; `goals`: their (starts, sizes, lits)) and
    the lemmas they use, backwards; `survivors`: the lemmas present at the end count as
    used (more pieces follow). The store is left as a forward check would leave it."""
    g_starts, g_sizes, g_lits = goals
    top = max(int(lits.max(initial=0)), int(g_lits.max(initial=0)))
    store.reserve(len(kinds), int(sizes.sum()), top + 2, int(sizes.max(initial=0)))
    n, cap, nvars = len(kinds), len(store.start), len(store.val) // 2 + 1
    step_clause, step_top = np.full(n, -1, np.int64), np.zeros(n, np.int64)
    mark, vseen, stack = np.zeros(cap, np.int8), np.zeros(nvars, np.int64), np.zeros(nvars, np.int64)
    arrays, first = store.arrays(), int(store.counters[2]) if CORE_FIRST else -1
    blk = _blockers(store, 2 * cap)
    status, index = trim_forward(*arrays, store.counters, kinds, starts, sizes, lits, g_steps, g_starts, g_sizes, g_lits, step_clause, step_top, mark, np.arange(cap, dtype=np.int64), vseen, stack, first, blk)
    status, index = int(status), int(index)
    if status not in (0, REFUTED):  # a goal failed: it does not follow even from every lemma
        return Piece(status, index)
    last = index if status == REFUTED else n - 1
    if survivors and status != REFUTED:
        added = step_clause[(kinds == 0) & (step_clause >= 0)]
        mark[added[store.alive[added]]] = MARKED
    deleted = step_clause[: last + 1][(kinds[: last + 1] == 1) & (step_clause[: last + 1] >= 0)]
    w_lits, w_start, w_size, w_alive, origin, cur, head, nxt, val, why, trail = _working_copy(store, deleted)
    blk = np.concatenate([blk[: 2 * int(store.counters[2])], np.zeros(2 * len(deleted), np.int32)])
    counters = np.zeros(7, np.int64)
    counters[:5] = store.counters[:5]
    checked = np.zeros(n, np.bool_)
    seen, work = arrays[12], arrays[13]
    bad, step = trim_backward(w_lits, w_start, w_size, w_alive, origin, cur, head, nxt, blk, val, why, trail, seen, work, counters, kinds, starts, sizes, lits, step_clause, step_top, last, mark, vseen, stack, checked, rat, first)
    store.counters[3], store.counters[4] = counters[3], counters[4]
    core = checked if keep_core else None
    if int(bad) != 0:
        return Piece(int(bad), int(step), int(counters[5]), int(counters[6]), core)
    return Piece(status, index, int(counters[5]), int(counters[6]), core)
