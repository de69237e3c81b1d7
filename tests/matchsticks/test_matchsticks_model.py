"""Parsing instances and solutions: every bad input is an InvalidInstance naming its
field; good input round-trips."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance, Square, format_solution, parse_solution


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=63))
def test_instance_round_trips(n):
    instance = PUZZLE.parse(n)
    assert instance == Instance(n)
    assert PUZZLE.parse(PUZZLE.format_instance(instance)) == instance
    assert PUZZLE.parse(str(n)) == instance
    assert PUZZLE.load(json.dumps(PUZZLE.format_instance(instance))) == instance
    assert PUZZLE.load(PUZZLE.instance_key(instance)) == instance


@pytest.mark.parametrize(
    "raw, status, fragment",
    [
        (64, 413, "0..63"),
        (1000, 413, "0..63"),
        (-1, 422, "negative"),
        ("sixteen", 422, "integer"),
        ("3.5", 422, "integer"),
        (True, 422, "integer"),
        ({"size": 4}, 422, '"n"'),
        ({"n": "x"}, 422, "integer"),
    ],
)
def test_bad_instances_name_the_field(raw, status, fragment):
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse(raw)
    assert info.value.field == "n" and info.value.status == status
    assert fragment in str(info.value)


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(1, 63), st.integers(-5, 70), st.integers(-5, 70)), max_size=12), st.integers(0, 5))
def test_solution_json_round_trips(triples, roam):
    data = format_solution(triples, roam)
    parsed = parse_solution(data)
    assert sorted(parsed.squares) == sorted(Square(*t) for t in triples)
    assert parsed.roam == roam
    assert parse_solution(json.dumps(data)) == parsed
    text = " ".join(f"({s}, {x}, {y})" for s, x, y in triples)
    assert sorted(parse_solution(text).squares) == sorted(parsed.squares)


@pytest.mark.parametrize(
    "raw, fragment",
    [
        ({"items": []}, '"squares"'),
        ([[1, 0]], "three integers"),
        ([[1, 0, "a"]], "three integers"),
        ([[0, 0, 0]], "at least 1"),
        ([{"size": 2, "x": 0}], "missing 'y'"),
        ("(1, 0, 0) and more", "triples"),
        ({"squares": [], "roam": -1}, "roam"),
        (42, "list of squares"),
    ],
)
def test_bad_solutions_name_the_field(raw, fragment):
    with pytest.raises(InvalidInstance) as info:
        parse_solution(raw)
    assert fragment in str(info.value)
    assert info.value.field in ("squares", "roam")


def test_catalog_lists_every_published_n_and_published_figures():
    catalog = PUZZLE.catalog()
    assert set(catalog) == {str(n) for n in range(64)}
    assert PUZZLE.published("46") == {"value": 909, "proven": True, "source": PUZZLE.published("46")["source"]}
    assert PUZZLE.published("63")["proven"] is False and PUZZLE.published("63")["value"] == 1451
    assert PUZZLE.published("banana") is None
