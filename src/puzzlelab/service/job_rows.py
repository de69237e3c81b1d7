"""A job as the service keeps it: the jobs table beside the records, the Job object
the runner and the routes share, and how a row is read back after a restart.

The table is a file, so what is read back is checked: a field that does not read gives
a failed job that says so (not a service that cannot start), and a stored result is
checked again by its puzzle before it is served (`recheck`), as `core.records_check`
does for the records.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from puzzlelab.core.inputs import check_text
from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.result import Result, _json_default
from puzzlelab.puzzles import get

__all__ = ["Job", "STATES", "FINAL_STATES", "JOBS_SCHEMA", "plain", "restored_job", "recheck"]

log = logging.getLogger("puzzlelab.service")

STATES = ("queued", "running", "done", "failed", "cancelled", "interrupted")
FINAL_STATES = ("done", "failed", "cancelled", "interrupted")

JOBS_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id        TEXT PRIMARY KEY,
    puzzle    TEXT NOT NULL,
    instance_key TEXT NOT NULL,
    instance  TEXT NOT NULL,
    method    TEXT NOT NULL,
    options   TEXT NOT NULL,
    budget    REAL NOT NULL,
    seed      INTEGER NOT NULL,
    state     TEXT NOT NULL,
    created   REAL NOT NULL,
    started   REAL,
    finished  REAL,
    result    TEXT,
    error     TEXT
);
"""


def plain(obj: Any) -> Any:
    """`obj` as plain JSON values (numpy scalars and arrays become numbers and lists),
    as the API's response models and the jobs table take them."""
    return json.loads(json.dumps(obj, default=_json_default))


@dataclass
class Job:
    id: str
    puzzle: str
    instance_key: str
    instance: Any  # the instance's JSON form (Puzzle.format_instance)
    method: str
    options: dict[str, Any]
    budget: float
    seed: int
    state: str = "queued"
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    progress: dict[str, Any] | None = None
    result: dict[str, Any] | None = None  # Puzzle.report(...) of the verified result
    error: str = ""
    worker_pid: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    svg: str | None = None

    @property
    def finished_state(self) -> bool:
        return self.state in FINAL_STATES

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "puzzle": self.puzzle,
            "instance": self.instance_key,
            "method": self.method,
            "options": self.options,
            "budget": self.budget,
            "seed": self.seed,
            "state": self.state,
            "created": self.created,
            "started": self.started,
            "finished": self.finished,
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
            "worker_pid": self.worker_pid,
            "svg": f"/api/jobs/{self.id}/svg" if self.result and self.result.get("verified") else None,
        }


def _safe(text: Any) -> str:
    """A column's text as it may be served: itself, or, where it holds what no answer
    may carry (a NUL, a lone surrogate: `core.inputs.check_text`), its escaped form."""
    text = str(text)
    try:
        check_text(text, "text")
    except InvalidInstance:
        return text.encode("ascii", "backslashreplace").decode("ascii")
    return text


def _failed(row: tuple, error: str) -> Job:
    """The failed job a row that cannot be served gives (its texts made safe to show)."""
    return Job(
        id=_safe(row[0]), puzzle=_safe(row[1]), instance_key=_safe(row[2]), instance=None, method=_safe(row[4]), options={},
        budget=row[6], seed=row[7], state="failed", created=row[9] or 0.0, started=row[10], finished=row[11], error=error,
    )


def restored_job(row: tuple) -> Job:
    """A job from its row of the jobs table; a field that does not read (a hand edit, a
    disk fault), or holds text that cannot be served again safely (written before the
    door refused it), gives a failed job that says so, not a service that cannot start
    nor a listing that cannot be answered."""
    try:
        check_text({"id": row[0], "puzzle": row[1], "instance_key": row[2], "method": row[4], "state": row[8], "error": row[13]}, "row")
    except InvalidInstance as exc:
        return _failed(row, f"its stored row cannot be served ({exc})")
    texts = {"instance": row[3], "options": row[5], "result": row[12]}
    read: dict[str, Any] = {}
    for name, text in texts.items():
        try:
            read[name] = json.loads(text) if text else None
            check_text(read[name], name)
        except (ValueError, TypeError, RecursionError) as exc:
            return _failed(row, f"its stored {name} does not read ({type(exc).__name__}: {exc})")
    return Job(
        id=row[0], puzzle=row[1], instance_key=row[2], instance=read["instance"], method=row[4], options=read["options"] or {},
        budget=row[6], seed=row[7], state=row[8], created=row[9], started=row[10], finished=row[11], result=read["result"],
        error=row[13] or "",
    )


def recheck(job: Job) -> None:
    """A restored job's result, checked again before it is served: the jobs table is
    a file, and a row edited by hand or written by an older checker must not be
    served as verified (as `core.records_check` does for the records). One that
    fails, or does not read, fails its job and says why."""
    try:
        puzzle = get(job.puzzle)
        instance = puzzle.parse(job.instance)
        result = Result.from_dict(job.result)
        result.verdict = None  # the stored verdict is not evidence
        puzzle.check(instance, result)
        job.result = plain(puzzle.report(instance, result))
        return
    except WrongAnswer as exc:
        reason = f"the checker rejects it now ({exc})"
    except (InvalidInstance, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError, ArithmeticError) as exc:
        reason = f"it does not read ({type(exc).__name__}: {' '.join(str(exc).split())[:160]})"
    log.warning("job %s: its stored result is not served: %s", job.id, reason)
    job.result, job.state, job.error = None, "failed", f"its stored result is not served: {reason}"
