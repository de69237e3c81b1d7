"""Slow and idle clients cannot hold the server (service.http_server): on 127.0.0.1, a
bounded number of raw connections that send half a request (a request line without
its end, headers without their blank line, a body shorter than its length) or nothing
at all are closed by the server within the request deadline, an idle connection after
a response within the keep-alive time, and a normal request still answers meanwhile."""

from __future__ import annotations

import selectors
import socket
import threading
import time

import httpx
import pytest

from puzzlelab.service.app import create_app
from puzzlelab.service.http_server import server_config

REQUEST_SECONDS = 1.5
KEEP_ALIVE_SECONDS = 2
SLOW = 60  # raw connections, all at once
PARTIAL = [
    b"",  # connects, says nothing
    b"GET /api/health HTT",
    b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    b"POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"puzzle\": ",
]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    import uvicorn

    app = create_app(workers=1, store_path=str(tmp_path_factory.mktemp("slow") / "records.sqlite"), start_method="fork")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = server_config(app, "127.0.0.1", port, request_seconds=REQUEST_SECONDS, keep_alive_seconds=KEEP_ALIVE_SECONDS)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "server did not start"
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(30)


def _closed_by_server(sock: socket.socket, within: float) -> float | None:
    """Seconds until the server closed `sock` (EOF or reset), None if still open."""
    started = time.monotonic()
    return None if _still_open([sock], within) else time.monotonic() - started


def _still_open(socks: list[socket.socket], within: float) -> list[socket.socket]:
    """Those of `socks` the server has not closed (EOF or reset) within `within` s,
    waited for together."""
    waiting = selectors.DefaultSelector()
    for sock in socks:
        sock.setblocking(False)
        waiting.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + within
    try:
        while waiting.get_map() and time.monotonic() < deadline:
            for key, _ in waiting.select(timeout=max(0.0, deadline - time.monotonic())):
                try:
                    if key.fileobj.recv(4096):
                        continue  # an answer (the 400 or 503 of a closing server): read on to the end
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    pass
                waiting.unregister(key.fileobj)
        return [key.fileobj for key in waiting.get_map().values()]
    finally:
        waiting.close()


def test_half_sent_requests_are_closed_and_others_still_answer(served):
    port = served
    opened = time.monotonic()
    slow = []
    for i in range(SLOW):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        if PARTIAL[i % len(PARTIAL)]:
            sock.sendall(PARTIAL[i % len(PARTIAL)])
        slow.append(sock)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
            started = time.monotonic()
            answer = http.get("/api/health")
            assert answer.status_code == 200 and answer.json()["ok"]
            assert time.monotonic() - started < 2
            assert time.monotonic() - opened < REQUEST_SECONDS  # answered while every slow one was open
        left = _still_open(slow, REQUEST_SECONDS + 5)
        assert not left, f"{len(left)} of {SLOW} slow connections still open"
        assert time.monotonic() - opened < REQUEST_SECONDS + 5
    finally:
        for sock in slow:
            sock.close()


def test_a_trickling_request_is_closed_at_its_deadline(served):
    """One byte a while keeps no connection open past the deadline (it runs from the
    request's first byte, not from the last)."""
    sock = socket.create_connection(("127.0.0.1", served), timeout=5)
    started = time.monotonic()
    try:
        with pytest.raises((BrokenPipeError, ConnectionResetError)):
            for byte in (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000)[:60]:  # 6 s of it
                sock.send(bytes([byte]))
                time.sleep(0.1)
        assert time.monotonic() - started < REQUEST_SECONDS + 2
    finally:
        sock.close()


def test_an_idle_connection_is_closed_after_keep_alive(served):
    sock = socket.create_connection(("127.0.0.1", served), timeout=5)
    try:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        seconds = _closed_by_server(sock, KEEP_ALIVE_SECONDS + 5)
        assert seconds is not None and seconds < KEEP_ALIVE_SECONDS + 2
    finally:
        sock.close()


def test_a_whole_request_is_not_cut_by_the_deadline(served):
    """The deadline is for the request to arrive; a complete request whose answer takes
    longer, or a stream of events, is not closed by it."""
    with httpx.Client(base_url=f"http://127.0.0.1:{served}", timeout=30) as http:
        posted = http.post("/api/jobs", json={"puzzle": "toy", "instance": "small", "method": "dp", "options": {"slow": 0.2},
                                               "budget": 2.5})
        assert posted.status_code == 202, posted.text
        started = time.monotonic()
        with http.stream("GET", f"/api/jobs/{posted.json()['id']}/events") as stream:
            text = "".join(stream.iter_text())
        assert "event: done" in text and time.monotonic() - started > REQUEST_SECONDS
