"""The independent checker: it accepts exactly the tilings, names what is wrong
otherwise, and counts squares; the pictures draw what it accepts."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.result import Result, Status
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.model import Grid, format_solution
from puzzlelab.puzzles.tiling.render import render_ascii, render_svg

GRID = PUZZLE.parse("...#\n....\n....")


def solution(*squares):
    return {"id": "", "squares": [{"X": x, "Y": y, "Size": s} for x, y, s in squares]}


GOOD = solution((0, 0, 2), (2, 0, 1), (2, 1, 2), (0, 2, 1), (1, 2, 1))


def test_accepts_a_tiling_and_counts():
    verdict = PUZZLE.verify(GRID, GOOD)
    assert verdict.ok and verdict.value == 5
    assert verdict.figures["free_cells"] == 11 and verdict.figures["by_size"] == {"2": 2, "1": 3}


@pytest.mark.parametrize(
    "sol, words",
    [
        (solution((0, 0, 2), (2, 0, 2), (0, 2, 1), (1, 2, 1), (3, 2, 1), (2, 2, 1)), "blocked cell X=3, Y=0"),
        (solution((0, 0, 2), (1, 1, 2), (2, 0, 1), (0, 2, 1), (1, 2, 1), (3, 1, 1), (3, 2, 1)), "overlap"),
        (solution((0, 0, 2), (2, 0, 1), (2, 1, 2), (0, 2, 1)), "not covered"),
        (solution((0, 0, 2), (2, 0, 1), (2, 1, 3)), "outside"),
        (solution((0, 0, 0)), "not positive"),
        (solution((-1, 0, 1)), "outside"),
        ({"squares": [{"X": 0, "Y": 0}]}, "missing key 'Size'"),
        ({"squares": [{"X": 0, "Y": 0, "Size": 1.0}]}, "integers"),
        ({"squares": [{"X": True, "Y": 0, "Size": 1}]}, "integers"),
        ({"shapes": []}, "no 'squares'"),
        ("nonsense", "expected a list"),
        ({"id": "other", "squares": []}, None),
    ],
)
def test_rejects_with_a_reason(sol, words):
    grid = GRID if words is not None else Grid(GRID.rows, id="mine")
    verdict = PUZZLE.verify(grid, sol)
    assert not verdict.ok
    assert words is None or words in verdict.message


def test_empty_grid_needs_no_squares():
    grid = PUZZLE.parse("##\n##")
    assert PUZZLE.verify(grid, {"squares": []}).ok and PUZZLE.verify(grid, {"squares": []}).value == 0


@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**36 - 1), st.data())
@settings(max_examples=80, deadline=None)
def test_random_square_sets_against_cell_by_cell_count(h, w, bits, data):
    """The difference-array checker agrees with a naive cell-by-cell count on random
    grids and random (mostly wrong) sets of squares."""
    free = np.array([[(bits >> (y * w + x)) & 1 == 0 for x in range(w)] for y in range(h)])
    grid = Grid.from_array(free)
    squares = data.draw(st.lists(st.tuples(st.integers(-1, w), st.integers(-1, h), st.integers(0, 3)), max_size=8))
    verdict = PUZZLE.verify(grid, solution(*squares))
    cover = np.zeros((h, w), dtype=int)
    inside = all(s >= 1 and 0 <= x and 0 <= y and x + s <= w and y + s <= h for x, y, s in squares)
    if inside:
        for x, y, s in squares:
            cover[y : y + s, x : x + s] += 1
    expected = inside and bool(np.all(cover[free] == 1)) and bool(np.all(cover[~free] == 0))
    assert verdict.ok == expected


def test_pictures():
    result = Result(5, GOOD, Status.FEASIBLE, "test")
    svg = PUZZLE.render_svg(GRID, result)
    assert svg.startswith("<svg") and svg.count('stroke="#000000"') == 5 + 1  # squares + frame
    assert "#333333" in svg  # the blocked cell
    text = render_ascii(GRID, GOOD)
    lines = text.splitlines()
    assert len(lines) == 2 * GRID.height + 1
    assert "##" in lines[1] and lines[1].startswith("| 2")
    assert PUZZLE.render_text(GRID, result) == text
    assert render_svg(GRID, None).startswith("<svg")  # the bare grid
    assert render_ascii(PUZZLE.parse("100x2"), None) is None  # too wide for text


def test_format_solution_sorts_and_round_trips():
    sol = format_solution(GRID, [(2, 1, 2), (0, 0, 2), (2, 0, 1), (1, 2, 1), (0, 2, 1)])
    assert sol["squares"][0] == {"X": 0, "Y": 0, "Size": 2}
    assert PUZZLE.verify(GRID, sol).ok
