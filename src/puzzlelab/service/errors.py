"""How the service answers what goes wrong, the same way on every route: a JSON body
`{detail, field}` with 422 naming the field and what was expected, 400 for a request
body that is not text, 413 for a body or an instance over the size limits, 404 for an
unknown puzzle, method or job (with the valid names), 503 when the records store
cannot be used or the queue is full (with `Retry-After`, in seconds).

Request bodies come in through the one input door (`core.inputs`) before
FastAPI reads them: `JSONBodyRoute` refuses bodies that are not UTF-8, JSON nested
deeper than any real input, integers of thousands of digits and NaN/Infinity, with a
one-line message, so no such value reaches a model or a puzzle's parser. A validation
error's body never echoes what it refuses (a NaN could not be written as JSON, and a
megabyte need not be sent back), and an exception no handler expected still answers
a JSON body (500, logged as a bug), never a bare text page.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute

from puzzlelab.core.inputs import decode_bytes, parse_json
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.store import StoreError
from puzzlelab.service.capacity import QueueFull
from puzzlelab.service.models import ErrorBody

__all__ = ["MAX_BODY_BYTES", "error_response", "install", "ERROR_RESPONSES", "JSONBodyRoute", "documented"]

log = logging.getLogger("puzzlelab.service")

MAX_BODY_BYTES = 8_000_000

# For the OpenAPI: the error bodies a route may answer with (`documented` picks some).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "The request body is not UTF-8 text."},
    404: {"model": ErrorBody, "description": "Unknown puzzle, method or job; the detail lists the valid names."},
    413: {"model": ErrorBody, "description": "Request body or instance over the size limits; the detail gives the limit."},
    422: {"model": ErrorBody, "description": "Invalid input: `field` names it, `detail` says what was expected."},
    503: {
        "model": ErrorBody,
        "description": "The records store cannot be used, or the queue is full (then a Retry-After header says in how many "
        "seconds to try again); the detail says why.",
    },
}


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route that may answer with these error statuses."""
    return {status: ERROR_RESPONSES[status] for status in statuses}


def error_response(status: int, message: str, field: str | None = None, **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {"detail": message}
    if field:
        body["field"] = field
    body.update(extra)
    return JSONResponse(body, status_code=status)


async def _invalid(_: Request, exc: InvalidInstance) -> JSONResponse:
    """The error in one line, whatever a message quotes of the input (a line break in
    an option's name, say)."""
    return error_response(exc.status, _one_line(str(exc), 2000), exc.field)


async def _store_error(_: Request, exc: StoreError) -> JSONResponse:
    return error_response(503, str(exc))


async def _queue_full(_: Request, exc: QueueFull) -> JSONResponse:
    response = error_response(503, str(exc), "queue")
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    """The last resort: an exception no handler expected is a bug; say so in JSON."""
    log.error("internal error (please report) on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, f"internal error (please report): {type(exc).__name__}: {_one_line(str(exc))}")


def _where(loc: Any) -> str:
    parts = [str(p) for p in (loc or ()) if p != "body"]
    if parts and parts[0] in ("query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts)


async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
    """422 naming each problem's field; the refused values are not echoed back."""
    errors = []
    for err in exc.errors():
        loc = [p if isinstance(p, (str, int)) else str(p) for p in err.get("loc", ())]
        kind = str(err.get("type", "invalid"))
        where = "body" if kind == "json_invalid" else _where(loc) or "body"
        message = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        errors.append({"loc": loc, "msg": _one_line(message), "type": kind, "field": where})
    detail = "; ".join(f"{e['field']}: {e['msg']}" for e in errors) or "invalid request"
    return error_response(422, _one_line(detail, 1000), errors[0]["field"] if errors else None, errors=errors)


async def _limit_body(request: Request, call_next):
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
        return error_response(413, f"request body: larger than {MAX_BODY_BYTES} bytes", "body")
    return await call_next(request)


async def read_body(request: Request) -> bytes:
    """The request body, read at most MAX_BODY_BYTES (+1) whatever its headers say, and
    kept on the request for FastAPI's own reading."""
    chunks, size = [], 0
    async for chunk in request.stream():
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise InvalidInstance(f"request body: larger than {MAX_BODY_BYTES} bytes", "body", 413)
    body = b"".join(chunks)
    request._body = body  # Starlette's cache of the body: FastAPI reads it from there
    return body


def check_json_body(body: bytes) -> None:
    """A body FastAPI may read: UTF-8 (else 400), JSON within the limits of
    `core.inputs.parse_json` (else 422, or 413 over the size limit)."""
    try:
        text = decode_bytes(body, "request body", MAX_BODY_BYTES)
    except InvalidInstance as exc:
        raise InvalidInstance(str(exc), "body", 413 if exc.status == 413 else 400) from None
    if text.strip():
        try:
            parse_json(text, "request body", limit=MAX_BODY_BYTES)
        except InvalidInstance as exc:
            raise InvalidInstance(str(exc), "body", exc.status) from None


class JSONBodyRoute(APIRoute):
    """A route whose request body passes `check_json_body` before FastAPI parses it."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            if request.method in ("POST", "PUT", "PATCH"):
                check_json_body(await read_body(request))
            return await handler(request)

        return checked


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def install(app: FastAPI) -> None:
    """Register the error handlers and the body-size limit on `app`."""
    app.add_exception_handler(InvalidInstance, _invalid)
    app.add_exception_handler(StoreError, _store_error)
    app.add_exception_handler(QueueFull, _queue_full)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(Exception, _unexpected)
    app.middleware("http")(_limit_body)
