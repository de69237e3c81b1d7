"""GET /api/health: liveness, the queue's length and bound, and what one job may take."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from puzzlelab import __version__
from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.dependencies import Runner
from puzzlelab.service.models import Health

router = APIRouter(prefix="/api/health", tags=["service"])


@router.get("", summary="Liveness, queue length and bound, the caps of one job", response_model=Health)
def health(runner: Runner) -> dict[str, Any]:
    return {
        "ok": True,
        "version": __version__,
        "puzzles": list(REGISTRY),
        **runner.load,
        "job_memory_bytes": runner.memory_bytes,
        "capacity": runner.capacity.to_dict(),
    }
