"""MacMahon instances: a board, a colour list, a border colour (or a free border) and a
multiset of pieces; parsing from text or JSON with errors that name the field.

Text forms (also the records store's keys): `4x6` (MacMahon's 24 three-colour squares,
white border), `3x8`, `2x12`, `hex2` (his 24 four-colour triangles on a hexagon of side
2), with options after a slash or a space: `4x6/free` (free border), `4x6/border=red`,
`2x3/c2` (two colours), `3x3/c3/tiles=WWWW,WWWR*2,...` (a multiset; `*n` repeats).
JSON: `{"board": "4x6", "colours": 3 | ["white", ...], "border": "white" | null,
"tiles": "all" | ["WWRB", ...] | {"WWRB": 2, ...}}`.

When no colour count is given it is the one whose full piece set fills the board
(24 cells: 3 colours); the tiles default to that full set, each once.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from puzzlelab.core.inputs import check_int, is_whole, shown
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.macmahon.boards import Board, board, parse_board_name
from puzzlelab.puzzles.macmahon.tiles import DEFAULT_COLOURS, burnside_count, canonical, tile_name, tile_set

__all__ = ["Instance", "parse_instance", "format_instance", "instance_key", "group_generators", "MAX_COLOURS", "shown"]

MAX_COLOURS = len(DEFAULT_COLOURS)
_KEYS = ("board", "colours", "colors", "border", "tiles")
_DIGITS = re.compile(r"[0-9]{1,30}")  # ASCII digits only: '²'.isdigit() is true but int('²') fails


@dataclass(frozen=True)
class Instance:
    """One puzzle: `counts[i]` copies of piece i of `tile_set(len(colours), sides)`."""

    board_name: str
    colours: tuple[str, ...]
    border: int | None  # colour index every border side must carry; None: free border
    counts: tuple[int, ...]

    @cached_property
    def board(self) -> Board:
        return board(self.board_name)

    @property
    def sides(self) -> int:
        return self.board.sides

    @property
    def tiles(self) -> tuple[tuple[int, ...], ...]:
        return tile_set(len(self.colours), self.sides)

    @property
    def letters(self) -> str:
        return "".join(name[0].upper() for name in self.colours)

    def tile_names(self) -> list[str]:
        return [tile_name(t, self.letters) for t in self.tiles]

    @property
    def full_set(self) -> bool:
        return all(c == 1 for c in self.counts)

    @property
    def piece_count(self) -> int:
        return sum(self.counts)


def _colour_index(value: Any, colours: tuple[str, ...], field: str) -> int:
    if isinstance(value, bool):
        raise InvalidInstance(f"{field}: expected a colour name, letter or index, got {shown(value)}", field)
    if isinstance(value, int):
        if 0 <= value < len(colours):
            return value
        raise InvalidInstance(f"{field}: colour index {shown(value)} out of range 0..{len(colours) - 1}", field)
    if not isinstance(value, str):
        raise InvalidInstance(f"{field}: expected a colour name, letter or index, got {shown(value)}", field)
    text = value.strip().lower()
    if _DIGITS.fullmatch(text):
        return _colour_index(int(text), colours, field)
    for i, name in enumerate(colours):
        if text in (name.lower(), name[0].lower()):
            return i
    valid = ", ".join(colours)
    raise InvalidInstance(f"{field}: unknown colour {shown(value)}; expected one of {valid}", field)


def _parse_colours(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise InvalidInstance(f"colours: expected a count or a list of names, got {shown(value)}", "colours")
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, int):
        if not 1 <= value <= MAX_COLOURS:
            raise InvalidInstance(f"colours: expected 1..{MAX_COLOURS} colours, got {value}", "colours", 413 if value > MAX_COLOURS else 422)
        return DEFAULT_COLOURS[:value]
    names = [p.strip() for p in value.split(",")] if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not names or not all(isinstance(n, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", n) for n in names):
        raise InvalidInstance("colours: expected a count or a list of names made of letters, e.g. white,red,blue", "colours")
    if len(names) > MAX_COLOURS:
        raise InvalidInstance(f"colours: at most {MAX_COLOURS} colours, got {len(names)}", "colours", 413)
    letters = [n[0].upper() for n in names]
    if len(set(letters)) != len(letters):
        raise InvalidInstance(f"colours: names must start with different letters (pieces are named by them), got {', '.join(names)}", "colours")
    return tuple(n.lower() for n in names)


def _parse_tiles(value: Any, colours: tuple[str, ...], sides: int) -> tuple[int, ...]:
    tiles = tile_set(len(colours), sides)
    index = {t: i for i, t in enumerate(tiles)}
    letters = "".join(n[0].upper() for n in colours)
    counts = [0] * len(tiles)

    def add(spec: Any, times: int) -> None:
        if isinstance(spec, str):
            text = spec.strip().upper()
            if len(text) != sides:
                raise InvalidInstance(f"tiles: piece {shown(spec)} should have {sides} colour letters (one per side, clockwise)", "tiles")
            edges = []
            for ch in text:
                if ch not in letters:
                    valid = ", ".join(f"{letters[i]} {colours[i]}" for i in range(len(colours)))
                    raise InvalidInstance(f"tiles: unknown colour {ch!r} in piece {shown(spec)} (colours: {valid})", "tiles")
                edges.append(letters.index(ch))
        elif isinstance(spec, (list, tuple)) and len(spec) == sides and all(isinstance(x, int) and not isinstance(x, bool) for x in spec):
            edges = list(spec)
            if any(not 0 <= x < len(colours) for x in edges):
                raise InvalidInstance(f"tiles: piece {shown(spec)} uses a colour index outside 0..{len(colours) - 1}", "tiles")
        else:
            raise InvalidInstance(f"tiles: expected piece names like 'WWRB' or lists of {sides} colour indices, got {shown(spec)}", "tiles")
        if times < 1:
            raise InvalidInstance(f"tiles: count of piece {shown(spec)} must be at least 1, got {times}", "tiles")
        counts[index[canonical(tuple(edges))]] += times

    if value is None or value == "all":
        return tuple([1] * len(tiles))
    if isinstance(value, str):
        value = [p for p in value.replace(" ", "").split(",") if p]
    if isinstance(value, dict):
        for spec, times in value.items():
            if not is_whole(times):
                raise InvalidInstance(f"tiles: count of piece {shown(spec)} must be an integer, got {shown(times)}", "tiles")
            add(spec, times)
    elif isinstance(value, (list, tuple)):
        for spec in value:
            times = 1
            if isinstance(spec, str) and "*" in spec:
                spec, _, rep = spec.partition("*")
                if not _DIGITS.fullmatch(rep):
                    raise InvalidInstance(f"tiles: expected NAME*COUNT like WWRB*2, got {spec}*{rep}", "tiles")
                times = int(rep)
            add(spec, times)
    else:
        raise InvalidInstance("tiles: expected 'all', a list of piece names or {name: count}", "tiles")
    return tuple(counts)


def _text_fields(text: str) -> dict[str, Any]:
    tokens = [t for t in re.split(r"[\s/]+", text.strip()) if t]
    if not tokens:
        raise InvalidInstance("instance: expected a board like 4x6 or hex2", "board")
    fields: dict[str, Any] = {}
    for token in tokens:
        if "=" in token:
            key, _, value = token.partition("=")
            key = key.lower()
            if key not in _KEYS:
                raise InvalidInstance(f"instance: unknown field {shown(key)}; expected one of board, colours, border, tiles", key[:40])
            fields["colours" if key == "colors" else key] = value
        elif token.lower() in ("free", "nb"):
            fields["border"] = None
        elif re.fullmatch(r"c[0-9]+", token.lower()):
            fields["colours"] = token[1:]
        elif "board" not in fields:
            fields["board"] = token
        else:
            raise InvalidInstance(f"instance: unexpected {shown(token)}; options look like border=red, free, c3, tiles=...", "instance")
    return fields


def parse_instance(obj: Any) -> Instance:
    """An Instance from text, parsed JSON or an Instance; InvalidInstance if malformed."""
    if isinstance(obj, Instance):
        return obj
    if isinstance(obj, str):
        fields = _text_fields(obj)
    elif isinstance(obj, dict):
        unknown = [k for k in obj if k not in _KEYS and k not in ("rows", "cols", "columns")]
        if unknown:
            raise InvalidInstance(f"instance: unknown field {shown(unknown[0])}; expected board, colours, border, tiles", str(unknown[0])[:40])
        fields = {("colours" if k == "colors" else k): v for k, v in obj.items()}
        if "board" not in fields and "rows" in fields:
            rows, cols = fields.pop("rows"), fields.pop("cols", fields.pop("columns", None))
            fields["board"] = f"{check_int(rows, 'rows')}x{'?' if cols is None else check_int(cols, 'cols')}"
    else:
        raise InvalidInstance(f"instance: expected text like 4x6 or a JSON object, got {type(obj).__name__}", "instance")
    if "board" not in fields or not isinstance(fields["board"], str):
        raise InvalidInstance("board: expected a board like 4x6 (rows x columns) or hex2 (hexagon of side 2)", "board")
    try:
        shape, a, b = parse_board_name(fields["board"])
        geometry = board(fields["board"])
    except ValueError as exc:
        raise InvalidInstance(f"board: {exc}", "board", 413 if "more than" in str(exc) else 422) from None
    sides, cells = geometry.sides, geometry.cells
    colours = _parse_colours(fields.get("colours"))
    tiles_value = fields.get("tiles")
    if colours is None:
        if tiles_value not in (None, "all"):
            names = tiles_value if isinstance(tiles_value, (list, dict)) else str(tiles_value).split(",")
            letters = DEFAULT_COLOURS_LETTERS
            used = {ch for n in names if isinstance(n, str) for ch in n.split("*")[0].upper()}
            unknown = sorted(ch for ch in used if ch not in letters)
            if unknown:
                raise InvalidInstance(f"tiles: unknown colour {shown(unknown[0])} (default colours: {', '.join(DEFAULT_COLOURS)}; give colours= for others)", "tiles")
            needed = max([letters.index(ch) + 1 for ch in used] + [1])
            colours = DEFAULT_COLOURS[: max(needed, 1)]
            if any(isinstance(n, (list, tuple)) for n in names):
                raise InvalidInstance("colours: give the colour count when pieces are lists of indices", "colours")
        else:
            fits = [c for c in range(1, MAX_COLOURS + 1) if burnside_count(c, sides) == cells]
            if not fits:
                sizes = ", ".join(str(burnside_count(c, sides)) for c in range(1, 7))
                kind = "squares" if sides == 4 else "triangles"
                raise InvalidInstance(
                    f"board: {geometry.name} has {cells} cells, but no full set of {kind} has that many pieces "
                    f"({sizes} for 1..6 colours); give colours= and tiles=",
                    "board",
                )
            colours = DEFAULT_COLOURS[: fits[0]]
    border_value = fields.get("border", 0)
    border = None if border_value is None or (isinstance(border_value, str) and border_value.lower() in ("free", "none", "null")) else _colour_index(border_value, colours, "border")
    counts = _parse_tiles(tiles_value, colours, sides)
    pieces = sum(counts)
    if pieces != cells:
        what = f"the full set for {len(colours)} colours" if tiles_value in (None, "all") else "the tile multiset"
        raise InvalidInstance(
            f"tiles: board {geometry.name} has {cells} cells but {what} has {pieces} pieces; the board area must equal the number of pieces",
            "tiles",
        )
    return Instance(geometry.name, colours, border, counts)


DEFAULT_COLOURS_LETTERS = "".join(n[0].upper() for n in DEFAULT_COLOURS)


def _default_colours(inst: Instance) -> tuple[str, ...] | None:
    geometry = inst.board
    fits = [c for c in range(1, MAX_COLOURS + 1) if burnside_count(c, geometry.sides) == geometry.cells]
    return DEFAULT_COLOURS[: fits[0]] if fits else None


def format_instance(inst: Instance) -> dict[str, Any]:
    """JSON form; parse_instance(format_instance(x)) == x."""
    names = inst.tile_names()
    return {
        "board": inst.board_name,
        "colours": list(inst.colours),
        "border": None if inst.border is None else inst.colours[inst.border],
        "tiles": "all" if inst.full_set else {names[i]: n for i, n in enumerate(inst.counts) if n},
    }


def instance_key(inst: Instance) -> str:
    """The short text form: '4x6', '4x6/free', '2x3/c2', '3x3/c3/tiles-1a2b3c4d'."""
    parts = [inst.board_name]
    if inst.colours != _default_colours(inst):
        parts.append(f"c{len(inst.colours)}" if inst.colours == DEFAULT_COLOURS[: len(inst.colours)] else "colours=" + ",".join(inst.colours))
    if inst.border is None:
        parts.append("free")
    elif inst.border != 0:
        parts.append(f"border={inst.colours[inst.border]}")
    if not inst.full_set:
        digest = hashlib.sha1(repr(inst.counts).encode()).hexdigest()[:8]
        parts.append(f"tiles-{digest}")
    return "/".join(parts)


def group_generators(text: str) -> list[str]:
    """The `group` option's element names ("rot180, WBR" -> ["rot180", "WBR"]); each must
    be a symmetry of the instance (symmetry.subgroup_from checks that)."""
    return [name for name in str(text).replace(" ", "").split(",") if name]
