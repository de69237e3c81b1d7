"""The `prove` method. Oracles: brute force on tiny grids, the
exact DP's optimum, the free squares themselves for the split. Its optimum equals
theirs, both through the DP on narrow groups and through CP-SAT (the DP's reach set to
0), its bound is never above the optimum, and a run stopped by its budget keeps its
bound and does not say optimal."""

import numpy as np
import pytest
from tiling_oracles import brute_force_min_squares, random_grid

from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.tiling import PUZZLE, prove
from puzzlelab.puzzles.tiling.beam import greedy_tiling
from puzzlelab.puzzles.tiling.cpsat import candidate_squares
from puzzlelab.puzzles.tiling.dp import solve_exact
from puzzlelab.puzzles.tiling.model import Grid, format_solution
from puzzlelab.puzzles.tiling.prove import prove_tiling, split_free


def test_split_puts_every_square_in_one_group_and_forces_the_rest():
    rng = np.random.default_rng(281)
    for _ in range(40):
        h, w = int(rng.integers(1, 14)), int(rng.integers(1, 14))
        free = random_grid(rng, h, w, float(rng.choice([0.05, 0.2, 0.35, 0.5])))
        forced, parts, label = split_free(free)
        assert not (forced & (label > 0)).any() and ((label > 0) | forced == free).all()
        assert [p.cells for p in parts] == sorted(int((label == k).sum()) for k in range(1, len(parts) + 1))
        for k, part in enumerate(parts, start=1):
            ph, pw = part.free.shape
            assert (part.free == (label[part.y0 : part.y0 + ph, part.x0 : part.x0 + pw] == k)).all()
        covered_by_big = np.zeros_like(free)
        for x, y, s in zip(*candidate_squares(free)):
            if s >= 2:
                groups = set(label[y : y + s, x : x + s].ravel().tolist())
                assert len(groups) == 1 and 0 not in groups
                covered_by_big[y : y + s, x : x + s] = True
        assert (covered_by_big == (label > 0)).all()  # forced: no square of side 2 or more covers it


def test_split_optimum_adds_up():
    rng = np.random.default_rng(282)
    for _ in range(12):
        free = random_grid(rng, 10, 24, 0.3)
        forced, parts, _ = split_free(free)
        assert int(forced.sum()) + sum(solve_exact(p.free)[0] for p in parts) == solve_exact(free)[0]


@pytest.mark.parametrize("reach", [prove.EXACT_MAX_SHORT_SIDE, 0])
def test_prove_equals_the_optimum(monkeypatch, reach):
    """From the greedy tiling, through the DP (groups up to 15 rows) or CP-SAT (none)."""
    monkeypatch.setattr(prove, "EXACT_MAX_SHORT_SIDE", reach)
    rng = np.random.default_rng(283)
    for i in range(16):
        h, w = (int(rng.integers(1, 6)), int(rng.integers(1, 6))) if i < 8 else (int(rng.integers(6, 12)), int(rng.integers(8, 20)))
        free = random_grid(rng, h, w, float(rng.choice([0.0, 0.1, 0.25])))
        best = brute_force_min_squares(free) if i < 8 else solve_exact(free)[0]
        _, start = greedy_tiling(free)
        squares, bound, stats = prove_tiling(free, start, Budget(60), threads=1)
        grid = Grid.from_array(free)
        verdict = PUZZLE.verify(grid, format_solution(grid, squares))
        assert verdict.ok and verdict.value == best == bound, (free.astype(int), stats)
        assert stats["unproven_parts"] == 0


def test_prove_method_end_to_end(monkeypatch):
    """The method through `Puzzle.solve`, its first search (which proves a grid this
    small at once) replaced by the greedy tiling so that the groups are solved, by
    CP-SAT: proven, verified, the DP's optimum."""

    def greedy_search(grid, **_):
        count, squares = greedy_tiling(grid.free())
        return Result(count, format_solution(grid, squares), Status.FEASIBLE, "auto", bound=0, stats={})

    monkeypatch.setattr(prove, "EXACT_MAX_SHORT_SIDE", 0)
    monkeypatch.setattr(prove, "run_auto", greedy_search)
    rng = np.random.default_rng(284)
    free = random_grid(rng, 12, 30, 0.08)
    result = PUZZLE.solve(Grid.from_array(free), "prove", budget=60, threads=1)
    assert result.verified and result.status == Status.OPTIMAL and result.stats["parts"] >= 1
    assert result.value == result.bound == solve_exact(free)[0] < greedy_tiling(free)[0]


def test_stopped_by_its_budget_keeps_its_bound_and_says_feasible():
    rng = np.random.default_rng(285)
    free = random_grid(rng, 14, 40, 0.05)
    best = solve_exact(free)[0]
    count, start = greedy_tiling(free)
    assert count > best  # so a run that cannot improve it cannot be optimal
    squares, bound, stats = prove_tiling(free, start, Budget(0.0), threads=1)
    assert len(squares) == count and 1 <= bound <= best < count
    assert stats["unproven_parts"] >= 1
    grid = Grid.from_array(free)
    result = PUZZLE.solve(grid, "prove", budget=0.0, threads=1)
    assert result.verified and result.status != Status.OPTIMAL and result.bound is not None
    assert 0 <= result.bound <= best <= result.value
