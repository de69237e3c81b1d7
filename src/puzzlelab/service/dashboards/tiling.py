"""The tiling dashboard: OEIS A219158 (fewest integer squares tiling an m x n
rectangle) as a heat map over every row shipped -- the published table (m <= 10,
n <= 60) and the rows m = 16..20, n = 16..100 computed here -- beside ours, the ten
Cimpress contest puzzles with their proven optima and our tilings, and the rectangles
outside the table."""

from __future__ import annotations

import re
from typing import Any

from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.tiling.catalog import RECTANGLES
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA, a219158_table, contest_json
from puzzlelab.service.answers import Known, known
from puzzlelab.service.dashboards import highlight, local_answers, numbers, ours, sources, versus, views
from puzzlelab.service.shipped import shipped, shipped_for
from puzzlelab.service.shipped.tiling import ROWS

__all__ = ["build", "SOURCE"]

SOURCE = ("OEIS A219158 (m <= 10, n <= 60; rows m = 16..20, n = 16..100 computed here by the exact column DP); "
          "Cimpress Tech Challenge 2 (2015), optima proven with CP-SAT here")
_RECT = re.compile(r"rect_([0-9]{1,4})x([0-9]{1,4})")


def _rectangles(answers: dict[str, Known]) -> dict[tuple[int, int], Known]:
    """(m, n) with m <= n -> the best answer of the m x n or n x m rectangle."""
    best: dict[tuple[int, int], Known] = {}
    for key, answer in answers.items():
        match = _RECT.fullmatch(key)
        if not match or not isinstance(answer.value, int):
            continue
        w, h = int(match.group(1)), int(match.group(2))
        side = (min(w, h), max(w, h))
        held = best.get(side)
        if held is None or answer.value < held.value or (answer.value == held.value and answer.status == "optimal"):
            best[side] = answer
    return best


def _computed() -> dict[tuple[int, int], Any]:
    """(m, n) -> the shipped A219158 row's check, for every computed entry."""
    return {(r.figures["m"], r.figures["n"]): r for r in shipped("tiling") if r.source == ROWS and "m" in r.figures}


def _heat_map(table: dict[tuple[int, int], int], rects: dict[tuple[int, int], Known]) -> dict[str, Any]:
    computed = _computed()
    sides = list(table) + list(computed)
    m_max, n_max = max(m for m, _ in sides), max(n for _, n in sides)
    published = [[table.get((m, n)) for n in range(1, n_max + 1)] for m in range(1, m_max + 1)]
    ours_grid: list[list[int | None]] = [[None] * n_max for _ in range(m_max)]
    status: list[list[str | None]] = [[None] * n_max for _ in range(m_max)]
    keys: list[list[str | None]] = [[None] * n_max for _ in range(m_max)]
    for (m, n), answer in rects.items():
        if m <= m_max and n <= n_max:
            ours_grid[m - 1][n - 1], status[m - 1][n - 1], keys[m - 1][n - 1] = answer.value, answer.status, answer.instance
    failed = [{"m": m, "n": n, "value": r.value, "reason": r.reason} for (m, n), r in sorted(computed.items()) if r.check == "failed"]
    return {
        "m_max": m_max, "n_max": n_max, "published": published, "ours": ours_grid, "ours_status": status, "ours_instance": keys,
        "published_m_max": max(m for m, _ in table), "published_n_max": max(n for _, n in table),
        "computed_rows": sorted({m for m, _ in computed}), "computed_failed": failed,
    }


def _rectangle_rows(table: dict[tuple[int, int], int], rects: dict[tuple[int, int], Known], local, m_max: int, n_max: int) -> list[dict[str, Any]]:
    """The catalog's rectangles, then every solved one outside the heat map (m_max x n_max)."""
    rows, seen = [], set()
    wanted = list(RECTANGLES.values())
    wanted += [(n, m) for (m, n) in rects if (m > m_max or n > n_max) and (n, m) not in wanted and (m, n) not in wanted]
    for w, h in wanted:
        side = (min(w, h), max(w, h))
        if side in seen:
            continue
        seen.add(side)
        answer = rects.get(side)
        rows.append({"width": w, "height": h, "instance": f"{w}x{h}", "published": table.get(side),
                     "ours": ours(answer), "answer": answer is not None,
                     "local": local.get(f"rect_{w}x{h}") or local.get(f"rect_{h}x{w}"),
                     "versus": versus("min", answer.value if answer else None, table.get(side))})
    return rows


def _highlights(contests: list[dict[str, Any]], heat: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    proven = [c["number"] for c in contests if c["versus"] == "ties" and c["ours"]["status"] == "optimal"]
    if proven:
        found.append(highlight("ties", f"contest puzzles {numbers(proven)}: the proven optimum reached (tilings checked)",
                               [f"contest_{k}" for k in proven]))
    counted = sum(v is not None for row in heat["ours"][15:] for v in row)
    if heat["computed_rows"]:
        found.append(highlight("new", f"A219158 past the published table: rows m = {numbers(heat['computed_rows'])}, "
                                      f"{counted} entries to n = {heat['n_max']}, each tiling checked"))
    return found


def build(store: Store) -> dict[str, Any]:
    puzzle = get("tiling")
    answers = known(store, puzzle, solutions=False)
    local = local_answers(store, puzzle)
    shipped_rows = shipped_for("tiling")
    table = a219158_table()
    rects = _rectangles(answers)
    contests = []
    for number, optimum in CONTEST_OPTIMA.items():
        data = contest_json(number)
        key = f"contest_{number}"
        answer = answers.get(key)
        contests.append({"number": number, "instance": key, "width": data["width"], "height": data["height"],
                         "published": optimum, "ours": ours(answer), "answer": answer is not None, "local": local.get(key),
                         "shipped": views(shipped_rows.get(key, [])), "versus": versus("min", answer.value if answer else None, optimum)})
    heat = _heat_map(table, rects)
    return {"value_name": puzzle.value_name, "source": SOURCE, **heat, "contests": contests,
            "rectangles": _rectangle_rows(table, rects, local, heat["m_max"], heat["n_max"]), "highlights": _highlights(contests, heat), **sources("tiling")}
