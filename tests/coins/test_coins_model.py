"""Model and checker of the coin puzzles: fonts as shipped, parsing with clear errors,
round trips (hypothesis), and the replay checker against hand-made and brute-force cases."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.coins import PUZZLE, model, reference


def test_fonts_as_published():
    fonts = model.fonts()
    assert set(fonts) == {"font5x7", "font5x9"}
    for name, (w, h, coins) in {"font5x7": (5, 7, 12), "font5x9": (5, 9, 13)}.items():
        font = fonts[name]
        assert (font["width"], font["height"]) == (w, h)
        assert len(font["order"]) == 37 and font["order"][0] == "/" and font["order"][1] == "A"
        assert {model.popcount(m) for m in font["glyphs"].values()} == {coins}
        assert len(set(font["glyphs"].values())) == 37  # all glyphs differ
    # The A of font5x7 row by row, as in the reference file.
    assert model.mask_to_rows(model.glyph_mask("font5x7", "A"), 5, 7) == ["--o--", "-o-o-", "o---o", "o-o-o", "o---o", "-----", "o---o"]


def test_catalog_has_37_by_36_per_font_and_the_published_sample():
    names = model.catalog_names()
    assert len(names) == 2 * 37 * 36 == 2664 and len(set(names)) == 2664
    assert len(PUZZLE.catalog()) == 2664
    published = reference.published_lengths()
    assert len(published) == 210 and set(published) <= set(names)
    assert PUZZLE.published("font5x7:O-C") == {"value": 3, "proven": True, "source": PUZZLE.published("font5x7:O-C")["source"]}
    assert PUZZLE.published("font5x7:A-A") is None


def test_parse_font_names_and_json_forms():
    a = PUZZLE.parse("font5x7:A-B")
    assert (a.width, a.height, a.coins, a.key) == (5, 7, 12, "font5x7:A-B")
    assert PUZZLE.parse({"font": "font5x7", "start": "A", "target": "B"}) == a
    assert PUZZLE.parse("font5x7:a-b") == a  # letters in either case
    slash = PUZZLE.parse("font5x9:/-0")
    assert slash.key == "font5x9:/-0" and slash.coins == 13
    assert PUZZLE.load("font5x7:A-B") == a


def test_parse_glyph_text_and_round_trip():
    text = "oo--\noo--\n----\n\n----\n-oo-\n-oo-\n"
    inst = PUZZLE.parse(text)
    assert (inst.width, inst.height, inst.coins, inst.font) == (4, 3, 4, None)
    assert PUZZLE.parse(PUZZLE.format_instance(inst)) == inst
    assert PUZZLE.parse("start:\noo--\noo--\n->\ntarget:\n--oo\n--oo") == PUZZLE.parse({"start": ["oo--", "oo--"], "target": ["--oo", "--oo"]})
    assert inst.key == "4x3:0x33-0x660"


@pytest.mark.parametrize(
    "bad, field, words",
    [
        ("font5x7:A-#", "target", "no glyph '#'"),
        ("font5x8:A-B", "font", "no font 'font5x8'"),
        ("font5x7:AB", "instance", "font5x7:A-B"),
        ("oo-\n---\n\n-o-\n---", "target", "has 1 coins but start has 2"),
        ("o" * 65 + "\n\n" + "o" * 65, "start", "at most 64"),
        ("oox\n\noo-", "start", "'x'"),
        ("oo-\no\n\noo-\n---", "start", "row 2"),
        ("ooo\n\noo\noo", "target", "same size"),
        ("---\n\n---", "start", "no coins"),
        ({"start": "A"}, "instance", "'start' and 'target'"),
        (42, "instance", "expected"),
    ],
)
def test_bad_input_names_the_field(bad, field, words):
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse(bad)
    assert info.value.field == field
    assert words in str(info.value)


def test_board_over_64_cells_is_413():
    rows = ["o" * 9] * 8
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse({"start": rows, "target": rows})
    assert info.value.status == 413 and "72 cells" in str(info.value)


boards = st.integers(min_value=1, max_value=8).flatmap(
    lambda w: st.integers(min_value=1, max_value=64 // w).flatmap(
        lambda h: st.tuples(st.just(w), st.just(h), st.integers(min_value=1, max_value=(1 << (w * h)) - 1))
    )
)


@settings(max_examples=150, deadline=None)
@given(boards, st.randoms(use_true_random=False))
def test_round_trip_of_any_board_pair(board, rnd):
    w, h, start = board
    cells = list(range(w * h))
    rnd.shuffle(cells)
    target = sum(1 << c for c in cells[: model.popcount(start)])
    inst = model.Instance(w, h, start, target)
    assert PUZZLE.parse(PUZZLE.format_instance(inst)) == inst
    assert PUZZLE.parse(json.loads(json.dumps(PUZZLE.format_instance(inst)))) == inst
    assert model.rows_to_mask(model.mask_to_rows(start, w, h), "start") == (w, h, start)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="o-\n x.", max_size=60))
def test_parser_never_crashes_on_junk(text):
    try:
        PUZZLE.parse(text)
    except InvalidInstance as exc:
        assert exc.field
