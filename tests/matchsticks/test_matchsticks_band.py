"""The band neighbourhood (`band.py`) against brute force: re-placing a band of sizes,
all other squares fixed, gives exactly the best total over every placement of the band."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.band import improve_band, improve_sizes
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.verify import count_matches, verify_solution


def random_answer(rng: random.Random, n: int) -> list[list[int]]:
    """Every size 1..n somewhere inside the largest square (an admissible answer)."""
    return [[s, rng.randint(0, n - s), rng.randint(0, n - s)] for s in range(n, 0, -1)]


def brute_band_best(squares, area, low, high, sizes=None) -> int:
    moving = set(range(low, high + 1)) if sizes is None else set(sizes)
    fixed = [s for s in squares if s[0] not in moving]
    band = [s[0] for s in squares if s[0] in moving]
    best = None
    spots = [[(u, x, y) for x in range(area - u + 1) for y in range(area - u + 1)] for u in band]
    for choice in itertools.product(*spots):
        total = count_matches(fixed + [list(c) for c in choice])
        best = total if best is None else min(best, total)
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_band_optimum_equals_brute_force(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 6)
    squares = random_answer(rng, n)
    high = rng.randint(2, n - 1)
    low = max(1, high - rng.randint(0, 1))
    before = count_matches(squares)
    best = brute_band_best(squares, n, low, high)
    outcome = improve_band(squares, n, low, high, Budget(60))
    assert outcome.complete
    if best < before:
        assert outcome.squares is not None
        verdict = verify_solution(Instance(n), {"roam": 0, "squares": outcome.squares})
        assert verdict.ok and verdict.value == best
        assert outcome.added_before - outcome.added_after == before - best
    else:
        assert outcome.squares is None


@pytest.mark.parametrize("seed", range(8))
def test_scattered_sizes_optimum_equals_brute_force(seed):
    rng = random.Random(100 + seed)
    n = rng.randint(5, 7)
    squares = random_answer(rng, n)
    sizes = rng.sample(range(1, n), 2)  # two sizes, usually not neighbours
    before = count_matches(squares)
    best = brute_band_best(squares, n, 0, -1, sizes)
    outcome = improve_sizes(squares, n, sizes, Budget(60))
    assert outcome.complete
    if best < before:
        verdict = verify_solution(Instance(n), {"roam": 0, "squares": outcome.squares})
        assert verdict.ok and verdict.value == best
        moved = [s for s in outcome.squares if s[0] not in sizes]
        assert sorted(moved) == sorted(s for s in squares if s[0] not in sizes)
    else:
        assert outcome.squares is None
    assert improve_sizes(squares, n, [], Budget(60)).squares is None


def test_a_stopped_band_search_says_so():
    squares = random_answer(random.Random(5), 40)
    outcome = improve_band(squares, 40, 10, 30, Budget(0.3))  # 21 sizes: far past 0.3 s
    assert not outcome.complete and outcome.nodes > 0
    cancelled = Budget()
    cancelled.cancel()
    assert not improve_band(squares, 40, 10, 30, cancelled).complete


def test_related_removal_finds_the_n56_record_and_repeats():
    from puzzlelab.puzzles.matchsticks.columns import shipped_columns
    from puzzlelab.puzzles.matchsticks.lns import related_search, related_sizes

    greedy = shipped_columns()["columns"]["greedy"][56]["squares"]
    first = related_search(56, greedy, 12, 50, seed=1)
    again = related_search(56, greedy, 12, 50, seed=1)
    assert first.squares == again.squares and first.moves == 50 and first.incomplete_moves == 0
    verdict = verify_solution(Instance(56), {"roam": 0, "squares": first.squares})
    assert verdict.ok and verdict.value == first.value == 1216 < count_matches(greedy)
    rng = random.Random(3)
    for _ in range(200):
        sizes = related_sizes(greedy, 12, rng, 56)
        assert len(set(sizes)) == 12 and max(sizes) <= 54
