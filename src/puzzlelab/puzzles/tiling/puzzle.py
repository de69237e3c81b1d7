"""The square-tiling puzzle object: formats, catalog, checker, pictures and methods.

Methods (`methods.py`; each in its own module, imported when first run so the CLI loads
fast): `auto` (portfolio, the default), `dp` (exact column DP), `beam` (the write-up's
heuristic, optionally with stripe re-solving), `cpsat` (set partition in OR-Tools).
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.tiling import catalog
from puzzlelab.puzzles.tiling.catalog import RECTANGLES
from puzzlelab.puzzles.tiling.methods import METHODS
from puzzlelab.puzzles.tiling.model import Grid, format_grid, parse_grid
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA, a219158_table
from puzzlelab.puzzles.tiling.render import render_ascii, render_svg
from puzzlelab.puzzles.tiling.verify import verify_tiling

# CONTEST_OPTIMA, RECTANGLES and a219158_table live in reference.py / catalog.py; the
# names stay importable from here for older scripts.
__all__ = ["TilingPuzzle", "CONTEST_OPTIMA", "RECTANGLES", "a219158_table"]


class TilingPuzzle(Puzzle):
    name = "tiling"
    title = "Square tiling: fewest squares covering the free cells of a grid"
    value_name = "squares"
    sense = "min"
    default_method = "auto"
    default_budget = 10.0
    tour_instance = "contest_8"
    tour_budget = 5.0
    # The contest JSON of the largest grid accepted (1000 x 1000, `false, ` a cell) is
    # 7 MB; the text grid of it 1 MB.
    max_input_bytes = 8_000_000

    def __init__(self) -> None:
        super().__init__(METHODS)

    # ------------------------------------------------------------------ formats
    def parse(self, obj: Any) -> Grid:
        return parse_grid(obj)

    def format_instance(self, instance: Grid) -> dict[str, Any]:
        return format_grid(instance)

    def instance_key(self, instance: Grid) -> str:
        return catalog.instance_key(instance)

    # ------------------------------------------------------------------ catalog
    def catalog(self) -> dict[str, str]:
        return catalog.catalog()

    def catalog_instance(self, name: str) -> Grid:
        return catalog.catalog_instance(name)

    def instance_from_key(self, key: str) -> Grid | None:
        """Also 'rect_WxH', the key of any full rectangle (the catalog names a few)."""
        if not key.startswith("rect_") or key in self.catalog():
            return super().instance_from_key(key)
        try:
            grid = self.load(key.removeprefix("rect_"), local=False)
        except (InvalidInstance, ValueError, RecursionError):
            return None
        return grid if self.instance_key(grid) == key else None

    def published(self, key: str) -> dict[str, Any] | None:
        return catalog.published(key)

    # ------------------------------------------------------------------ checking, pictures
    def verify(self, instance: Grid, solution: Any) -> Verdict:
        return verify_tiling(instance, solution)

    def render_svg(self, instance: Grid, result: Result | None) -> str:
        solution = None if result is None else result.solution
        title = f"tiling {self.instance_key(instance)}"
        if result is not None and result.value is not None:
            title += f": {result.value} squares ({result.status.value})"
        return render_svg(instance, solution, title=title)

    def render_text(self, instance: Grid, result: Result | None) -> str | None:
        return render_ascii(instance, None if result is None else result.solution)
