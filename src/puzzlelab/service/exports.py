"""An answer in the formats its field already uses (docs/architecture.md,
"Formats"), each written by the puzzle's own format and render functions:

- every puzzle: `json` (the CLI's `solve --json` object), `svg` (the picture), and
  `text` (the text drawing, where the field draws in text: `Puzzle.render_text`);
- tiling: `contest`, the Cimpress solution JSON `{"id", "squares": [{"X", "Y", "Size"}]}`;
- hexagon: `submission`, the contest's submission text `(4,3,2), (2,1,3,1), ...`;
- coins: `moves`, the move list `[[x1, y1, x2, y2], ...]`, and `html`, the
  self-contained step-through page of `puzzlelab coins animate --html`;
- matchsticks: `squares`, the `(size, x, y)` triples of the top-left corners;
- macmahon: `solution`, the board as (tile, rotation) cells, or the count certificate.

Each export of a field format reads back through the puzzle's own parser and checker
to the same value (tests/service/test_dashboards_api.py checks it).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.result import Result, _json_default

__all__ = ["Export", "formats", "export", "filename"]

Maker = Callable[[Puzzle, Any, Result], "str | None"]


@dataclass(frozen=True)
class Export:
    name: str
    label: str
    media_type: str
    extension: str
    make: Maker


def _dump(value: Any) -> str:
    return json.dumps(value, default=_json_default, indent=1)


def _report(puzzle: Puzzle, instance: Any, result: Result) -> str:
    return _dump(puzzle.report(instance, result))


def _text(puzzle: Puzzle, instance: Any, result: Result) -> str | None:
    return puzzle.render_text(instance, result)


def _solution_json(puzzle: Puzzle, instance: Any, result: Result) -> str | None:
    return None if result.solution is None else _dump(result.solution)


def _hexagon_submission(puzzle: Puzzle, instance: Any, result: Result) -> str | None:
    return result.solution if isinstance(result.solution, str) else None


def _matchsticks_squares(puzzle: Puzzle, instance: Any, result: Result) -> str | None:
    squares = result.solution.get("squares") if isinstance(result.solution, dict) else result.solution
    if not isinstance(squares, list):
        return None
    return ", ".join(f"({s}, {x}, {y})" for s, x, y in squares)


def _coins_html(puzzle: Puzzle, instance: Any, result: Result) -> str | None:
    from puzzlelab.puzzles.coins.render import html_stepper

    return None if not isinstance(result.solution, list) else html_stepper(instance, result.solution)


COMMON = (
    Export("json", "JSON (as solve --json)", "application/json", "json", _report),
    Export("svg", "picture (SVG)", "image/svg+xml", "svg", lambda p, i, r: p.render_svg(i, r)),
)
TEXT = Export("text", "text drawing", "text/plain", "txt", _text)
FIELD: dict[str, tuple[Export, ...]] = {
    "tiling": (Export("contest", "contest solution JSON", "application/json", "json", _solution_json),),
    "hexagon": (Export("submission", "submission text", "text/plain", "txt", _hexagon_submission),),
    "coins": (
        Export("moves", "move list JSON", "application/json", "json", _solution_json),
        Export("html", "HTML step-through", "text/html", "html", _coins_html),
    ),
    "matchsticks": (Export("squares", "(size, x, y) squares", "text/plain", "txt", _matchsticks_squares),),
    "macmahon": (Export("solution", "solution JSON (board or count certificate)", "application/json", "json", _solution_json),),
}


def formats(puzzle: Puzzle) -> list[Export]:
    """The exports a puzzle offers: its field's formats first, then the common ones."""
    draws_text = type(puzzle).render_text is not Puzzle.render_text
    return [*FIELD.get(puzzle.name, ()), *COMMON, *((TEXT,) if draws_text else ())]


def export(puzzle: Puzzle, instance: Any, result: Result, name: str) -> tuple[Export, str]:
    """(the format, the text) of one export; InvalidInstance (404) for a format the
    puzzle does not offer or that does not apply to this answer."""
    chosen = {e.name: e for e in formats(puzzle)}.get(name)
    if chosen is None:
        offered = ", ".join(e.name for e in formats(puzzle))
        raise InvalidInstance(f"format: {puzzle.name} has no export {name[:40]!r}; expected one of {offered}", "format", 404)
    text = chosen.make(puzzle, instance, result)
    if text is None:
        raise InvalidInstance(f"format: this {puzzle.name} answer has no {chosen.label}", "format", 404)
    return chosen, text


def filename(puzzle: Puzzle, instance_key: str, chosen: Export) -> str:
    """A file name for an export: puzzle, instance and format, safe characters only."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{puzzle.name}-{instance_key}")[:80]
    return f"{stem}-{chosen.name}.{chosen.extension}"
