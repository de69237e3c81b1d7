"""`puzzlelab serve` restarts at once on a port whose last server was killed with clients
connected: the pre-bind check must not trip over connections in TIME_WAIT,
and must still refuse a port another server is listening on."""

from __future__ import annotations

import socket

import pytest

from puzzlelab.cli.workbench import check_port_free
from puzzlelab.core.errors import InvalidInstance


def _listener() -> socket.socket:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen()
    return server


def test_a_listening_port_is_refused():
    server = _listener()
    try:
        with pytest.raises(InvalidInstance, match="cannot listen"):
            check_port_free("127.0.0.1", server.getsockname()[1])
    finally:
        server.close()


def test_a_port_left_in_time_wait_is_free_again():
    server = _listener()
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    accepted.close()  # the server side closes first: its end of the connection enters TIME_WAIT
    server.close()
    client.recv(1)
    client.close()
    check_port_free("127.0.0.1", port)  # raises without SO_REUSEADDR
    with socket.socket() as plain:  # the oracle: without SO_REUSEADDR the bind fails
        with pytest.raises(OSError):
            plain.bind(("127.0.0.1", port))
