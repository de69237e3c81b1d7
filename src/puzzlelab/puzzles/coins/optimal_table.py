"""The shipped table of optimal solutions of a font's puzzles, and its reader.

`data/font5x7_optimal.json` (and `data/font5x9_optimal.json`, once its starts are
computed) holds, for each puzzle of the font whose start the project's own campaign has
searched whole, its optimal number of moves and one optimal move list. Each length was
proven by a full BFS from the puzzle's start over every board (`puzzlelab coins batch
--font font5x7 --method bfs`): the target's BFS level is its distance, so no shorter
list exists. The file is written by `proofs/coins-font5x7/campaign.py ship` from the
campaign's results and says how they were computed (its `provenance`).

Moves are stored compactly: two characters a move, the cell the coin leaves and the
cell it lands on, a cell (x, y) written as ALPHABET[y * width + x]; `encode_moves` and
`decode_moves` turn them into the site's `[[x1, y1, x2, y2], ...]` and back.

Trust: the file is refused whole (`CorruptTable`, one line naming the file and the
fault) when it is not the expected JSON, an entry is malformed, a covered start lacks a
target, or the digest of its entries does not match; and every entry is replayed by the
independent checker (`verify.py`) before it is served (`entry`, `entries`): one whose
moves do not take its start to its target in exactly its stated length is refused.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.coins.model import Instance, fonts
from puzzlelab.puzzles.coins.verify import verify

__all__ = [
    "ALPHABET",
    "FORMAT",
    "TABLE_FILES",
    "CorruptTable",
    "TableEntry",
    "OptimalTable",
    "encode_moves",
    "decode_moves",
    "entries_digest",
    "table_text",
    "load_table",
]

FORMAT = "puzzlelab coins optimal table 1"
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # one character a cell
# font -> its file in data/, for the fonts whose file ships (font5x9's once a whole start
# has been computed: proofs/coins-font5x9/campaign.py ship)
TABLE_FILES = {font: name for font, name in (("font5x7", "font5x7_optimal.json"), ("font5x9", "font5x9_optimal.json"))
               if resources.files("puzzlelab.puzzles.coins").joinpath("data", name).is_file()}
MAX_MOVES = 255  # far above any font puzzle's optimum (the longest known is in the 30s)
_KEY = re.compile(r"^(\S)-(\S)$")


class CorruptTable(RuntimeError):
    """The shipped table cannot be trusted (unreadable, malformed, a digest or replay
    mismatch): the message is one line naming the file and the fault."""


@dataclass(frozen=True)
class TableEntry:
    """One puzzle of the table, replayed by the checker: `moves` its optimal number of
    moves, `solution` one optimal move list in the site's format."""

    font: str
    start: str
    target: str
    moves: int
    solution: list[list[int]]

    @property
    def key(self) -> str:
        return f"{self.font}:{self.start}-{self.target}"


def encode_moves(solution: list, width: int) -> str:
    """[[x1, y1, x2, y2], ...] -> two characters a move (cells as ALPHABET[y * width + x])."""
    return "".join(ALPHABET[y1 * width + x1] + ALPHABET[y2 * width + x2] for x1, y1, x2, y2 in solution)


def decode_moves(text: str, width: int, height: int) -> list[list[int]]:
    """The inverse of `encode_moves`; ValueError for a character that is no cell of the board."""
    cells = []
    for char in text:
        index = ALPHABET.find(char)
        if index < 0 or index >= width * height:
            raise ValueError(f"{char!r} is no cell of the {width} x {height} board")
        cells.append(index)
    return [[a % width, a // width, b % width, b // width] for a, b in zip(cells[::2], cells[1::2])]


def entries_digest(puzzles: dict[str, Any]) -> str:
    """sha256 of the entries in a canonical form: the file records it; a reader recomputes it."""
    return hashlib.sha256(json.dumps(puzzles, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def table_text(font: str, puzzles: dict[str, list], provenance: dict[str, Any]) -> str:
    """The file `load_table` reads: the head (format, board, alphabet, provenance, digest)
    and `puzzles` ("A-B": [moves, encoded moves]) one a line, so a diff shows the puzzles
    that changed. The campaign scripts in proofs/ write it."""
    shape = fonts()[font]
    head = {"format": FORMAT, "font": font, "width": shape["width"], "height": shape["height"], "alphabet": ALPHABET,
            "moves_encoding": "two characters a move: the cell the coin leaves, the cell it lands on; cell (x, y) is alphabet[y * width + x]",
            "provenance": provenance, "sha256": entries_digest(puzzles)}
    lines = [f"{json.dumps(key)}: {json.dumps(value, separators=(',', ':'))}" for key, value in puzzles.items()]
    return json.dumps(head, indent=1)[:-2] + ',\n "puzzles": {\n' + ",\n".join(lines) + "\n}}\n"


class OptimalTable:
    """A font's table, checked in shape and digest; entries replayed when first asked for."""

    def __init__(self, data: dict[str, Any], where: str):
        self.where = where
        self.font, self.width, self.height, self.order = _check_header(data, where)
        self.provenance: dict[str, Any] = data["provenance"]
        self._raw: dict[tuple[str, str], tuple[int, str]] = _check_entries(data, self, where)
        self.starts: list[str] = [g for g in self.order if any(s == g for s, _ in self._raw)]
        self._replayed: dict[tuple[str, str], TableEntry] = {}

    @property
    def total(self) -> int:
        """Puzzles of the font: glyphs x (glyphs - 1)."""
        return len(self.order) * (len(self.order) - 1)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, pair: tuple[str, str]) -> bool:
        return pair in self._raw

    def entry(self, start: str, target: str) -> TableEntry | None:
        """The puzzle start -> target, replayed by the checker; None when the table lacks
        it. CorruptTable when its moves fail the replay (it is then never served)."""
        pair = (start, target)
        if pair in self._replayed:
            return self._replayed[pair]
        if pair not in self._raw:
            return None
        moves, text = self._raw[pair]
        solution = decode_moves(text, self.width, self.height)  # checked in shape on load
        glyphs = fonts()[self.font]["glyphs"]
        instance = Instance(self.width, self.height, glyphs[start], glyphs[target], self.font, start, target)
        verdict = verify(instance, solution)
        if not verdict.ok or verdict.value != moves:
            why = verdict.message if not verdict.ok else f"its moves number {verdict.value}"
            raise CorruptTable(f"{self.where}: entry {start}-{target} (stated {moves} moves) fails the replay: {why}")
        self._replayed[pair] = found = TableEntry(self.font, start, target, moves, solution)
        return found

    def lookup(self, instance: Instance) -> TableEntry | None:
        """The entry whose start and target boards are the instance's (a font puzzle by
        name, or the same glyphs given as rows); None when the table lacks it."""
        if (instance.width, instance.height) != (self.width, self.height):
            return None
        by_board = _glyph_of_board(self.font)
        start, target = by_board.get(instance.start), by_board.get(instance.target)
        if start is None or target is None or start == target:
            return None
        return self.entry(start, target)

    def entries(self) -> Iterator[TableEntry]:
        """Every entry in glyph order (start, then target), each replayed."""
        rank = {g: i for i, g in enumerate(self.order)}
        for start, target in sorted(self._raw, key=lambda pair: (rank[pair[0]], rank[pair[1]])):
            found = self.entry(start, target)
            assert found is not None
            yield found

    def unreplayed(self) -> Iterator[tuple[str, str, int, list[list[int]]]]:
        """(start, target, moves, move list) of every entry in glyph order, NOT replayed:
        for a caller that replays each one with the checker itself and shows a failing
        entry as failed (the service's shipped rows)."""
        rank = {g: i for i, g in enumerate(self.order)}
        for start, target in sorted(self._raw, key=lambda pair: (rank[pair[0]], rank[pair[1]])):
            moves, text = self._raw[(start, target)]
            yield start, target, moves, decode_moves(text, self.width, self.height)

    def coverage(self) -> str:
        """'396 of 1,332 font5x7 puzzles (starts / A B ... J)'."""
        return f"{len(self):,} of {self.total:,} {self.font} puzzles (starts {' '.join(self.starts) or 'none'})"


def _check_header(data: Any, where: str) -> tuple[str, int, int, list[str]]:
    if not isinstance(data, dict):
        raise CorruptTable(f"{where}: expected a JSON object, got {type(data).__name__}")
    missing = [k for k in ("format", "font", "width", "height", "alphabet", "provenance", "sha256", "puzzles") if k not in data]
    if missing:
        raise CorruptTable(f"{where}: missing field(s) {', '.join(missing)}")
    if data["format"] != FORMAT or data["alphabet"] != ALPHABET:
        raise CorruptTable(f"{where}: format {str(data['format'])[:60]!r} with its alphabet; expected {FORMAT!r}")
    font = fonts().get(data["font"]) if isinstance(data["font"], str) else None
    if font is None:
        raise CorruptTable(f"{where}: font {str(data['font'])[:40]!r} is not a shipped font")
    if (data["width"], data["height"]) != (font["width"], font["height"]):
        raise CorruptTable(f"{where}: board {data['width']} x {data['height']}; {data['font']} is {font['width']} x {font['height']}")
    if not isinstance(data["provenance"], dict) or not isinstance(data["puzzles"], dict):
        raise CorruptTable(f"{where}: 'provenance' and 'puzzles' must be JSON objects")
    return data["font"], font["width"], font["height"], list(font["order"])


def _check_entries(data: dict[str, Any], table: OptimalTable, where: str) -> dict[tuple[str, str], tuple[int, str]]:
    """Every entry in shape (glyphs of the font, a length, two cells a move), every start
    with all its targets, and the digest; the replay comes when an entry is asked for."""
    puzzles = data["puzzles"]
    if entries_digest(puzzles) != data["sha256"]:
        raise CorruptTable(f"{where}: the entries do not match the file's sha256 (changed or damaged since it was written)")
    glyphs = set(table.order)
    raw: dict[tuple[str, str], tuple[int, str]] = {}
    for key, value in puzzles.items():
        match = _KEY.match(key)
        if not match or match[1] not in glyphs or match[2] not in glyphs or match[1] == match[2]:
            raise CorruptTable(f"{where}: entry {key[:20]!r} is not START-TARGET of two glyphs of {table.font}")
        ok = isinstance(value, list) and len(value) == 2 and type(value[0]) is int and isinstance(value[1], str)
        if not ok or not 0 < value[0] <= MAX_MOVES or len(value[1]) != 2 * value[0]:
            raise CorruptTable(f"{where}: entry {key}: expected [moves, two characters a move], got {json.dumps(value)[:60]}")
        try:
            decode_moves(value[1], table.width, table.height)
        except ValueError as exc:
            raise CorruptTable(f"{where}: entry {key}: {exc}") from None
        raw[(match[1], match[2])] = (value[0], value[1])
    for start in {s for s, _ in raw}:
        have = sum(1 for s, _ in raw if s == start)
        if have != len(table.order) - 1:
            raise CorruptTable(f"{where}: start {start} has {have} of its {len(table.order) - 1} targets; a start is shipped whole")
    return raw


@lru_cache(maxsize=4)
def _glyph_of_board(font: str) -> dict[int, str]:
    return {mask: glyph for glyph, mask in fonts()[font]["glyphs"].items()}


def load_table(font: str = "font5x7", path: str | Path | None = None) -> OptimalTable:
    """The shipped table of `font` (or the file at `path`). InvalidInstance (field
    'font') for a font without a table; CorruptTable for a file that cannot be trusted.
    The shipped table is read once per process."""
    if path is not None:
        return _read(Path(path), str(path))
    if font not in TABLE_FILES:
        known = ", ".join(TABLE_FILES)
        raise InvalidInstance(f"font: no optimal table ships for {str(font)[:40]!r}; tables ship for {known}", "font", status=404)
    return _shipped(font)


@lru_cache(maxsize=4)
def _shipped(font: str) -> OptimalTable:
    name = TABLE_FILES[font]
    return _read(resources.files("puzzlelab.puzzles.coins").joinpath("data", name), f"coins data file {name}")


def _read(source: Any, where: str) -> OptimalTable:
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CorruptTable(f"{where}: cannot be read ({type(exc).__name__}: {exc})") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        why = f"{exc.msg} at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        raise CorruptTable(f"{where}: not valid JSON ({why}); the file is damaged or truncated") from None
    return OptimalTable(data, where)
