"""A free TCP port on loopback, for the tests that start a server of their own
(`puzzlelab serve`, a Ray head node)."""

from __future__ import annotations

import socket

__all__ = ["free_port"]


def free_port() -> int:
    """A port nothing listens on now (the system's choice for a bind to port 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
