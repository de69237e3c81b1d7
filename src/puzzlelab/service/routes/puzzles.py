"""GET /api/puzzles and /api/puzzles/{name}/catalog: what the service offers."""

from __future__ import annotations

from fastapi import APIRouter

from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.service.errors import ERROR_RESPONSES
from puzzlelab.service.models import CatalogEntry, PuzzleView

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])


@router.get("", summary="Puzzles, their methods and options", response_model=list[PuzzleView])
def puzzles() -> list[dict]:
    return [dict(p.describe(), tour_instance=p.tour_instance) for p in REGISTRY.values()]


@router.get("/{name}/catalog", summary="Named instances of a puzzle", response_model=list[CatalogEntry], responses={404: ERROR_RESPONSES[404]})
def catalog(name: str) -> list[dict]:
    return [{"name": k, "description": v} for k, v in get(name).catalog().items()]
