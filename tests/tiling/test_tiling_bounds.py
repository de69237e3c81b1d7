"""Every answer gets a lower bound: the row / column band bound is
never above the optimum (brute force, the exact DP), exact on one-row strips, and `dp`
out of time answers with it instead of no bound."""

import math

import numpy as np
from tiling_oracles import brute_force_min_squares, random_grid

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.bounds import band_lower_bound
from puzzlelab.puzzles.tiling.dp import solve_exact
from puzzlelab.puzzles.tiling.dp_fallback import run_dp
from puzzlelab.puzzles.tiling.model import Grid, format_solution


def checked(free, squares):
    grid = Grid.from_array(free)
    verdict = PUZZLE.verify(grid, format_solution(grid, squares))
    assert verdict.ok, verdict.message
    return verdict.value


def test_band_bound_is_a_lower_bound():
    rng = np.random.default_rng(28)
    for _ in range(60):
        h, w = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        free = random_grid(rng, h, w, rng.random() * 0.4)
        bound, name = band_lower_bound(free)
        assert bound <= brute_force_min_squares(free), (free, bound, name)
    for _ in range(20):
        free = random_grid(rng, 12, 30, rng.random() * 0.3)
        assert band_lower_bound(free)[0] <= solve_exact(free)[0]
    assert band_lower_bound(np.ones((1, 9), dtype=bool)) == (9, "row bands")  # a 1-high strip: exact
    assert band_lower_bound(np.zeros((3, 3), dtype=bool))[0] == 0


def test_dp_out_of_time_still_has_a_bound():
    grid = Grid.from_array(np.ones((12, 40), dtype=bool))
    result = run_dp(grid, budget=Budget(0.0))
    assert result.bound is not None and 1 <= result.bound <= result.value
    assert result.stats["bound_source"] in ("row bands", "column bands")


def test_row_cover_counts_match_their_definition():
    """The one-pass deque against the definition: per cell, the largest free square with
    that left column containing the row; per row, the greedy interval cover."""
    from puzzlelab.puzzles.tiling.kernels import max_square_table, row_cover_counts

    rng = np.random.default_rng(11)
    for _ in range(30):
        free = random_grid(rng, int(rng.integers(1, 12)), int(rng.integers(1, 12)), rng.random() * 0.4)
        largest = max_square_table(free.astype(np.uint8))
        height, width = free.shape
        want = []
        for y in range(height):
            reach = [max([largest[t, c] for t in range(y + 1) if largest[t, c] >= y - t + 1 and free[t:y + 1, c].all()] or [0])
                     for c in range(width)]  # fmt: skip
            count, c = 0, 0
            while c < width:
                count, c = (count + 1, c + reach[c]) if free[y, c] else (count, c + 1)
            want.append(count)
        assert list(row_cover_counts(free, largest)) == want


def test_lp_cell_weights_bound_every_square_and_keep_the_dp_exact():
    """The LP duals as integer cell weights: no square that fits weighs more than one
    square (checked square by square), the grid's weight is at most the LP optimum,
    and the DP pruning with them (aiming at ceil(LP), then higher) gives the plain DP's
    optimum, verified, on random grids, some of which need more than one sweep."""
    from puzzlelab.puzzles.tiling.bounds import WEIGHT_SCALE, lp_cell_weights
    from puzzlelab.puzzles.tiling.cpsat import candidate_squares

    rng = np.random.default_rng(2815)
    sweeps = []
    for _ in range(25):
        free = random_grid(rng, int(rng.integers(1, 16)), int(rng.integers(1, 31)), rng.random() * 0.3)
        if not free.any():
            continue
        lp_value, weights = lp_cell_weights(free)
        for x, y, s in zip(*candidate_squares(free)):
            assert weights[y : y + s, x : x + s].sum() <= WEIGHT_SCALE
        assert weights[~free].sum() == 0 and weights.sum() <= lp_value * WEIGHT_SCALE + 1e-3
        plain = solve_exact(free)[0]
        count, squares, stats = solve_exact(free.T.copy(), duals=(lp_value, np.ascontiguousarray(weights.T)))
        assert count == plain == checked(free.T, squares)
        # every aim below the optimum fails, the optimum itself is reached: the weights
        # never cut a state an optimal tiling goes through
        assert stats["sweeps"] == plain - math.ceil(lp_value - 1e-6) + 1
        sweeps.append(stats["sweeps"])
    assert max(sweeps) > 1  # an aim below the optimum was tried and raised
