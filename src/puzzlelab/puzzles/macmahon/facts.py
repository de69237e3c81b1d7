"""The facts the write-up asked about, computed (never typed in), each answer verified:

- the piece-count formula: the generated sets beside Burnside's (c^4 + c^2 + 2c)/4 and
  MacMahon's c(c+1)(c^2-c+2)/4 (and (c^3 + 2c)/3 for triangles);
- whether the all-white square can sit inside the 4x6 board: the cells it occupies over
  all solutions (from the enumeration), and HiGHS on the write-up's model with that
  piece forced into an inner cell (infeasible = a proof by a second method);
- the solution counts with their symmetry classes (4x6, 3x8, 2x12, the triangles), and
  how they relate to the published 106,624 (CPLEX's pool) and 12,261 (1964).
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.result import Budget, no_progress
from puzzlelab.puzzles.macmahon.count_results import checked, run_enumerate
from puzzlelab.puzzles.macmahon.enumerator import count_solutions
from puzzlelab.puzzles.macmahon.mip import model_feasible
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.reference import PUBLISHED_COUNTS
from puzzlelab.puzzles.macmahon.tiles import burnside_count, square_count_formula, tile_set, triangle_count_formula

__all__ = ["tile_count_facts", "white_inside_facts", "count_facts", "all_facts", "PUBLISHED"]

PUBLISHED = {
    "cplex_pool_4x6": PUBLISHED_COUNTS["4x6"][0],  # the write-up: CPLEX's solution pool, symmetric versions included
    "feldman_1964_4x6": 12_261,  # the write-up, citing Feldman (1964): "excluding symmetries"
}


def tile_count_facts(max_colours: int = 6) -> list[dict[str, Any]]:
    rows = []
    for c in range(1, max_colours + 1):
        squares = tile_set(c, 4)
        triangles = tile_set(c, 3)
        rows.append(
            {
                "colours": c,
                "squares_generated": len(squares),
                "squares_burnside": burnside_count(c, 4),
                "squares_macmahon_formula": square_count_formula(c),
                "square_orientations": sum(_period(t) for t in squares),
                "triangles_generated": len(triangles),
                "triangles_formula": triangle_count_formula(c),
            }
        )
    return rows


def _period(t: tuple[int, ...]) -> int:
    k = len(t)
    return next(q for q in range(1, k + 1) if k % q == 0 and all(t[(s - q) % k] == t[s] for s in range(k)))


def white_inside_facts(budget: Budget, workers: int = 1) -> dict[str, Any]:
    """Where the all-white square goes in the 4x6 solutions, two ways."""
    inst = parse_instance("4x6")
    stats = count_solutions(inst, budget=budget, workers=workers, symmetry=False, occupancy=True)
    geometry = inst.board
    inner = [c for c in range(geometry.cells) if (geometry.neighbour[c] >= 0).all()]
    occupancy = stats["occupancy"]
    white = 0  # the all-white piece is first in canonical order
    by_cell = [occupancy[c][white] for c in range(geometry.cells)]
    outcome, _, seconds = model_feasible(inst, inside_piece=white, seconds=max(1.0, budget.seconds_left()))
    return {
        "complete": stats["complete"],
        "solutions": stats["total"],
        "inner_cells": len(inner),
        "solutions_with_white_inside": int(sum(by_cell[c] for c in inner)),
        "white_square_cells": {f"r{c // 6 + 1}c{c % 6 + 1}": n for c, n in enumerate(by_cell) if n},
        "highs_white_forced_inside": outcome,
        "highs_seconds": round(seconds, 3),
        "argument": (
            "16 border cells and 18 pieces with a white side: exactly two inner cells hold a piece "
            "with a white side; the all-white square inside would need at least two inner neighbours "
            "with white sides touching it, and only one such piece is left"
        ),
    }


def count_facts(name: str, budget: Budget, workers: int = 1) -> dict[str, Any]:
    """Total and classes per symmetry group of one catalog instance (verified)."""
    inst = parse_instance(name)
    result = checked(inst, run_enumerate(inst, budget=budget, progress=no_progress, seed=0, workers=workers))
    cert = result.solution
    return {
        "instance": name,
        "total": cert["total"],
        "complete": cert["complete"],
        "verified": result.verified,
        "classes": {g: v["classes"] for g, v in cert["groups"].items()},
        "group_orders": {g: len(v["members"]) for g, v in cert["groups"].items()},
        "orbit_sizes": {g: v["orbit_sizes"] for g, v in cert["groups"].items()},
        "symmetric_classes": len(cert["symmetric"]),
        "seconds": result.stats.get("seconds"),
    }


def relation_to_published(facts_4x6: dict[str, Any]) -> list[str]:
    total = facts_4x6["total"]
    classes = facts_4x6["classes"]
    lines = []
    pool = PUBLISHED["cplex_pool_4x6"]
    lines.append(
        f"board fixed, every solution: {total:,}; CPLEX's pool reported {pool:,}: "
        + ("the same" if total == pool else f"a difference of {total - pool:+,}")
    )
    old = PUBLISHED["feldman_1964_4x6"]
    for group, n in classes.items():
        order = facts_4x6["group_orders"][group]
        rel = "equal to" if n == old else ("above" if n > old else "below")
        lines.append(f"up to {group} (order {order}): {n:,} classes, {rel} 12,261 ({n - old:+,})")
    if old not in classes.values():
        lines.append(
            "12,261 matches none of these counts, and no group divides the total into 12,261 classes; "
            "since every class has at most as many solutions as the group has elements, "
            f"classes up to the full group are at least {total:,} / {facts_4x6['group_orders'].get('full', 1)}"
        )
    return lines


def all_facts(budget: Budget, workers: int = 1, boards: tuple[str, ...] = ("4x6", "3x8", "2x12", "hex2")) -> dict[str, Any]:
    counts = {name: count_facts(name, budget.sub(fraction=0.5), workers) for name in boards}
    facts: dict[str, Any] = {
        "tile_counts": tile_count_facts(),
        "white_inside": white_inside_facts(budget.sub(fraction=0.5), workers),
        "counts": counts,
    }
    if "4x6" in counts and counts["4x6"]["complete"]:
        facts["published"] = PUBLISHED
        facts["relation_to_published"] = relation_to_published(counts["4x6"])
    return facts
