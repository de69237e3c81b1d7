"""What every certificate checker answers, and what their stores share.

`ProofVerdict` is a whole check's answer, `ProofProgress` where a check fed piece by
piece stands; the DRAT and the LRAT checker both answer in these, so a caller (the
hexagon's certified proofs) reads either the same way. `grown` is the one way the
checkers' stores enlarge an array (amortised doubling, the new slots filled).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ProofVerdict", "ProofProgress", "grown", "MAX_VARIABLE", "NEW_VARIABLES"]

MAX_VARIABLE = (1 << 30) - 1  # literal indices 2v + 1 fit an int32
NEW_VARIABLES = 1 << 20  # a proof may name variables this far beyond the formula's (extended
# resolution); past that it is refused rather than sizing the checker's arrays by it


@dataclass(frozen=True)
class ProofVerdict:
    """The checker's answer: `ok` only when the proof refutes the formula; `message`
    says why not; `lemmas`, `deletions` and `rat` (lemmas that needed the RAT check)
    count the proof's steps; `seconds` the check; `proof_bytes` its size;
    `failed_goal` the index of the first goal that did not follow, if one did not;
    `checked`: the lemmas checked (here all of them; core.certificates.lrat counts its own)."""

    ok: bool
    message: str
    lemmas: int = 0
    deletions: int = 0
    rat: int = 0
    seconds: float = 0.0
    proof_bytes: int = 0
    failed_goal: int | None = None
    checked: int = 0


@dataclass(frozen=True)
class ProofProgress:
    """Where an incremental check stands (a checker's `feed`): the first `goals` goals
    given follow (they are certified: the only claim made); `refuted`: the formula
    itself is (every goal follows); `error`: why the proof was refused (a malformed
    step, a bad lemma or a failed goal, named; `failed_goal` its index), after which
    nothing more is checked; `held_back`: bytes of an incomplete last step, kept for
    the next call. `lemmas`, `deletions`, `rat`, `seconds`, `proof_bytes`, `checked`
    (lemmas checked): so far."""

    goals: int
    refuted: bool
    error: str | None
    failed_goal: int | None = None
    lemmas: int = 0
    deletions: int = 0
    rat: int = 0
    seconds: float = 0.0
    proof_bytes: int = 0
    held_back: int = 0
    checked: int = 0


def grown(array: np.ndarray, length: int, fill=0) -> np.ndarray:
    """`array` copied into a new one of `length` slots, the new ones set to `fill`."""
    bigger = np.full(length, fill, dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
