"""The jobs: start one, list them, follow one (its state, its progress as server-sent
events, its picture), cancel one. A job is checked at the door (`service.intake`),
runs in a worker process of the `JobRunner` under its budget and memory limit, and
its answer is verified here before it is shown or stored."""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator

from fastapi import APIRouter, Query
from fastapi.responses import Response, StreamingResponse

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import _json_default
from puzzlelab.service.dependencies import Runner, job_or_404
from puzzlelab.service.errors import JSONBodyRoute, documented
from puzzlelab.service.intake import admit
from puzzlelab.service.jobs import JobRunner
from puzzlelab.service.models import JobRequest, JobView, ProgressSeries

router = APIRouter(prefix="/api/jobs", tags=["jobs"], route_class=JSONBodyRoute)

JOB_ERRORS = documented(404, 422)
MAX_LISTED = 2000


@router.post("", status_code=202, summary="Start a job", response_model=JobView, responses=documented(400, 404, 413, 422, 503))
def post_job(request: JobRequest, runner: Runner) -> dict[str, Any]:
    """Check the job at the door (puzzle, method, options, instance, any grid it
    carries: a 4xx naming the field when something is wrong; options and budget
    within the server's caps) and queue it (202); 503 with Retry-After when the queue
    is full."""
    job = admit(request, start_method=runner.start_method, memory_bytes=runner.memory_bytes, capacity=runner.capacity)
    queued = runner.submit(
        job.puzzle.name, job.instance_key, job.instance_json, job.method.name, job.options, job.budget, job.seed
    )
    return queued.to_dict()


@router.get("", summary="Recent jobs", response_model=list[JobView], responses=documented(422))
def list_jobs(runner: Runner, limit: int = Query(50, ge=1, le=MAX_LISTED, description="How many, newest first.")) -> list[dict[str, Any]]:
    return [j.to_dict() for j in runner.jobs(limit)]


@router.get("/{job_id}", summary="A job: state, progress, verified result", response_model=JobView, responses=JOB_ERRORS)
def get_job(job_id: str, runner: Runner) -> dict[str, Any]:
    return job_or_404(runner, job_id).to_dict()


@router.delete("/{job_id}", status_code=202, summary="Cancel a job (its worker is terminated)", response_model=JobView, responses=JOB_ERRORS)
def delete_job(job_id: str, runner: Runner) -> dict[str, Any]:
    job = job_or_404(runner, job_id)
    runner.cancel(job_id)
    return job.to_dict()


@router.get(
    "/{job_id}/svg",
    summary="Picture of a job's verified result",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}, "description": "An SVG picture."}, **JOB_ERRORS},
)
def job_svg(job_id: str, runner: Runner) -> Response:
    job_or_404(runner, job_id)
    svg = runner.svg(job_id)
    if svg is None:
        raise InvalidInstance(f"job {job_id}: no verified result to draw yet", "id", 404)
    return Response(svg, media_type="image/svg+xml")


@router.get("/{job_id}/progress", summary="A job's progress figures over time (live, or as stored)", response_model=ProgressSeries,
            responses=documented(404, 422, 503))
def job_progress(job_id: str, runner: Runner) -> dict[str, Any]:
    job = job_or_404(runner, job_id)
    points = [{"t": t, "phase": phase, "figures": figures} for t, phase, figures in runner.progress_points(job_id)]
    return {"id": job.id, "state": job.state, "started": job.started, "points": points}


@router.get(
    "/{job_id}/events",
    summary="Server-sent events: state and progress",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
            "description": "`state` events (data: the job), `progress` events, and a last `done` event (data: the finished job).",
        },
        **JOB_ERRORS,
    },
)
async def job_events(job_id: str, runner: Runner) -> StreamingResponse:
    job_or_404(runner, job_id)
    return StreamingResponse(_stream(runner, job_id), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


async def _stream(runner: JobRunner, job_id: str) -> AsyncIterator[str]:
    """The job's events from the first, as they come, until it has finished; a comment
    line every 15 quiet seconds keeps proxies from closing the stream."""
    index, quiet = 0, 0.0
    while True:
        events, finished = runner.events_since(job_id, index)
        for event in events:
            yield f"event: {event['type']}\ndata: {json.dumps(event, default=_json_default)}\n\n"
        index += len(events)
        if finished and not events:
            return
        quiet = 0.0 if events else quiet + 0.2
        if quiet >= 15:
            yield ": keep-alive\n\n"
            quiet = 0.0
        await asyncio.sleep(0.2)
