"""Beam search, the levels pipeline, region improvement, the portfolio, rendering."""

import pytest

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Status
from puzzlelab.puzzles.hexagon import PUZZLE
from puzzlelab.puzzles.hexagon.beam.search import beam_plan, beam_search, cell_order
from puzzlelab.puzzles.hexagon.completion.linear import split_sixes
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.scoring import level_penalty, penalty_edges
from puzzlelab.puzzles.hexagon.verify import rule_violation


@pytest.mark.parametrize("order", ["clock", "spiral", "rows"])
def test_cell_orders_are_permutations(order):
    g = hexagon(6)
    cells = cell_order(g, order)
    assert sorted(cells) == list(range(g.cells))
    if order != "rows":
        assert cells[0] == g.centre
    plan = beam_plan(g, cells, 5)
    assert plan["slots"] < g.cells  # the frontier is much smaller than the grid


@pytest.mark.slow  # tens of seconds; run with `make test-all`
def test_beam_penalty_is_the_exact_penalty_of_its_grid():
    """The kernel's incremental count equals the independent count, at every level."""
    for n, top in ((4, 5), (5, 5), (6, 2), (6, 1), (5, 3)):
        found = beam_search(n, width=300, order="clock", top=top, keep=5)
        assert found, (n, top)
        g = hexagon(n)
        for penalty, values in found:
            assert penalty == level_penalty(g, values, top)
            if top == 5:
                full = split_sixes(g, values)
                assert rule_violation(n, full) is None
                assert len(penalty_edges(g, full)) == penalty


def test_beam_method_finds_the_optimum_of_small_orders():
    # compile the beam's kernels first (a fresh clone has no numba cache, and compiling
    # them can take most of the 30 s on a loaded machine): the budget is for the search
    PUZZLE.solve(HexInstance(3), "beam", budget=120, width=50, order="clock", restarts=1)
    result = PUZZLE.solve(HexInstance(4), "beam", budget=30, width=2000, order="clock", restarts=1)
    assert result.verified and result.value == 87 and result.status is Status.FEASIBLE


def test_levels_method_pipeline():
    result = PUZZLE.solve(HexInstance(6), "levels", budget=120, width=500, keep=4)
    assert result.verified and result.value >= 220


def test_improve_repairs_a_poor_grid():
    g = hexagon(4)
    start = [1] * g.cells  # valid, and every edge is a penalty
    instance = PUZZLE.parse(format_grid(4, start))
    assert instance.start is not None
    result = PUZZLE.solve(instance, "improve", budget=60, radius=2, rounds=6, seed=3)
    assert result.verified and result.value > 0
    assert result.stats["start_penalty"] == edge_count(4) and result.stats["rounds"] == 6


def test_improve_with_sideways_steps_and_its_bad_chance():
    g = hexagon(5)
    instance = PUZZLE.parse(format_grid(5, [1] * g.cells))
    result = PUZZLE.solve(instance, "improve", budget=60, radius=2, rounds=40, seed=1, sideways=1.0)
    assert result.verified and result.stats["sideways"] > 0 and result.value > edge_count(5) // 2
    with pytest.raises(InvalidInstance, match="sideways"):
        PUZZLE.solve(instance, "improve", budget=5, sideways=1.5)


def test_portfolio_proves_small_order():
    result = PUZZLE.solve(HexInstance(4), "portfolio", budget=120, workers=2)
    assert result.status is Status.OPTIMAL and result.value == 87 and result.verified


def test_svg_marks_every_penalty_edge_in_red():
    result = PUZZLE.solve(HexInstance(3), "sat", budget=60)
    svg = PUZZLE.render_svg(HexInstance(3), result)
    assert svg.count("<polygon") == 19
    assert svg.count("#d62728") == result.stats["penalty"] == 3
    assert PUZZLE.render_text(HexInstance(3), result).count("\n") == 4
