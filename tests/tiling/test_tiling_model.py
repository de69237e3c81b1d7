"""Formats of the tiling puzzle: contest JSON and text grids in, clear errors for bad
input, round trips, and the eight orientations mapping squares back."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.model import MAX_SIDE, ORIENTATIONS, Grid, format_grid, orient, parse_grid, square_back
from support.text_strategies import text

grids = st.integers(1, 7).flatmap(
    lambda h: st.integers(1, 7).flatmap(
        lambda w: st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h)
    )
)


@given(grids, text(max_size=8))
@settings(max_examples=60, deadline=None)
def test_contest_json_round_trip(puzzle, ident):
    data = {"id": ident, "width": len(puzzle[0]), "height": len(puzzle), "puzzle": puzzle}
    grid = PUZZLE.parse(data)
    assert grid.width == len(puzzle[0]) and grid.height == len(puzzle)
    assert grid.free().tolist() == puzzle
    assert PUZZLE.parse(PUZZLE.format_instance(grid)) == grid
    assert PUZZLE.parse(json.loads(json.dumps(PUZZLE.format_instance(grid)))) == grid
    # the text grid says the same
    assert PUZZLE.parse(grid.text()).free().tolist() == puzzle


def test_text_grid_and_rectangle_shorthand():
    grid = PUZZLE.parse("..#\n...\n")
    assert grid.free().tolist() == [[True, True, False], [True, True, True]]
    rect = PUZZLE.parse("15x100")
    assert (rect.width, rect.height, rect.free_cells) == (15, 100, 1500) and rect.is_rectangle


@pytest.mark.parametrize(
    "obj, field, words",
    [
        ({"puzzle": [[True, True], [True]]}, "puzzle", "ragged"),
        ({"width": 3, "height": 1, "puzzle": [[True, True]]}, "width", "rows have 2"),
        ({"width": 2, "height": 2, "puzzle": [[True, True]]}, "height", "1 rows"),
        ({"puzzle": [[True, 1]]}, "puzzle", "column 2"),
        ({"puzzle": [[True, "yes"]]}, "puzzle", "true (cover) or false"),
        ({"puzzle": [[None]]}, "puzzle", "expected true"),
        ({"width": "3", "puzzle": [[True]]}, "width", "whole number"),
        ({"puzzle": []}, "puzzle", "at least one row"),
        ({"puzzle": [[]]}, "puzzle", "empty"),
        ({"id": "x"}, "puzzle", "missing"),
        ({"id": [1], "puzzle": [[True]]}, "id", "text"),
        ("..\n.x", "puzzle", "'x'"),
        ("...\n..", "puzzle", "ragged"),
        ("", "puzzle", "empty"),
        (42, "instance", "expected contest JSON"),
    ],
)
def test_bad_input_names_the_field(obj, field, words):
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse(obj)
    assert info.value.field == field
    assert words in str(info.value)


def test_too_large_is_413():
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse(f"{MAX_SIDE + 1}x3")
    assert info.value.status == 413 and info.value.field == "width"
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse({"width": 5000, "height": 1, "puzzle": [[True]]})
    assert info.value.status == 413
    assert PUZZLE.parse(f"{MAX_SIDE}x1").width == MAX_SIDE


def test_load_from_file_catalog_and_errors(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"id": "abc", "width": 2, "height": 1, "puzzle": [[True, False]]}))
    grid = PUZZLE.load(str(path))
    assert grid.id == "abc" and grid.free_cells == 1
    assert PUZZLE.load("contest_3").width == 33
    with pytest.raises(InvalidInstance):
        PUZZLE.load("contest_11")


def test_catalog_and_keys():
    names = PUZZLE.catalog()
    assert all(f"contest_{n}" in names for n in range(1, 11))
    for name in names:
        grid = PUZZLE.catalog_instance(name)
        assert PUZZLE.instance_key(grid) == name
        assert PUZZLE.published(name) is None or PUZZLE.published(name)["proven"]
    assert PUZZLE.published("contest_3")["value"] == 103
    assert PUZZLE.published("rect_10x60")["value"] == 6  # A219158(10, 60)
    assert PUZZLE.published("rect_13x11") is None  # beyond the shipped m <= 10
    odd = PUZZLE.parse("..#\n...")
    assert PUZZLE.instance_key(odd).startswith("3x2:")


@given(grids, st.integers(0, 7), st.data())
@settings(max_examples=80, deadline=None)
def test_square_back_inverts_orient(puzzle, k, data):
    cells = np.arange(len(puzzle) * len(puzzle[0])).reshape(len(puzzle), len(puzzle[0]))
    turned = orient(cells, k)
    h, w = turned.shape
    size = data.draw(st.integers(1, min(h, w)))
    x = data.draw(st.integers(0, w - size))
    y = data.draw(st.integers(0, h - size))
    bx, by, bs = square_back(x, y, size, k, cells.shape[1], cells.shape[0])
    assert bs == size
    assert sorted(turned[y : y + size, x : x + size].ravel()) == sorted(cells[by : by + size, bx : bx + size].ravel())


def test_eight_distinct_orientations():
    cells = np.arange(6).reshape(2, 3)
    shapes = {orient(cells, k).tobytes() + bytes(orient(cells, k).shape) for k in range(len(ORIENTATIONS))}
    assert len(shapes) == 8


def test_grid_helpers():
    grid = Grid.from_array(np.array([[True, False], [True, True]]), id="q")
    assert grid.rows == (".#", "..") and format_grid(grid)["puzzle"] == [[True, False], [True, True]]
    assert parse_grid(format_grid(grid)) == grid
