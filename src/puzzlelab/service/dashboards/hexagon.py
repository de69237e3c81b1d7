"""The hexagon dashboard: raw score and penalty edges by order n, published (Al
Zimmermann's contest) and ours, with the lowest penalties through each level (the
write-up) and the range of n proven. The published table obeys raw score = edges -
penalty edges (the contest's scoring), so our grid's penalty is read off its score."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.hexagon.model import cell_count, edge_count
from puzzlelab.puzzles.hexagon.reference import level_table, published_table
from puzzlelab.service.answers import known
from puzzlelab.service.dashboards import is_proven, ours

__all__ = ["build", "SOURCE"]

SOURCE = "Al Zimmermann's Programming Contest, Hexagonal Neighbors (2018-2019), and a competitor's write-up"


def _row(n: int, entry: dict[str, str], levels: tuple[int, ...] | None, answer) -> dict[str, Any]:
    value = answer.value if answer is not None and isinstance(answer.value, int) else None
    return {
        "n": n, "instance": str(n), "cells": cell_count(n), "edges": edge_count(n),
        "published": int(entry["best_raw_score"]), "published_penalty": int(entry["penalty_edges"]),
        "proven": entry["proven_optimal"] == "yes", "level_penalties": list(levels) if levels else None,
        "ours": ours(answer), "ours_penalty": None if value is None else edge_count(n) - value, "answer": answer is not None,
    }


def build(store: Store) -> dict[str, Any]:
    puzzle = get("hexagon")
    answers = known(store, puzzle, solutions=False)
    table, levels = published_table(), level_table()
    rows = [_row(n, table[n], levels.get(n), answers.get(str(n))) for n in sorted(table)]
    proven = [row["n"] for row in rows if row["proven"]]
    reached = [row["n"] for row in rows if row["ours"] is not None and isinstance(row["ours"]["value"], int)
               and row["ours"]["value"] >= row["published"]]
    return {
        "value_name": puzzle.value_name, "source": SOURCE,
        "proven_range": [min(proven), max(proven)] if proven else [],
        "ours_proven": sorted(int(k) for k, a in answers.items() if k.isdigit() and is_proven(a)),
        "ours_reached": reached, "rows": rows,
    }
