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

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from puzzlelab import __version__
from puzzlelab.core.store import Store
from puzzlelab.service import errors
from puzzlelab.service.jobs import JobRunner
from puzzlelab.service.routes import health, jobs, page, puzzles, records

__all__ = ["create_app"]


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
    errors.install(app)
    for module in (puzzles, jobs, records, health, page):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=page.STATIC), name="static")
    return app
