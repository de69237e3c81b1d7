"""The REST API and the web page (issue "The workbench"; the tiling write-up's sections
4-5 built the same for one puzzle: solvers behind a REST service in separate processes,
a page that runs them under a deadline and shows the tiling).

    GET    /api/puzzles                  puzzles, their methods and options
    GET    /api/puzzles/{name}/catalog   named instances
    POST   /api/jobs                     {puzzle, instance, method, options, budget, seed} -> 202 {id}
    GET    /api/jobs/{id}                state, progress, the verified result
    GET    /api/jobs/{id}/events         server-sent events: state and progress
    DELETE /api/jobs/{id}                cancel (the worker is terminated)
    GET    /api/jobs/{id}/svg            the picture of the verified result
    GET    /api/records                  best known per instance, beside the published value
    GET    /                             the page; OpenAPI at /docs

Errors: 422 names the field and what was expected, 413 for an instance over the size
limits, 404 for an unknown puzzle, method or job (with the valid names).
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from puzzlelab import __version__
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import _json_default
from puzzlelab.core.store import Store, StoreError
from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.service.jobs import JobRunner

STATIC = Path(__file__).parent / "static"
MAX_BUDGET_SECONDS = 24 * 3600.0
MAX_BODY_BYTES = 8_000_000


class JobRequest(BaseModel):
    """A job: which puzzle, which instance (a catalog name, the instance's text, or its
    JSON), which method with which options, and how many seconds it may take."""

    puzzle: str = Field(description="Puzzle name, e.g. 'tiling'.")
    instance: Any = Field(description="Catalog name, instance text, or instance JSON.")
    method: str | None = Field(None, description="Method name; the puzzle's default when omitted.")
    options: dict[str, Any] = Field(default_factory=dict, description="Method options by name.")
    budget: float | None = Field(None, gt=0, le=MAX_BUDGET_SECONDS, description="Seconds; the puzzle's default when omitted.")
    seed: int = Field(0, ge=0, description="Random seed.")


def _error(status: int, message: str, field: str | None = None, **extra: Any) -> JSONResponse:
    body = {"detail": message}
    if field:
        body["field"] = field
    body.update(extra)
    return JSONResponse(body, status_code=status)


def _json(obj: Any, status: int = 200) -> Response:
    return Response(json.dumps(obj, default=_json_default), status_code=status, media_type="application/json")


def create_app(workers: int = 2, store_path: str | None = None, start_method: str = "forkserver", grace: float = 2.0) -> FastAPI:
    """The service. `workers` jobs run at once; the rest wait in the queue."""
    store = Store(store_path)
    runner = JobRunner(store, workers, grace=grace, start_method=start_method)

    @asynccontextmanager
    async def lifespan(_: FastAPI):
        runner.start()
        try:
            yield
        finally:
            runner.stop()

    app = FastAPI(title="puzzlelab", version=__version__, lifespan=lifespan, description=__doc__)
    app.state.runner = runner
    app.state.store = store

    @app.exception_handler(InvalidInstance)
    async def _invalid(_: Request, exc: InvalidInstance) -> JSONResponse:
        return _error(exc.status, str(exc), exc.field)

    @app.exception_handler(StoreError)
    async def _store_error(_: Request, exc: StoreError) -> JSONResponse:
        return _error(503, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            problems.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        first = exc.errors()[0] if exc.errors() else {}
        field = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or None
        return _error(422, "; ".join(problems), field, errors=json.loads(json.dumps(exc.errors(), default=str)))

    @app.middleware("http")
    async def _limit_body(request: Request, call_next):
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
            return _error(413, f"request body: larger than {MAX_BODY_BYTES} bytes", "body")
        return await call_next(request)

    # ------------------------------------------------------------------ puzzles
    @app.get("/api/puzzles", summary="Puzzles, their methods and options")
    def puzzles() -> list[dict[str, Any]]:
        return [dict(p.describe(), tour_instance=p.tour_instance) for p in REGISTRY.values()]

    @app.get("/api/puzzles/{name}/catalog", summary="Named instances of a puzzle")
    def catalog(name: str) -> list[dict[str, str]]:
        puzzle = get(name)
        return [{"name": k, "description": v} for k, v in puzzle.catalog().items()]

    # ------------------------------------------------------------------ jobs
    @app.post("/api/jobs", status_code=202, summary="Start a job")
    def post_job(request: JobRequest) -> Response:
        puzzle = get(request.puzzle)
        method = puzzle.method(request.method)
        options = method.parse_options(request.options)
        if isinstance(request.instance, str) and len(request.instance) > puzzle.max_input_bytes:
            raise InvalidInstance(f"instance: larger than {puzzle.max_input_bytes} bytes", "instance", 413)
        if request.instance is None or request.instance == "":
            raise InvalidInstance("instance: expected a catalog name, the instance text or its JSON", "instance")
        instance = puzzle.load(request.instance, local=False)
        budget = puzzle.default_budget if request.budget is None else request.budget
        job = runner.submit(
            puzzle.name, puzzle.instance_key(instance), puzzle.format_instance(instance), method.name, options, budget, request.seed
        )
        return _json(job.to_dict(), 202)

    @app.get("/api/jobs", summary="Recent jobs")
    def list_jobs(limit: int = 50) -> Response:
        return _json([j.to_dict() for j in runner.jobs(limit)])

    def _job_or_404(job_id: str):
        job = runner.get(job_id)
        if job is None:
            raise InvalidInstance(f"job: no job {job_id!r}", "id", 404)
        return job

    @app.get("/api/jobs/{job_id}", summary="A job: state, progress, verified result")
    def get_job(job_id: str) -> Response:
        return _json(_job_or_404(job_id).to_dict())

    @app.delete("/api/jobs/{job_id}", summary="Cancel a job (its worker is terminated)")
    def delete_job(job_id: str) -> Response:
        job = _job_or_404(job_id)
        runner.cancel(job_id)
        return _json(job.to_dict(), 202)

    @app.get("/api/jobs/{job_id}/svg", summary="Picture of a job's verified result")
    def job_svg(job_id: str) -> Response:
        _job_or_404(job_id)
        svg = runner.svg(job_id)
        if svg is None:
            raise InvalidInstance(f"job {job_id}: no verified result to draw yet", "id", 404)
        return Response(svg, media_type="image/svg+xml")

    @app.get("/api/jobs/{job_id}/events", summary="Server-sent events: state and progress")
    async def job_events(job_id: str) -> StreamingResponse:
        _job_or_404(job_id)

        async def stream():
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

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    # ------------------------------------------------------------------ records
    @app.get("/api/records", summary="Best known result per instance, beside the published value")
    def records(puzzle: str | None = None) -> Response:
        if puzzle is not None:
            get(puzzle)
        rows = []
        for record in store.best(puzzle):
            owner = REGISTRY.get(record.puzzle)
            published = owner.published(record.instance) if owner is not None else None
            row = record.to_dict()
            row.pop("solution", None)
            row["published"] = published
            row["value_name"] = owner.value_name if owner else ""
            rows.append(row)
        return _json(rows)

    @app.get("/api/health", summary="Liveness and queue length")
    def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "puzzles": list(REGISTRY), **runner.load}

    # ------------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
