"""The matchsticks dashboard: OEIS A294249 by n (proven values and bounds, the
restricted searches' optima) beside ours."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.matchsticks.puzzle import SOURCE
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.service.answers import known
from puzzlelab.service.dashboards import is_proven, ours

__all__ = ["build"]


def build(store: Store) -> dict[str, Any]:
    puzzle = get("matchsticks")
    answers = known(store, puzzle, solutions=False)
    table = published_table()
    rows = []
    for n, entry in sorted(table.items()):
        answer = answers.get(str(n))
        rows.append({
            "n": n, "instance": str(n), "published": entry["best_known"], "proven": entry["proven"],
            "diagonal1_best": entry["diagonal1_best"], "diagonal20_best": entry["diagonal20_best"],
            "greedy_best": entry["greedy_best"], "ours": ours(answer), "answer": answer is not None,
        })
    proven_to = -1
    for n in sorted(table):
        if not table[n]["proven"] or n != proven_to + 1:
            break
        proven_to = n
    return {
        "value_name": puzzle.value_name, "source": SOURCE, "proven_to": proven_to, "bounds_to": max(table),
        "ours_proven": sorted(int(k) for k, a in answers.items() if k.isdigit() and is_proven(a)),
        "rows": rows,
    }
