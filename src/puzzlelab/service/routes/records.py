"""GET /api/records: the best stored result per instance, beside the published value; each
is checked again before it is listed (`core.records_check`; the ones passed over are logged)."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from fastapi import APIRouter

from puzzlelab.core.records_check import checked_best
from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.service.answers import instance_of
from puzzlelab.service.dependencies import Records
from puzzlelab.service.errors import documented
from puzzlelab.service.models import RecordView

log = logging.getLogger("puzzlelab.service")

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
    checked = checked_best(store, REGISTRY, puzzle, solutions=False, rebuild=partial(instance_of, store))
    for passed_over in checked.rejected:
        log.warning("GET /api/records: %s", passed_over.line())
    for record in checked.records:
        owner = REGISTRY.get(record.puzzle)
        row = record.to_dict()
        row.pop("solution", None)
        row["published"] = owner.published(record.instance) if owner is not None else None
        row["value_name"] = owner.value_name if owner else ""
        rows.append(row)
    return rows
