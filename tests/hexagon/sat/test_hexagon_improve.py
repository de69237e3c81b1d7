"""The `improve` method's region steps (sat/improve.py) against the independent
checker: a re-solved region is strictly better or None, a sideways step keeps the
penalty and changes the region only (and the 6s and 7s, which are split again), and both end on the shipped grids whose cells
reach 7 (the model merges values above 5)."""

import random

import pytest

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.model import HexInstance, format_grid, hexagon
from puzzlelab.puzzles.hexagon.sat.improve import improve_search, region_around, resolve_region, sideways_region
from puzzlelab.puzzles.hexagon.scoring import penalty_edges
from puzzlelab.puzzles.hexagon.shipped import best_grids
from puzzlelab.puzzles.hexagon.verify import read_solution, verify_grid


def shipped(n: int) -> list[int]:
    row = best_grids()[n]
    assert row.problem is None
    return list(read_solution(n, row.grid))


@pytest.mark.parametrize("n", [9, 17])
def test_region_steps_keep_the_rule_and_never_worsen(n):
    geometry, grid = hexagon(n), shipped(n)
    assert n < 17 or max(grid) >= 7  # values the model merges
    penalty = len(penalty_edges(geometry, grid))
    rng = random.Random(n)
    moved = 0
    for _ in range(6):
        region = region_around(geometry, rng.randrange(geometry.cells), 3)
        better = resolve_region(geometry, grid, region)  # no budget: it has to end by itself
        assert better is None  # the shipped grids are the published best: no region of 37 cells beats them
        step = sideways_region(geometry, grid, region)
        if step is None:
            continue
        assert verify_grid(HexInstance(n), format_grid(n, step)).ok
        assert len(penalty_edges(geometry, step)) == penalty
        changed = {c for c in range(geometry.cells) if step[c] != grid[c]}
        assert changed and changed <= set(region) | {c for c in range(geometry.cells) if grid[c] >= 6}  # the 6s and 7s are split again
        grid, moved = step, moved + 1
    assert moved >= 3


def test_a_walk_with_sideways_steps_keeps_every_grid_valid():
    """From a grid of 1s (every edge a penalty), the walk with sideways steps takes some
    and ends far lower, its grid checked and its penalty the one it reports."""
    geometry = hexagon(6)
    start = [1] * geometry.cells
    walked = improve_search(6, start, radius=2, rounds=80, seed=4, budget=Budget(60), sideways=1.0)
    assert walked.sideways > 0 and walked.improvements > 0 and walked.penalty < len(penalty_edges(geometry, start)) // 2
    assert verify_grid(HexInstance(6), format_grid(6, walked.grid)).ok
    assert len(penalty_edges(geometry, walked.grid)) == walked.penalty
