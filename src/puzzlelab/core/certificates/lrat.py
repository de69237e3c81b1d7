"""An LRAT proof checker, fed piece by piece: does a solver's certificate show that the
goals follow from a CNF?

Why: a DRAT lemma is checked by unit propagation over the whole clause database,
which on n = 8's hexagon certificates costs about as much as the solver spent
learning it, forwards or backwards (docs/hexagon.md). LRAT (Cruz-Filipe, Heule, Hunt,
Kaufmann and Schneider-Kamp, "Efficient certified RAT verification", CADE 2017) has
the solver name, with each lemma, the clauses (by id) that make it follow: the check
walks those few clauses in order, each of which must be unit (or, the last, false)
under the lemma's negation, and never searches. CaDiCaL writes LRAT when its `lrat`
option is set before its proof is traced (hexagon/proof/certify.py shows how through PySAT).

Lemmas must follow from their hints (RAT hints, negative ids, are refused: the
certified mode's goals are under assumptions, where RAT does not apply). A goal, the
negation of the assumptions of one UNSAT call, is not logged by the solver: it must
follow by unit propagation from the clauses present at its byte of the proof, checked
by passes over all of them (once per call, so its cost is small beside the lemmas').
Deletions name ids; an id not present is ignored (keeping a clause is always sound).
Text LRAT (`id lits 0 hints 0` a lemma, `id d ids 0` a deletion) or binary LRAT
(lrat_kernels.parse_binary_lrat). This module and lrat_kernels.py import no SAT solver.
"""

from __future__ import annotations

import time
from typing import Iterable, Sequence

import numpy as np

from puzzlelab.core.certificates.lrat_kernels import (
    BAD_ID,
    BAD_LEMMA,
    GOAL_FAILED,
    MALFORMED,
    REFUTED,
    find_live_clause,
    lrat_kernel,
    parse_binary_lrat,
    parse_text_lrat,
)
from puzzlelab.core.certificates.verdict import MAX_VARIABLE, NEW_VARIABLES, ProofProgress, ProofVerdict, grown

__all__ = ["LratChecker", "check_lrat"]

DEAD_SHARE = 0.5  # compact the store when this share of its clauses is deleted



def _index(lits: Sequence[int]) -> np.ndarray:
    a = np.asarray(lits, dtype=np.int64)
    return np.where(a > 0, 2 * a, -2 * a + 1).astype(np.int32)


class LratChecker:
    """Made from the formula (its clauses get ids 1, 2, ... in order, as CaDiCaL numbers
    them), fed the proof piece by piece with the goals ((byte offset, clause) pairs in
    order) that fall in it, like drat.DratChecker: `feed` returns a ProofProgress."""

    def __init__(self, clauses: Iterable[Sequence[int]], *, binary: bool = False) -> None:
        clauses = [list(c) for c in clauses]
        self.binary = binary
        flat = [lit for c in clauses for lit in c]
        if any(lit == 0 or abs(lit) > MAX_VARIABLE for lit in flat):
            raise ValueError("formula: a literal is 0 or too large")
        cap = max(16, 2 * len(clauses))
        self.cid, self.cstart, self.csize = np.zeros(cap, np.int64), np.zeros(cap, np.int64), np.zeros(cap, np.int64)
        self.alive, self.pool = np.zeros(cap, np.bool_), np.zeros(max(16, 2 * len(flat)), np.int32)
        self.val, self.trail = np.zeros(16, np.int8), np.zeros(8, np.int64)
        self.counters = np.zeros(4, np.int64)
        self._goals: list[tuple[int, list[int]]] = []
        self._tail, self._base = b"", 0
        self._steps = self._deletions = self._certified = 0
        self._bytes, self._seconds, self._error, self._failed, self._ended, self.refuted = 0, 0.0, None, None, False, False
        self._formula_top = max((abs(lit) for lit in flat), default=0)
        numbers = np.asarray(flat, dtype=np.int64)
        sizes = np.asarray([len(c) for c in clauses], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64) if len(clauses) else np.zeros(0, np.int64)
        ids = np.arange(1, len(clauses) + 1, dtype=np.int64)
        self._run(np.zeros(len(clauses), np.int64), ids, starts, sizes, np.zeros_like(starts), np.zeros_like(sizes), numbers, (), self._formula_top, trusted=True)

    def feed(self, proof: bytes, goals: Sequence[tuple[int, Sequence[int]]] = (), *, final: bool = False) -> ProofProgress:
        """Take in the next bytes of the proof and the goals that fall in them (or later)."""
        if self._ended:
            raise ValueError("proof: it was ended (final=True); nothing more can follow")
        for at, clause in goals:
            if self._goals and at < self._goals[-1][0]:
                raise ValueError("goals: expected offsets in ascending order")
            if any(lit == 0 or abs(lit) > self._formula_top + NEW_VARIABLES for lit in clause):
                raise ValueError("goals: a literal is 0 or names a variable far beyond the formula's")
            self._goals.append((at, list(clause)))
        t0 = time.perf_counter()
        self._ended = final
        data = self._tail + bytes(proof)
        self._bytes += len(proof)
        if self._error is None:
            parse = parse_binary_lrat if self.binary else parse_text_lrat
            status, kinds, ids, starts, sizes, hstarts, hsizes, numbers, offsets, consumed, top = parse(np.frombuffer(data, dtype=np.uint8), final)
            if status == MALFORMED or (final and consumed < len(data)):
                self._error = f"the proof is not {'binary' if self.binary else 'text'} LRAT (a bad byte or token, or a step cut short)"
            else:
                frontier = self._base + consumed
                self._tail, self._base = data[consumed:], frontier
                if top > self._formula_top + NEW_VARIABLES:
                    self._error = f"the proof names a variable more than {NEW_VARIABLES} beyond the formula's"
                else:
                    self._take(kinds, ids, starts, sizes, hstarts, hsizes, numbers, offsets + (frontier - consumed), int(top), None if final else frontier)
        self._seconds += time.perf_counter() - t0
        return self.progress()

    def progress(self) -> ProofProgress:
        lemmas = self._steps - self._deletions
        return ProofProgress(self._certified, self.refuted, self._error, self._failed, lemmas, self._deletions, 0, self._seconds, self._bytes, len(self._tail), int(self.counters[3]))

    def verdict(self) -> ProofVerdict:
        if not self._ended:
            raise ValueError("proof: a verdict needs its end (feed(..., final=True))")
        done = self.progress()
        counts = dict(lemmas=done.lemmas, deletions=done.deletions, seconds=done.seconds, proof_bytes=done.proof_bytes, checked=done.checked)
        if done.error is not None:
            return ProofVerdict(False, done.error, failed_goal=done.failed_goal, **counts)
        if self._goals:
            return ProofVerdict(True, f"the proof derives all {len(self._goals)} goals", **counts)
        if self.refuted:
            return ProofVerdict(True, "the proof refutes the formula", **counts)
        return ProofVerdict(False, "every lemma checks, but the proof does not reach the empty clause", **counts)

    def _take(self, kinds, ids, starts, sizes, hstarts, hsizes, numbers, offsets, top: int, frontier: int | None) -> None:
        first = self._steps
        self._steps += len(kinds)
        self._deletions += int(kinds.sum())
        due = [g for g in self._goals[self._certified :] if frontier is None or g[0] <= frontier]
        if self.refuted:
            self._certified = len(self._goals)
            return
        g_steps = np.searchsorted(offsets, np.asarray([g[0] for g in due], dtype=np.int64), side="left").astype(np.int64)
        status, index = self._run(kinds, ids, starts, sizes, hstarts, hsizes, numbers, [g[1] for g in due], top, g_steps=g_steps)
        if status in (BAD_LEMMA, BAD_ID):
            lemma = [int(x) for x in numbers[starts[index] : starts[index] + sizes[index]][:8]]
            why = "does not follow from its hints" if status == BAD_LEMMA else "has an id not above the last one"
            self._error = f"step {first + index + 1} of the proof (id {int(ids[index])}) adds a clause that {why}: {lemma}{' ...' if sizes[index] > 8 else ''}"
            if status == BAD_LEMMA:
                self._error += self._absent_hints(numbers[hstarts[index] : hstarts[index] + hsizes[index]])
        elif status == GOAL_FAILED:
            self._failed = self._certified + index
            at, clause = self._goals[self._failed]
            self._error = f"goal {self._failed + 1} (at byte {at}) does not follow by unit propagation: {clause[:8]}"
        elif status == REFUTED:
            self.refuted, self._certified = True, len(self._goals)
        else:
            self._certified += len(due)

    def _absent_hints(self, hints: np.ndarray) -> str:
        """Why a lemma failed, where a hint names no clause present (deleted, or never
        added): a solver that uses a clause after logging its deletion (hexagon/proof/certify.py,
        NO_RESTORED_CLAUSES) is told apart from a wrong chain."""
        n = int(self.counters[0])
        absent = [int(h) for h in hints if h > 0 and find_live_clause(self.cid, self.alive, n, int(h)) < 0]
        return f" (hints naming no clause present, deleted or never added: {absent[:4]})" if absent else ""

    def _run(self, kinds, ids, starts, sizes, hstarts, hsizes, numbers, goal_clauses, top: int, *, g_steps=None, trusted: bool = False) -> tuple[int, int]:
        """lrat_kernel on these steps, the store compacted or grown first."""
        goals = [_index(c) for c in goal_clauses]
        g_sizes = np.asarray([len(g) for g in goals], dtype=np.int64)
        g_starts = np.concatenate([[0], np.cumsum(g_sizes)[:-1]]).astype(np.int64) if goals else np.zeros(0, np.int64)
        g_lits = np.concatenate(goals).astype(np.int32) if goals else np.zeros(0, np.int32)
        top = max(top, int(g_lits.max(initial=0)) // 2, 1)
        self._reserve(len(kinds), int(sizes.sum()), 2 * top + 2, int(sizes.max(initial=0)) + int(g_sizes.max(initial=0)))
        status, index = lrat_kernel(self.cid, self.cstart, self.csize, self.alive, self.pool, self.val, self.trail, self.counters, kinds, ids, starts, sizes, hstarts, hsizes, numbers, trusted,
                                    np.zeros(0, np.int64) if g_steps is None else g_steps, g_starts, g_sizes, g_lits)
        return int(status), int(index)

    def _reserve(self, steps: int, literals: int, nlit: int, widest: int) -> None:
        n, used = int(self.counters[0]), int(self.counters[1])
        if n + steps > len(self.cid) or used + literals > len(self.pool):
            live = np.flatnonzero(self.alive[:n])
            if len(live) < (1 - DEAD_SHARE) * n:  # drop the deleted clauses, keeping the ids in order
                sizes = self.csize[live]
                starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64) if len(live) else np.zeros(0, np.int64)
                pool = np.concatenate([self.pool[s : s + m] for s, m in zip(self.cstart[live], sizes)]) if len(live) else np.zeros(0, np.int32)
                self.cid[: len(live)], self.csize[: len(live)], self.cstart[: len(live)] = self.cid[live], sizes, starts
                self.alive[:] = False
                self.alive[: len(live)] = True
                self.pool[: len(pool)] = pool
                n, used = len(live), len(pool)
                self.counters[0], self.counters[1] = n, used
            if n + steps > len(self.cid):
                cap = max(2 * len(self.cid), n + steps)
                self.cid, self.cstart, self.csize, self.alive = grown(self.cid, cap), grown(self.cstart, cap), grown(self.csize, cap), grown(self.alive, cap, False)
            if used + literals > len(self.pool):
                self.pool = grown(self.pool, max(2 * len(self.pool), used + literals))
        if nlit > len(self.val):
            self.val = grown(self.val, max(2 * len(self.val), nlit))
        if max(widest, len(self.val) // 2 + 1) > len(self.trail):
            self.trail = np.zeros(max(widest, len(self.val) // 2 + 1) + 1, np.int64)


def check_lrat(clauses: Iterable[Sequence[int]], proof: bytes | str, *, goals: Sequence[tuple[int, Sequence[int]]] = (), binary: bool = False) -> ProofVerdict:
    """The verdict of LratChecker fed the whole LRAT `proof` (text, or `binary`) at once."""
    checker = LratChecker(clauses, binary=binary)
    checker.feed(proof.encode() if isinstance(proof, str) else proof, goals, final=True)
    return checker.verdict()
