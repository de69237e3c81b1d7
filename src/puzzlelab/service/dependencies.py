"""What the routes share, handed to them by FastAPI's dependency injection: the job
runner and the records store that `create_app` puts on `app.state`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.store import Store
from puzzlelab.service.jobs import Job, JobRunner

__all__ = ["Runner", "Records", "job_or_404"]


def _runner(request: Request) -> JobRunner:
    return request.app.state.runner


def _store(request: Request) -> Store:
    return request.app.state.store


Runner = Annotated[JobRunner, Depends(_runner)]
Records = Annotated[Store, Depends(_store)]


def job_or_404(runner: JobRunner, job_id: str) -> Job:
    """The job called `job_id`, or a 404 naming it."""
    job = runner.get(job_id)
    if job is None:
        raise InvalidInstance(f"job: no job {job_id!r}", "id", 404)
    return job
