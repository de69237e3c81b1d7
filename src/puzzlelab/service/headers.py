"""Headers every response carries, whatever route answers it:

- `X-Content-Type-Options: nosniff`: a browser takes each response as the type it
  says (an SVG, a text export, a JSON body), never as a script or page it guesses;
- `Content-Security-Policy` (PAGE_POLICY): the page runs only scripts and styles the
  service serves from /static (none inline: the page has no inline script, style or
  handler), talks only to the service, and no other site may frame it. The pictures
  of instances not yet solved are shown from `blob:` URLs the page makes itself.

The OpenAPI pages (/docs, /redoc) are FastAPI's own: they load Swagger UI and ReDoc
from their CDN with an inline script, so they get `nosniff` but not that policy.
Exports carry their own `Content-Disposition: attachment` (routes/answers.py).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from starlette.datastructures import MutableHeaders
from starlette.requests import Request

__all__ = ["PAGE_POLICY", "SecurityHeaders", "install"]

PAGE_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' blob:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


class SecurityHeaders:
    """ASGI middleware: the headers above on the start of every HTTP response (a plain
    ASGI wrapper, so streamed responses such as a job's events pass through as sent)."""

    def __init__(self, app: Any, outside: frozenset[str] = frozenset(), handlers: dict | None = None) -> None:
        self.app, self.outside, self.handlers = app, outside, handlers if handlers is not None else {}

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        strict = scope.get("path") not in self.outside
        started = False

        async def send_with_headers(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message.setdefault("headers", [])
                headers = MutableHeaders(scope=message)
                headers["X-Content-Type-Options"] = "nosniff"
                if strict and "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = PAGE_POLICY
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:
            # An exception no handler expected would reach Starlette's outermost error
            # middleware, which answers it outside this one (without the headers). The
            # app's own last-resort handler answers it here instead, headers included.
            last_resort = self.handlers.get(Exception)
            if started or last_resort is None:
                raise
            response = await last_resort(Request(scope), exc)
            await response(scope, receive, send_with_headers)


def install(app: FastAPI) -> None:
    """Add the headers to every response of `app` (errors, unexpected 500s and static
    files too)."""
    outside = frozenset(path for path in (app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url) if path)
    app.add_middleware(SecurityHeaders, outside=outside, handlers=app.exception_handlers)
