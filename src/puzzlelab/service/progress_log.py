"""The figures of a job's progress over time, for the page's chart of a long run
("a proof that runs for hours deserves a chart, and a way to look at it again after a
restart").

Each progress report (`core.result.Progress.to_dict`) gives a point: the seconds since
the job started, its phase, and its numeric figures (done, total, fraction, best, and
every counter in `stats` that is a number, or a number written with thousands
separators such as the coin BFS's '1,234,567' boards). A series keeps fewer than
`MAX_POINTS`: when full, every other point is dropped and from then on only every
other report is kept (the first and the latest always stay), so an hours-long run
keeps an even sample of its whole history in bounded memory.

The runner writes each series to the `job_progress` table beside the jobs (at most
every `SAVE_SECONDS` while the job runs, and when it ends), so the chart survives a
restart of the service.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_POINTS", "SAVE_SECONDS", "SCHEMA", "figures", "Series"]

MAX_POINTS = 1000
SAVE_SECONDS = 5.0
SCHEMA = """
CREATE TABLE IF NOT EXISTS job_progress (
    job_id  TEXT PRIMARY KEY,
    points  TEXT NOT NULL
);
"""
_NUMBER_TEXT = re.compile(r"-?[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?|-?[0-9]+(\.[0-9]+)?")


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str) and len(value) <= 40 and _NUMBER_TEXT.fullmatch(value.strip()):
        return float(value.strip().replace(",", ""))
    return None


def figures(progress: dict[str, Any]) -> dict[str, float]:
    """The numeric figures of one progress report, by name ('best', 'fraction',
    'nodes', 'boards' ...); text that is not a plain number is left out."""
    out: dict[str, float] = {}
    for name in ("done", "total", "fraction", "best"):
        number = _number(progress.get(name))
        if number is not None:
            out[name] = number
    stats = progress.get("stats")
    if isinstance(stats, dict):
        for name, value in list(stats.items())[:20]:
            number = _number(value)
            if number is not None and str(name) not in out:
                out[str(name)[:40]] = number
    return out


@dataclass
class Series:
    """One job's progress points: [seconds, phase, {figure: value}]. Every `stride`-th
    report is kept (the stride doubles each time the points reach MAX_POINTS and every
    other one is dropped), and the latest report always ends the series."""

    kept: list[list[Any]] = field(default_factory=list)
    latest: list[Any] | None = None
    count: int = 0
    stride: int = 1
    saved_at: float = 0.0  # the monotonic time of the last write
    dirty: bool = False

    def add(self, seconds: float, progress: dict[str, Any]) -> None:
        point = [round(max(0.0, seconds), 3), str(progress.get("phase") or "")[:60], figures(progress)]
        if self.count % self.stride == 0:
            self.kept.append(point)
            if len(self.kept) >= MAX_POINTS:
                self.kept = self.kept[::2]
                self.stride *= 2
        self.latest = point
        self.count += 1
        self.dirty = True

    @property
    def points(self) -> list[list[Any]]:
        if self.latest is None or (self.kept and self.kept[-1] is self.latest):
            return list(self.kept)
        return self.kept + [self.latest]

    def to_json(self) -> str:
        return json.dumps(self.points, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Series":
        """A stored series (read back to be drawn, not added to)."""
        try:
            points = json.loads(text)
        except ValueError:
            points = []
        return cls([p for p in points if isinstance(p, list) and len(p) == 3] if isinstance(points, list) else [])
