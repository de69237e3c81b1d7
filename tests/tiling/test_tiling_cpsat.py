"""The exact DP and the CP-SAT set partition agree on seeded random grids with blocked
cells (at least 200 up to 12 x 20: the slow test; the default suite
runs the first 40 of the same sequence), and past height 15 as well."""

import numpy as np
import pytest
from tiling_oracles import random_grid

from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.cpsat import candidate_squares, cpsat_tiling
from puzzlelab.puzzles.tiling.dp import solve_exact
from puzzlelab.puzzles.tiling.model import Grid, format_solution


def random_cases(count: int, seed: int = 3):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        h, w = int(rng.integers(1, 13)), int(rng.integers(1, 21))
        yield random_grid(rng, h, w, float(rng.choice([0.0, 0.03, 0.08, 0.15, 0.3])))


def agree(free) -> int:
    count, squares, _ = solve_exact(free)
    status, value, cp_squares, bound, _ = cpsat_tiling(free, budget=Budget(120), threads=1)
    assert status == Status.OPTIMAL and value == bound
    assert value == count, free.astype(int)
    grid = Grid.from_array(free)
    for found in (squares, cp_squares):
        verdict = PUZZLE.verify(grid, format_solution(grid, found))
        assert verdict.ok and verdict.value == count
    return count


def test_dp_and_cpsat_agree_on_40_random_grids():
    for free in random_cases(40):
        agree(free)


@pytest.mark.slow
def test_dp_and_cpsat_agree_on_200_random_grids():
    for free in random_cases(200):
        agree(free)


@pytest.mark.slow
def test_dp_and_cpsat_agree_past_fifteen_rows():
    rng = np.random.default_rng(16)
    for h, w in ((16, 18), (17, 20), (18, 18)):
        agree(random_grid(rng, h, w, 0.1))


def test_candidate_squares_are_exactly_the_free_squares():
    rng = np.random.default_rng(5)
    free = random_grid(rng, 6, 7, 0.2)
    xs, ys, ss = candidate_squares(free)
    found = set(zip(xs.tolist(), ys.tolist(), ss.tolist()))
    expected = {
        (x, y, s)
        for y in range(6)
        for x in range(7)
        for s in range(1, 8)
        if y + s <= 6 and x + s <= 7 and free[y : y + s, x : x + s].all()
    }
    assert found == expected


def test_cpsat_method_hint_and_bound():
    grid = PUZZLE.parse("..#....\n.......\n.......\n....#..")
    result = PUZZLE.solve(grid, "cpsat", budget=30, threads=1)
    assert result.status == Status.OPTIMAL and result.verified and result.bound == result.value
    assert result.value == solve_exact(grid.free())[0]
    # an upper bound below the optimum is infeasible, which proves the bound + 1
    status, value, _, bound, _ = cpsat_tiling(grid.free(), upper_bound=result.value - 1, threads=1)
    assert status == Status.INFEASIBLE and value is None and bound == result.value
