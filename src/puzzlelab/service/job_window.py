"""The jobs the runner holds in memory, and the jobs table behind them.

Memory holds every unfinished job and the most recent finished ones (a window of
`Capacity.finished_kept`), so a server that runs for months does not grow with every
job it ever ran; the jobs table keeps them all, and an older job is read back from it
when a client asks (its result checked again before it is served, as at a restart:
`job_rows.recheck`). A finished job leaves memory only once its last state is written.
"""

from __future__ import annotations

import math
from typing import Iterable

from puzzlelab.core.store import Store
from puzzlelab.service.job_rows import Job, recheck, restored_job

__all__ = ["read_job", "read_jobs", "finished_to_forget", "retry_after", "RETRY_AFTER_SECONDS"]

COLUMNS = "id, puzzle, instance_key, instance, method, options, budget, seed, state, created, started, finished, result, error"
RETRY_AFTER_SECONDS = (1, 60)  # the least and the most a full queue asks a client to wait


def _job_of(row: tuple) -> Job:
    """A job from its row, its result checked again, with the one event a client
    following it sees (its state)."""
    job = restored_job(row)
    if job.result is not None:
        recheck(job)
    job.events.append({"type": "done" if job.finished_state else "state", "state": job.state, "job": job.to_dict()})
    return job


def read_job(store: Store, job_id: str) -> Job | None:
    """The job `job_id` as the jobs table has it, or None."""
    with store.connect() as db:
        row = db.execute(f"SELECT {COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
    return None if row is None else _job_of(row)


def read_jobs(store: Store, limit: int, known: dict[str, Job] | None = None) -> list[Job]:
    """The `limit` most recent jobs of the table, newest first; those in `known` (the
    runner's memory, fresher than the table) as memory has them."""
    known = known or {}
    with store.connect() as db:
        rows = db.execute(f"SELECT {COLUMNS} FROM jobs ORDER BY created DESC LIMIT ?", (int(limit),)).fetchall()
    listed = [known[row[0]] if row[0] in known else _job_of(row) for row in rows]
    listed_ids = {job.id for job in listed}
    # a job memory has that the table does not list yet cannot be: each is written first;
    # should one be missing all the same, it is shown rather than hidden
    missing = [job for job_id, job in known.items() if job_id not in listed_ids]
    return sorted(listed + missing, key=lambda j: j.created, reverse=True)[:limit]


def finished_to_forget(jobs: dict[str, Job], keep: int, unwritten: set[str]) -> list[str]:
    """The ids of the oldest finished jobs beyond the `keep` most recent, leaving out
    those whose last state is not written yet (`unwritten`)."""
    finished = [job for job in jobs.values() if job.finished_state]
    if len(finished) <= keep:
        return []
    finished.sort(key=lambda j: j.created, reverse=True)
    return [job.id for job in finished[keep:] if job.id not in unwritten]


def retry_after(jobs: Iterable[Job], now: float) -> int:
    """Seconds a client refused by a full queue should wait: until the first running
    job is due to end (its budget), within RETRY_AFTER_SECONDS."""
    least, most = RETRY_AFTER_SECONDS
    due = [job.started + job.budget - now for job in jobs if job.state == "running" and job.started is not None]
    seconds = min(due) if due else least * 5
    return int(min(most, max(least, math.ceil(seconds))))
