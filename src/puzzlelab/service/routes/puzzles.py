"""GET /api/puzzles and /api/puzzles/{name}/catalog: what the service offers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from puzzlelab.core.puzzle import Option, Puzzle
from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.service.capacity import Capacity, option_cap
from puzzlelab.service.dependencies import Runner
from puzzlelab.service.errors import documented
from puzzlelab.service.intake import client_options
from puzzlelab.service.models import CatalogEntry, PuzzleView

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])


def described(puzzle: Puzzle, capacity: Capacity | None = None) -> dict[str, Any]:
    """`Puzzle.describe`, listing only the options a client may set (those naming a
    file or machine of the server are the operator's: `service.intake`), each with
    this server's cap as its maximum and a default within it (`service.capacity`)."""
    data = dict(puzzle.describe(), tour_instance=puzzle.tour_instance)
    for method in data["methods"]:
        allowed = {o.name: o for o in client_options(puzzle.methods[method["name"]])}
        method["options"] = [_capped(o, allowed[o["name"]], capacity) for o in method["options"] if o["name"] in allowed]
    return data


def _capped(listed: dict[str, Any], option: Option, capacity: Capacity | None) -> dict[str, Any]:
    cap = None if capacity is None else option_cap(option, capacity)
    if cap is None:
        return listed
    default = listed["default"]
    if isinstance(default, (int, float)) and not isinstance(default, bool) and default > cap:
        default = cap
    return {**listed, "maximum": cap, "default": default}


@router.get("", summary="Puzzles, their methods and the options a client may set, within this server's caps",
            response_model=list[PuzzleView])
def puzzles(runner: Runner) -> list[dict]:
    return [described(p, runner.capacity) for p in REGISTRY.values()]


@router.get("/{name}/catalog", summary="Named instances of a puzzle", response_model=list[CatalogEntry], responses=documented(404, 422))
def catalog(name: str) -> list[dict]:
    return [{"name": k, "description": v} for k, v in get(name).catalog().items()]
