"""The Cimpress Tech Challenge contest's rules: its puzzles and its scoring.

The tiling write-up (seed 001, sections 4 and 5) describes the contest loop: fetch a
puzzle, solve it in parallel under a 10-second deadline less the round trip, post the
squares, log the score, keep the puzzle to re-solve it later. `contest_client.py`
is that client; here are the rules a practice contest issues and scores by (the
practice server itself, a FastAPI app speaking the contest's API on loopback, is
`puzzlelab.service.contest_server`):

- a puzzle is seeded and random (sides 20..40, about 5% blocked cells), in the
  contest's JSON form `{"id", "width", "height", "puzzle"}`;
- an answer `{"id", "squares": [{"X", "Y", "Size"}]}` is scored
  `{"numberOfSquares", "timePenalty", "score", "errors"}`.

Scoring of the practice contest (the contest's exact penalty formula was never
published in the write-up, only that lateness and invalid squares cost): the score is
the number of squares plus the time penalty; the penalty is 0 up to `deadline` seconds
after issue and then `PENALTY_PER_SECOND` squares for every started second beyond; an
answer with any invalid square scores as the worst answer, one 1x1 square per free cell,
with every error listed. The answer is checked by the independent tiling verifier.
"""

from __future__ import annotations

import hashlib
import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from puzzlelab.puzzles.tiling.model import Grid
from puzzlelab.puzzles.tiling.verify import verify_tiling

__all__ = ["MODES", "PENALTY_PER_SECOND", "PracticeContest", "random_puzzle"]

MODES = ("trial", "contest")
PENALTY_PER_SECOND = 10
MIN_SIDE, MAX_SIDE, BLOCKED_SHARE = 20, 40, 0.05


def random_puzzle(
    rng: random.Random, min_side: int = MIN_SIDE, max_side: int = MAX_SIDE, blocked: float = BLOCKED_SHARE
) -> Grid:
    """A contest-like puzzle: sides drawn from 20..40, each cell blocked with chance 5%
    (the practice server's; other sides and shares for the benchmarks' wider fields)."""
    width, height = rng.randint(min_side, max_side), rng.randint(min_side, max_side)
    free = np.array([[rng.random() >= blocked for _ in range(width)] for _ in range(height)], dtype=bool)
    if not free.any():
        free[0, 0] = True
    digest = hashlib.sha1(free.tobytes() + bytes([width, height]) + rng.getrandbits(64).to_bytes(8, "big")).hexdigest()
    return Grid.from_array(free, id=digest[:24])


@dataclass
class _Issued:
    grid: Grid
    key: str
    mode: str
    issued: float
    answered: bool = False


@dataclass
class PracticeContest:
    """The server's state: puzzles issued, in order, from one seed; `clock` is
    injectable so tests can answer 'late' without waiting."""

    seed: int = 2015
    deadline: float = 10.0
    clock: Callable[[], float] = time.monotonic
    issued: dict[str, _Issued] = field(default_factory=dict)
    _counts: dict[tuple[str, str], int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def issue(self, key: str, mode: str) -> Grid:
        with self._lock:
            number = self._counts.get((key, mode), 0)
            self._counts[(key, mode)] = number + 1
            grid = random_puzzle(random.Random(f"{self.seed}:{key}:{mode}:{number}"))
            self.issued[grid.id] = _Issued(grid, key, mode, self.clock())
        return grid

    def score(self, key: str, mode: str, answer: Any) -> dict[str, Any]:
        """The contest's answer to a posted solution (see the module docstring)."""
        now = self.clock()
        if not isinstance(answer, dict) or not isinstance(answer.get("id"), str):
            return {"numberOfSquares": None, "timePenalty": None, "score": None, "errors": ["id: expected the puzzle's id string"]}
        ticket = self.issued.get(answer["id"])
        if ticket is None or ticket.key != key or ticket.mode != mode:
            return {"numberOfSquares": None, "timePenalty": None, "score": None, "errors": [f"id: no puzzle {answer['id'][:60]!r} was issued to this key in {mode} mode"]}
        errors: list[str] = []
        if ticket.answered:
            errors.append("id: this puzzle was already answered")
        ticket.answered = True
        late = max(0.0, now - ticket.issued - self.deadline)
        penalty = PENALTY_PER_SECOND * math.ceil(late) if late > 0 else 0
        verdict = verify_tiling(ticket.grid, answer)
        if verdict.ok and not errors:
            squares = int(verdict.value)
        else:
            if not verdict.ok:
                errors.append(verdict.message)
            squares = ticket.grid.free_cells
        return {"numberOfSquares": squares, "timePenalty": penalty, "score": squares + penalty, "errors": errors}
