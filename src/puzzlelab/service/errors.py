"""How the service answers what goes wrong, the same way on every route: a JSON body
`{detail, field}` with 422 naming the field and what was expected, 413 for a body or an
instance over the size limits, 404 for an unknown puzzle, method or job (with the valid
names), 503 when the records store cannot be used."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.store import StoreError
from puzzlelab.service.models import ErrorBody

__all__ = ["MAX_BODY_BYTES", "error_response", "install", "ERROR_RESPONSES"]

MAX_BODY_BYTES = 8_000_000

# For the OpenAPI: the error bodies a route may answer with.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "Unknown puzzle, method or job; the detail lists the valid names."},
    413: {"model": ErrorBody, "description": "Request body or instance over the size limits."},
    422: {"model": ErrorBody, "description": "Invalid input: `field` names it, `detail` says what was expected."},
}


def error_response(status: int, message: str, field: str | None = None, **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {"detail": message}
    if field:
        body["field"] = field
    body.update(extra)
    return JSONResponse(body, status_code=status)


async def _invalid(_: Request, exc: InvalidInstance) -> JSONResponse:
    return error_response(exc.status, str(exc), exc.field)


async def _store_error(_: Request, exc: StoreError) -> JSONResponse:
    return error_response(503, str(exc))


async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        problems.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    first = exc.errors()[0] if exc.errors() else {}
    field = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or None
    return error_response(422, "; ".join(problems), field, errors=json.loads(json.dumps(exc.errors(), default=str)))


async def _limit_body(request: Request, call_next):
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
        return error_response(413, f"request body: larger than {MAX_BODY_BYTES} bytes", "body")
    return await call_next(request)


def install(app: FastAPI) -> None:
    """Register the error handlers and the body-size limit on `app`."""
    app.add_exception_handler(InvalidInstance, _invalid)
    app.add_exception_handler(StoreError, _store_error)
    app.add_exception_handler(RequestValidationError, _validation)
    app.middleware("http")(_limit_body)
