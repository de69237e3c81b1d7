"""The service as a long-running process meets its faults: a worker killed while idle
or busy (kill -9, as the OOM killer does), and a second server started on a store one
already serves. Real `puzzlelab serve` processes, as a user starts them: the CLI sets
SIGPIPE to its default for its pipeline verbs, which is what made an idle worker's
death kill the whole server (status -13, queued jobs lost). About 15 s; the forkserver
and restart-after-kill -9 cases start more processes and are `slow`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from support.job_waiting import wait_for

TESTS = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(store: Path, log: Path, workers: int = 1) -> tuple[subprocess.Popen, int]:
    """`puzzlelab serve` on a private port and `store`; its output goes to `log`."""
    port = _free_port()
    env = dict(os.environ, PUZZLELAB_DB=str(store), PUZZLELAB_PLUGINS="support.toy_puzzle:Toy")
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "puzzlelab.cli", "serve", "--port", str(port), "--workers", str(workers)],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    return process, port


def wait_up(process: subprocess.Popen, port: int, log: Path) -> httpx.Client:
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    deadline = time.monotonic() + 120
    while True:
        try:
            client.get("/api/health")
            return client
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start ({process.poll()}): {log.read_text()}") from None
            time.sleep(0.2)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server with one worker (so the next job needs the replacement), its store,
    client and log."""
    folder = tmp_path_factory.mktemp("faults")
    store, log = folder / "records.sqlite", folder / "serve.log"
    process, port = start_server(store, log)
    try:
        client = wait_up(process, port, log)
        yield process, client, store, log
        client.close()
    finally:
        stop(process)


def _dead(pid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        with open(f"/proc/{pid}/stat") as stat:  # a zombie until its parent reaps it
            if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        time.sleep(0.05)
    return False


def test_an_idle_workers_death_is_survived_and_the_queued_jobs_run(served):
    process, client, _, log = served
    first = wait_for(client, client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()["id"])
    assert first["state"] == "done" and first["worker_pid"], first
    os.kill(first["worker_pid"], signal.SIGKILL)  # idle now: its job is done
    assert _dead(first["worker_pid"])
    queued = [client.post("/api/jobs", json={"puzzle": "toy", "instance": f"{20 + i} 1 5 6 9"}).json()["id"] for i in range(3)]
    done = [wait_for(client, job_id) for job_id in queued]
    assert [job["state"] for job in done] == ["done"] * 3, done
    assert all(job["result"]["verified"] for job in done)
    assert first["worker_pid"] not in {job["worker_pid"] for job in done}
    assert process.poll() is None, log.read_text()
    assert f"worker process {first['worker_pid']} died while idle (killed by SIGKILL)" in log.read_text()


def test_a_busy_workers_death_fails_its_job_only(served):
    process, client, _, log = served
    victim = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small", "method": "sleepy", "budget": 60}).json()
    job = wait_for(client, victim["id"], states=("running",))
    deadline = time.monotonic() + 20
    while job["worker_pid"] is None and time.monotonic() < deadline:
        job = client.get(f"/api/jobs/{victim['id']}").json()
    queued = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()["id"]
    os.kill(job["worker_pid"], signal.SIGKILL)
    failed = wait_for(client, victim["id"])
    assert failed["state"] == "failed" and "died" in failed["error"] and "SIGKILL" in failed["error"], failed
    assert wait_for(client, queued)["state"] == "done"
    assert process.poll() is None
    assert f"job {victim['id']}: its worker process {job['worker_pid']} died (killed by SIGKILL)" in log.read_text()


def _children(pid: int, word: str) -> list[int]:
    """The processes whose parent is `pid` and whose command line holds `word`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == pid and word in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


@pytest.mark.slow
def test_the_forkserver_killed_too_is_started_again(served):
    """The server the workers are forked from (it holds the solver libraries, imported
    once) is not a worker, but a kill -9 may find it: the next worker starts a new one."""
    process, client, _, log = served
    before = wait_for(client, client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()["id"])
    (forkserver,) = _children(process.pid, "multiprocessing.forkserver")
    os.kill(forkserver, signal.SIGKILL)
    os.kill(before["worker_pid"], signal.SIGKILL)
    assert _dead(forkserver) and _dead(before["worker_pid"])
    queued = [client.post("/api/jobs", json={"puzzle": "toy", "instance": f"{30 + i} 1 5 6 9"}).json()["id"] for i in range(3)]
    assert [wait_for(client, job_id, timeout=120)["state"] for job_id in queued] == ["done"] * 3
    assert process.poll() is None, log.read_text()
    assert _children(process.pid, "multiprocessing.forkserver") not in ([], [forkserver])


def test_a_second_server_on_the_same_store_is_refused(served, tmp_path):
    process, client, store, _ = served
    log = tmp_path / "second.log"
    second, _ = start_server(store, log)
    try:
        code = second.wait(120)
    finally:
        stop(second)
    said = log.read_text().strip()
    assert code == 2, said
    assert said.count("\n") == 0 and "Traceback" not in said, said
    assert str(store) in said and f"pid {process.pid}" in said and "already served" in said, said
    assert client.get("/api/health").status_code == 200  # the first one goes on


@pytest.mark.slow
def test_the_store_is_free_again_once_its_server_is_killed(tmp_path):
    """The lock goes with the process, however it dies: kill -9 leaves a lock file but
    no lock, and a new server starts on the store at once."""
    store = tmp_path / "records.sqlite"
    first, port = start_server(store, tmp_path / "first.log")
    try:
        wait_up(first, port, tmp_path / "first.log").close()
        first.kill()
        first.wait(10)
        second, port = start_server(store, tmp_path / "second.log")
        try:
            client = wait_up(second, port, tmp_path / "second.log")
            assert client.get("/api/health").status_code == 200
            client.close()
        finally:
            stop(second)
    finally:
        stop(first)
