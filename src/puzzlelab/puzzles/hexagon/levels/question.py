"""A level question (seed write-up, "Level by Level" and "Algorithms"): given a level-b
grid (values 1..b placed, the other cells "more than b"; b = 0: nothing placed), place
the values b+1..k at once so that the level-k penalty is least. The write-up's
programs answer it by beam search, SAT and dancing links ("recast any single or
multiple levels ... In all my programs I could read in a partial solution at a given
level and use it as a base"); here also by ILP. Levels 1, 1-2 (from nothing) and 3,
3-4 (from a level-2 grid) are the questions the benchmark asks.

Every answer a level solver returns is checked here, independently of how it was found:
the verifier's rule check on the level grid (a cell holding k+1, "more than k", needs
1..k around it), the base's cells kept, and the level-k penalty recounted by the
scoring module (`check_answer`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.hexagon.model import Hexagon, hexagon
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import rule_violation

__all__ = ["LevelQuestion", "LevelAnswer", "level_question", "parse_levels", "check_answer"]

MAX_LEVEL = 4  # levels 5 and 6 are linear-time (completion/linear.py): no search to compare


@dataclass(frozen=True)
class LevelQuestion:
    """Place b+1..k on `base` (a level-b grid: values 1..b, b+1 = more; () for b = 0)."""

    n: int
    first: int  # b + 1
    last: int  # k
    base: tuple[int, ...] = ()

    @property
    def b(self) -> int:
        return self.first - 1

    @property
    def k(self) -> int:
        return self.last

    @property
    def geometry(self) -> Hexagon:
        return hexagon(self.n)

    def start(self) -> list[int]:
        """The base as a level-b grid (all "more than 0" = 1 when b = 0: every cell free)."""
        return list(self.base) if self.b else [1] * self.geometry.cells

    def free(self) -> list[int]:
        """Cells still to place (holding more than b)."""
        start = self.start()
        return [c for c in range(self.geometry.cells) if self.b == 0 or start[c] > self.b]

    def base_penalty(self) -> int:
        return level_penalty(self.geometry, self.base, self.b) if self.b else 0

    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass
class LevelAnswer:
    """A solver's answer: the least level-k penalty it found (None: none found), its
    grid (values 1..k, k+1 = more), whether the penalty is proven least, the proven
    lower bound, a count of grids when one was asked for, and the seconds."""

    method: str
    penalty: int | None = None
    grid: list[int] | None = None
    proven: bool = False
    lower: int = 0
    count: int | None = None
    seconds: float = 0.0
    stats: dict = field(default_factory=dict)


def parse_levels(text: str) -> tuple[int, int]:
    """'3' or '3-4' (also '3..4') -> (first, last), 1 <= first <= last <= 4."""
    match = re.fullmatch(r"\s*([0-9]{1,3})\s*(?:(?:-|\.\.)\s*([0-9]{1,3}))?\s*", str(text))
    if not match:
        raise InvalidInstance(f"levels: expected a level or a range like 3 or 3-4, got {str(text)[:20]!r}", "levels")
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if not 1 <= first <= last <= MAX_LEVEL:
        raise InvalidInstance(f"levels: expected 1 <= first <= last <= {MAX_LEVEL} (levels 5-6 are linear-time), got {first}-{last}", "levels")
    return first, last


def level_question(n: int, levels: str | tuple[int, int], base=None) -> LevelQuestion:
    """A checked question: `base` (cell values; a whole grid or a level grid, capped at
    b+1) must be a valid level-b grid when b > 0 and absent when b = 0."""
    first, last = parse_levels(levels) if isinstance(levels, str) else levels
    if not 1 <= first <= last <= MAX_LEVEL:
        raise InvalidInstance(f"levels: expected 1 <= first <= last <= {MAX_LEVEL}, got {first}-{last}", "levels")
    if not 1 <= n <= 60:
        raise InvalidInstance(f"n: expected an order between 1 and 60 for a level question, got {n}", "n")
    b = first - 1
    if b == 0:
        if base is not None:
            raise InvalidInstance("base: levels from 1 take no base grid (nothing is placed yet)", "base")
        return LevelQuestion(n, first, last)
    if base is None:
        label = str(first) if first == last else f"{first}-{last}"
        raise InvalidInstance(f"base: levels {label} need a level-{b} grid to start from (--base FILE)", "base")
    cells = hexagon(n).cells
    if len(base) != cells:
        raise InvalidInstance(f"base: expected {cells} cells for order {n}, got {len(base)}", "base")
    capped = tuple(min(int(v), b + 1) for v in base)
    problem = rule_violation(n, capped)
    if problem:
        raise InvalidInstance(f"base: not a valid level-{b} grid: {problem}", "base")
    return LevelQuestion(n, first, last, capped)


def check_answer(question: LevelQuestion, grid: list[int]) -> int:
    """The level-k penalty of `grid`, after checking that it is a valid level-k grid
    (rule check of the verifier) that keeps the base's cells; AssertionError if not."""
    n, b, k = question.n, question.b, question.k
    cells = question.geometry.cells
    if len(grid) != cells or any(not 1 <= int(v) <= k + 1 for v in grid):
        raise AssertionError(f"level solver returned a grid of the wrong shape or values for n={n}, levels {question.label()}")
    problem = rule_violation(n, [int(v) for v in grid])
    if problem:
        raise AssertionError(f"level solver returned an invalid level-{k} grid: {problem}")
    if b:
        for c, v in enumerate(question.base):
            if (v <= b or grid[c] <= b) and v != grid[c]:
                raise AssertionError(f"level solver changed the base at cell {c} ({v} -> {grid[c]})")
    return level_penalty(question.geometry, grid, k)
