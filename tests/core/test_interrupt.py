"""Ctrl-C during a long command: the first one stops the work and keeps its answer, a
second one gives up; a real SIGINT to the CLI prints the best grid found, verified."""

import _thread
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from puzzlelab.core.interrupt import run_in_thread
from puzzlelab.core.result import Budget


def _interrupt_after(seconds: float) -> None:
    threading.Timer(seconds, _thread.interrupt_main).start()


def test_first_interrupt_cancels_and_the_answer_comes_back():
    # Each round lands a KeyboardInterrupt in the main thread while it waits: with
    # Thread.join that wait could mark the running thread finished (python/cpython#90882)
    # and the answer was lost; five rounds in a row must all come back.
    for _ in range(5):
        budget = Budget(30)
        calls = []

        def work():
            _interrupt_after(0.1)  # from inside the work: the main thread is waiting by then
            while not budget.expired():
                time.sleep(0.01)
            return "best so far"

        def on_interrupt(count):
            calls.append(count)
            budget.cancel()

        assert run_in_thread(work, on_interrupt) == "best so far"
        assert calls == [1] and budget.cancelled


def test_second_interrupt_gives_up_and_errors_pass_through():
    def on_interrupt(count):
        if count > 1:
            raise SystemExit(130)

    def deaf():
        _interrupt_after(0.2)
        _interrupt_after(0.6)
        time.sleep(3)
        return "too late"

    with pytest.raises(SystemExit):
        run_in_thread(deaf, on_interrupt)

    def broken():
        raise ValueError("inside the work")

    with pytest.raises(ValueError, match="inside the work"):
        run_in_thread(broken, lambda count: None)


def test_sigint_to_the_cli_prints_the_best_grid_found():
    """A proof that would run for a minute or more (n = 6, no symmetry breaking),
    stopped by SIGINT once the first grids are in: exit 0, one verified JSON answer."""
    cli = [sys.executable, "-c", "import sys; from puzzlelab.cli import main; sys.argv[0] = 'puzzlelab'; main()"]
    args = ["hexagon", "solve", "6", "--method", "sat", "--symmetry", "none", "--levels", "3", "--budget", "300", "--json", "--no-store"]
    mark = f"interrupt-test-{os.getpid()}-{time.monotonic_ns()}"
    process = subprocess.Popen(
        cli + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, PUZZLELAB_TEST_MARK=mark),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a shell's background job ignores it
    )
    seen = []
    for line in process.stderr:  # progress lines: interrupt once a grid is reported
        seen.append(line)
        if "best" in line and "best 0" not in line:
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, "".join(seen) + err
    answer = json.loads(out)
    assert answer["verified"] is True and answer["value"] > 0 and answer["status"] == "feasible"
    assert "interrupted" in err
    deadline = time.monotonic() + 10
    while _marked_processes(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _marked_processes(mark), "the SAT worker outlived the command"


def _marked_processes(mark: str) -> list[str]:
    """Live processes started with PUZZLELAB_TEST_MARK=mark (the command and the worker
    it forked; an orphaned worker would be re-parented, so its parent cannot tell)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                environ = fh.read()
            with open(f"/proc/{entry}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if f"PUZZLELAB_TEST_MARK={mark}".encode() in environ and state != "Z":
            found.append(entry)
    return found
