"""POST /api/preview: an instance parsed and drawn, not solved (the Solve page
shows the instance as soon as it is chosen or pasted, and the parse error inline when
it is bad). The instance goes through the same door as a job's (`service.intake`):
the same 4xx for the same bad input."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from puzzlelab.puzzles import get
from puzzlelab.service.dashboard_models import PreviewRequest, PreviewView
from puzzlelab.service.errors import JSONBodyRoute, documented
from puzzlelab.service.intake import load_instance
from puzzlelab.service.views import preview

router = APIRouter(prefix="/api/preview", tags=["puzzles"], route_class=JSONBodyRoute)


@router.post("", summary="Parse and draw an instance without solving it", response_model=PreviewView,
             responses=documented(400, 404, 413, 422))
def post_preview(request: PreviewRequest) -> dict[str, Any]:
    puzzle = get(request.puzzle)
    instance, _, _ = load_instance(puzzle, request.instance)
    return preview(puzzle, instance)
