"""The matchstick-squares Puzzle object: instance parsing, the independent checker,
pictures, the published figures and the methods (`methods.py`, each imported when
first run, so loading the puzzle compiles and imports no numba kernel)."""

from __future__ import annotations

import re
from typing import Any

from puzzlelab.core.puzzle import Puzzle, names_a_file
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.matchsticks.drawing import parse_any_solution
from puzzlelab.puzzles.matchsticks.methods import METHODS
from puzzlelab.puzzles.matchsticks.model import MAX_N, Instance, Solution, parse_instance
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.render import render_svg, render_text
from puzzlelab.puzzles.matchsticks.verify import verify_solution

__all__ = ["MatchsticksPuzzle", "PUZZLE"]

SOURCE = "OEIS A294249 (B. Chaffin, Matchstick Squares, 2019)"
_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")


class MatchsticksPuzzle(Puzzle):
    name = "matchsticks"
    title = "Matchstick squares (OEIS A294249): fewest matches forming squares 1x1 .. nxn at once"
    value_name = "matches"
    sense = "min"
    default_method = "auto"
    default_budget = 10.0
    tour_instance = "16"
    tour_budget = 10.0

    def __init__(self) -> None:
        super().__init__(METHODS)

    def parse(self, obj: Any) -> Instance:
        return parse_instance(obj)

    def load(self, spec: str | Any, *, local: bool = True) -> Instance:
        """As `Puzzle.load`, but a number given inline is n itself, however many digits
        it has: `parse_instance` refuses one past 63 as too large (413), where the JSON
        reader would call a number of over 30 digits malformed (422)."""
        if (
            isinstance(spec, str)
            and _NUMBER.fullmatch(spec)
            and spec not in self.catalog()
            and not (local and names_a_file(spec))
        ):
            return parse_instance(spec)
        return super().load(spec, local=local)

    def format_instance(self, instance: Instance) -> dict[str, int]:
        return {"n": instance.n}

    def instance_key(self, instance: Instance) -> str:
        return instance.key

    def catalog(self) -> dict[str, str]:
        entries = {}
        for n, row in published_table().items():
            kind = "proven optimal" if row["proven"] else "best known upper bound"
            entries[str(n)] = f"squares 1x1..{n}x{n}: {row['best_known']} matches published ({kind})"
        return entries

    def catalog_instance(self, name: str) -> Instance:
        return parse_instance(name)

    def verify(self, instance: Instance, solution: Any) -> Verdict:
        return verify_solution(instance, solution)

    def render_text(self, instance: Instance, result: Result | None) -> str | None:
        if result is None or result.solution is None:
            return None
        return render_text(instance.n, result.solution, result.value, result.stats.get("optimal_solutions"))

    def render_svg(self, instance: Instance, result: Result | None) -> str:
        return render_svg(instance.n, None if result is None else result.solution)

    def published(self, key: str) -> dict[str, Any] | None:
        try:
            n = int(key)
        except ValueError:
            return None
        row = published_table().get(n)
        if row is None or not 0 <= n <= MAX_N:
            return None
        return {"value": row["best_known"], "proven": row["proven"], "source": SOURCE}

    def parse_solution(self, obj: Any) -> Solution:
        """A solution in any of its forms: JSON, (size, x, y) text or the ASCII drawing."""
        return parse_any_solution(obj)


PUZZLE = MatchsticksPuzzle()
