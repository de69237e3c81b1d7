"""The oracle for the backward DRAT check (core/drat_backward.py): what it accepts must
be accepted by the forward check too, once the proof is cut down to the lemmas the
backward check says it checked (its core, in order, deletions left out: without them
the clause set only grows, and unit propagation only finds more). This is how
drat-trim's trimmed proofs are checked by other checkers: a lemma the backward check
trusted without checking it, or a goal it let through on such a lemma, makes the
forward check of the trimmed proof fail."""

from __future__ import annotations

import numpy as np

from puzzlelab.core.drat import DratChecker, check_drat, parse_text_drat
from puzzlelab.core.drat_kernels import parse_binary_drat


def _steps(proof: bytes | str, binary: bool) -> tuple[list[tuple[int, list[int]]], np.ndarray]:
    """(kind, DIMACS literals) per step, and each step's byte offset."""
    if binary:
        _, kinds, starts, sizes, lits, offsets, _ = parse_binary_drat(np.frombuffer(proof, dtype=np.uint8))
    else:
        kinds, starts, sizes, lits, offsets = parse_text_drat(proof if isinstance(proof, str) else proof.decode())
    dimacs = [int(x >> 1) * (-1 if x & 1 else 1) for x in lits]
    return [(int(k), dimacs[int(a) : int(a) + int(m)]) for k, a, m in zip(kinds, starts, sizes)], offsets


def core_steps(checker: DratChecker) -> list[int]:
    return sorted(int(s) for part in checker.core for s in part)


def trimmed_holds(clauses, proof, core: list[int], *, binary: bool, goals=(), rat: bool = True) -> bool:
    """The forward check of the proof cut down to the steps in `core` (lemmas), with each
    goal moved to just after the kept lemmas that came before it."""
    steps, offsets = _steps(proof, binary)
    lines, at, where = [], 0, {}
    for s in core:
        kind, lemma = steps[s]
        assert kind == 0, f"step {s} in the core is a deletion"
        where[s] = at
        line = " ".join(map(str, lemma + [0])) + "\n"
        lines.append(line)
        at += len(line)
    moved = []
    for offset, clause in goals:
        before = int(np.searchsorted(offsets, offset, side="left"))  # steps that start before the goal
        later = [where[s] for s in core if s >= before]
        moved.append((later[0] if later else at, clause))
    return check_drat(clauses, "".join(lines), goals=moved, rat=rat).ok
