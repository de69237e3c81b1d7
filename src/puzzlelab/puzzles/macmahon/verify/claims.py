"""What a count certificate claims, read into dataclasses before anything is checked:
every field of the JSON wire format (see `verify_certificate`) with its type, or a
`Malformed` error naming the field and what was expected. Nothing here trusts the input:
null, strings for numbers, floats, booleans, unknown fields and nested junk are refused
with one line. `show` describes any input value in a few words (never its full repr,
which for deeply nested or huge input would not fit a line or not be printable at all).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["CountClaim", "GroupClaim", "Malformed", "parse_certificate", "show", "number"]

FIELDS = ("kind", "total", "complete", "elements", "groups", "fixed_points", "symmetric", "symmetric_complete", "examples")
GROUP_FIELDS = ("members", "classes", "orbit_sizes")
MAX_ELEMENTS = 10_000  # more names than any board's symmetries times colour permutations here
_ELEMENT_NAME = re.compile(r"(?:id|rot\d{1,3}|mirror\d{1,3})(?:\+[A-Z]{1,8})?|[A-Z]{1,8}")
_GROUP_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
_ORBIT_SIZE = re.compile(r"[1-9][0-9]{0,5}")


class Malformed(ValueError):
    """The certificate's shape is wrong: a field missing, unknown, or of the wrong type."""


@dataclass(frozen=True)
class GroupClaim:
    """One subgroup H: its members, its number of classes, {orbit size: how many}."""

    name: str
    members: tuple[str, ...]
    classes: int
    orbit_sizes: dict[int, int]


@dataclass(frozen=True)
class CountClaim:
    """Every claim of a count certificate (grids are checked later, as solutions)."""

    total: int
    complete: bool
    elements: tuple[str, ...]
    groups: tuple[GroupClaim, ...]
    fixed_points: dict[str, int]  # only the elements the certificate gives a figure for
    symmetric: tuple[Any, ...]
    symmetric_complete: bool
    examples: tuple[Any, ...]


def number(value: int) -> str:
    """A count for a message: with thousands separators, or its size when too long."""
    return f"{value:,}" if value.bit_length() <= 200 else f"a number of {value.bit_length()} bits"


def show(value: Any) -> str:
    """A short description of a JSON value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else f"a string of {len(value)} characters"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} fields"
    return f"a {type(value).__name__}"


def _integer(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(f"{where}: expected a whole number, got {show(value)}")
    if value < 0:
        raise Malformed(f"{where}: expected a number at least 0, got {show(value)}")
    return value


def _boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise Malformed(f"{where}: expected true or false, got {show(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Malformed(f"{where}: expected a list, got {show(value)}")
    return value


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise Malformed(f"{where}: expected an object, got {show(value)}")
    return value


def _names(value: Any, where: str, known: frozenset[str] | None = None) -> tuple[str, ...]:
    names = _list(value, where)
    if not names:
        raise Malformed(f"{where}: expected at least one element (the identity 'id')")
    if len(names) > MAX_ELEMENTS:
        raise Malformed(f"{where}: {len(names)} elements, more than any symmetry group here ({MAX_ELEMENTS:,})")
    for name in names:
        if not isinstance(name, str) or not _ELEMENT_NAME.fullmatch(name):
            raise Malformed(f"{where}: expected element names like id, rot180, mirror90+WBR or WBR, got {show(name)}")
        if known is not None and name not in known:
            raise Malformed(f"{where}: {name} is not one of the listed elements")
    if len(set(names)) != len(names):
        raise Malformed(f"{where}: an element is listed twice")
    return tuple(names)


def _group(name: str, value: Any, elements: frozenset[str]) -> GroupClaim:
    if not _GROUP_NAME.fullmatch(name):
        raise Malformed(f"groups: expected group names of letters and digits, got {show(name)}")
    where = f"groups.{name}"
    fields = _mapping(value, where)
    for key in fields:
        if key not in GROUP_FIELDS:
            raise Malformed(f"{where}: unknown field {show(key)} (a group has members, classes, orbit_sizes)")
    for key in GROUP_FIELDS:
        if key not in fields:
            raise Malformed(f"{where}: the field {key} is missing")
    members = _names(fields["members"], f"{where}.members", elements)
    classes = _integer(fields["classes"], f"{where}.classes")
    sizes = {}
    for size, count in _mapping(fields["orbit_sizes"], f"{where}.orbit_sizes").items():
        if not _ORBIT_SIZE.fullmatch(size):
            raise Malformed(f"{where}.orbit_sizes: expected orbit sizes like \"8\", got {show(size)}")
        sizes[int(size)] = _integer(count, f"{where}.orbit_sizes.{size}")
    return GroupClaim(name, members, classes, sizes)


def parse_certificate(cert: dict[str, Any]) -> CountClaim:
    """The claims of a count certificate; Malformed naming the first bad field."""
    for key in cert:
        if key not in FIELDS:
            raise Malformed(f"unknown field {show(key)} (a count certificate has {', '.join(FIELDS)})")
    for key in ("total", "complete"):
        if key not in cert:
            raise Malformed(f"the field {key} is missing")
    total = _integer(cert["total"], "total")
    complete = _boolean(cert["complete"], "complete")
    elements = _names(cert.get("elements", ["id"]), "elements")
    known = frozenset(elements)
    groups = tuple(_group(name, value, known) for name, value in _mapping(cert.get("groups", {}), "groups").items())
    fixed = {}
    for name, value in _mapping(cert.get("fixed_points", {}), "fixed_points").items():
        if name not in known:
            raise Malformed(f"fixed_points: {show(name)} is not one of the listed elements")
        fixed[name] = _integer(value, f"fixed_points.{name}")
    return CountClaim(
        total=total,
        complete=complete,
        elements=elements,
        groups=groups,
        fixed_points=fixed,
        symmetric=tuple(_list(cert.get("symmetric", []), "symmetric")),
        symmetric_complete=_boolean(cert.get("symmetric_complete", False), "symmetric_complete"),
        examples=tuple(_list(cert.get("examples", []), "examples")),
    )
