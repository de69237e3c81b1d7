"""GET /api/puzzles and /api/puzzles/{name}/catalog: what the service offers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from puzzlelab.core.puzzle import Puzzle
from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.service.errors import documented
from puzzlelab.service.intake import client_options
from puzzlelab.service.models import CatalogEntry, PuzzleView

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])


def described(puzzle: Puzzle) -> dict[str, Any]:
    """`Puzzle.describe`, listing only the options a client may set (those naming a
    file or machine of the server are the operator's: `service.intake`)."""
    data = dict(puzzle.describe(), tour_instance=puzzle.tour_instance)
    for method in data["methods"]:
        allowed = {o.name for o in client_options(puzzle.methods[method["name"]])}
        method["options"] = [o for o in method["options"] if o["name"] in allowed]
    return data


@router.get("", summary="Puzzles, their methods and the options a client may set", response_model=list[PuzzleView])
def puzzles() -> list[dict]:
    return [described(p) for p in REGISTRY.values()]


@router.get("/{name}/catalog", summary="Named instances of a puzzle", response_model=list[CatalogEntry], responses=documented(404, 422))
def catalog(name: str) -> list[dict]:
    return [{"name": k, "description": v} for k, v in get(name).catalog().items()]
