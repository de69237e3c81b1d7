"""The hexagonal-neighbours puzzle object: parsing, catalog, published figures, methods.

Instance: the order n (a number, '8', {'n': 8}), or a grid in the contest's submission
text (its order is read from its row count), which `improve` starts from and `verify`
checks. Value: the contest's raw score (cell sum minus cell count), maximised.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from puzzlelab.core.inputs import parse_json
from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.hexagon.methods import METHODS
from puzzlelab.puzzles.hexagon.model import (
    MAX_ORDER,
    HexInstance,
    cell_count,
    edge_count,
    format_grid,
    grid_values,
    parse_grids,
)
from puzzlelab.puzzles.hexagon.reference import level_table, published_table
from puzzlelab.puzzles.hexagon.render import render_svg, render_text
from puzzlelab.puzzles.hexagon.verify import verify_grid

CATALOG_ORDERS = range(1, 28)


def _order(value: Any, field: str = "n") -> int:
    """The order n from a number or its digits: 1..MAX_ORDER (413 past it, however many
    digits it has: no 5,000-digit text reaches `int`), else a message naming `field`."""
    expected = f"{field}: expected an order n >= 1 (or a grid as submission text)"
    if isinstance(value, str):
        text = value.strip()
        if not (text.isascii() and text.isdigit()):
            raise InvalidInstance(f"{expected}, got {_brief(value)}", field)
        digits = text.lstrip("0")
        if len(digits) > len(str(MAX_ORDER)):
            raise InvalidInstance(f"{field}: an order of {len(digits)} digits is larger than the maximum {MAX_ORDER}", field, 413)
        value = int(digits or "0")
    elif isinstance(value, float):
        if not (math.isfinite(value) and value.is_integer()):
            raise InvalidInstance(f"{field}: expected a whole number, got {_brief(value)}", field)
        value = int(value) if abs(value) < 1e300 else (1 if value > 0 else -1) * 10**300
    elif isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidInstance(f"{expected}, got {_brief(value)}", field)
    n = int(value)
    if n < 1:
        raise InvalidInstance(f"{field}: expected an order n >= 1, got {n if n > -(10**12) else 'a large negative number'}", field)
    if n > MAX_ORDER:
        raise InvalidInstance(f"{field}: order {n if n < 10**12 else 'of over 12 digits'} is larger than the maximum {MAX_ORDER}", field, 413)
    return n


def _brief(value: Any) -> str:
    """A value shown in a message: at most 40 characters, a container by its size."""
    if isinstance(value, (list, tuple, dict)):
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, str):
        return repr(value[:40]) + ("..." if len(value) > 40 else "")
    if isinstance(value, int) and abs(value) >= 10**12:
        return "a number of over 12 digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class HexagonPuzzle(Puzzle):
    name = "hexagon"
    title = "Hexagonal neighbours (Al Zimmermann's contest): a cell holding k needs 1..k-1 beside it; maximise the sum"
    value_name = "raw score"
    sense = "max"
    default_method = "auto"
    default_budget = 60.0
    tour_instance = "4"  # proven optimal in well under a second of CPU
    tour_budget = 10.0

    def __init__(self) -> None:
        super().__init__(METHODS)

    def warm_up(self) -> None:
        """The beam search's and backtracking's kernels, on order 3 (the tour's `auto`
        proves order 4 by SAT and never reaches them); the row DP's (`prove` up to
        n = 11) and the LRAT and DRAT checkers' (`prove --certified`), on order 4."""
        from puzzlelab.core.certificates.drat import check_drat
        from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import prove_below
        from puzzlelab.puzzles.hexagon.rowdp.dp import grids_within

        self.solve(HexInstance(3), "beam", budget=120, width=50, order="clock", restarts=1)
        self.solve(HexInstance(3), "backtrack", budget=120)
        bound = level_table()[4][2] - 1
        grids_within(4, 3, bound)
        prove_below(4, 3, bound, depth=7, workers=1, certified=True)
        check_drat([[1, 2], [-1, 2], [1, -2], [-1, -2]], b"2 0\n0\n")

    # ---------------------------------------------------------------- instances
    def parse(self, obj: Any) -> HexInstance:
        if isinstance(obj, HexInstance):
            return obj
        if isinstance(obj, dict):
            if "grid" in obj and obj["grid"] is not None:
                grid = obj["grid"]
                instance = self.parse(grid) if isinstance(grid, (str, list, tuple)) else None
                if instance is None or instance.start is None:
                    raise InvalidInstance(f"grid: expected submission text like (4,3,2), (2,1,3,1), ... or a list of rows, got {_brief(grid)}", "grid")
                if "n" in obj and _order(obj["n"]) != instance.n:
                    raise InvalidInstance(f"n: {_brief(obj['n'])} does not match the grid's order {instance.n}", "n")
                return instance
            if "n" not in obj:
                raise InvalidInstance("instance: expected {'n': order} or {'grid': submission text}", "n")
            return HexInstance(_order(obj["n"]))
        if isinstance(obj, (list, tuple)):
            n, values = grid_values(list(obj))
            return HexInstance(n, values)
        if isinstance(obj, str):
            text = obj.strip()
            if text[:1] in ("[", "{"):  # JSON given as text: through core.inputs' limits
                return self.parse(parse_json(text, "instance"))
            if text.startswith("n="):
                text = text[2:].strip()
            if text.isdigit():
                return HexInstance(_order(text))
            if "(" in text:
                grids = parse_grids(text)
                if len(grids) != 1:
                    raise InvalidInstance(
                        f"grid: expected one grid, got {len(grids)} separated by ';' (score a whole submission with `puzzlelab hexagon score FILE`)",
                        "grid",
                    )
                n, values = grid_values(grids[0])
                return HexInstance(n, values)
            raise InvalidInstance(f"instance: expected an order n (e.g. 8) or a grid like (4,3,2), (2,1,3,1), ...; got {_brief(text)}", "instance")
        return HexInstance(_order(obj))

    def format_instance(self, instance: HexInstance) -> Any:
        if instance.start is None:
            return {"n": instance.n}
        return {"n": instance.n, "grid": format_grid(instance.n, instance.start)}

    def instance_key(self, instance: HexInstance) -> str:
        return str(instance.n)

    def catalog(self) -> dict[str, str]:
        entries = {}
        for n in CATALOG_ORDERS:
            row = published_table().get(n)
            text = f"order {n}: {cell_count(n)} cells, {edge_count(n)} edges"
            if row:
                proven = "proven optimal" if row["proven_optimal"] == "yes" else "best known"
                text += f"; {proven} raw score {row['best_raw_score']} ({row['penalty_edges']} penalty edges)"
            entries[str(n)] = text
        return entries

    def catalog_instance(self, name: str) -> HexInstance:
        return HexInstance(_order(name))

    def published(self, key: str) -> dict[str, Any] | None:
        try:
            row = published_table().get(int(key))
        except ValueError:
            return None
        if row is None:
            return None
        return {
            "value": int(row["best_raw_score"]),
            "proven": row["proven_optimal"] == "yes",
            "source": "Al Zimmermann's Programming Contest, Hexagonal Neighbors (2018-2019)",
            "penalty": int(row["penalty_edges"]),
            "cpu": row["published_cpu"],
            "arguments": row["published_sat_arguments"],
        }

    # ---------------------------------------------------------------- checking, pictures
    def verify(self, instance: HexInstance, solution: Any) -> Verdict:
        return verify_grid(instance, solution)

    def render_svg(self, instance: HexInstance, result: Result | None) -> str:
        return render_svg(instance, result)

    def render_text(self, instance: HexInstance, result: Result | None) -> str | None:
        return render_text(instance, result)
