"""The matchsticks dashboard: OEIS A294249 by n (proven values and bounds, the
restricted searches' optima) beside ours: the proofs of n = 0..38 with their optimal
solutions counted, the new upper bounds and the restricted optima the package ships
(each checked again), and this machine's records."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.matchsticks.puzzle import SOURCE
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.service.answers import known
from puzzlelab.service.dashboards import highlight, is_proven, local_answers, numbers, ours, sources, versus, views
from puzzlelab.service.shipped import shipped_for

__all__ = ["build"]


def _highlights(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The new bounds first, then the proofs, then the restricted optima reproduced."""
    found = []
    for row in rows:
        if row["versus"] == "beats":
            found.append(highlight("beats", f"a({row['n']}) <= {row['ours']['value']:,}: below the published "
                                            f"{row['published']:,} (a new upper bound, checked)", [row["instance"]]))
    proven = [r["n"] for r in rows for s in r["shipped"] if s["kind"] == "answer" and s["check"] == "verified"
              and s["status"] == "optimal" and s["value"] == r["published"]]
    if proven:
        found.append(highlight("ties", f"a(n) proven optimal here for n = {numbers(proven)}, each equal to A294249's, "
                                       "with its optimal solutions counted", [str(n) for n in proven]))
    columns: dict[str, list[int]] = {}
    for row in rows:
        for s in row["shipped"]:
            name = s["figures"].get("column")
            if s["kind"] == "column" and s["check"] == "verified" and s["value"] == row.get(f"{name}_best"):
                columns.setdefault(name, []).append(row["n"])
    for name, ns in columns.items():
        found.append(highlight("ties", f"the {name} search's optimum reproduced for n = {numbers(ns)}", [str(n) for n in ns]))
    return found


def build(store: Store) -> dict[str, Any]:
    puzzle = get("matchsticks")
    answers = known(store, puzzle, solutions=False)
    local = local_answers(store, puzzle)
    shipped = shipped_for("matchsticks")
    table = published_table()
    rows = []
    for n, entry in sorted(table.items()):
        answer = answers.get(str(n))
        rows.append({
            "n": n, "instance": str(n), "published": entry["best_known"], "proven": entry["proven"],
            "diagonal1_best": entry["diagonal1_best"], "diagonal20_best": entry["diagonal20_best"],
            "greedy_best": entry["greedy_best"], "ours": ours(answer), "answer": answer is not None,
            "local": local.get(str(n)), "shipped": views(shipped.get(str(n), [])),
            "versus": versus(puzzle.sense, answer.value if answer else None, entry["best_known"]),
        })
    proven_to = -1
    for n in sorted(table):
        if not table[n]["proven"] or n != proven_to + 1:
            break
        proven_to = n
    return {
        "value_name": puzzle.value_name, "source": SOURCE, "proven_to": proven_to, "bounds_to": max(table),
        "ours_proven": sorted(int(k) for k, a in answers.items() if k.isdigit() and is_proven(a)),
        "rows": rows, "highlights": _highlights(rows), **sources("matchsticks"),
    }
