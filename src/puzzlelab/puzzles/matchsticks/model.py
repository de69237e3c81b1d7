"""Instances and solutions of the matchstick-squares puzzle (OEIS A294249).

An instance is one number n (0 <= n <= 63): place one square of each size 1x1 .. nxn on
the square grid so that the union of their sides uses as few unit matchsticks as
possible. Squares may overlap and share matches.

A solution is the list of squares, each `(size, x, y)` with (x, y) the top-left corner
in grid units, x to the right and y downwards (the field's convention). As in the
record, the squares normally lie inside the largest one; a solution found by a search
with `roam` = m says so (`{"roam": m, "squares": [...]}`) and its squares may then
leave the largest square by up to m units on every side.

Why 63: a row (or column) of the area holds at most 63 unit segments, so every row fits
one 64-bit word in the kernels (`kernels.py`); a search with roam m needs n + 2m <= 63.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import is_whole, parse_json, shown

__all__ = [
    "MAX_N",
    "MAX_AREA",
    "Instance",
    "Square",
    "Solution",
    "parse_instance",
    "shown",
    "parse_solution",
    "format_solution",
]

MAX_N = 63
MAX_AREA = 63  # unit segments per row of the searched area (one uint64 word per row)
MAX_PLACE = 10_000  # largest |x|, |y|, size and roam a solution may state
_MAX_DIGITS = 30  # a longer number is refused before it is converted (413 for n)


@dataclass(frozen=True)
class Instance:
    """Squares of every size 1..n are to be formed."""

    n: int

    @property
    def key(self) -> str:
        return str(self.n)


@dataclass(frozen=True, order=True)
class Square:
    """One square: its side and the (x, y) grid point of its top-left corner."""

    size: int
    x: int
    y: int

    def as_list(self) -> list[int]:
        return [self.size, self.x, self.y]


@dataclass(frozen=True)
class Solution:
    """The squares of one answer (largest first) and the roam margin of its area."""

    squares: tuple[Square, ...]
    roam: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"roam": self.roam, "squares": [s.as_list() for s in self.squares]}


def parse_instance(obj: Any) -> Instance:
    """An Instance from 16, "16", "n=16" or {"n": 16}; InvalidInstance naming `n`
    (status 413 for a number past MAX_N, however many digits it has)."""
    raw = obj
    if isinstance(obj, dict):
        if "n" not in obj:
            raise InvalidInstance('instance: expected {"n": <0..63>} (the largest square size)', field="n")
        raw = obj["n"]
    if isinstance(raw, str):
        text = raw.strip()
        match = re.fullmatch(r"(?:n\s*=\s*)?([+-]?)([0-9]+)", text)
        if not match:
            raise InvalidInstance(f"n: expected an integer 0..{MAX_N} (the largest square size), got {text[:40]!r}", field="n")
        sign, digits = match.groups()
        if len(digits.lstrip("0")) > _MAX_DIGITS:
            status = 422 if sign == "-" else 413
            raise InvalidInstance(f"n: expected an integer 0..{MAX_N}, got a number of {len(digits.lstrip('0'))} digits", "n", status)
        raw = int(sign + digits)
    if not is_whole(raw):
        if isinstance(raw, float) and raw.is_integer():
            raw = int(raw)
        else:
            raise InvalidInstance(f"n: expected an integer 0..{MAX_N}, got {shown(raw)}", field="n")
    if raw < 0:
        raise InvalidInstance(f"n: expected an integer 0..{MAX_N}, got {shown(raw)} (negative)", field="n")
    if raw > MAX_N:
        raise InvalidInstance(
            f"n: expected an integer 0..{MAX_N}, got {shown(raw)} (a row of the area must fit one 64-bit word)",
            field="n",
            status=413,
        )
    return Instance(raw)


def _square_from(item: Any, index: int) -> Square:
    where = f"squares[{index}]"
    if isinstance(item, dict):
        try:
            values = [item["size"], item["x"], item["y"]]
        except KeyError as exc:
            raise InvalidInstance(f"{where}: expected keys size, x, y; missing {shown(exc.args[0])}", field="squares") from None
    elif isinstance(item, (list, tuple)):
        values = list(item)
    else:
        raise InvalidInstance(f"{where}: expected (size, x, y), got {shown(item)}", field="squares")
    if len(values) != 3 or any(not is_whole(v) for v in values):
        raise InvalidInstance(f"{where}: expected three integers (size, x, y), got {shown(item)}", field="squares")
    size, x, y = values
    if size < 1:
        raise InvalidInstance(f"{where}: size must be at least 1, got {shown(size)}", field="squares")
    if size > MAX_PLACE:
        raise InvalidInstance(f"{where}: size {shown(size)} is implausibly large (sizes run 1..{MAX_N})", field="squares")
    if abs(x) > MAX_PLACE or abs(y) > MAX_PLACE:
        raise InvalidInstance(f"{where}: corner ({shown(x)}, {shown(y)}) is implausibly far away", field="squares")
    return Square(size, x, y)


_TUPLE = re.compile(r"\(\s*([+-]?[0-9]+)\s*,\s*([+-]?[0-9]+)\s*,\s*([+-]?[0-9]+)\s*\)")


def _number(text: str) -> int:
    """A number of the `(size, x, y)` text (one too long to be a place is refused
    before it is converted)."""
    digits = len(text.lstrip("+-").lstrip("0"))
    if digits > _MAX_DIGITS:
        raise InvalidInstance(f"solution: a number of {digits} digits is not a size or a place (at most {MAX_PLACE})", "squares")
    return int(text)


def parse_solution(obj: Any) -> Solution:
    """A Solution from JSON ({"squares": [...], "roam": m} or a bare list of squares) or
    text of `(size, x, y)` triples, e.g. "(2,0,0) (1,0,0)". Only the form is checked
    here; `verify.py` checks sizes and area. The field's ASCII drawing is read by
    `drawing.py` (`parse_any_solution` takes every form), which builds on this module.
    JSON text goes through `core.inputs.parse_json` (depth, size, number limits)."""
    roam = 0
    if isinstance(obj, str):
        text = obj.strip()
        if text[:1] and text[:1] in "[{":
            obj = parse_json(text, "solution")
        else:
            triples = _TUPLE.findall(text)
            leftover = _TUPLE.sub("", text).replace(",", " ").strip()
            if leftover or not triples and text:
                raise InvalidInstance(
                    f"solution: expected squares as (size, x, y) triples, found {leftover[:40]!r}", field="squares"
                )
            obj = [[_number(a), _number(b), _number(c)] for a, b, c in triples]
    if isinstance(obj, dict):
        if "squares" not in obj:
            raise InvalidInstance('solution: expected {"squares": [[size, x, y], ...]}', field="squares")
        roam = obj.get("roam", 0)
        if not is_whole(roam) or roam < 0 or roam > MAX_PLACE:
            raise InvalidInstance(f"roam: expected an integer 0..{MAX_PLACE}, got {shown(roam)}", field="roam")
        obj = obj["squares"]
    if not isinstance(obj, (list, tuple)):
        raise InvalidInstance(f"solution: expected a list of squares (size, x, y), got {type(obj).__name__}", field="squares")
    squares = tuple(_square_from(item, i) for i, item in enumerate(obj))
    return Solution(tuple(sorted(squares, key=lambda s: (-s.size, s.y, s.x))), roam)


def format_solution(squares: list[tuple[int, int, int]] | tuple[Square, ...], roam: int = 0) -> dict[str, Any]:
    """The JSON form of a solution, largest square first."""
    items = [s if isinstance(s, Square) else Square(*s) for s in squares]
    items.sort(key=lambda s: -s.size)
    return Solution(tuple(items), roam).to_json()
