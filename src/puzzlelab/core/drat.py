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
the refutation needs, which costs more than drat-trim's backward check but keeps the
code short. Deletions of a clause that is the reason of a top-level assignment, and of
clauses not present, are ignored, as drat-trim does; keeping a clause is always sound.
It imports no SAT solver (.importlinter): its only trust is in this module and
drat_kernels.py. Both proof formats are read: binary DRAT (what CaDiCaL writes) and
text DRAT (`1 -2 0` a lemma, `d 1 -2 0` a deletion).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from puzzlelab.core.drat_kernels import BAD_LEMMA, GOAL_FAILED, MALFORMED, NOT_DERIVED, check_drat_kernel, parse_binary_drat

__all__ = ["DratVerdict", "check_drat", "parse_text_drat", "is_binary_drat", "MAX_VARIABLE", "NEW_VARIABLES"]

MAX_VARIABLE = (1 << 30) - 1  # literal indices 2v + 1 fit an int32
NEW_VARIABLES = 1 << 20  # a proof may name variables this far beyond the formula's (extended
# resolution); past that it is refused rather than sizing the checker's arrays by it


@dataclass(frozen=True)
class DratVerdict:
    """The checker's answer: `ok` only when the proof refutes the formula; `message`
    says why not; `lemmas`, `deletions` and `rat` (lemmas that needed the RAT check)
    count the proof's steps; `seconds` the check; `proof_bytes` its size;
    `failed_goal` the index of the first goal that did not follow, if one did not."""

    ok: bool
    message: str
    lemmas: int = 0
    deletions: int = 0
    rat: int = 0
    seconds: float = 0.0
    proof_bytes: int = 0
    failed_goal: int | None = None


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
    kinds, starts, sizes, flat, offsets = [], [], [], [], []
    current: list[int] | None = None
    at = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        line_start, at = at, at + len(line)
        tokens = line.split()
        if not tokens or tokens[0] == "c":
            continue
        for token in tokens:
            if current is None:
                current = []
                offsets.append(line_start)
                kinds.append(1 if token == "d" else 0)
                if token == "d":
                    continue
            try:
                lit = int(token)
            except ValueError:
                raise ValueError(f"proof line {number}: expected integers (and 'd' first), got {token[:20]!r}") from None
            if lit == 0:
                starts.append(len(flat))
                sizes.append(len(current))
                flat.extend(_index(x) for x in current)
                current = None
            else:
                current.append(lit)
    if current is not None:
        raise ValueError("proof: its last step does not end with 0")
    array = lambda xs: np.asarray(xs, dtype=np.int64)  # noqa: E731
    if flat and max(flat) > 2 * MAX_VARIABLE + 1:
        raise ValueError(f"a variable above {MAX_VARIABLE}")
    return array(kinds), array(starts), array(sizes), array(flat).astype(np.int32), array(offsets)


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
) -> DratVerdict:
    """Check that `proof` (DRAT, binary or text; None: guess as drat-trim does) refutes
    the CNF `clauses`. A proof that is malformed, has a lemma that is neither RUP nor
    (with `rat`) RAT, or stops short of the empty clause is refused, with the step named.

    With `goals`, (offset, clause) pairs in order of offset, the proof need not end
    in the empty clause: each goal clause must instead follow by unit propagation (RUP)
    from the formula and the proof's steps that start before byte `offset`. That is the
    certificate of an incremental solver's run of UNSAT calls under assumptions: after
    each call, the negation of the assumptions is RUP (pass rat=False there: a RAT
    lemma keeps satisfiability of the formula, not of the formula under assumptions)."""
    t0 = time.perf_counter()
    size = len(proof)
    if isinstance(proof, str):
        proof, binary = proof.encode(), False
    if binary is None:
        binary = is_binary_drat(proof)
    f_starts, f_sizes, f_lits = _flatten(clauses)
    g_starts, g_sizes, g_lits = _flatten([clause for _, clause in goals])
    if binary:
        status, kinds, p_starts, p_sizes, p_lits, offsets = parse_binary_drat(np.frombuffer(proof, dtype=np.uint8))
        if status == MALFORMED:
            return DratVerdict(False, "the proof is not binary DRAT (a bad step byte, a literal 0, or a truncated step)", seconds=time.perf_counter() - t0, proof_bytes=size)
    else:
        try:
            kinds, p_starts, p_sizes, p_lits, offsets = parse_text_drat(proof.decode("ascii"))
        except (UnicodeDecodeError, ValueError) as exc:
            return DratVerdict(False, f"the proof is not text DRAT ({exc})", seconds=time.perf_counter() - t0, proof_bytes=size)
    g_steps = np.searchsorted(offsets, np.asarray([at for at, _ in goals], dtype=np.int64), side="left").astype(np.int64)
    if len(g_steps) > 1 and (np.diff(g_steps) < 0).any():
        raise ValueError("goals: expected offsets in ascending order")
    formula_top = max(int(f_lits.max(initial=0)), int(g_lits.max(initial=0)))
    if int(p_lits.max(initial=0)) > formula_top + 2 * NEW_VARIABLES:
        return DratVerdict(False, f"the proof names a variable more than {NEW_VARIABLES} beyond the formula's", seconds=time.perf_counter() - t0, proof_bytes=size)
    top = 2 + max(formula_top, int(p_lits.max(initial=0)))
    nlit = top + (top % 2)
    status, step, rats = check_drat_kernel(f_starts, f_sizes, f_lits, kinds, p_starts, p_sizes, p_lits, nlit, g_steps, g_starts, g_sizes, g_lits, rat)
    deletions = int(kinds.sum())
    counts = dict(lemmas=len(kinds) - deletions, deletions=deletions, rat=int(rats), seconds=time.perf_counter() - t0, proof_bytes=size)
    if status == BAD_LEMMA:
        lemma = [int(x >> 1) * (-1 if x & 1 else 1) for x in p_lits[p_starts[step] : p_starts[step] + p_sizes[step]][:8]]
        kind = "RUP nor RAT" if rat else "RUP (RAT is not accepted here)"
        return DratVerdict(False, f"step {step + 1} of the proof adds a clause that is neither {kind}: {lemma}{' ...' if p_sizes[step] > 8 else ''}", **counts)
    if status == GOAL_FAILED:
        return DratVerdict(False, f"goal {step + 1} (at byte {goals[step][0]}) does not follow by unit propagation: {list(goals[step][1])[:8]}", failed_goal=int(step), **counts)
    if status == NOT_DERIVED:
        return DratVerdict(False, "every lemma checks, but the proof does not reach the empty clause", **counts)
    what = f"the proof derives all {len(goals)} goals" if goals else "the proof refutes the formula"
    return DratVerdict(True, what, **counts)
