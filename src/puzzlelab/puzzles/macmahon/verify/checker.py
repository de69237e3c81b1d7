"""Independent checker for MacMahon solutions and solution counts. Imports no solver and
not the solvers' board tables: `verify_rules` rebuilds the geometry (which sides touch,
which lie on the border) and the board symmetries from coordinates by its own arithmetic,
and `verify_recount` counts solutions by its own plain search.

What it checks (see `verify_rules` for the rules of one placement):
- a grid, or {"grid": grid}: one valid solution;
- {"solutions": [grid, ...]}: that many different valid solutions;
- a count certificate ({"kind": "count", ...}): every claim it makes, as
  `verify_certificate` describes. A claim the checker cannot check (a total too large to
  recount with no published count to compare with) gives an UNCHECKED verdict
  (`Verdict.unchecked` says what), never a valid one.
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.result import Verdict
from puzzlelab.puzzles.macmahon.model import Instance
from puzzlelab.puzzles.macmahon.verify.certificate import verify_count
from puzzlelab.puzzles.macmahon.verify.rules import cell_geometry, check_placement, element_action, grid_colours

__all__ = ["verify", "cell_geometry", "grid_colours", "check_placement", "element_action"]


def verify(inst: Instance, solution: Any) -> Verdict:
    """Check a grid, {"grid": ...}, {"solutions": [grid, ...]} or a count certificate."""
    if isinstance(solution, dict) and solution.get("kind") == "count":
        return verify_count(inst, solution)
    if isinstance(solution, dict) and "solutions" in solution:
        grids = solution["solutions"]
        if not isinstance(grids, list) or not grids:
            return Verdict(False, None, "solutions: expected a non-empty list of grids")
        seen = set()
        for n, grid in enumerate(grids):
            colours, why = check_placement(inst, grid)
            if colours is None:
                return Verdict(False, None, f"solution {n + 1}: {why}")
            if colours in seen:
                return Verdict(False, None, f"solution {n + 1} repeats an earlier one")
            seen.add(colours)
        return Verdict(True, len(grids), f"{len(grids)} different valid solutions")
    colours, why = check_placement(inst, solution)
    if colours is None:
        return Verdict(False, None, why)
    return Verdict(True, 1, "valid: every piece once as given, border and touching sides match")
