"""The exact column DP against its oracles: brute force on tiny grids, the published
A219158 table, the A242551 frontier-shape counts, and the general (multi-word) step."""

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest
from tiling_oracles import brute_force_min_squares, random_grid

from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.dp import ColumnDP, DPStopped, solve_exact
from puzzlelab.puzzles.tiling.model import Grid, format_solution
from puzzlelab.puzzles.tiling.reference import a219158_table
from puzzlelab.puzzles.tiling.shapes import A242551_PUBLISHED, frontier_shape_count

SHIPPED = Path(__file__).parents[2] / "src/puzzlelab/puzzles/tiling/data"


def checked(free, squares):
    grid = Grid.from_array(free)
    verdict = PUZZLE.verify(grid, format_solution(grid, squares))
    assert verdict.ok, verdict.message
    return verdict.value


def test_against_brute_force_on_tiny_random_grids():
    rng = np.random.default_rng(2024)
    for _ in range(100):
        h, w = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        free = random_grid(rng, h, w, rng.random() * 0.45)
        count, squares, _ = solve_exact(free)
        assert count == brute_force_min_squares(free) == checked(free, squares)


def test_general_step_is_exact_too():
    """The multi-word step (used past height 15) with no margins gives the packed DP's
    optimum, on grids whose rows it packs several to a word and across words."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        h, w = int(rng.integers(2, 12)), int(rng.integers(2, 16))
        free = random_grid(rng, h, w, rng.random() * 0.3)
        packed = ColumnDP(free)
        general = ColumnDP(free, packed=False)
        assert not general.packed and packed.packed
        assert packed.run() == general.run() == checked(free, general.squares()) == checked(free, packed.squares())


def test_reproduces_every_shipped_a219158_entry():
    """One sweep per height m answers every m x n, n <= 60 (flush states)."""
    from puzzlelab.puzzles.tiling.rectangles import rectangle_table

    table = a219158_table()
    assert len(table) == 555
    answers = {(a.m, a.n): a.squares for a in rectangle_table(list(range(1, 11)), list(range(1, 61)))}
    for (m, n), value in table.items():
        assert answers[(m, n)] == value, (m, n)
        if n <= 10:
            assert answers[(n, m)] == value  # the transposed rectangle, solved as such


def test_shipped_table_is_the_published_file():
    """The shipped copy is byte for byte the published table: its SHA-256 is the one
    data/SOURCES.md records for the file it was copied from."""
    recorded = re.search(r"`A219158_m10_n60.tsv`.*?SHA-256 `([0-9a-f]{64})`", (SHIPPED / "SOURCES.md").read_text(), re.S)
    assert recorded, "data/SOURCES.md records no SHA-256 for A219158_m10_n60.tsv"
    assert hashlib.sha256((SHIPPED / "A219158_m10_n60.tsv").read_bytes()).hexdigest() == recorded.group(1)


def test_frontier_shape_counts_match_a242551_and_the_dp_peak():
    counts = [frontier_shape_count(h) for h in range(1, 16)]
    assert tuple(counts) == A242551_PUBLISHED
    for h in range(1, 16):
        dp = ColumnDP(np.ones((h, 3 * h + 2), dtype=bool))
        dp.run()
        assert dp.peak_states == counts[h - 1], h


@pytest.mark.parametrize("largest", [500, pytest.param(None, marks=pytest.mark.slow)])
def test_branch_and_bound_keeps_the_optimum(largest):
    """solve_exact bounds the packed sweep by the greedy tiling's squares; with that
    bound, and with one too low (it must then sweep again without it), the optimum is
    the unbounded sweep's, on random grids and on A219158's rectangles. The default run
    leaves out the rectangles over 500 cells (15 x 37: 9 of the test's 17 s)."""
    from puzzlelab.puzzles.tiling.sweep import greedy_count

    rng = np.random.default_rng(11)
    grids = [random_grid(rng, int(rng.integers(1, 16)), int(rng.integers(1, 41)), rng.random() * 0.3) for _ in range(30)]
    rectangles = [(m, n) for m in (1, 4, 9, 13, 15) for n in (m, 2 * m + 3, 37)]
    grids += [np.ones((m, n), dtype=bool) for m, n in rectangles if largest is None or m * n <= largest]
    for free in grids:
        plain = ColumnDP(free)
        optimum = plain.run()
        upper = int(greedy_count(free.astype(np.uint8)))
        assert upper >= optimum
        for bound in (upper, optimum, optimum - 1):
            bounded = ColumnDP(free, upper=bound)
            assert bounded.run() == optimum == checked(free, bounded.squares())
    table = a219158_table()
    for (m, n), value in table.items():
        if n % 7 == 0:
            count, squares, _ = solve_exact(np.ones((m, n), dtype=bool))
            assert count == value == checked(np.ones((m, n), dtype=bool), squares), (m, n)


def test_height_turned_cropped_and_blocked():
    # a tall thin grid is turned; blocked border rows and columns are cropped away
    free = np.zeros((40, 9), dtype=bool)
    free[3:37, 2:7] = True
    free[10, 4] = False
    count, squares, stats = solve_exact(free)
    assert stats["height"] == 5 and stats["packed"]
    assert count == checked(free, squares)
    assert solve_exact(np.zeros((3, 3), dtype=bool))[0] == 0


@pytest.mark.slow  # tens of seconds; run with `make test-all`
def test_past_fifteen_rows_uses_wider_states():
    """Height 16 goes to the general step (5 bits a row, 2 words); its optimum on random
    taller grids is checked against CP-SAT in test_tiling_cpsat.py."""
    free = np.ones((16, 17), dtype=bool)
    count, squares, stats = solve_exact(free)
    assert not stats["packed"] and stats["words"] == 2 and stats["bits_per_row"] == 5
    assert count == checked(free, squares)


def test_budget_and_memory_stop_it_and_the_method_falls_back():
    with pytest.raises(DPStopped):
        solve_exact(np.ones((15, 60), dtype=bool), Budget(0))
    with pytest.raises(DPStopped) as info:
        solve_exact(np.ones((15, 60), dtype=bool), max_memory_mb=0.01)
    assert info.value.reason == "memory"
    grid = PUZZLE.parse("40x10")
    result = PUZZLE.solve(grid, "dp", budget=0)
    assert result.verified and result.stats["fallback"] == "greedy"
    # the fallback carries the band bound; here the greedy four 10 x 10 squares meet it
    assert result.bound == 4 and result.status == Status.OPTIMAL and result.stats["bound_source"] == "row bands"
    rough = PUZZLE.solve(PUZZLE.parse("13x11"), "dp", budget=0)
    assert rough.status == Status.FEASIBLE and 1 <= rough.bound < rough.value
    exact = PUZZLE.solve(grid, "dp", budget=60)
    assert exact.status == Status.OPTIMAL and exact.value == exact.bound == a219158_table()[(10, 40)]


def test_successor_lists_by_runs_are_the_direct_enumeration():
    """The packed sweep's successor list of a pattern of open rows, built as the product
    of its runs' lists, holds exactly the fills that `_list_successors` enumerates
    square by square (same entries, each once), on random patterns and largest squares."""
    from puzzlelab.puzzles.tiling.kernels import LOW_NIBBLES
    from puzzlelab.puzzles.tiling.sweep import _list_by_runs, _list_successors

    rng = np.random.default_rng(28)
    memo, runs = np.empty(1 << 16, dtype=np.uint64), np.empty(1 << 17, dtype=np.uint64)
    run_stamp, run_start = np.full(256, -1, dtype=np.int64), np.zeros(512, dtype=np.int64)
    stacks, size_stack, choice = np.zeros((2, 17), dtype=np.uint64), np.zeros(17, dtype=np.int64), np.zeros(16, dtype=np.int64)
    for generation in range(300):
        height = int(rng.integers(1, 16))
        need = sum(1 << (4 * y) for y in range(height) if rng.random() < 0.7)
        largest = rng.integers(1, 8, size=height).astype(np.int32)
        runs[0] = 1
        end = _list_by_runs(np.uint64(need), largest, memo, 0, runs, run_stamp, run_start, generation, stacks, size_stack, choice)
        direct = np.empty(1 << 16, dtype=np.uint64)
        count = _list_successors(np.uint64(need), largest, direct, 0, stacks[0], stacks[1], size_stack)
        assert sorted(memo[:end].tolist()) == sorted(direct[:count].tolist())
        assert len(set(memo[:end].tolist())) == end >= 1
        for entry in memo[:end].tolist():  # every open row covered, nothing else
            rows = entry & ((1 << 60) - 1)
            covered = sum(1 << (4 * y) for y in range(15) if (rows >> (4 * y)) & 15)
            assert covered == need and int(LOW_NIBBLES) & covered == covered
