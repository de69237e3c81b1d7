"""What the contract's hostile-input rules need to know of each puzzle beyond its
`Puzzle` object: the text shapes of the field's formats that no catalog name shows
(the tiling's rows of `.` and `#`, coins' glyph rows, MacMahon's board specs ...), a
few strings of those shapes for inside JSON, instances past its stated limits, and
what every instance the puzzle's parser lets through satisfies (within those limits). The rest -- real instance
names and texts, the JSON forms' field names, the path options -- comes from the
`Puzzle` objects (`seeds`, `instance_fields`)."""

from __future__ import annotations

import json
from typing import Any, Callable

from hypothesis import strategies as st

from puzzlelab.core.puzzle import Puzzle
from support.hostile_strategies import FIELD_NAMES, near_text
from support.registry import spread
from support.text_strategies import text

__all__ = ["TEXT_SHAPES", "SHAPE_STRINGS", "SOLUTION_TEXT", "OVERSIZED", "SOUND_INSTANCE", "seeds", "instance_fields", "instance_text"]

_hexagon_tokens = st.sampled_from(["1", "2", "3", "4", "7", "8", "0", "-1", "9" * 50, "1e3", "NaN", "²", "4.0", ""])
_coin_rows = st.lists(st.text(alphabet="o-o-x ²", min_size=0, max_size=9), min_size=0, max_size=9).map("\n".join)
_macmahon_piece = st.text(alphabet="WRBGYX²é*0123 ", min_size=0, max_size=7)

TEXT_SHAPES: dict[str, st.SearchStrategy[str]] = {
    "tiling": st.text(alphabet=".#xX0123456789 \n\r\t-{}[]\",:", max_size=120) | text(120),
    "matchsticks": st.text(alphabet="0123456789+-n= {}\"[]:.e", max_size=60),
    "hexagon": st.builds(
        lambda rows, gap: f",{gap}".join("(" + f",{gap}".join(row) + ")" for row in rows),
        st.lists(st.lists(_hexagon_tokens, max_size=9), max_size=9),
        st.sampled_from(["", " ", "\n "]),
    ),
    "coins": _coin_rows.flatmap(lambda a: _coin_rows.map(lambda b: a + "\n\n" + b))
    | st.tuples(st.sampled_from(["font5x7", "font5x9", "font9", ""]), st.text(alphabet="AB0/²é-", max_size=2), st.text(alphabet="AB0/²é-", max_size=2)).map(
        lambda t: f"{t[0]}:{t[1]}-{t[2]}"
    ),
    "macmahon": st.tuples(
        st.sampled_from(["1x1", "2x2", "2x3", "3x3", "1x4", "hex1", "0x3", "x", "٣x٣", "99999999999999999999999999999999x2"]),
        st.sampled_from(["", "/free", "/border=red", "/border=²", "/border=9", "/c1", "/c2", "/c3", "/c²", "/c99"]),
        st.lists(_macmahon_piece, max_size=6).map(lambda parts: "/tiles=" + ",".join(parts) if parts else ""),
    ).map("".join),
}

SHAPE_STRINGS: dict[str, tuple[str, ...]] = {
    "tiling": (".#", "..", "3x3", "1000x1000", "#", ""),
    "matchsticks": ("16", "n=3", "(3,0,0)", "┌─┐", "1─┐"),
}

# Solutions in the field's own text, beside JSON and raw bytes.
SOLUTION_TEXT: dict[str, st.SearchStrategy[str]] = {
    "matchsticks": st.text(alphabet="()0123456789,-+ \n[]{}\"n=:squaresroam", max_size=120)
    | st.text(alphabet="┌┐└┘├┤┬┴┼─│╵╷╴╶ .0123456789²\n#", max_size=160),
    "hexagon": st.lists(st.sampled_from(["(", ")", ",", ";", " ", "1", "2", "3", "7", "8", "0", "99", "-", "\n"]), max_size=60).map("".join),
}


# Instances past each puzzle's stated limits (as text, JSON or numbers): refused as too
# large (413) whichever door they come in by.
_coin_board = "\n".join(["o" * 9] * 9)
OVERSIZED: dict[str, tuple[Any, ...]] = {
    "tiling": ("100000x100000", "1001x3", "3x1001", "1" + "0" * 5000 + "x3", "3x" + "9" * 40),
    "matchsticks": ("64", "1000000000", "1" + "0" * 5000, "n=" + "9" * 38, " 1000 ", 10**5000, 1e300, {"n": 10**40}),
    "hexagon": ("201", '{"n": 1e300}', {"n": 10**40}),
    "coins": (_coin_board + "\n\n" + _coin_board,),
    "macmahon": ("99999999999999999999999x2", "3000x3000"),
    "toy": ("1000001 1 5", {"coins": [1], "target": 10**6 + 1}),
    "coin_change": ("1000001 1 5", {"coins": list(range(1, 70)), "target": 5}),
}


def _tiling(grid: Any) -> bool:
    return 1 <= grid.width <= 1000 and 1 <= grid.height <= 1000 and all(len(row) == grid.width and set(row) <= {".", "#"} for row in grid.rows)


def _coins(instance: Any) -> bool:
    return bin(instance.start).count("1") == bin(instance.target).count("1") > 0 and instance.width * instance.height <= 64


SOUND_INSTANCE: dict[str, Callable[[Any], bool]] = {
    "tiling": _tiling,
    "matchsticks": lambda instance: 0 <= instance.n <= 63,
    "hexagon": lambda instance: 1 <= instance.n <= 200 and (instance.start is None or all(1 <= v <= 7 for v in instance.start)),
    "coins": _coins,
    "macmahon": lambda instance: sum(instance.counts) == instance.board.cells,
}


def seeds(puzzle: Puzzle, longest: int = 400) -> tuple[str, ...]:
    """Real instance texts of the puzzle: catalog names, their keys and their JSON
    forms (those under `longest` characters), from a spread of its catalog."""
    found: list[str] = []
    for name in spread(list(puzzle.catalog()), 25):
        instance = puzzle.catalog_instance(name)
        found += [name, puzzle.instance_key(instance), json.dumps(puzzle.format_instance(instance))]
    return tuple(dict.fromkeys(s for s in found if len(s) < longest))


def instance_fields(puzzle: Puzzle) -> tuple[str, ...]:
    """The field names of the puzzle's JSON instances, then every format's."""
    names: list[str] = []
    for name in spread(list(puzzle.catalog()), 10):
        form = puzzle.format_instance(puzzle.catalog_instance(name))
        names += list(form) if isinstance(form, dict) else []
    return tuple(dict.fromkeys(names + list(FIELD_NAMES)))


def instance_text(puzzle: Puzzle) -> st.SearchStrategy[str]:
    """Text a user might give as an instance: any text, a real one edited, or the
    field's own shapes."""
    shaped = TEXT_SHAPES.get(puzzle.name)
    anything = text(60) | near_text(seeds(puzzle))
    return anything | shaped if shaped is not None else anything
