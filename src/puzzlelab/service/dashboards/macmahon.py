"""The MacMahon dashboard: the count of every catalog instance and of every instance
counted here, beside a published count where there is one (`reference.py`, matched as
the checker matches it: the same board or the board turned), with the classes up to
each symmetry group read from the verified count certificate."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.certificate import published_count
from puzzlelab.service.answers import Known, known
from puzzlelab.service.dashboards import ours

__all__ = ["build"]


@lru_cache(maxsize=1024)
def _published(key: str) -> tuple[int, str] | None:
    try:
        return published_count(parse_instance(key))
    except (InvalidInstance, ValueError):
        return None  # a key naming a piece multiset by digest cannot be parsed back


def _classes(answer: Known | None) -> tuple[dict[str, int], dict[str, int]]:
    """Classes up to each group, and each group's order, from a count certificate."""
    solution = answer.solution if answer is not None else None
    if not isinstance(solution, dict) or solution.get("kind") != "count":
        return {}, {}
    groups = solution.get("groups") or {}
    classes = {name: int(g["classes"]) for name, g in groups.items() if isinstance(g, dict) and "classes" in g}
    orders = {name: len(g.get("members") or ()) for name, g in groups.items() if isinstance(g, dict)}
    return classes, orders


def build(store: Store) -> dict[str, Any]:
    puzzle = get("macmahon")
    answers = known(store, puzzle)
    catalog = puzzle.catalog()
    rows = []
    for key in list(catalog) + sorted(k for k in answers if k not in catalog):
        answer = answers.get(key)
        published = _published(key)
        classes, orders = _classes(answer)
        rows.append({
            "instance": key, "description": catalog.get(key, "counted here"),
            "published": published[0] if published else None, "published_source": published[1] if published else None,
            "ours": ours(answer), "classes": classes, "group_orders": orders, "answer": answer is not None,
        })
    return {"value_name": puzzle.value_name, "rows": rows}
