"""The state the DRAT checker keeps between pieces of a proof (drat.DratChecker): the
arrays that drat_kernels.feed_kernel reads and updates, grown when a piece needs more
room and compacted when deleted clauses fill it.

Why compaction: a solver deletes most of what it learns (CaDiCaL's proof of a long
incremental run is mostly deletions), so a store that only grew would be the size of
the whole proof; dropping the deleted clauses when the store is full keeps it near
the solver's own live clause database. Compaction renumbers clauses but keeps their
order and each watch list's order (drat_kernels.compact_kernel), so the check goes on
exactly as an uninterrupted one.
"""

from __future__ import annotations

import numpy as np

from puzzlelab.core.certificates.drat_kernels import compact_kernel, rehash_kernel
from puzzlelab.core.certificates.verdict import grown

__all__ = ["DratStore"]

DEAD_SHARE = 0.25  # compact a full store once this share of its clauses is deleted



def _buckets(capacity: int) -> int:
    n = 1
    while n < 2 * capacity:
        n *= 2
    return n


class DratStore:
    """Clause store (`lits`, `start`, `size`, `alive`, `hashes`), deletion index
    (`chain`, `bucket`), watches (`head`, `nxt`), assignment (`val`, `why`, `trail`),
    scratch (`seen`, `work`) and `counters` [used, top, clauses, stamp, RAT lemmas],
    for literal indices below `nlit`."""

    def __init__(self, nlit: int, clauses: int, literals: int) -> None:
        cap, nlit = max(16, clauses), nlit + nlit % 2
        self.lits = np.zeros(max(16, literals), np.int32)
        self.start = np.zeros(cap, np.int64)
        self.size = np.zeros(cap, np.int64)
        self.alive = np.zeros(cap, np.bool_)
        self.hashes = np.zeros(cap, np.uint64)
        self.chain = np.full(cap, -1, np.int64)
        self.bucket = np.full(_buckets(cap), -1, np.int64)
        self.head = np.full(nlit, -1, np.int64)
        self.nxt = np.full(2 * cap, -1, np.int64)
        self.val = np.zeros(nlit, np.int8)
        self.why = np.full(nlit // 2, -1, np.int64)
        self.trail = np.zeros(nlit, np.int64)
        self.seen = np.zeros(nlit, np.int64)
        self.work = np.zeros(4, np.int32)
        self.counters = np.zeros(5, np.int64)
        self.compactions = 0

    def arrays(self) -> tuple:
        """The arrays in feed_kernel's order (counters apart)."""
        return (self.lits, self.start, self.size, self.alive, self.hashes, self.chain, self.bucket, self.head, self.nxt, self.val, self.why, self.trail, self.seen, self.work)

    def live(self) -> int:
        return int(self.alive[: self.counters[2]].sum())

    def reserve(self, steps: int, literals: int, nlit: int, widest: int) -> None:
        """Room for `steps` more clauses of `literals` literals in all, literal indices
        below `nlit`, and a clause of `widest` literals: compact when full, then grow."""
        used, clauses = int(self.counters[0]), int(self.counters[2])
        cap = len(self.start)
        if clauses + steps > cap or used + literals > len(self.lits):
            rehash = False
            if clauses - self.live() > DEAD_SHARE * clauses:
                compact_kernel(self.lits, self.start, self.size, self.alive, self.hashes, self.head, self.nxt, self.why, self.counters)
                used, clauses, rehash = int(self.counters[0]), int(self.counters[2]), True
                self.compactions += 1
            if clauses + steps > cap:
                cap = max(2 * cap, clauses + steps)
                self.start, self.size = grown(self.start, cap, 0), grown(self.size, cap, 0)
                self.alive, self.hashes = grown(self.alive, cap, False), grown(self.hashes, cap, 0)
                self.chain, self.nxt = grown(self.chain, cap, -1), grown(self.nxt, 2 * cap, -1)
                self.bucket, rehash = np.full(_buckets(cap), -1, np.int64), True
            if used + literals > len(self.lits):
                self.lits = grown(self.lits, max(2 * len(self.lits), used + literals), 0)
            if rehash:
                rehash_kernel(self.alive, self.hashes, self.chain, self.bucket, clauses)
        if nlit > len(self.val):
            nlit = max(2 * len(self.val), nlit)
            nlit += nlit % 2
            self.head, self.val = grown(self.head, nlit, -1), grown(self.val, nlit, 0)
            self.why, self.trail, self.seen = grown(self.why, nlit // 2, -1), grown(self.trail, nlit, 0), grown(self.seen, nlit, 0)
        if 2 * widest > len(self.work):
            self.work = np.zeros(2 * widest, np.int32)

    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.arrays())
