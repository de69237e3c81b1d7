"""Solution counts of the write-up, the linear-time completion of levels 5-6 against
brute force, and the lowest level penalties of the published table."""

import itertools

import pytest

from puzzlelab.puzzles.hexagon.completion.linear import FIVE, OPEN, complete_from_level4, component_polynomials
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.reference import level_table
from puzzlelab.puzzles.hexagon.rowdp.count import count_solutions, level_minimum
from puzzlelab.puzzles.hexagon.scoring import level_penalty, penalty_edges
from puzzlelab.puzzles.hexagon.verify import rule_violation

# Published solution counts (seed write-up, "Solution Counts"), levels 1..6.
COUNTS = {3: (6, 48, 36, 24, 72, 144), 4: (2, 6, 28, 48, 288, 1152)}


@pytest.mark.parametrize("n", [3, 4])
def test_solution_counts_of_the_write_up(n):
    counts = count_solutions(n)
    assert tuple(counts[k][1] for k in range(1, 7)) == COUNTS[n]
    assert tuple(counts[k][0] for k in (1, 2, 3, 5)) == level_table()[n]


def test_level_one_count_by_brute_force():
    """n = 3, level 1: every set of 1-cells dominating the rest, by brute force over all
    2^19 subsets (vectorised), penalties counted directly: 1-1 edges, and each extra 1
    beside a non-1 cell."""
    import numpy as np

    g = hexagon(3)
    subsets = np.arange(1 << g.cells, dtype=np.int64)
    ones = [(subsets >> c) & 1 for c in range(g.cells)]
    valid = np.ones(len(subsets), dtype=bool)
    penalty = np.zeros(len(subsets), dtype=np.int64)
    for c in range(g.cells):
        beside = sum(ones[j] for j in g.neighbours_of(c))
        valid &= (ones[c] == 1) | (beside > 0)
        penalty += (1 - ones[c]) * np.maximum(beside - 1, 0)
    for u, v in g.edges:
        penalty += ones[int(u)] & ones[int(v)]
    best = int(penalty[valid].min())
    count = int((penalty[valid] == best).sum())
    assert (best, count) == (level_table()[3][0], COUNTS[3][0])
    # the SAT level count agrees with the brute force on every subset's penalty
    sample = np.flatnonzero(valid)[:: 5000]
    for bits in sample:
        values = [1 if bits >> c & 1 else 2 for c in range(g.cells)]
        assert level_penalty(g, values, 1) == int(penalty[bits])


def _brute_component(length, cycle, cap):
    """Level-5 and level-6 ways by extra penalty for one path/cycle, by enumeration."""
    level5, level6 = [0] * (cap + 1), [0] * (cap + 1)
    nbrs = {i: [j for j in (i - 1, i + 1) if 0 <= j < length] for i in range(length)}
    if cycle:
        nbrs = {i: [(i - 1) % length, (i + 1) % length] for i in range(length)}
    for labels in itertools.product((FIVE, OPEN), repeat=length):
        cost, valid = 0, True
        for i in range(length):
            fives = sum(labels[j] == FIVE for j in nbrs[i])
            if labels[i] == OPEN and fives == 0:
                valid = False
            if labels[i] == OPEN and fives == 2:
                cost += 1
        edges = {(min(i, j), max(i, j)) for i in range(length) for j in nbrs[i]}
        cost += sum(labels[a] == FIVE and labels[b] == FIVE for a, b in edges)
        if not valid:
            continue
        pairs = sum(labels[a] == OPEN and labels[b] == OPEN for a, b in edges)
        if cost <= cap:
            level5[cost] += 1
        # each 6+ pair: 6-7 or 7-6 free, 6-6 costs one
        for extra in range(pairs + 1):
            ways = 2 ** (pairs - extra) * _binomial(pairs, extra)
            if cost + extra <= cap:
                level6[cost + extra] += ways
    return level5, level6


def _binomial(a, b):
    from math import comb

    return comb(a, b)


@pytest.mark.parametrize("length, cycle", [(k, c) for c in (False, True) for k in range(3 if c else 1, 13)])
def test_component_polynomials_against_brute_force(length, cycle):
    # paths of 1..12 cells and cycles of 3..12 (no cycle is shorter than 3)
    assert component_polynomials(length, cycle, 3) == _brute_component(length, cycle, 3)


def test_three_cycle_counts_quoted_in_the_write_up():
    # a loop of three 5+ cells takes 5, 6, 7 in six ways
    assert component_polynomials(3, True, 0)[1] == [6]
    # cycles cost one penalty exactly when their length is not a multiple of 3
    for length in range(3, 20):
        level5, _ = component_polynomials(length, True, 2)
        assert (level5[0] > 0) == (length % 3 == 0)
        assert level5[0] > 0 or level5[1] > 0


def test_linear_completion_is_optimal_on_level4_grids():
    """Completing the lowest level-4 grids of n=5 adds exactly the bad cycles' count
    and the results are valid grids."""
    g = hexagon(5)
    penalty, grid4 = level_minimum(5, 4)
    full, extra = complete_from_level4(g, grid4)
    assert rule_violation(5, full) is None
    assert len(penalty_edges(g, full)) == level_penalty(g, grid4, 4) + extra


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_lowest_level_penalties_small(n, level):
    assert level_minimum(n, level)[0] == level_table()[n][level - 1]


@pytest.mark.parametrize("level", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)])  # 2, 16, 41 s on 2 loaded cores (3..5: every level, above)
def test_lowest_level_penalties_order_6(level):
    assert level_minimum(6, level)[0] == level_table()[6][level - 1]


@pytest.mark.slow
@pytest.mark.parametrize("n", [7, 8])
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_lowest_level_penalties_larger(n, level):
    # level 4 and the final penalty are equal in the published table
    column = {1: 0, 2: 1, 3: 2, 4: 3}[level]
    assert level_minimum(n, 5 if level == 4 else level)[0] == level_table()[n][column]


@pytest.mark.slow
def test_solution_counts_order_5():
    counts = count_solutions(5)
    assert tuple(counts[k][1] for k in range(1, 7)) == (84, 48, 360, 948, 17820, 468864)
