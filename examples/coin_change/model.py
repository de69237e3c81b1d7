"""The coin-change instance: its type, how it is read and written, and what is refused.

An instance is a set of coin denominations and a target amount; a solution is the list
of coins paid, e.g. `[5, 6]` for 11 with coins 1 5 6 9. Every way an instance reaches
the puzzle (a catalog name, a file, the command line, the REST service, a worker
process) goes through `parse`, so this is the one place that decides what is valid and
says, in an `InvalidInstance`, which field is wrong and what was expected.

What a real puzzle keeps here: the instance and solution types (small, immutable,
comparable: a NamedTuple or a frozen dataclass), `parse` / `format_instance` with
`parse(format_instance(x)) == x`, the short key the records store files results under,
and the size limits that keep a hostile or mistaken input from exhausting the machine.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from puzzlelab.core.inputs import MAX_INT_DIGITS, shown
from puzzlelab.core.puzzle import InvalidInstance

__all__ = ["Change", "parse", "format_instance", "instance_key", "parse_solution", "MAX_TARGET", "MAX_COINS"]

MAX_TARGET = 1_000_000  # the `dp` table holds one entry per amount up to the target
MAX_COINS = 64  # distinct denominations

TEXT_FORM = (
    "text 'TARGET COIN COIN ...' (e.g. '11 1 5 6 9'), the key form 'TARGET:COIN,COIN,...' "
    "(e.g. '11:1,5,6,9') or JSON {'coins': [1, 5, 6, 9], 'target': 11}"
)


class Change(NamedTuple):
    """Pay `target` with the fewest coins of the denominations `coins` (each any number
    of times). `coins` is sorted and free of repeats, so equal instances compare equal
    and get the same key. A NamedTuple is a tuple: `Change((1, 5), 7) == ((1, 5), 7)`."""

    coins: tuple[int, ...]
    target: int


def _positive_int(value: Any, field: str, maximum: int, minimum: int = 1) -> int:
    """`value` as an integer in minimum..maximum; past the maximum it is too large (413,
    what the service answers for an instance this machine will not take on)."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        status = 413 if isinstance(value, int) and not isinstance(value, bool) and value > maximum else 422
        raise InvalidInstance(f"{field}: expected an integer from {minimum} to {maximum}, got {shown(value)}", field=field.split("[")[0], status=status)
    return value


def _no_huge_numbers(parts: list[str], field: str) -> None:
    """Digits read as numbers, at most MAX_INT_DIGITS each: Python will not even turn
    a text of 5,000 digits into an int (it raises ValueError, not a refusal)."""
    longest = max((len(p.lstrip("-")) for p in parts), default=0)
    if longest > MAX_INT_DIGITS:
        raise InvalidInstance(f"{field}: a number of {longest} digits; expected at most {MAX_INT_DIGITS}", field=field, status=413)


def parse(obj: Any) -> Change:
    """An instance from text ('11 1 5 6 9': the target, then the coins), from its key
    ('11:1,5,6,9', so a stored record's key loads again) or from JSON
    ({'coins': [...], 'target': n}); InvalidInstance naming the field otherwise."""
    if isinstance(obj, Change):
        return obj
    if isinstance(obj, str):
        parts = [p for p in re.split(r"[\s,:]+", obj.strip()) if p]
        if len(parts) < 2 or not all(re.fullmatch(r"-?\d+", p) for p in parts):
            raise InvalidInstance(f"instance: expected {TEXT_FORM}", field="instance")
        _no_huge_numbers(parts, "instance")
        numbers = [int(p) for p in parts]
        obj = {"target": numbers[0], "coins": numbers[1:]}
    if not isinstance(obj, dict) or "coins" not in obj or "target" not in obj:
        raise InvalidInstance(f"instance: expected {TEXT_FORM}", field="instance")
    coins = obj["coins"]
    if not isinstance(coins, (list, tuple)) or not coins:
        raise InvalidInstance(f"coins: expected a non-empty list of positive integers, got {shown(coins)}", field="coins")
    values = sorted({_positive_int(c, f"coins[{i}]", MAX_TARGET) for i, c in enumerate(coins)})
    if len(values) > MAX_COINS:
        raise InvalidInstance(f"coins: expected at most {MAX_COINS} distinct denominations, got {len(values)}", field="coins", status=413)
    target = _positive_int(obj["target"], "target", MAX_TARGET, minimum=0)
    return Change(tuple(values), target)


def format_instance(instance: Change) -> dict[str, Any]:
    """The JSON form: how an instance travels to workers, cluster nodes and the page."""
    return {"coins": list(instance.coins), "target": instance.target}


def instance_key(instance: Change) -> str:
    """Short, stable and unique: '11:1,5,6,9' (the records store files results by it)."""
    return f"{instance.target}:{','.join(map(str, instance.coins))}"


def parse_solution(obj: Any) -> list[int]:
    """A solution from JSON ([5, 6]) or text ('5 6', '5 + 6'); InvalidInstance otherwise.
    Only the shape is checked here: whether it pays the target is `verify`'s question."""
    if isinstance(obj, str):
        parts = [p for p in re.split(r"[\s,+]+", obj.strip()) if p]
        if not all(re.fullmatch(r"\d+", p) for p in parts):
            raise InvalidInstance("solution: expected a list of coins such as [5, 6] or '5 + 6'", field="solution")
        _no_huge_numbers(parts, "solution")
        return [int(p) for p in parts]
    if not isinstance(obj, list) or any(isinstance(c, bool) or not isinstance(c, int) for c in obj):
        raise InvalidInstance(f"solution: expected a list of coins such as [5, 6], got {shown(obj)}", field="solution")
    return list(obj)
