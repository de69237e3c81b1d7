"""Hypothesis strategies for hostile input, shared by the contract rules and each
puzzle's own hostile-input tests: numbers no parser should choke on (5,000 digits, NaN,
infinities), JSON-like values with the fields of the five puzzles' formats, JSON text
that writes those numbers out, text a few edits away from a real instance, and files
of odd encodings."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import strategies as st

from support.text_strategies import text

__all__ = [
    "HOSTILE_NUMBERS",
    "hostile_numbers",
    "FIELD_NAMES",
    "scalars",
    "json_values",
    "json_text",
    "near_text",
    "ODD_FILES",
    "deep_list",
]

# Built on demand: hypothesis cannot print a strategy holding an int of 5,000 digits.
HOSTILE_NUMBERS = {
    "10**5000": lambda: 10**5000,
    "-10**5000": lambda: -(10**5000),
    "10**40": lambda: 10**40,
    "2**63": lambda: 2**63,
    "-1": lambda: -1,
    "0": lambda: 0,
    "64": lambda: 64,
    "nan": lambda: math.nan,
    "inf": lambda: math.inf,
    "-inf": lambda: -math.inf,
    "1e300": lambda: 1e300,
    "3.0": lambda: 3.0,
}
hostile_numbers = st.sampled_from(sorted(HOSTILE_NUMBERS)).map(lambda name: HOSTILE_NUMBERS[name]())

# The field names of the five puzzles' instance and solution formats (and the
# template's): a hostile value is most telling under a name the parser looks at.
FIELD_NAMES = (
    "id", "width", "height", "puzzle", "squares", "X", "Y", "Size",  # tiling (the Cimpress JSON)
    "n", "roam", "size", "x", "y",  # matchsticks
    "grid",  # hexagon
    "start", "target", "font", "moves", "solution",  # coins
    "board", "colours", "colors", "border", "tiles", "rows", "cols", "solutions", "kind",  # macmahon
    "coins",  # the template
)  # fmt: skip


def scalars(strings: tuple[str, ...] = ()) -> st.SearchStrategy[Any]:
    """A JSON-like leaf: any kind, hostile numbers often, and `strings` (shapes of the
    puzzle's own text) among the texts."""
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(-5, 1005)
        | st.integers(-(10**40), 10**40)
        | hostile_numbers
        | st.floats(allow_nan=True, allow_infinity=True)
        | text(12)
    )
    return leaves | st.sampled_from(strings) if strings else leaves


def json_values(keys: tuple[str, ...] = FIELD_NAMES, strings: tuple[str, ...] = (), max_leaves: int = 25) -> st.SearchStrategy[Any]:
    """Nested lists and objects of `scalars(strings)`, objects keyed by `keys` or any text."""
    return st.recursive(
        scalars(strings),
        lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.sampled_from(keys) | text(6), kids, max_size=5),
        max_leaves=max_leaves,
    )


def json_text(obj: Any) -> str:
    """JSON text of `obj`, its integers of thousands of digits written out (json.dumps,
    like str(), refuses them) and NaN as JSON's parsers write it."""

    def swap(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**4000:
            return "@HUGE-" if value < 0 else "@HUGE+"
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    digits = "1" + "0" * 5000
    return json.dumps(swap(obj)).replace('"@HUGE-"', "-" + digits).replace('"@HUGE+"', digits)


# What an edit may put in: the punctuation of the five formats, digits, and characters
# that look like digits or letters to a careless reader.
EDIT_CHARACTERS = ".#xXo-/,:;=*()[]{}\" \n\t0123456789²٣éWRB┌─┐"
EDIT_NUMBERS = ("9" * 5000, "0" * 40 + "7", "1" + "0" * 9, "-1", "0", "NaN", "1e400", "2.5", "²", "")


@st.composite
def near_text(draw: Any, seeds: tuple[str, ...]) -> str:
    """One of `seeds` (real instance names and texts) with up to three edits: a
    character replaced, put in or taken out, a run of digits made hostile, the text cut
    short or repeated."""
    spec = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(spec)))
        edit = draw(st.sampled_from(["replace", "insert", "delete", "number", "cut", "repeat"]))
        if edit == "replace" and spec:
            at = min(at, len(spec) - 1)
            spec = spec[:at] + draw(st.sampled_from(EDIT_CHARACTERS)) + spec[at + 1 :]
        elif edit == "insert":
            spec = spec[:at] + draw(st.sampled_from(EDIT_CHARACTERS)) + spec[at:]
        elif edit == "delete":
            spec = spec[:at] + spec[at + 1 :]
        elif edit == "number":
            digits = [i for i, c in enumerate(spec) if c.isdigit()]
            if digits:
                i = draw(st.sampled_from(digits))
                j = i
                while j < len(spec) and spec[j].isdigit():
                    j += 1
                spec = spec[:i] + draw(st.sampled_from(EDIT_NUMBERS)) + spec[j:]
        elif edit == "cut":
            spec = spec[:at]
        else:
            spec = spec + draw(st.sampled_from(["", " ", "\n", ",", ";", "/"])) + spec
    return spec


# Files a careless export or another program leaves behind.
ODD_FILES = (
    b"",
    b"\xff\xfe..",
    b"..\n\x00#",
    "٣x٣".encode(),
    b"\xef\xbb\xbf3x3",
    "3".encode("utf-16"),
    b"\xef\xbb\xbf{\"n\": 3}",
    b"\x89PNG\r\n\x1a\n\x00\x00binary",
    b"[" * 100_000 + b"]" * 100_000,
    b"9" * 5000,
)


def deep_list(depth: int = 100_000) -> list:
    """A list nested `depth` deep (no JSON text makes one past the parsers' limits)."""
    deep: list = []
    for _ in range(depth):
        deep = [deep]
    return deep
