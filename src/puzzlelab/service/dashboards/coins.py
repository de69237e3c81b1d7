"""The coins dashboard: for each font a 37 x 37 grid (start glyph x target glyph) of
the published optimal lengths shipped (a sample of 210 of the 2,664 puzzles) and of
ours (the package's table of font5x7 optima, each replayed by the checker, the records
store's verified answers, and any plugged-in source of solved puzzles:
`service.answers.register_answer_source("coins", name, source)`), with the table's
provenance."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.inputs import shown
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.coins.model import fonts, popcount
from puzzlelab.puzzles.coins.reference import SOURCE, published_lengths
from puzzlelab.service.answers import Known, answer_sources, known
from puzzlelab.service.dashboards import highlight, sources
from puzzlelab.service.shipped import shipped

__all__ = ["build", "font_grid"]


def font_grid(name: str, font: dict[str, Any], published: dict[str, int], answers: dict[str, Known]) -> dict[str, Any]:
    """The grid of one font (rows: start glyph, columns: target glyph) and its counts."""
    glyphs = list(font["order"])
    size = len(glyphs)
    grid_published: list[list[int | None]] = [[None] * size for _ in glyphs]
    grid_ours: list[list[int | None]] = [[None] * size for _ in glyphs]
    grid_status: list[list[str | None]] = [[None] * size for _ in glyphs]
    counts = {"puzzles": size * (size - 1), "published": 0, "solved": 0, "found": 0, "agree": 0, "disagree": 0, "local": 0}
    for i, a in enumerate(glyphs):
        for j, b in enumerate(glyphs):
            if i == j:
                continue
            key = f"{name}:{a}-{b}"
            grid_published[i][j] = value = published.get(key)
            counts["published"] += value is not None
            answer = answers.get(key)
            if answer is None:
                continue
            grid_ours[i][j], grid_status[i][j] = answer.value, answer.status
            counts["local"] += answer.source == "store"
            if answer.status != "optimal":
                counts["found"] += 1
                continue
            counts["solved"] += 1
            if value is not None:
                counts["agree" if value == answer.value else "disagree"] += 1
    first = font["glyphs"][glyphs[0]]
    return {
        "font": name, "width": font["width"], "height": font["height"], "coins": popcount(first),
        "glyphs": glyphs, "published": grid_published, "ours": grid_ours, "ours_status": grid_status, "counts": counts,
    }


def _provenance() -> dict[str, Any] | None:
    """The shipped table's provenance (the same for every row of it)."""
    rows = shipped("coins")
    return {"source": rows[0].source, **{k: v for k, v in rows[0].provenance.items() if k != "start"}} if rows else None


def _highlights(grids: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for grid in grids:
        c = grid["counts"]
        if c["solved"]:
            agree = f"; the {c['agree']:,} of them in the published sample all equal" if c["agree"] and not c["disagree"] else ""
            found.append(highlight("ties" if agree else "new", f"{grid['font']}: {c['solved']:,} of {c['puzzles']:,} puzzles "
                                   f"solved optimally{agree}"))
    return found


def build(store: Store, font: str | None = None) -> dict[str, Any]:
    """Every font's grid, or only `font`'s (an unknown font is a 422 naming the fonts)."""
    puzzle = get("coins")
    shipped_fonts = fonts()
    if font is not None and font not in shipped_fonts:
        raise InvalidInstance(f"font: expected one of {', '.join(shipped_fonts)}, got {shown(font)}", "font")
    answers = known(store, puzzle, solutions=False)
    published = published_lengths()
    grids = [font_grid(name, data, published, answers) for name, data in shipped_fonts.items() if font in (None, name)]
    return {"value_name": puzzle.value_name, "source": SOURCE, "answer_sources": answer_sources("coins"), "fonts": grids,
            "highlights": _highlights(grids), "provenance": _provenance(), **sources("coins")}
