"""Large-neighbourhood search over matchstick answers (Shaw, CP 1998), with two exact
neighbourhoods from `band.py`:

- `sweep_bands`: every band of `width` consecutive sizes, from the largest down,
  re-placed exactly; sweeps until one finds nothing, which shows that no band move
  improves the answer.
- `related_search`, related removal: pick a square at random, take the k - 1 squares
  most related to it, re-place those k sizes exactly (`band.improve_sizes`), keep any
  strictly better answer, repeat.

Related means near: the squares whose outlines lie closest to the chosen one's, so the
sizes that share or could share matches are re-placed together even when they are far
apart in size (at n = 56 the 8 paid 2 matches more so that the 5
and the 4 cost nothing, a move that consecutive bands find only when 4..8 fall in one
band). The two largest squares stay put: they fix the frame every answer shares.

Seeded and counted in moves (not seconds), so a run repeats exactly. The caller
verifies what comes back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.band import improve_band, improve_sizes
from puzzlelab.puzzles.matchsticks.verify import count_matches

__all__ = ["LnsOutcome", "SweepOutcome", "related_sizes", "related_search", "sweep_bands"]


@dataclass(frozen=True)
class SweepOutcome:
    squares: list[list[int]]
    value: int
    bands: int
    complete_bands: int
    improvements: int
    nodes: int


def sweep_bands(n: int, squares: list[list[int]], width: int, seconds_per_band: float, budget: Budget | None = None) -> SweepOutcome:
    """Bands of `width` sizes from n down, each re-placed exactly (`band.improve_band`),
    improvements kept, until a sweep finds none (or the budget ends)."""
    budget = budget or Budget()
    current = [list(map(int, s)) for s in squares]
    value = count_matches(current)
    searched = complete = improvements = nodes = 0
    improved = True
    while improved and not budget.expired():
        improved = False
        for high in range(n, width - 1, -1):
            if budget.expired():
                break
            outcome = improve_band(current, n, high - width + 1, high, budget.sub(seconds_per_band))
            searched += 1
            complete += outcome.complete
            nodes += outcome.nodes
            if outcome.squares is not None:
                current, value, improved = outcome.squares, count_matches(outcome.squares), True
                improvements += 1
    return SweepOutcome(current, value, searched, complete, improvements, nodes)


@dataclass(frozen=True)
class LnsOutcome:
    squares: list[list[int]]
    value: int
    moves: int
    improvements: int
    nodes: int
    incomplete_moves: int


def related_sizes(squares: list[list[int]], k: int, rng: random.Random, n: int) -> list[int]:
    """The sizes of a random square below n - 1 and of the k - 1 squares nearest it
    (gap between the outlines' boxes, then closeness in size; ties broken at random)."""
    movable = [s for s in squares if s[0] < n - 1]
    s0, x0, y0 = rng.choice(movable)

    def distance(square: list[int]) -> float:
        s, x, y = square
        dx = max(0, max(x, x0) - min(x + s, x0 + s0))
        dy = max(0, max(y, y0) - min(y + s, y0 + s0))
        return dx + dy + 0.3 * abs(s - s0) + 2.0 * rng.random()

    return [s[0] for s in sorted(movable, key=distance)[:k]]


def related_search(
    n: int,
    squares: list[list[int]],
    k: int,
    moves: int,
    seed: int = 1,
    seconds_per_move: float = 20.0,
    budget: Budget | None = None,
    on_improve: Callable[[int, int, list[list[int]]], None] | None = None,
) -> LnsOutcome:
    """`moves` related re-placements of k sizes from `squares`; `on_improve(move,
    value, squares)` hears each better answer. A move that runs out of its seconds
    counts as incomplete (its best so far is still used)."""
    budget = budget or Budget()
    rng = random.Random(seed)
    current = [list(map(int, s)) for s in squares]
    value = count_matches(current)
    improvements = nodes = incomplete = done = 0
    if n < 3:  # only the two largest squares, which stay put: nothing to move
        return LnsOutcome(current, value, 0, 0, 0, 0)
    for move in range(1, moves + 1):
        if budget.expired():
            break
        sizes = related_sizes(current, min(k, n - 2), rng, n)
        outcome = improve_sizes(current, n, sizes, budget.sub(seconds_per_move))
        done = move
        nodes += outcome.nodes
        incomplete += not outcome.complete
        if outcome.squares is not None:
            current, value = outcome.squares, count_matches(outcome.squares)
            improvements += 1
            if on_improve is not None:
                on_improve(move, value, current)
    return LnsOutcome(current, value, done, improvements, nodes, incomplete)
