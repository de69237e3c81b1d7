"""The named instances of the tiling field: the ten contest puzzles and the full
rectangles people look up in A219158; an instance's short name in the records store;
the published figure for a name.

Below `puzzle.py` (which delegates to it) so that the contest client can name what it
stores without calling back up to the Puzzle object."""

from __future__ import annotations

import re
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.tiling.model import Grid, parse_grid
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA, a219158_table, contest_ids, contest_json

__all__ = ["RECTANGLES", "catalog", "catalog_instance", "instance_key", "published"]

# Named full rectangles (width, height): the A219158 entries people look up.
RECTANGLES = {
    "rect_13x11": (13, 11),
    "rect_15x60": (15, 60),
    "rect_15x100": (15, 100),
    "rect_17x16": (17, 16),
    "rect_10x60": (10, 60),
}


def catalog() -> dict[str, str]:
    """Catalog name -> one-line description."""
    entries = {}
    for n, optimum in CONTEST_OPTIMA.items():
        data = contest_json(n)
        entries[f"contest_{n}"] = (
            f"Cimpress Tech Challenge 2 puzzle {n}: {data['width']}x{data['height']} with blocked cells, optimum {optimum}"
        )
    table = a219158_table()
    for name, (w, h) in RECTANGLES.items():
        known = table.get((min(w, h), max(w, h)))
        extra = f", A219158 = {known}" if known else ""
        entries[name] = f"full {w}x{h} rectangle (OEIS A219158{extra})"
    return entries


def catalog_instance(name: str) -> Grid:
    """The grid a catalog name stands for; InvalidInstance (404) for an unknown name."""
    if name.startswith("contest_"):
        try:
            number = int(name.split("_", 1)[1])
        except ValueError:
            number = -1
        if number in CONTEST_OPTIMA:
            return parse_grid(contest_json(number))
    if name in RECTANGLES:
        return Grid.rectangle(*RECTANGLES[name])
    raise InvalidInstance(f"instance: no catalog entry {name[:60]!r}; expected one of {', '.join(catalog())}", "instance", 404)


def instance_key(grid: Grid) -> str:
    """'contest_3' for a contest puzzle, 'rect_WxH' for a full rectangle, else
    'WxH:<digest>'."""
    number = contest_ids().get(grid.id)
    if number is not None and catalog_instance(f"contest_{number}") == grid:
        return f"contest_{number}"
    if grid.is_rectangle:
        return f"rect_{grid.width}x{grid.height}"
    return f"{grid.width}x{grid.height}:{grid.digest()}"


def published(key: str) -> dict[str, Any] | None:
    """The published figure for an instance key: {'value', 'proven', 'source'}; None
    for a key that names nothing published (however it is written)."""
    contest = re.fullmatch(r"contest_([0-9]{1,3})", str(key))
    if contest and int(contest.group(1)) in CONTEST_OPTIMA:
        return {
            "value": CONTEST_OPTIMA[int(contest.group(1))],
            "proven": True,
            "source": "Cimpress Tech Challenge 2 (2015) puzzle; optimum proven with CP-SAT",
        }
    rect = re.fullmatch(r"rect_([0-9]{1,4})x([0-9]{1,4})", str(key))
    if rect:
        w, h = int(rect.group(1)), int(rect.group(2))
        value = a219158_table().get((min(w, h), max(w, h)))
        if value is not None:
            return {"value": value, "proven": True, "source": "OEIS A219158"}
    return None
