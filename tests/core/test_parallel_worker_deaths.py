"""A worker that dies while idle (kill -9, the OOM killer) costs nothing: the pool
notices before it hands that worker a task, logs it, starts a fresh one, and every
task still runs. Handing a task to the dead worker wrote to its closed pipe, which
killed the parent where SIGPIPE is left at its default (as the CLI leaves it)."""

from __future__ import annotations

import logging
import math
import os
import signal
import subprocess
import sys
import textwrap
import time

from puzzlelab.core.parallel import Task, WorkerPool

IDLE_DEATHS = textwrap.dedent(
    """
    import math, os, signal, time
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # as the CLI sets it
    from puzzlelab.core.parallel import Task, WorkerPool

    pool = WorkerPool(2, start="fork")
    pool.warm()
    for worker in pool._workers:
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join(10)
    time.sleep(1.1)  # they had lived a second: replaced at once, not on demand
    tickets = {pool.submit(Task(math.factorial, (n,))): n for n in (5, 6, 7)}
    values, deadline = {}, time.monotonic() + 60
    while len(values) < 3 and time.monotonic() < deadline:
        for event in pool.events(0.2):
            if event.kind == "done":
                values[tickets[event.ticket]] = event.outcome.value if event.outcome.ok else event.outcome.error
    print(sorted(values.items()), len(pool._workers))
    pool.close()
    """
)


def test_idle_workers_killed_are_replaced_and_the_parent_lives_with_default_sigpipe():
    done = subprocess.run([sys.executable, "-c", IDLE_DEATHS], capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.split("\n")[0] == "[(5, 120), (6, 720), (7, 5040)] 2", done.stdout
    assert done.stderr.count("died while idle (killed by SIGKILL); a fresh worker takes its place") == 2, done.stderr


def test_a_worker_that_dies_between_the_check_and_the_hand_over_costs_its_task_nothing(caplog):
    """The race the liveness check leaves: the task goes back to the queue unstarted
    (its attempts not counted) and runs on a fresh worker."""
    with WorkerPool(1, start="fork") as pool:
        pool.warm()
        worker = pool._workers[0]
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join(10)
        worker.process.is_alive = lambda: True  # the check saw it alive a moment before it died
        ticket = pool.submit(Task(math.factorial, (6,)))
        outcome, deadline = None, time.monotonic() + 60
        with caplog.at_level(logging.WARNING, logger="puzzlelab.parallel"):
            while outcome is None and time.monotonic() < deadline:
                outcome = next((e.outcome for e in pool.events(0.2) if e.kind == "done" and e.ticket == ticket), None)
        assert outcome is not None and outcome.ok and outcome.value == 720 and outcome.attempts == 1, outcome
        assert worker not in pool._workers
        assert "died before it could be handed a task" in caplog.text
