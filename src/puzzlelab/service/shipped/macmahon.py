"""The MacMahon counts the package ships (`puzzles.macmahon.counts`): each with its
count certificate, checked by the checker; a total the checker can neither recount nor
compare with a published count is a recorded count, never a verified one."""

from __future__ import annotations

from typing import Any, Iterator

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.macmahon import counts
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.certificate import published_count
from puzzlelab.service.shipped.claims import Claim

__all__ = ["PARTS", "COUNTS", "claims", "clear"]

COUNTS = "macmahon counts (data/counts.json)"


def _classes(certificate: Any) -> dict[str, Any]:
    groups = certificate.get("groups") if isinstance(certificate, dict) else None
    if not isinstance(groups, dict):
        return {}
    return {
        "classes": {name: g.get("classes") for name, g in groups.items() if isinstance(g, dict)},
        "group_orders": {name: len(g.get("members") or ()) for name, g in groups.items() if isinstance(g, dict)},
    }


def _published(key: str) -> int | None:
    """The published count of the instance (or of the same board turned), if any."""
    try:
        found = published_count(parse_instance(key))
    except (InvalidInstance, ValueError):
        return None
    return None if found is None else found[0]


def claims() -> Iterator[Claim]:
    for key, row in counts.shipped_counts().items():
        problem = row.verdict.message if row.verdict.rejected else None
        figures = {**_classes(row.certificate), "published": _published(key)}
        yield Claim(key, key, row.total, "optimal", "every solution counted, the board held fixed", COUNTS, "enumerate",
                    row.provenance, row.certificate, problem, figures, "count", COUNTS)


PARTS = (("data/counts.json", claims),)  # the one shipped file


def clear() -> None:
    counts.shipped_counts.cache_clear()
