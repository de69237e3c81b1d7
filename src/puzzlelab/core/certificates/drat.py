"""A DRAT proof checker: does a solver's certificate show that a CNF has no model?

Why: a SAT solver's UNSAT answer is trusted unless it comes with a certificate that a
separate program checks; SAT competitions and the large published proofs (the Boolean
Pythagorean triples, Schur number five) use DRAT: the solver logs every clause it
learns (and deletes), and the checker confirms that each added clause follows from
the formula and the clauses before it (RUP: unit propagation of its negation
conflicts; or RAT on its first literal) and that the empty clause follows at the end
(Wetzler, Heule and Hunt, "DRAT-trim", SAT 2014; Heule, "Proofs of unsatisfiability",
Handbook of Satisfiability, 2nd ed., 2021).

This checker works forwards, like DRUP-check: every lemma is checked, not only those
the refutation needs. drat-trim's backward check (only the lemmas used) was built and
measured here, and was slower on CaDiCaL's certificates, which use most of their
lemmas (docs/hexagon.md, "Backward DRAT, measured, and why LRAT"). Deletions of a
clause that is the reason of a top-level assignment, and of clauses not present, are
ignored, as drat-trim does; keeping a clause is always sound. It imports no SAT
solver (.importlinter): its only trust is in this module, drat_kernels.py and
drat_store.py.

A forward check can go on where it stopped: DratChecker keeps its state and takes the
proof piece by piece as a solver writes it (an incremental solver's proof of a long
run is checked as it grows, without restarting the solver or rereading the proof),
holding back a step cut short; check_drat is one feed of the whole proof. Both proof
formats are read: binary DRAT (what CaDiCaL writes) and text DRAT (`1 -2 0` a lemma,
`d 1 -2 0` a deletion).
"""

from __future__ import annotations

import time
from typing import Iterable, Sequence

import numpy as np

from puzzlelab.core.certificates.drat_kernels import BAD_LEMMA, GOAL_FAILED, MALFORMED, REFUTED, feed_kernel, parse_binary_drat
from puzzlelab.core.certificates.drat_store import DratStore
from puzzlelab.core.certificates.verdict import MAX_VARIABLE, NEW_VARIABLES, ProofProgress, ProofVerdict

__all__ = ["DratChecker", "check_drat", "parse_text_lines", "parse_text_drat", "is_binary_drat", "MAX_VARIABLE", "NEW_VARIABLES"]

SLICE_STEPS = 1 << 16  # steps per kernel call: the store is compacted between calls (on a
# 34 MB piece of n = 8's proof: 36 MB of store instead of 120 MB, and no slower)


def _index(lit: int) -> int:
    return 2 * lit if lit > 0 else -2 * lit + 1


def _flatten(clauses: Iterable[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, sizes, literal indices) of a clause list; ValueError on a literal that
    is not a nonzero integer."""
    sizes, flat = [], []
    for clause in clauses:
        sizes.append(len(clause))
        flat.extend(clause)
    lits = np.asarray(flat, dtype=np.int64)
    if lits.size and (lits == 0).any():
        raise ValueError("formula: a literal is 0 (literals are nonzero integers)")
    size_array = np.asarray(sizes, dtype=np.int64)
    starts = np.zeros(len(sizes), dtype=np.int64)
    if len(sizes) > 1:
        starts[1:] = np.cumsum(size_array)[:-1]
    if lits.size and np.abs(lits).max() > MAX_VARIABLE:
        raise ValueError(f"formula: a variable above {MAX_VARIABLE}")
    return starts, size_array, np.where(lits > 0, 2 * lits, -2 * lits + 1).astype(np.int32)


def parse_text_drat(text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(kinds, starts, sizes, literal indices, offsets) of a text DRAT proof: steps of
    integers ending in 0, a deletion prefixed by `d`; comment lines (`c ...`) skipped;
    offsets[i] the character where the line of step i's start begins. ValueError on
    anything else, or a last step without its 0."""
    *steps, carry, _ = parse_text_lines(text)
    if carry is not None:
        raise ValueError("proof: its last step does not end with 0")
    return tuple(steps)  # type: ignore[return-value]


def parse_text_lines(text: str, base: int = 0, line: int = 1, carry: tuple | None = None) -> tuple:
    """parse_text_drat on whole lines of a longer proof: `text` starts at character
    `base` of the proof, on its line number `line`; `carry` (kind, literals, offset) is
    the step that the lines before left open, and the step these lines leave open is
    returned in its place, with the next line's number, after the arrays."""
    kinds, starts, sizes, flat, offsets = [], [], [], [], []
    current, kind, at_line = (None, 0, 0) if carry is None else (list(carry[1]), carry[0], carry[2])
    at = base
    for number, text_line in enumerate(text.splitlines(keepends=True), start=line):
        line_start, at = at, at + len(text_line)
        tokens = text_line.split()
        if not tokens or tokens[0] == "c":
            continue
        for token in tokens:
            if current is None:
                current, kind, at_line = [], int(token == "d"), line_start
                if token == "d":
                    continue
            try:
                lit = int(token)
            except ValueError:
                raise ValueError(f"proof line {number}: expected integers (and 'd' first), got {token[:20]!r}") from None
            if lit == 0:
                kinds.append(kind)
                offsets.append(at_line)
                starts.append(len(flat))
                sizes.append(len(current))
                flat.extend(_index(x) for x in current)
                current = None
            else:
                current.append(lit)
    array = lambda xs: np.asarray(xs, dtype=np.int64)  # noqa: E731
    if flat and max(flat) > 2 * MAX_VARIABLE + 1:
        raise ValueError(f"a variable above {MAX_VARIABLE}")
    lines = line + len(text.splitlines())
    return array(kinds), array(starts), array(sizes), array(flat).astype(np.int32), array(offsets), (None if current is None else (kind, current, at_line)), lines


def is_binary_drat(proof: bytes) -> bool:
    """drat-trim's test: text proofs hold only digits, spaces, '-', 'd', 'c' comments
    and newlines; a binary step starts with 'a' or holds bytes outside that set."""
    head = proof[:1000]
    text_bytes = set(b"0123456789 -dc\n\r\t")
    return bool(head) and any(b not in text_bytes for b in head)


def check_drat(
    clauses: Iterable[Sequence[int]],
    proof: bytes | str,
    *,
    binary: bool | None = None,
    goals: Sequence[tuple[int, Sequence[int]]] = (),
    rat: bool = True,
) -> ProofVerdict:
    """Check that `proof` (DRAT, binary or text; None: guess as drat-trim does) refutes
    the CNF `clauses`. A proof that is malformed, has a lemma that is neither RUP nor
    (with `rat`) RAT, or stops short of the empty clause is refused, with the step named.

    With `goals`, (offset, clause) pairs in order of offset, the proof need not end
    in the empty clause: each goal clause must instead follow by unit propagation (RUP)
    from the formula and the proof's steps that start before byte `offset`. That is the
    certificate of an incremental solver's run of UNSAT calls under assumptions: after
    each call, the negation of the assumptions is RUP (pass rat=False there: a RAT
    lemma keeps satisfiability of the formula, not of the formula under assumptions).
    This is DratChecker fed the whole proof at once."""
    t0 = time.perf_counter()
    if isinstance(proof, str):
        proof, binary = proof.encode(), False
    if binary is None:
        binary = is_binary_drat(proof)
    checker = DratChecker(clauses, binary=binary, rat=rat)
    checker.feed(proof, goals, final=True)
    return checker.verdict(time.perf_counter() - t0)


def _join(clauses: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, sizes, literal indices) of clauses already in literal indices."""
    sizes = np.asarray([len(c) for c in clauses], dtype=np.int64)
    starts = np.zeros(len(clauses), dtype=np.int64)
    if len(clauses) > 1:
        starts[1:] = np.cumsum(sizes)[:-1]
    lits = np.concatenate(clauses).astype(np.int32) if len(clauses) else np.zeros(0, np.int32)
    return starts, sizes, lits


class DratChecker:
    """A forward DRAT check that goes on where it stopped: made from the formula, it is
    fed the proof piece by piece (`feed`: bytes as the solver wrote them, cut anywhere,
    and the goals that fall in them) and keeps its clauses, watches and assignment for
    the next piece. The verdicts are check_drat's on the whole proof (check_drat is this
    checker fed once): the state goes on exactly as in one pass, and an incomplete last
    step is held back until its end arrives. Deleted clauses are dropped from the store
    when it fills (drat_store.DratStore), so memory follows the solver's live clauses,
    not the proof's length."""

    def __init__(self, clauses: Iterable[Sequence[int]], *, binary: bool = True, rat: bool = True) -> None:
        starts, sizes, lits = _flatten(clauses)
        self.binary, self.rat = binary, rat
        self.store = DratStore(int(lits.max(initial=0)) + 2, len(starts), len(lits))
        self._formula_top = int(lits.max(initial=0))
        self._tail, self._base, self._line, self._carry, self._frontier = b"", 0, 1, None, 0
        self._goals: list[tuple[int, np.ndarray, list]] = []  # (offset, literal indices, clause)
        self._checked = 0  # goals checked
        self._steps = self._deletions = 0
        self._last_step = -1  # offset of the last step taken in
        self._bytes, self._seconds, self._error, self._failed, self._ended = 0, 0.0, None, None, False
        self.refuted = False
        self._run(np.zeros(len(starts), np.int64), starts, sizes, lits, np.zeros(0, np.int64), trusted=True)

    def feed(self, proof: bytes | str, goals: Sequence[tuple[int, Sequence[int]]] = (), *, final: bool = False) -> ProofProgress:
        """Take in the next bytes of the proof and `goals` ((offset, clause) pairs in
        order, offsets counted from the proof's start, none before a step already taken
        in: ValueError). Each goal is checked once every step that starts before its
        offset is in (those given now or earlier); `final`: the proof ends here (an
        incomplete step is malformed; goals past the end are checked against all of it)."""
        if self._ended:
            raise ValueError("proof: it was ended (final=True); nothing more can follow")
        self._add_goals(goals)
        t0 = time.perf_counter()
        self._ended = final
        data = proof.encode() if isinstance(proof, str) else bytes(proof)
        self._bytes += len(data)
        if self._error is None:
            try:
                steps, frontier = self._parse(data, final)
            except ValueError as exc:
                self._error = f"the proof is not {'binary' if self.binary else 'text'} DRAT ({exc})"
            else:
                self._take(*steps, frontier=None if final else frontier)
        self._seconds += time.perf_counter() - t0
        return self.progress()

    def progress(self) -> ProofProgress:
        lemmas = self._steps - self._deletions
        held = self._bytes - self._frontier
        return ProofProgress(self._checked, self.refuted, self._error, self._failed, lemmas, self._deletions, int(self.store.counters[4]), self._seconds, self._bytes, held, lemmas)

    def verdict(self, seconds: float | None = None) -> ProofVerdict:
        """check_drat's verdict on the whole proof, once it was ended (feed's `final`):
        every goal given follows, or (none given) the formula is refuted."""
        if not self._ended:
            raise ValueError("proof: a verdict needs its end (feed(..., final=True))")
        done = self.progress()
        counts = dict(lemmas=done.lemmas, deletions=done.deletions, rat=done.rat, seconds=done.seconds if seconds is None else seconds, proof_bytes=done.proof_bytes, checked=done.checked)
        goals = len(self._goals)
        if done.error is not None:
            return ProofVerdict(False, done.error, failed_goal=done.failed_goal, **counts)
        if goals:
            if done.goals != goals:  # cannot happen once the proof is ended: every goal is checked
                return ProofVerdict(False, f"only {done.goals} of {goals} goals were checked", **counts)
            return ProofVerdict(True, f"the proof derives all {goals} goals", **counts)
        if done.refuted:
            return ProofVerdict(True, "the proof refutes the formula", **counts)
        return ProofVerdict(False, "every lemma checks, but the proof does not reach the empty clause", **counts)

    def _add_goals(self, goals) -> None:
        for at, clause in goals:
            last = self._goals[-1][0] if self._goals else -1
            if at < last:
                raise ValueError("goals: expected offsets in ascending order")
            if at <= self._last_step:
                raise ValueError(f"goals: offset {at} lies before a step already checked (at byte {self._last_step})")
            _, _, lits = _flatten([clause])
            self._formula_top = max(self._formula_top, int(lits.max(initial=0)))
            self._goals.append((at, lits, list(clause)))

    def _parse(self, data: bytes, final: bool) -> tuple[tuple, int]:
        """The complete steps in the bytes held back and `data` (kinds, starts, sizes,
        literal indices, offsets from the proof's start), and where the first step not
        complete starts; ValueError on malformed bytes or, when `final`, a cut step."""
        buffer = self._tail + data
        if self.binary:
            status, kinds, starts, sizes, lits, offsets, consumed = parse_binary_drat(np.frombuffer(buffer, dtype=np.uint8))
            if status == MALFORMED or (final and consumed < len(buffer)):
                raise ValueError("a bad step byte, a literal 0, or a truncated step")
            offsets += self._base
            frontier = self._base + consumed
        else:
            try:
                text = buffer.decode("ascii")
            except UnicodeDecodeError as exc:
                raise ValueError(str(exc)) from None
            consumed = len(text) if final else text.rfind("\n") + 1
            kinds, starts, sizes, lits, offsets, self._carry, self._line = parse_text_lines(text[:consumed], self._base, self._line, self._carry)
            if final and self._carry is not None:
                raise ValueError("proof: its last step does not end with 0")
            frontier = self._base + consumed if self._carry is None else self._carry[2]
        self._tail, self._base = buffer[consumed:], self._base + consumed
        self._frontier = frontier
        return (kinds, starts, sizes, lits, offsets), frontier

    def _take(self, kinds, starts, sizes, lits, offsets, frontier: int | None) -> None:
        """Check the parsed steps and the goals whose offset is at most `frontier` (None:
        all of them), noting the first failure."""
        if int(lits.max(initial=0)) > self._formula_top + 2 * NEW_VARIABLES:
            self._error = f"the proof names a variable more than {NEW_VARIABLES} beyond the formula's"
            return
        first = self._steps
        self._steps += len(kinds)
        self._deletions += int(kinds.sum())
        if len(offsets):
            self._last_step = int(offsets[-1])
        due = [g for g in self._goals[self._checked :] if frontier is None or g[0] <= frontier]
        if self.refuted:  # every goal follows
            self._checked = len(self._goals)
            return
        g_steps = np.searchsorted(offsets, np.asarray([g[0] for g in due], dtype=np.int64), side="left").astype(np.int64)
        done = 0  # goals of `due` checked
        for lo in range(0, max(1, len(kinds)), SLICE_STEPS):  # in slices, so that the store may be compacted between them
            hi = min(lo + SLICE_STEPS, len(kinds))
            upto = int(np.searchsorted(g_steps, hi, side="right" if hi == len(kinds) else "left"))
            status, index = self._run(kinds[lo:hi], starts[lo:hi], sizes[lo:hi], lits, g_steps[done:upto] - lo, [g[1] for g in due[done:upto]])
            if status == BAD_LEMMA:
                index += lo
                lemma = [int(x >> 1) * (-1 if x & 1 else 1) for x in lits[starts[index] : starts[index] + sizes[index]][:8]]
                kind = "RUP nor RAT" if self.rat else "RUP (RAT is not accepted here)"
                self._error = f"step {first + index + 1} of the proof adds a clause that is neither {kind}: {lemma}{' ...' if sizes[index] > 8 else ''}"
                return
            if status == GOAL_FAILED:
                self._failed = self._checked + int(index)
                at, _, clause = self._goals[self._failed]
                self._error = f"goal {self._failed + 1} (at byte {at}) does not follow by unit propagation: {clause[:8]}"
                return
            self._checked += upto - done
            done = upto
            if status == REFUTED:
                self._checked = len(self._goals)
                return

    def _run(self, kinds, starts, sizes, lits, g_steps, goal_clauses=(), trusted: bool = False) -> tuple[int, int]:
        """feed_kernel on these steps (`starts` index `lits`) and goals, the store first
        sized for them."""
        g_starts, g_sizes, g_lits = _join(goal_clauses)
        top = max(int(lits.max(initial=0)), int(g_lits.max(initial=0)))
        store = self.store
        store.reserve(len(kinds), int(sizes.sum()), top + 2, int(sizes.max(initial=0)))
        status, index = feed_kernel(*store.arrays(), store.counters, kinds, starts, sizes, lits, trusted, g_steps, g_starts, g_sizes, g_lits, self.rat)
        if status == REFUTED:
            self.refuted = True
        return int(status), int(index)
