"""The square-tiling puzzle object: formats, catalog, checker, pictures and methods.

Methods (each in its own module, imported when first run so the CLI loads fast):
`auto` (portfolio, the default), `dp` (exact column DP), `beam` (the write-up's
heuristic, optionally with stripe re-solving), `cpsat` (set partition in OR-Tools).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance, Method, Option, Puzzle
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.tiling.model import Grid, format_grid, parse_grid
from puzzlelab.puzzles.tiling.verify import verify_tiling

__all__ = ["TilingPuzzle", "CONTEST_OPTIMA", "RECTANGLES", "a219158_table"]

# Optima of the ten contest puzzles, proven with CP-SAT for this project (issue 3).
CONTEST_OPTIMA = {1: 90, 2: 64, 3: 103, 4: 100, 5: 97, 6: 119, 7: 63, 8: 96, 9: 60, 10: 65}

# Named full rectangles (width, height): the A219158 entries people look up.
RECTANGLES = {
    "rect_13x11": (13, 11),
    "rect_15x60": (15, 60),
    "rect_15x100": (15, 100),
    "rect_17x16": (17, 16),
    "rect_10x60": (10, 60),
}


def _data_text(name: str) -> str:
    return resources.files("puzzlelab.puzzles.tiling").joinpath("data", name).read_text()


@lru_cache(maxsize=None)
def contest_json(number: int) -> dict[str, Any]:
    return json.loads(_data_text(f"contest_{number}.json"))


@lru_cache(maxsize=None)
def _contest_ids() -> dict[str, int]:
    return {contest_json(n)["id"]: n for n in CONTEST_OPTIMA}


@lru_cache(maxsize=None)
def a219158_table() -> dict[tuple[int, int], int]:
    """The shipped part of OEIS A219158: (m, n) -> fewest squares, m <= 10, n <= 60."""
    table = {}
    for line in _data_text("A219158_m10_n60.tsv").splitlines()[1:]:
        if line.strip():
            m, n, t = map(int, line.split("\t"))
            table[(m, n)] = t
    return table


def _run(module: str, function: str):
    """A method's run function, imported on first use (solver modules pull in numba
    kernels or OR-Tools)."""

    def run(instance, **kwargs):
        import importlib

        return getattr(importlib.import_module(f"puzzlelab.puzzles.tiling.{module}"), function)(instance, **kwargs)

    run.__name__ = f"{module}.{function}"
    return run


BEAM_OPTIONS = (
    Option("margin", "int", 4, "Cost Margin: keep partial tilings within this many squares of a column's best", minimum=0, maximum=50),
    Option("deviation", "int", 2, "Size Deviation: try squares up to this much smaller than the largest that fits", minimum=0, maximum=1000),
    Option("width", "int", 100000, "most partial tilings kept per column (beam width)", minimum=1, maximum=10_000_000),
    Option("orientation", "int", 0, "which of the 8 turns/flips of the grid to sweep (0 = as given)", minimum=0, maximum=7),
    Option("stripes", "bool", False, "afterwards re-solve stripes of the answer exactly (write-up 2.2)"),
)


class TilingPuzzle(Puzzle):
    name = "tiling"
    title = "Square tiling: fewest squares covering the free cells of a grid"
    value_name = "squares"
    sense = "min"
    default_method = "auto"
    default_budget = 10.0
    tour_instance = "contest_8"
    tour_budget = 5.0

    def __init__(self) -> None:
        super().__init__()
        self.add_method(
            Method(
                "auto",
                "portfolio: beam + stripe re-solving on the 8 orientations, exact DP when the short side allows, "
                "CP-SAT seeded with the best tiling; optimal when proven",
                _run("auto", "run_auto"),
                (
                    Option("workers", "int", 0, "worker processes (0 = PUZZLELAB_WORKERS or the CPU count)", minimum=0, maximum=256),
                    Option("margin", "int", 4, "the beam's starting Cost Margin (shrinks as the clock runs)", minimum=0, maximum=50),
                    Option("cpsat", "bool", False, "add a CP-SAT member (hinted with a quick heuristic tiling) to the portfolio"),
                ),
                exact=True,
            )
        )
        self.add_method(
            Method(
                "dp",
                "exact column DP (write-up section 1): packed uint64 states up to height 15, wider states beyond",
                _run("dp", "run_dp"),
                (Option("max_memory_mb", "float", 2000.0, "stop when the DP's stored states pass this many MB", minimum=1),),
                exact=True,
            )
        )
        self.add_method(Method("beam", "the write-up's heuristic column DP (Cost Margin, Size Deviation, MinSquares)", _run("beam", "run_beam"), BEAM_OPTIONS))
        self.add_method(
            Method(
                "cpsat",
                "set partition in OR-Tools CP-SAT: a Boolean per square that fits, each free cell covered once",
                _run("cpsat", "run_cpsat"),
                (
                    Option("threads", "int", 0, "CP-SAT search workers (0 = the CPU count)", minimum=0, maximum=64),
                    Option("hint", "bool", True, "start from the beam's greedy tiling (hint and upper bound)"),
                ),
                exact=True,
            )
        )

    # ------------------------------------------------------------------ formats
    def parse(self, obj: Any) -> Grid:
        return parse_grid(obj)

    def format_instance(self, instance: Grid) -> dict[str, Any]:
        return format_grid(instance)

    def instance_key(self, instance: Grid) -> str:
        if instance.id in _contest_ids() and self.catalog_instance(f"contest_{_contest_ids()[instance.id]}") == instance:
            return f"contest_{_contest_ids()[instance.id]}"
        if instance.is_rectangle:
            return f"rect_{instance.width}x{instance.height}"
        return f"{instance.width}x{instance.height}:{instance.digest()}"

    # ------------------------------------------------------------------ catalog
    def catalog(self) -> dict[str, str]:
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

    def catalog_instance(self, name: str) -> Grid:
        if name.startswith("contest_"):
            try:
                number = int(name.split("_", 1)[1])
            except ValueError:
                number = -1
            if number in CONTEST_OPTIMA:
                return parse_grid(contest_json(number))
        if name in RECTANGLES:
            return Grid.rectangle(*RECTANGLES[name])
        raise InvalidInstance(f"instance: no catalog entry {name!r}; expected one of {', '.join(self.catalog())}", "instance", 404)

    def published(self, key: str) -> dict[str, Any] | None:
        if key.startswith("contest_"):
            number = int(key.split("_")[1])
            return {
                "value": CONTEST_OPTIMA[number],
                "proven": True,
                "source": "Cimpress Tech Challenge 2 (2015) puzzle; optimum proven with CP-SAT (puzzlelab issue 3)",
            }
        if key.startswith("rect_"):
            w, h = map(int, key[5:].split("x"))
            value = a219158_table().get((min(w, h), max(w, h)))
            if value is not None:
                return {"value": value, "proven": True, "source": "OEIS A219158"}
        return None

    # ------------------------------------------------------------------ checking, pictures
    def verify(self, instance: Grid, solution: Any) -> Verdict:
        return verify_tiling(instance, solution)

    def render_svg(self, instance: Grid, result: Result | None) -> str:
        from puzzlelab.puzzles.tiling.render import render_svg

        solution = None if result is None else result.solution
        title = f"tiling {self.instance_key(instance)}"
        if result is not None and result.value is not None:
            title += f": {result.value} squares ({result.status.value})"
        return render_svg(instance, solution, title=title)

    def render_text(self, instance: Grid, result: Result | None) -> str | None:
        from puzzlelab.puzzles.tiling.render import render_ascii

        return render_ascii(instance, None if result is None else result.solution)
