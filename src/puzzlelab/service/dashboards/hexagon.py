"""The hexagon dashboard: raw score and penalty edges by order n, published (Al
Zimmermann's contest) and ours, with the lowest penalties through each level (the
write-up), the range of n proven, the package's grids and proof records for each
order and the solution counts the row DP reproduced. The published table obeys raw
score = edges - penalty edges (the contest's scoring), so our grid's penalty is read
off its score."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.hexagon.model import cell_count, edge_count
from puzzlelab.puzzles.hexagon.reference import count_table, level_table, published_table
from puzzlelab.service.answers import known
from puzzlelab.service.dashboards import highlight, is_proven, local_answers, numbers, ours, sources, versus, views
from puzzlelab.service.shipped import shipped, shipped_for

__all__ = ["build", "SOURCE"]

SOURCE = "Al Zimmermann's Programming Contest, Hexagonal Neighbors (2018-2019), and a competitor's write-up"


def _row(n: int, entry: dict[str, str], levels: tuple[int, ...] | None, answer, local, rows) -> dict[str, Any]:
    value = answer.value if answer is not None and isinstance(answer.value, int) else None
    published = int(entry["best_raw_score"])
    return {
        "n": n, "instance": str(n), "cells": cell_count(n), "edges": edge_count(n),
        "published": published, "published_penalty": int(entry["penalty_edges"]),
        "proven": entry["proven_optimal"] == "yes", "level_penalties": list(levels) if levels else None,
        "ours": ours(answer), "ours_penalty": None if value is None else edge_count(n) - value, "answer": answer is not None,
        "local": local, "shipped": views(r for r in rows if r.kind != "count"), "versus": versus("max", value, published),
    }


def _counts() -> list[dict[str, Any]]:
    """The solution counts: the write-up's and ours (recorded) side by side."""
    published = count_table()
    rows = []
    for row in shipped("hexagon"):
        if row.kind == "count":
            n, level = int(row.instance), row.figures.get("level")
            figure = published.get(n, {}).get(level)
            rows.append({"n": n, "level": level, "penalty": row.figures.get("penalty"), "published": figure,
                         "ours": row.value if row.ours else None, "shipped": row.view(),
                         "versus": versus("exact", row.value, figure) if row.ours else None})
    return rows


def _highlights(rows: list[dict[str, Any]], counts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = [highlight("beats", f"n = {r['n']}: raw {r['ours']['value']:,} above the published {r['published']:,}", [r["instance"]])
             for r in rows if r["versus"] == "beats"]
    proven = [r["n"] for r in rows if r["ours"] and r["ours"]["status"] == "optimal" and r["versus"] == "ties"
              and any(s["kind"] == "answer" and s["check"] == "verified" for s in r["shipped"])]
    if proven:
        found.append(highlight("ties", f"proven optimal here for n = {numbers(proven)}: each equal to the published best score",
                               [str(n) for n in proven]))
    past = [n for n in proven if not next(r for r in rows if r["n"] == n)["proven"]]
    if past:
        found.append(highlight("beats", f"proven optimal here past the published proofs: n = {numbers(past)} (published as the best "
                                        "score found, not proven)", [str(n) for n in past]))
    reached = [r["n"] for r in rows if r["versus"] == "ties" and r["n"] not in proven]
    if reached:
        found.append(highlight("ties", f"the published best score reached for n = {numbers(reached)} (each grid checked)",
                               [str(n) for n in reached]))
    equal = [c for c in counts if c["versus"] == "ties"]
    if equal:
        found.append(highlight("ties", f"{len(equal)} solution counts of the write-up's table reproduced by the row DP "
                                       f"(n = {numbers(c['n'] for c in equal)}; recorded counts)"))
    return found


def build(store: Store) -> dict[str, Any]:
    puzzle = get("hexagon")
    answers = known(store, puzzle, solutions=False)
    local = local_answers(store, puzzle)
    shipped_rows = shipped_for("hexagon")
    table, levels = published_table(), level_table()
    rows = [_row(n, table[n], levels.get(n), answers.get(str(n)), local.get(str(n)), shipped_rows.get(str(n), []))
            for n in sorted(table)]
    proven = [row["n"] for row in rows if row["proven"]]
    reached = [row["n"] for row in rows if row["ours"] is not None and isinstance(row["ours"]["value"], int)
               and row["ours"]["value"] >= row["published"]]
    counts = _counts()
    return {
        "value_name": puzzle.value_name, "source": SOURCE,
        "proven_range": [min(proven), max(proven)] if proven else [],
        "ours_proven": sorted(int(k) for k, a in answers.items() if k.isdigit() and is_proven(a)),
        "ours_reached": reached, "rows": rows, "counts": counts, "highlights": _highlights(rows, counts), **sources("hexagon"),
    }
