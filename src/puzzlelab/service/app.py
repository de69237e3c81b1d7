"""The REST API and the web page (the workbench; the tiling write-up's sections
4-5 built the same for one puzzle: solvers behind a REST service in separate processes,
a page that runs them under a deadline and shows the tiling).

    GET    /api/puzzles                  puzzles, their methods and the options a client may set
    GET    /api/puzzles/{name}/catalog   named instances
    POST   /api/jobs                     {puzzle, instance, method, options, budget, seed} -> 202 {id}
    GET    /api/jobs                     recent jobs
    GET    /api/jobs/{id}                state, progress, the verified result
    GET    /api/jobs/{id}/events         server-sent events (text/event-stream): state and progress
    GET    /api/jobs/{id}/progress       the progress figures over time (kept, drawn again after a restart)
    DELETE /api/jobs/{id}                cancel (the worker is terminated)
    GET    /api/jobs/{id}/svg            the picture of the verified result (image/svg+xml)
    GET    /api/jobs/{id}/answer         the verified result as the page shows it (picture, exports, coin steps)
    GET    /api/jobs/{id}/export/{format}  the verified result in a field's format (contest JSON, submission text ...)
    POST   /api/preview                  {puzzle, instance} -> the instance parsed and drawn, not solved
    GET    /api/records                  best known per instance, beside the published value
    GET    /api/records/dashboards       the puzzles with a records dashboard
    GET    /api/records/{puzzle}/dashboard  the published table beside the verified answers known here
    GET    /api/records/{puzzle}/answer?instance=KEY  the best verified answer (and /svg, /export/{format})
    GET    /api/health                   liveness, queue length and bound, the caps of one job
    GET    /                             the page; OpenAPI at /docs

A job is checked at the door: what cannot run is refused now, not failed later.
Errors: 422 names the field and what was expected, 413 for a body or an instance over
the size limits, 404 for an unknown puzzle, method or job (with the valid names), 400
for a body that is not text, 503 when the records store cannot be used. Options that
name a file, folder or machine of the server (checkpoint, workdir, backend, address)
are the operator's: a request that sets one gets 422.

Each job runs in a worker process under its budget and a memory limit
(`job_memory_bytes`, by default a share of the machine's memory): a job that asks for
more ends `failed: out of memory`, and the service goes on. What one request may ask
for is capped by the operator (`service.capacity`): the processes and memory its
options multiply, its budget, and the queue's length (503 with Retry-After past it).
Every response says `X-Content-Type-Options: nosniff` and, but for the OpenAPI pages,
a strict Content-Security-Policy (`service.headers`).
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from puzzlelab import __version__
from puzzlelab.core.parallel import machine_memory
from puzzlelab.core.store import Store
from puzzlelab.service import errors, headers
from puzzlelab.service.capacity import DEFAULT_FINISHED_KEPT, DEFAULT_MAX_BUDGET, DEFAULT_MAX_QUEUED, Capacity
from puzzlelab.service.jobs import JobRunner
from puzzlelab.service.routes import answers, dashboards, health, jobs, page, preview, puzzles, records
from puzzlelab.service.sources import register_shipped_sources

__all__ = ["create_app", "default_job_memory", "JOB_MEMORY_SHARE", "MIN_JOB_MEMORY_BYTES"]

# What each job may hold by default: this share of the machine's memory, split between
# the jobs that run at once; never less than MIN_JOB_MEMORY_BYTES (a worker process
# with the solver libraries loaded holds about 0.2 GB before it starts).
JOB_MEMORY_SHARE = 0.75
MIN_JOB_MEMORY_BYTES = 512_000_000


def default_job_memory(workers: int) -> int | None:
    """The memory limit of each job when none is given (None where the machine's
    memory is not known)."""
    total = machine_memory()
    if total is None:
        return None
    return max(MIN_JOB_MEMORY_BYTES, int(total * JOB_MEMORY_SHARE / max(1, workers)))


def create_app(
    workers: int = 2,
    store_path: str | None = None,
    start_method: str = "forkserver",
    grace: float = 2.0,
    job_memory_bytes: int | None = None,
    *,
    job_processes: int | None = None,
    max_budget: float = DEFAULT_MAX_BUDGET,
    max_queued: int = DEFAULT_MAX_QUEUED,
    finished_kept: int = DEFAULT_FINISHED_KEPT,
) -> FastAPI:
    """The service. `workers` jobs run at once; at most `max_queued` more wait in the
    queue. Each job may hold `job_memory_bytes` (default: `default_job_memory(workers)`),
    start `job_processes` processes or threads (default: `workers`) and run `max_budget`
    seconds; memory keeps the `finished_kept` most recent finished jobs (the store all)."""
    store = Store(store_path)
    memory = default_job_memory(workers) if job_memory_bytes is None else int(job_memory_bytes)
    capacity = Capacity(
        job_processes=workers if job_processes is None else int(job_processes),
        job_memory_bytes=memory,
        max_budget=float(max_budget),
        max_queued=int(max_queued),
        finished_kept=int(finished_kept),
    )
    runner = JobRunner(store, workers, grace=grace, start_method=start_method, memory_bytes=memory, capacity=capacity)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        active = app.state.runner  # tests may put a runner of their own here
        active.start()
        try:
            yield
        finally:
            active.stop()

    app = FastAPI(title="puzzlelab", version=__version__, lifespan=lifespan, description=__doc__)
    app.state.runner = runner
    app.state.store = store
    register_shipped_sources()
    errors.install(app)
    headers.install(app)
    for module in (puzzles, preview, jobs, answers, dashboards, records, health, page):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=page.STATIC), name="static")
    return app
