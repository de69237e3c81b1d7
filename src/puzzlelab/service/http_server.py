"""The HTTP server under the service: uvicorn, with bounds a slow or idle client cannot
stretch.

uvicorn closes a connection left idle after a response (`timeout_keep_alive`), but
waits for ever on one that never finishes sending its request: a client that opens
hundreds of connections and sends half a request line on each would hold them all.
`GuardedH11Protocol` gives each request `request_seconds` from its first byte (or
from the connection's start) to arrive whole, headers and body, and closes the
connection when it does not; the request's head is bounded in size (h11's limit),
and past `max_connections` open connections a request is answered 503 at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from puzzlelab.service.capacity import KEEP_ALIVE_SECONDS, MAX_CONNECTIONS, REQUEST_SECONDS

__all__ = ["GuardedH11Protocol", "guarded_protocol", "server_config", "serve", "MAX_HEAD_BYTES"]

MAX_HEAD_BYTES = 64 * 1024  # a request line and headers (h11 answers 400 beyond)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline for each request to arrive whole."""

    request_seconds: float = REQUEST_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._request_timer: asyncio.TimerHandle | None = None
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):  # a request begun and not yet whole
            self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._request_timer is None and not self.transport.is_closing():
            self._request_timer = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _too_slow(self) -> None:
        """The request did not arrive in time: close the connection (a request the app
        already reads sees the client gone)."""
        self._request_timer = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()


def guarded_protocol(request_seconds: float) -> type[GuardedH11Protocol]:
    """The protocol class with its deadline (uvicorn builds one per connection)."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"request_seconds": float(request_seconds)})


def server_config(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    request_seconds: float = REQUEST_SECONDS,
    keep_alive_seconds: int = KEEP_ALIVE_SECONDS,
    max_connections: int = MAX_CONNECTIONS,
    log_level: str = "warning",
) -> uvicorn.Config:
    """uvicorn's configuration for the service, with the bounds above."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=guarded_protocol(request_seconds),
        timeout_keep_alive=keep_alive_seconds,
        limit_concurrency=max_connections,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        ws="none",
    )


def serve(app: Any, host: str, port: int, **bounds: Any) -> None:
    """Run the service until interrupted (`server_config`'s bounds)."""
    uvicorn.Server(server_config(app, host, port, **bounds)).run()
