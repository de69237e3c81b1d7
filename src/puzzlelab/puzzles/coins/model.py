"""Coin-sliding font puzzles: boards, glyphs, instances, and parsing with clear errors.

A board of W x H cells (W * H <= 64) is a bitmask: cell (x, y), x the column from the
left and y the row from the top (both from 0), is bit y * W + x. A glyph is a board with
coins where its rows show `o`. A puzzle asks for the fewest moves turning a start board
into a target board with the same number of coins, where a move lifts one coin and puts
it on an empty cell with at least two coins among its four edge-neighbours, the lifted
coin not counting (Erik Demaine's coin-sliding puzzles; the rule as stated in the
reference README). A solution is the site's list of moves `[[x1, y1, x2, y2], ...]`.

The two fonts of the site ship in `data/fonts.json` (MIT License, Copyright (c) 2018
Erik Demaine; see `data/README.md`): `font5x7` (12 coins) and `font5x9` (13 coins), 37
glyphs each, so 37 x 36 = 1,332 puzzles per font, named `font5x7:A-B` (start A, target B).
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from puzzlelab.core.inputs import shown
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.tables import read_data_text

__all__ = [
    "MAX_CELLS",
    "Instance",
    "Start",
    "fonts",
    "font_names",
    "glyph_mask",
    "rows_to_mask",
    "mask_to_rows",
    "parse_instance",
    "parse_start",
    "format_instance",
    "instance_key",
    "catalog_names",
    "boards_to_moves",
    "popcount",
    "shown",
]

MAX_CELLS = 64
COIN, EMPTY = "o", "-"
_NAME = re.compile(r"^(?P<font>[A-Za-z0-9_]+):(?P<start>\S)-(?P<target>\S)$")
_START_NAME = re.compile(r"^(?P<font>[A-Za-z0-9_]+):(?P<start>\S)$")


def popcount(mask: int) -> int:
    return bin(mask).count("1")


@dataclass(frozen=True)
class Instance:
    """One puzzle: turn `start` into `target` on a `width` x `height` board.

    `font`, `start_glyph` and `target_glyph` name a font puzzle ('font5x7', 'A', 'B');
    they are None for a puzzle given as glyph text."""

    width: int
    height: int
    start: int
    target: int
    font: str | None = None
    start_glyph: str | None = None
    target_glyph: str | None = None

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def coins(self) -> int:
        return popcount(self.start)

    @property
    def boards(self) -> int:
        """How many boards of this size and coin count exist: C(cells, coins)."""
        return math.comb(self.cells, self.coins)

    @property
    def key(self) -> str:
        return instance_key(self)


@dataclass(frozen=True)
class Start:
    """The start of a one-to-all search (`puzzlelab coins bfs font5x7:A`)."""

    width: int
    height: int
    board: int
    font: str | None = None
    glyph: str | None = None

    @property
    def key(self) -> str:
        if self.font is not None:
            return f"{self.font}:{self.glyph}"
        return f"{self.width}x{self.height}:{self.board:#x}"


# --------------------------------------------------------------------------- fonts


@functools.lru_cache(maxsize=1)
def fonts() -> dict[str, dict[str, Any]]:
    """The shipped fonts: name -> {'width', 'height', 'order', 'glyphs': {glyph: mask}}."""
    raw = json.loads(read_data_text("puzzlelab.puzzles.coins", "fonts.json"))
    out: dict[str, dict[str, Any]] = {}
    for name, font in raw.items():
        glyphs = {}
        width = height = 0
        for glyph in font["order"]:
            width, height, mask = rows_to_mask(font["glyphs"][glyph], f"{name} glyph {glyph}")
            glyphs[glyph] = mask
        out[name] = {"width": width, "height": height, "order": list(font["order"]), "glyphs": glyphs}
    return out


def font_names() -> list[str]:
    return list(fonts())


def _font(name: str, field: str) -> dict[str, Any]:
    table = fonts()
    if name not in table:
        raise InvalidInstance(f"{field}: no font {shown(name)}; expected one of {', '.join(table)}", field, status=404)
    return table[name]


def _glyph(font_name: str, glyph: str, field: str) -> str:
    font = _font(font_name, "font")
    if glyph not in font["glyphs"] and glyph.upper() in font["glyphs"]:
        glyph = glyph.upper()
    if glyph not in font["glyphs"]:
        raise InvalidInstance(
            f"{field}: {font_name} has no glyph {shown(glyph)}; expected one of {' '.join(font['order'])}", field, status=404
        )
    return glyph


def glyph_mask(font_name: str, glyph: str) -> int:
    """The board of one glyph of a shipped font."""
    return fonts()[font_name]["glyphs"][_glyph(font_name, glyph, "glyph")]


# --------------------------------------------------------------------------- glyph text


def rows_to_mask(rows: Any, field: str) -> tuple[int, int, int]:
    """(width, height, mask) of a glyph given as rows of `o` (coin) and `-` (empty)."""
    if isinstance(rows, str):
        rows = [r.strip() for r in rows.strip().splitlines() if r.strip()]
    if not isinstance(rows, (list, tuple)) or not rows or not all(isinstance(r, str) for r in rows):
        raise InvalidInstance(f"{field}: expected rows of 'o' (coin) and '-' (empty), top row first", field)
    rows = [r.strip() for r in rows]
    width, height = len(rows[0]), len(rows)
    for y, row in enumerate(rows):
        if len(row) != width:
            raise InvalidInstance(f"{field}: row {y + 1} has {len(row)} cells but row 1 has {width}; rows must be equally long", field)
        bad = next((c for c in row if c not in (COIN, EMPTY)), None)
        if bad is not None:
            raise InvalidInstance(f"{field}: row {y + 1} has {shown(bad)}; expected only 'o' (coin) and '-' (empty)", field)
    if width * height > MAX_CELLS:
        raise InvalidInstance(
            f"{field}: the board has {width} x {height} = {width * height} cells; at most {MAX_CELLS} are supported "
            "(one 64-bit mask a board)",
            field,
            status=413,
        )
    if width == 0:
        raise InvalidInstance(f"{field}: empty rows; expected rows of 'o' and '-'", field)
    mask = 0
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == COIN:
                mask |= 1 << (y * width + x)
    return width, height, mask


def mask_to_rows(mask: int, width: int, height: int) -> list[str]:
    """The rows of a board, top row first, `o` for a coin and `-` for an empty cell."""
    return ["".join(COIN if mask >> (y * width + x) & 1 else EMPTY for x in range(width)) for y in range(height)]


# --------------------------------------------------------------------------- instances


def _check_pair(width: int, height: int, start: int, target: int) -> None:
    a, b = popcount(start), popcount(target)
    if a != b:
        raise InvalidInstance(
            f"target: has {b} coins but start has {a}; a move never changes the number of coins, "
            "so start and target need the same count",
            "target",
        )
    if a == 0:
        raise InvalidInstance("start: has no coins; expected at least one 'o'", "start")


def _split_blocks(text: str) -> list[list[str]]:
    """Glyph text -> blocks of rows. Blocks are separated by blank lines or a line '->';
    lines 'start' / 'target' (with or without a colon) are labels and are skipped."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        word = line.strip()
        if word.lower().rstrip(":") in ("start", "target") or word in ("", "->", "=>"):
            if blocks[-1]:
                blocks.append([])
            continue
        blocks[-1].append(word)
    return [b for b in blocks if b]


def parse_instance(obj: Any) -> Instance:
    """An Instance from a catalog name ('font5x7:A-B'), glyph text (start rows, a blank
    line, target rows) or JSON ({'font', 'start', 'target'} with glyph names, or
    {'start': rows, 'target': rows}). Errors name the field and what was expected."""
    if isinstance(obj, Instance):
        return obj
    if isinstance(obj, str):
        text = obj.strip()
        match = _NAME.match(text)
        if match:
            return _font_instance(match["font"], match["start"], match["target"])
        if ":" in text and "\n" not in text:
            raise InvalidInstance(
                f"instance {text[:40]!r}: expected a font puzzle name like font5x7:A-B (start glyph, '-', target glyph)",
                "instance",
            )
        blocks = _split_blocks(text)
        if len(blocks) != 2:
            raise InvalidInstance(
                "instance: expected a name like font5x7:A-B, or two glyphs as rows of 'o' and '-' "
                f"(start, a blank line, target); found {len(blocks)} block(s) of rows",
                "instance",
            )
        return _rows_instance(blocks[0], blocks[1], None, None)
    if isinstance(obj, dict):
        if "start" not in obj or "target" not in obj:
            raise InvalidInstance("instance: expected a JSON object with 'start' and 'target' (and optionally 'font')", "instance")
        if obj.get("font") is not None:
            if not isinstance(obj["start"], str) or not isinstance(obj["target"], str):
                raise InvalidInstance("start: with 'font', expected glyph names such as \"A\" and \"B\"", "start")
            return _font_instance(str(obj["font"]), obj["start"], obj["target"])
        return _rows_instance(obj["start"], obj["target"], obj.get("width"), obj.get("height"))
    raise InvalidInstance(
        f"instance: expected a name like font5x7:A-B, glyph text or a JSON object, got {type(obj).__name__}", "instance"
    )


def _font_instance(font_name: str, start: str, target: str) -> Instance:
    font = _font(font_name, "font")
    start = _glyph(font_name, start, "start")
    target = _glyph(font_name, target, "target")
    a, b = font["glyphs"][start], font["glyphs"][target]
    _check_pair(font["width"], font["height"], a, b)
    return Instance(font["width"], font["height"], a, b, font_name, start, target)


def _rows_instance(start_rows: Any, target_rows: Any, width: Any, height: Any) -> Instance:
    w1, h1, a = rows_to_mask(start_rows, "start")
    w2, h2, b = rows_to_mask(target_rows, "target")
    if (w1, h1) != (w2, h2):
        raise InvalidInstance(f"target: is {w2} x {h2} cells but start is {w1} x {h1}; both must have the same size", "target")
    for name, given, actual in (("width", width, w1), ("height", height, h1)):
        if given is not None and given != actual:
            raise InvalidInstance(f"{name}: given as {shown(given)} but the rows make it {actual}", name)
    _check_pair(w1, h1, a, b)
    return Instance(w1, h1, a, b)


def parse_start(spec: Any) -> Start:
    """The start board of a one-to-all search: 'font5x7:A' or one glyph as rows."""
    if isinstance(spec, Start):
        return spec
    if isinstance(spec, str):
        match = _START_NAME.match(spec.strip())
        if match:
            font = _font(match["font"], "font")
            glyph = _glyph(match["font"], match["start"], "start")
            return Start(font["width"], font["height"], font["glyphs"][glyph], match["font"], glyph)
        if "\n" not in spec and "/" in spec:
            spec = spec.replace("/", "\n")  # rows on one line: "oo-/-o-/..."
    try:
        width, height, mask = rows_to_mask(spec, "start")
    except InvalidInstance:
        raise InvalidInstance(
            f"start {str(spec)[:40]!r}: expected a glyph name like font5x7:A, or one glyph as rows of 'o' and '-'", "start"
        ) from None
    if mask == 0:
        raise InvalidInstance("start: has no coins; expected at least one 'o'", "start")
    return Start(width, height, mask)


def format_instance(instance: Instance) -> dict[str, Any]:
    """JSON form; parse_instance(format_instance(x)) == x."""
    if instance.font is not None:
        return {"font": instance.font, "start": instance.start_glyph, "target": instance.target_glyph}
    return {
        "width": instance.width,
        "height": instance.height,
        "start": mask_to_rows(instance.start, instance.width, instance.height),
        "target": mask_to_rows(instance.target, instance.width, instance.height),
    }


def instance_key(instance: Instance) -> str:
    """'font5x7:A-B' for a font puzzle, '4x4:0x33-0xcc' (the two masks) otherwise."""
    if instance.font is not None:
        return f"{instance.font}:{instance.start_glyph}-{instance.target_glyph}"
    return f"{instance.width}x{instance.height}:{instance.start:#x}-{instance.target:#x}"


def catalog_names(font_name: str | None = None) -> list[str]:
    """Every puzzle of the shipped fonts (37 x 36 each), in glyph order."""
    names = []
    for name, font in fonts().items():
        if font_name is not None and name != font_name:
            continue
        for a in font["order"]:
            for b in font["order"]:
                if a != b:
                    names.append(f"{name}:{a}-{b}")
    return names


def boards_to_moves(boards: list[int], width: int) -> list[list[int]]:
    """The moves [x1, y1, x2, y2] between consecutive boards (each differs by one coin)."""
    moves = []
    for before, after in zip(boards, boards[1:]):
        lifted, placed = before & ~after, after & ~before
        if popcount(lifted) != 1 or popcount(placed) != 1:
            raise ValueError("consecutive boards must differ by exactly one moved coin")
        p, q = lifted.bit_length() - 1, placed.bit_length() - 1
        moves.append([p % width, p // width, q % width, q // width])
    return moves
