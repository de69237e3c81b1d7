"""The records dashboards: for each puzzle, its published table (the
puzzle's `reference.py`) beside the best verified answer this workbench knows
(`service.answers`: the records store, and any plugged-in source), as plain data for
the routes of `service.routes.dashboards` and the page's Records view.

One module per puzzle, each with `build(store, ...) -> dict` matching its response
model in `service.dashboard_models`."""

from __future__ import annotations

from typing import Any

from puzzlelab.service.answers import Known

__all__ = ["ours", "is_proven"]


def ours(answer: Known | None) -> dict[str, Any] | None:
    """A dashboard row's `ours`: the answer's figures without its solution."""
    return None if answer is None else answer.summary()


def is_proven(answer: Known | None) -> bool:
    return answer is not None and answer.status == "optimal"
