"""Method options on the command line (cli.common.parse_method_options) on odd input
: `--no-NAME` only for true/false options and without a value, `--name=`
an empty value (not the next argument), a long stray argument quoted short."""

from __future__ import annotations

import pytest

from puzzlelab.cli.running import parse_method_options
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.puzzle import Method, Option

METHOD = Method(
    "m", "a method", lambda *a, **k: None, (Option("hint", "bool", True), Option("width", "int", 10, minimum=1), Option("order", "str", "spiral"))
)


def test_the_usual_forms_still_work():
    assert parse_method_options(METHOD, ["--no-hint", "--width", "5", "--order=rows"]) == {"hint": False, "width": "5", "order": "rows"}
    assert parse_method_options(METHOD, ["--hint=false", "--width=7"]) == {"hint": False, "width": "7"}
    assert parse_method_options(METHOD, ["--hint"]) == {"hint": True}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--no-hint=true"], "--no-hint: takes no value"),  # was hint=True: the opposite of the flag
        (["--no-width", "5"], "--no-width: is not a true/false option"),  # was width=5
        (["--width"], "expected a value after it"),
        (["x" * 5000], "unexpected argument 'xxxx"),
    ],
)
def test_odd_forms_are_refused_naming_the_option(args, words):
    with pytest.raises(InvalidInstance) as refused:
        parse_method_options(METHOD, args)
    assert words in str(refused.value) and len(str(refused.value)) < 200


def test_an_empty_inline_value_is_the_value_not_the_next_argument():
    assert parse_method_options(METHOD, ["--order=", "--no-hint"]) == {"order": "", "hint": False}
