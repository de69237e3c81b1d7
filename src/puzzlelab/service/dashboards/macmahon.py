"""The MacMahon dashboard: the count of every catalog instance and of every instance
counted here, beside a published count where there is one (`reference.py`, matched as
the checker matches it: the same board or the board turned), with the classes up to
each symmetry group read from the verified count certificate. The counts the package
ships (`service.shipped`) are ours on a fresh install; one the checker cannot check in
full is shown as a recorded count, never as verified."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.certificate import published_count
from puzzlelab.service.answers import Known, known
from puzzlelab.service.dashboards import highlight, local_answers, ours, sources, versus, views
from puzzlelab.service.shipped import shipped_for

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


def _highlights(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = [highlight("ties", f"{r['instance']}: {r['ours']['value']:,} solutions, the published count, counted here "
                               "(certificate checked)", [r["instance"]]) for r in rows if r["versus"] == "ties"]
    found += [highlight("differs", f"{r['instance']}: {r['ours']['value']:,} counted here, {r['published']:,} published",
                        [r["instance"]]) for r in rows if r["versus"] == "differs"]
    new = [r for r in rows if r["ours"] and r["published"] is None]
    if new:
        found.append(highlight("new", "counted here, no published count: " + ", ".join(f"{r['instance']} {r['ours']['value']:,}" for r in new),
                               [r["instance"] for r in new]))
    recorded = [(r["instance"], s["value"]) for r in rows if not r["ours"] for s in r["shipped"] if s["check"] == "recorded"]
    if recorded:
        found.append(highlight("new", "recorded counts (the checker cannot recount them): "
                                      + ", ".join(f"{k} {v:,}" for k, v in recorded), [k for k, _ in recorded]))
    return found


def build(store: Store) -> dict[str, Any]:
    puzzle = get("macmahon")
    answers = known(store, puzzle)
    local = local_answers(store, puzzle)
    shipped = shipped_for("macmahon")
    catalog = puzzle.catalog()
    rows = []
    for key in list(catalog) + sorted(k for k in set(answers) | set(shipped) if k not in catalog):
        answer = answers.get(key)
        published = _published(key)
        classes, orders = _classes(answer)
        rows.append({
            "instance": key, "description": catalog.get(key, "counted here"),
            "published": published[0] if published else None, "published_source": published[1] if published else None,
            "ours": ours(answer), "classes": classes, "group_orders": orders, "answer": answer is not None,
            "local": local.get(key), "shipped": views(shipped.get(key, [])),
            "versus": versus("exact", answer.value if answer else None, published[0] if published else None),
        })
    return {"value_name": puzzle.value_name, "rows": rows, "highlights": _highlights(rows), **sources("macmahon")}
