"""Option.coerce and Method.parse_options on hostile values: a clear one-line
InvalidInstance naming the option, or a value of the declared kind within its range;
`local_only` options refused from a remote client."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.puzzle import Method, Option
from support.text_strategies import text

OPTIONS = [
    Option("width", "int", 10, "beam width", minimum=1, maximum=1_000_000),
    Option("ratio", "float", 0.5, "a ratio", minimum=0, maximum=1),
    Option("flag", "bool", False, "a switch"),
    Option("allow", "ints", (), "values"),
    Option("mode", "str", "a", "mode", choices=("a", "b")),
]
hostile = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    text(20),
    st.just("9" * 5000),
    st.just("inf"),
    st.just("nan"),
    st.lists(st.one_of(st.integers(), st.booleans(), st.none(), text(3)), max_size=4),
    st.dictionaries(text(3), st.integers(), max_size=2),
)


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
@given(raw=hostile)
@settings(max_examples=150, deadline=None)
def test_coerce_gives_the_declared_kind_or_a_clear_error(option, raw):
    try:
        value = option.coerce(raw)
    except InvalidInstance as exc:
        message = str(exc)
        assert exc.field == option.name and message.startswith(f"option {option.flag}")
        assert "\n" not in message and len(message) < 300
        return
    if raw is None:
        assert value is None
    elif option.kind == "int":
        assert type(value) is int and 1 <= value <= 1_000_000
    elif option.kind == "float":
        assert isinstance(value, float) and math.isfinite(value) and 0 <= value <= 1
    elif option.kind == "bool":
        assert type(value) is bool
    elif option.kind == "ints":
        assert isinstance(value, tuple) and all(type(v) is int for v in value)
    else:
        assert value in ("a", "b")


def test_numbers_out_of_range_or_not_whole_are_refused():
    width = OPTIONS[0]
    for raw in ("9" * 5000, True, 2.5, "inf", float("nan"), [3]):
        with pytest.raises(InvalidInstance, match="option --width"):
            width.coerce(raw)
    for raw in ("nan", "inf", float("inf"), "1e400", True):
        with pytest.raises(InvalidInstance, match="option --ratio"):
            OPTIONS[1].coerce(raw)


def test_local_only_options_are_refused_from_a_remote_client():
    method = Method("full", "exhaustive", lambda *a, **k: None, (Option("checkpoint", "str", None, "file", local_only=True), OPTIONS[0]))
    assert method.parse_options({"checkpoint": "/tmp/x.json"})["checkpoint"] == "/tmp/x.json"  # the CLI's own user
    for spelling in ("checkpoint", "--checkpoint"):
        with pytest.raises(InvalidInstance, match="names a file or machine on the server") as caught:
            method.parse_options({spelling: "../../etc/x"}, remote=True)
        assert caught.value.field == "checkpoint"
    assert method.parse_options({"width": 3}, remote=True) == {"checkpoint": None, "width": 3}
    with pytest.raises(InvalidInstance, match="expected an object"):
        method.parse_options(["width", 3], remote=True)


def test_an_unknown_option_name_is_shown_on_one_line():
    method = Method("m", "a method", lambda *a, **k: None, (OPTIONS[0],))
    with pytest.raises(InvalidInstance) as caught:
        method.parse_options({"bad\nname" + "x" * 500: 1})
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200
