"""core.inputs: every input either comes out within limits or as a one-line
InvalidInstance naming the field -- never another exception. Oracles: the
standard library's own json module on inputs within the limits, and hypothesis over
arbitrary bytes, text and numbers."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import (
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    check_int,
    check_number,
    check_output_path,
    decode_bytes,
    decode_input,
    is_finite,
    is_whole,
    json_depth,
    parse_json,
    read_text_file,
)
from support.text_strategies import text

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False, allow_infinity=False) | text(12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text(6), children, max_size=4),
    max_leaves=20,
)


@given(json_values)
@settings(max_examples=200, deadline=None)
def test_parse_json_agrees_with_json_within_the_limits(value):
    encoded = json.dumps(value)
    assert parse_json(encoded, "x") == json.loads(encoded)


@given(json_values)
@settings(max_examples=200, deadline=None)
def test_json_depth_counts_the_nesting(value):
    def depth(v):
        if isinstance(v, list):
            return 1 + max((depth(c) for c in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(c) for c in v.values()), default=0)
        return 0

    assert json_depth(json.dumps(value)) == depth(value)


@given(st.binary(max_size=200))
@settings(max_examples=300, deadline=None)
def test_arbitrary_bytes_decode_or_fail_clearly(data):
    try:
        text_value = decode_bytes(data, "instance")
    except InvalidInstance as exc:
        assert "\n" not in str(exc) and str(exc).startswith("instance")
    else:
        assert "\x00" not in text_value


@given(text(200))
@settings(max_examples=300, deadline=None)
def test_arbitrary_text_decodes_or_fails_clearly(value):
    try:
        decode_input(value, "instance")
    except InvalidInstance as exc:
        assert "\n" not in str(exc)


def test_deep_json_is_refused_without_recursion():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InvalidInstance, match="nested 100000 deep"):
        parse_json(deep, "solution")
    with pytest.raises(InvalidInstance, match="nested"):
        decode_input(deep, "instance")
    assert parse_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, "x") is not None


@pytest.mark.parametrize("text_value", ["NaN", "[Infinity]", "[-Infinity]", '{"a": NaN}'])
def test_json_constants_are_refused(text_value):
    with pytest.raises(InvalidInstance, match="not a number JSON allows"):
        parse_json(text_value, "x")


@pytest.mark.parametrize("text_value", ["1e400", "[-1e400]", '{"n": 1' + "0" * 400 + '.5}', '{"budget": 2e308}'])
def test_numbers_too_large_for_a_float_are_refused(text_value):
    """JSON's grammar allows 1e400; json.loads made it Infinity, which the puzzles'
    parsers then met as a number (hexagon {"n": -1e400}: OverflowError, exit 5)."""
    with pytest.raises(InvalidInstance, match="too large for a number"):
        parse_json(text_value, "x")
    assert parse_json("[1e308, -1e-400, 0.5]", "x") == [1e308, -0.0, 0.5]


def test_huge_integers_are_refused():
    with pytest.raises(InvalidInstance, match="5000 digits"):
        parse_json("[" + "9" * 5000 + "]", "x")
    with pytest.raises(InvalidInstance, match="5000 digits"):
        decode_input("9" * 5000, "instance")
    assert parse_json("9" * MAX_INT_DIGITS, "x") == int("9" * MAX_INT_DIGITS)


def test_files_are_checked_before_reading(tmp_path):
    with pytest.raises(InvalidInstance, match="no such file"):
        read_text_file(tmp_path / "missing", "solution file")
    with pytest.raises(InvalidInstance, match="not a file"):
        read_text_file(tmp_path, "solution file")
    (tmp_path / "big").write_text("x" * 101)
    with pytest.raises(InvalidInstance, match="larger than 100 bytes") as caught:
        read_text_file(tmp_path / "big", "solution file", limit=100)
    assert caught.value.status == 413
    (tmp_path / "latin1").write_bytes("café".encode("latin-1"))
    with pytest.raises(InvalidInstance, match="not UTF-8"):
        read_text_file(tmp_path / "latin1", "solution file")
    (tmp_path / "bom").write_bytes("\ufeffhello".encode("utf-8"))
    assert read_text_file(tmp_path / "bom", "f") == "hello"


@given(st.one_of(st.integers(), st.floats(), st.booleans(), st.none(), text(20), st.lists(st.integers(), max_size=2)))
@settings(max_examples=300, deadline=None)
def test_check_int_accepts_exactly_the_integers_in_range(value):
    try:
        got = check_int(value, "seed", minimum=0, maximum=2**63 - 1)
    except InvalidInstance as exc:
        assert exc.field == "seed"
        if isinstance(value, int) and not isinstance(value, bool):
            assert not 0 <= value < 2**63
    else:
        assert isinstance(got, int) and 0 <= got < 2**63
        assert not isinstance(value, bool)


@given(st.one_of(st.integers(-(10**40), 10**40), st.floats(), st.booleans(), text(10)))
@settings(max_examples=300, deadline=None)
def test_check_number_gives_finite_numbers_only(value):
    try:
        got = check_number(value, "budget", minimum=0, maximum=86400 * 365)
    except InvalidInstance as exc:
        assert exc.field == "budget"
    else:
        assert math.isfinite(got) and 0 <= got <= 86400 * 365


@given(st.one_of(st.integers(), st.floats(), st.booleans(), st.none(), text(10), st.lists(st.integers(), max_size=2)))
@settings(max_examples=300, deadline=None)
def test_whole_and_finite_are_the_json_numbers(value):
    """The checkpoint readers' type tests: booleans are never numbers, NaN and the
    infinities never finite; the oracle is the value's exact type."""
    assert is_whole(value) == (type(value) is int)
    assert is_finite(value) == (type(value) is int or (type(value) is float and value - value == 0))


def test_output_paths_are_checked(tmp_path):
    assert check_output_path(tmp_path / "a.svg", "--svg") == tmp_path / "a.svg"
    with pytest.raises(InvalidInstance, match="does not exist"):
        check_output_path(tmp_path / "nope" / "a.svg", "--svg")
    with pytest.raises(InvalidInstance, match="is a folder"):
        check_output_path(tmp_path, "--svg")
