"""The tiling dashboard: OEIS A219158 (fewest integer squares tiling an m x n
rectangle, shipped for m <= 10, n <= 60) as a heat map beside ours, the ten Cimpress
contest puzzles with their proven optima, and the rectangles outside the table."""

from __future__ import annotations

import re
from typing import Any

from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.tiling.catalog import RECTANGLES
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA, a219158_table, contest_json
from puzzlelab.service.answers import Known, known
from puzzlelab.service.dashboards import ours

__all__ = ["build", "SOURCE"]

SOURCE = "OEIS A219158 (m <= 10, n <= 60); Cimpress Tech Challenge 2 (2015), optima proven with CP-SAT"
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


def _heat_map(table: dict[tuple[int, int], int], rects: dict[tuple[int, int], Known]) -> dict[str, Any]:
    m_max = max(m for m, _ in table)
    n_max = max(n for _, n in table)
    published = [[table.get((m, n)) for n in range(1, n_max + 1)] for m in range(1, m_max + 1)]
    ours_grid: list[list[int | None]] = [[None] * n_max for _ in range(m_max)]
    status: list[list[str | None]] = [[None] * n_max for _ in range(m_max)]
    keys: list[list[str | None]] = [[None] * n_max for _ in range(m_max)]
    for (m, n), answer in rects.items():
        if m <= m_max and n <= n_max:
            ours_grid[m - 1][n - 1], status[m - 1][n - 1], keys[m - 1][n - 1] = answer.value, answer.status, answer.instance
    return {"m_max": m_max, "n_max": n_max, "published": published, "ours": ours_grid, "ours_status": status, "ours_instance": keys}


def _rectangle_rows(table: dict[tuple[int, int], int], rects: dict[tuple[int, int], Known]) -> list[dict[str, Any]]:
    """The catalog's rectangles, then every solved one outside the table."""
    rows, seen = [], set()
    wanted = list(RECTANGLES.values())
    m_max, n_max = max(m for m, _ in table), max(n for _, n in table)
    wanted += [(n, m) for (m, n) in rects if (m > m_max or n > n_max) and (n, m) not in wanted and (m, n) not in wanted]
    for w, h in wanted:
        side = (min(w, h), max(w, h))
        if side in seen:
            continue
        seen.add(side)
        answer = rects.get(side)
        rows.append({"width": w, "height": h, "instance": f"{w}x{h}", "published": table.get(side),
                     "ours": ours(answer), "answer": answer is not None})
    return rows


def build(store: Store) -> dict[str, Any]:
    puzzle = get("tiling")
    answers = known(store, puzzle, solutions=False)
    table = a219158_table()
    rects = _rectangles(answers)
    contests = []
    for number, optimum in CONTEST_OPTIMA.items():
        data = contest_json(number)
        answer = answers.get(f"contest_{number}")
        contests.append({"number": number, "instance": f"contest_{number}", "width": data["width"], "height": data["height"],
                         "published": optimum, "ours": ours(answer), "answer": answer is not None})
    return {"value_name": puzzle.value_name, "source": SOURCE, **_heat_map(table, rects), "contests": contests,
            "rectangles": _rectangle_rows(table, rects)}
