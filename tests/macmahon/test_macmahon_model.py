"""Parsing instances: text and JSON forms, round trips, and clear errors."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.macmahon import PUZZLE
from puzzlelab.puzzles.macmahon.model import format_instance, instance_key, parse_instance
from puzzlelab.puzzles.macmahon.tiles import tile_set


def test_classic_instance():
    inst = parse_instance("4x6")
    assert inst.board.cells == 24 and inst.colours == ("white", "red", "blue")
    assert inst.border == 0 and inst.full_set and inst.piece_count == 24
    assert inst.tile_names()[0] == "WWWW" and len(inst.tile_names()) == 24
    assert instance_key(inst) == "4x6"


def test_colour_count_follows_the_board_area():
    assert len(parse_instance("2x3").colours) == 2
    assert len(parse_instance("7x10").colours) == 4
    assert len(parse_instance("hex2").colours) == 4 and parse_instance("hex2").sides == 3


def test_text_options_and_json_agree():
    a = parse_instance("4x6/free")
    b = parse_instance({"board": "4x6", "colours": 3, "border": None})
    assert a == b and a.border is None and instance_key(a) == "4x6/free"
    c = parse_instance("4x6 border=red")
    assert c.border == 1 and instance_key(c) == "4x6/border=red"
    d = parse_instance({"rows": 4, "cols": 6, "colors": ["white", "red", "blue"], "border": "W"})
    assert d == parse_instance("4x6")


def test_multisets():
    inst = parse_instance("1x3/c2/tiles=WWWW*2,RWWW")
    names = inst.tile_names()
    assert inst.counts[names.index("WWWW")] == 2 and inst.counts[names.index("WWWR")] == 1
    assert parse_instance({"board": "1x3", "colours": 2, "tiles": {"WWWW": 2, "WWWR": 1}}) == inst


@pytest.mark.parametrize(
    "text,field,words",
    [
        ("4x5", "board", "no full set"),
        ("4x6/c2", "tiles", "board area must equal"),
        ("3x3/c3/tiles=WWWW,WWWR", "tiles", "has 9 cells but the tile multiset has 2"),
        ("4x6/border=pink", "border", "unknown colour"),
        ("1x1/c2/tiles=WWXW", "tiles", "unknown colour"),
        ("1x1/c2/tiles=WWW", "tiles", "4 colour letters"),
        ("fourbysix", "board", "expected a board"),
        ("4x6/shape=round", "shape", "unknown field"),
        ("100x100", "board", "more than"),
        ("4x6/c9", "colours", "1..8"),
    ],
)
def test_bad_input_names_the_field(text, field, words):
    with pytest.raises(InvalidInstance) as err:
        parse_instance(text)
    assert err.value.field == field and words in str(err.value)


def test_colour_names_must_have_distinct_letters():
    with pytest.raises(InvalidInstance, match="different letters"):
        parse_instance({"board": "2x3", "colours": ["white", "wine"]})


def test_load_from_cli_forms():
    assert PUZZLE.load("4x6") == parse_instance("4x6")
    assert PUZZLE.load(json.dumps({"board": "2x12"})) == parse_instance("2x12")
    with pytest.raises(InvalidInstance):
        PUZZLE.load("banana")


@st.composite
def instances(draw):
    sides = draw(st.sampled_from([3, 4]))
    c = draw(st.integers(1, 3))
    tiles = tile_set(c, sides)
    if sides == 4:
        rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        name, cells = f"{rows}x{cols}", rows * cols
    else:
        name, cells = "hex1", 6
    picks = draw(st.lists(st.integers(0, len(tiles) - 1), min_size=cells, max_size=cells))
    letters = "WRB"
    border = draw(st.sampled_from([None] + list(range(c))))
    return {
        "board": name,
        "colours": c,
        "border": None if border is None else letters[border],
        "tiles": ["".join(letters[x] for x in tiles[p]) for p in picks],
    }


@settings(max_examples=60, deadline=None)
@given(instances())
def test_round_trip(data):
    inst = parse_instance(data)
    again = parse_instance(format_instance(inst))
    assert again == inst
    assert parse_instance(json.loads(json.dumps(format_instance(inst)))) == inst
    assert sum(inst.counts) == inst.board.cells
