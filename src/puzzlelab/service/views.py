"""What the page shows of one instance: a preview before any run (parsed and
drawn by the puzzle's own renderer, never solved), and a verified answer with its
picture, its exports and, for a coin puzzle, the boards to step through.

A preview draws what is drawn quickly: an instance over its puzzle's `PREVIEW_LIMITS`
(a 1000 x 1000 tiling grid takes 17 s and 80 MB of SVG to draw) is parsed and
described, and the page says it is drawn after a run instead.
"""

from __future__ import annotations

from typing import Any, Callable

from puzzlelab.core.puzzle import Puzzle
from puzzlelab.core.result import Result
from puzzlelab.service.exports import filename, formats

__all__ = ["PREVIEW_LIMITS", "preview", "answer_view", "coin_boards"]

# Puzzle -> (what is counted, how much of it a preview draws): about half a second of
# drawing on this machine (tiling 200 x 200: 0.6 s, 3 MB; hexagon n = 40: 0.6 s).
PREVIEW_LIMITS: dict[str, tuple[str, Callable[[Any], int], int]] = {
    "tiling": ("cells", lambda grid: grid.width * grid.height, 40_000),
    "hexagon": ("cells", lambda inst: 3 * inst.n * (inst.n - 1) + 1, 5_000),
}


def _cells(mask: int, width: int, height: int) -> list[list[int]]:
    return [[x, y] for y in range(height) for x in range(width) if mask >> (y * width + x) & 1]


def coin_boards(puzzle: Puzzle, instance: Any, moves: Any = None) -> dict[str, Any] | None:
    """A coin puzzle's start and target cells and its moves, for the page's
    step-through; None for any other puzzle."""
    if puzzle.name != "coins" or not all(hasattr(instance, a) for a in ("width", "height", "start", "target")):
        return None
    w, h = instance.width, instance.height
    steps = [[int(v) for v in move] for move in moves] if isinstance(moves, list) else []
    return {"width": w, "height": h, "start": _cells(instance.start, w, h), "target": _cells(instance.target, w, h), "moves": steps}


def preview(puzzle: Puzzle, instance: Any) -> dict[str, Any]:
    """The preview of a parsed instance: key, catalog line, published figure, picture
    and text drawing (where not over the puzzle's limit), and a coin puzzle's boards."""
    key = puzzle.instance_key(instance)
    view: dict[str, Any] = {
        "puzzle": puzzle.name, "instance": key, "description": puzzle.catalog().get(key, ""),
        "published": puzzle.published(key), "svg": None, "text": None, "note": "", "board": coin_boards(puzzle, instance),
    }
    limit = PREVIEW_LIMITS.get(puzzle.name)
    size = limit[1](instance) if limit else 0
    if limit and size > limit[2]:
        view["note"] = f"{size:,} {limit[0]}: too large to draw before a run (a preview draws up to {limit[2]:,}); the answer is drawn when the job ends"
        return view
    view["svg"] = puzzle.render_svg(instance, None)
    view["text"] = puzzle.render_text(instance, None)
    return view


def answer_view(
    puzzle: Puzzle, instance: Any, result: Result, *, source: str, base: str, query: str = ""
) -> dict[str, Any]:
    """An answer as the page shows it. `base` is the URL its picture and exports hang
    from (`/api/jobs/{id}` or `/api/records/{puzzle}`), `query` what follows each
    (`?instance=...` for a record)."""
    key = puzzle.instance_key(instance)
    exports = [
        {"format": e.name, "label": e.label, "media_type": e.media_type, "filename": filename(puzzle, key, e),
         "url": f"{base}/export/{e.name}{query}"}
        for e in formats(puzzle)
    ]
    verdict = result.verdict
    return {
        "puzzle": puzzle.name, "instance": key, "value": result.value, "status": result.status.value, "bound": result.bound,
        "method": result.method, "seconds": result.stats.get("seconds"), "source": source, "verified": result.verified,
        "verdict": None if verdict is None else verdict.to_dict(), "published": puzzle.published(key),
        "svg": f"{base}/svg{query}", "exports": exports, "text": puzzle.render_text(instance, result),
        "steps": coin_boards(puzzle, instance, result.solution),
    }
