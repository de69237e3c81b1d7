"""GET /api/records: the best stored result per instance, beside the published value."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.service.dependencies import Records
from puzzlelab.service.errors import documented
from puzzlelab.service.models import RecordView

router = APIRouter(prefix="/api/records", tags=["records"])


@router.get(
    "",
    summary="Best known result per instance, beside the published value",
    response_model=list[RecordView],
    responses=documented(404, 422, 503),
)
def records(store: Records, puzzle: str | None = None) -> list[dict[str, Any]]:
    if puzzle is not None:
        get(puzzle)
    rows = []
    for record in store.best(puzzle, solutions=False):
        owner = REGISTRY.get(record.puzzle)
        row = record.to_dict()
        row.pop("solution", None)
        row["published"] = owner.published(record.instance) if owner is not None else None
        row["value_name"] = owner.value_name if owner else ""
        rows.append(row)
    return rows
