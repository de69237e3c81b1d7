"""Worker processes die with their parent, however it dies (core/lifeline.py): a
SIGTERM or SIGKILL sent to the parent alone, which reaches no worker, still ends them
all within seconds. Linux only (the parent-death signal)."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from puzzlelab.core.lifeline import die_with_parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")

SRC = Path(__file__).resolve().parents[2] / "src"


def children_of(pid: int) -> list[int]:
    """The pids whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().decode("ascii", "replace").rpartition(")")[2].split()
        except OSError:
            continue
        if len(fields) > 1 and fields[1] == str(pid):
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Running and not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().decode("ascii", "replace").rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def end_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, PUZZLELAB_DB=str(tmp_path / "records.sqlite"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH", "")]))
    return env


POOL_SCRIPT = textwrap.dedent(
    """
    import sys
    import time
    from puzzlelab.core.lifeline import start_fork_server
    from puzzlelab.core.parallel.pool import WorkerPool
    from puzzlelab.core.parallel.tasks import Task
    if __name__ == "__main__":
        start = sys.argv[1]
        if start == "forkserver":  # as the web service starts its workers
            start_fork_server(["numpy"])
        pool = WorkerPool(2, start=start)
        for _ in range(2):
            pool.submit(Task(time.sleep, (600,), name="sleep"))
        pool.events(0.5)
        print(" ".join(str(w.process.pid) for w in pool._workers), flush=True)
        time.sleep(600)
    """
)


@pytest.mark.parametrize("start", ["fork", "forkserver"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_pools_busy_workers_end_when_its_process_is_killed(tmp_path, signum, start):
    script = tmp_path / "pool.py"
    script.write_text(POOL_SCRIPT)
    parent = subprocess.Popen([sys.executable, str(script), start], stdout=subprocess.PIPE, text=True, env=_env(tmp_path))
    workers: list[int] = []
    servers: set[int] = set()
    try:
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(alive(pid) for pid in workers)
        # with forkserver the workers' parent is the fork server, which must end too
        servers = {_parent_of(pid) for pid in workers} - {parent.pid}
        parent.send_signal(signum)
        parent.wait(10)
        # 30 s, not 1: a worker still starting on a loaded machine (imports, scheduling)
        # ends when it reaches its parent check, which can take seconds there
        assert wait_for(lambda: not any(alive(pid) for pid in workers), 30), f"workers left running: {[p for p in workers if alive(p)]}"
        assert wait_for(lambda: not any(alive(pid) for pid in servers), 30), "the fork server is left running"
    finally:
        end_all([parent.pid, *workers, *servers])


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as handle:
        return int(handle.read().decode("ascii", "replace").rpartition(")")[2].split()[1])


def _orphan(dead_pid: int) -> None:
    die_with_parent(dead_pid)
    os._exit(0)


def test_a_child_whose_parent_is_already_gone_ends_at_once():
    """The race the signal cannot close: the parent died before the child asked for it."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    child = mp.get_context("fork").Process(target=_orphan, args=(gone.pid,))
    child.start()
    child.join(10)
    assert child.exitcode == 1
    mine = mp.get_context("fork").Process(target=_orphan, args=(os.getpid(),))
    mine.start()
    mine.join(10)
    assert mine.exitcode == 0  # its parent is there: it goes on


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_killing_a_cli_solve_ends_its_workers(tmp_path, signum):
    """`solve --workers 2` killed by SIGTERM or SIGKILL: every worker gone within seconds."""
    command = [sys.executable, "-m", "puzzlelab.cli", "hexagon", "solve", "9", "--method", "portfolio", "--workers", "2",
               "--budget", "120", "--quiet", "--no-store"]  # fmt: skip
    parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(tmp_path), cwd=tmp_path)
    workers: list[int] = []
    try:
        assert wait_for(lambda: len(children_of(parent.pid)) >= 2, 60), "the solve did not start its two workers"
        time.sleep(1.0)  # the workers at work
        workers = children_of(parent.pid)
        parent.send_signal(signum)
        parent.wait(10)
        # 30 s, not 1: a worker still starting on a loaded machine (imports, scheduling)
        # ends when it reaches its parent check, which can take seconds there
        assert wait_for(lambda: not any(alive(pid) for pid in workers), 30), f"workers left running: {[p for p in workers if alive(p)]}"
    finally:
        end_all([parent.pid, *workers])
