"""The local worker pool: up to N processes on this machine, each running one task at a
time over a pipe, under a Budget. The service's job runner drives a long-lived
`WorkerPool` (submit, cancel, events); `local.run_tasks` runs a batch on one.

Why our own small pool rather than `concurrent.futures`: numba kernels and SAT calls do
not see Python signals, so a task that must stop is *terminated*, and a terminated or
crashed worker must cost one task, not the whole pool (ProcessPoolExecutor breaks for
good when a worker dies). When a worker dies, its task is reported failed (or retried)
and a fresh worker takes its place. A worker that dies while idle (kill -9, the OOM
killer) is noticed before it is handed a task, logged and replaced: writing a task to
its closed pipe would raise (or, where SIGPIPE is left at its default, kill the parent).

A task may report *interim* answers while it runs (`interim(value)`, given to it when
`Task.context` is true, together with its own `Budget`): when the deadline passes the
pool waits `grace` seconds for the task to return its best, then terminates it and
keeps the last interim answer. That is how a 10-second portfolio never loses what a
killed worker had found, and how the service streams progress.

With `memory_bytes`, each worker runs under that memory limit (`memory.py`): its own
allocations past it fail with MemoryError, and the pool stops a task whose process
group holds more (reported as error "memory"). The task's Budget carries the bound, so
a solver can refuse up front what cannot fit.
"""

from __future__ import annotations

import gc
import itertools
import logging
import multiprocessing as mp
import os
import signal
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import shown
from puzzlelab.core.lifeline import die_with_parent
from puzzlelab.core.parallel.memory import group_memory, limit_process_memory
from puzzlelab.core.parallel.tasks import Event, Outcome, Task, default_workers
from puzzlelab.core.result import Budget

__all__ = ["WorkerPool", "start_method", "exit_reason"]

log = logging.getLogger("puzzlelab.parallel")


def start_method() -> str:
    """fork where the platform has it (workers inherit compiled kernels and start in
    milliseconds); PUZZLELAB_MP_START=spawn|forkserver overrides. A multi-threaded
    parent (the web service) should pass 'forkserver' to WorkerPool."""
    method = os.environ.get("PUZZLELAB_MP_START")
    if method is None:
        return "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    allowed = mp.get_all_start_methods()
    if method not in allowed:
        raise InvalidInstance(f"PUZZLELAB_MP_START: expected one of {', '.join(allowed)}, got {shown(method)}", "PUZZLELAB_MP_START")
    return method


def exit_reason(code: int | None) -> str:
    """How a process ended, in words ('killed by SIGKILL', 'exit code 1')."""
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


# ---------------------------------------------------------------------------------------
# worker side

_MSG_RESULT, _MSG_ERROR, _MSG_INTERIM = "result", "error", "interim"


_GROUP_ENV = "PUZZLELAB_WORKER_GROUP"
# How often the pool measures the memory of its busy workers' process groups.
MEMORY_POLL_SECONDS = 0.25


def _worker_main(conn: Connection, memory_bytes: int | None = None, parent_pid: int | None = None) -> None:
    """Worker loop: receive (task, budget_seconds), run it, send back the outcome.

    The worker dies with the pool's process however that ends (`core.lifeline`: a
    SIGKILL or SIGTERM to the parent alone no longer leaves it running). A top-level
    worker leads its own process group, and the processes its task starts (a
    portfolio's own pool, a service job's eight orientations) stay in that group, so
    stopping the worker stops them all (`_Worker.kill` signals the group). With
    `memory_bytes` the worker limits its memory before its first task."""
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if hasattr(os, "setpgid") and not os.environ.get(_GROUP_ENV):
        os.setpgid(0, 0)
        os.environ[_GROUP_ENV] = str(os.getpid())
    if memory_bytes is not None:
        limit_process_memory(memory_bytes)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task, seconds = message
        kwargs = dict(task.kwargs)
        if task.context:
            kwargs["budget"] = Budget(seconds, memory_bytes=memory_bytes)
            kwargs["interim"] = lambda value: conn.send((_MSG_INTERIM, value))
        try:
            value = task.fn(*task.args, **kwargs)
            conn.send((_MSG_RESULT, value))
        except BaseException:  # noqa: BLE001 - everything is reported to the parent
            try:
                conn.send((_MSG_ERROR, traceback.format_exc(limit=20)))
            except Exception:  # pragma: no cover - pipe gone
                return


class _Worker:
    def __init__(self, ctx: mp.context.BaseContext, memory_bytes: int | None = None):
        self.conn, child_conn = ctx.Pipe()
        # Not daemonic: a task may start processes of its own (see _worker_main).
        self.process = ctx.Process(target=_worker_main, args=(child_conn, memory_bytes, os.getpid()), daemon=False)
        # A forked child whose garbage collector walks the inherited heap copies every
        # page it touches; freezing first keeps the parent's objects out of its sight.
        gc.freeze()
        try:
            self.process.start()
        finally:
            gc.unfreeze()
        child_conn.close()
        self.born = time.monotonic()
        self.job: _Job | None = None
        self.started = 0.0
        self.stop_at = float("inf")  # hard kill time

    def kill(self) -> None:
        if self.process.is_alive():
            self._kill_group()
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def _kill_group(self) -> None:
        """SIGKILL the worker's process group (it and whatever its task started), when
        the worker leads one."""
        pid = self.process.pid
        if pid is None or not hasattr(os, "killpg"):
            return
        try:
            if os.getpgid(pid) == pid:
                os.killpg(pid, 9)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> None:
        try:
            if self.process.is_alive():  # a dead worker's pipe is closed: never write to it
                self.conn.send(None)
        except (OSError, BrokenPipeError):
            pass
        self.process.join(timeout=1)
        self.kill()


@dataclass
class _Job:
    ticket: int
    task: Task
    budget: Budget
    seconds: float | None = None  # a budget that starts when the task starts
    attempts: int = 0
    interim: Any = None
    has_interim: bool = False


# ---------------------------------------------------------------------------------------
# the pool


class WorkerPool:
    """Up to `workers` processes running submitted tasks, one each, the rest queued.

    Drive it from one thread: `submit()` and `cancel()` return at once; `events(timeout)`
    does the work (hands out tasks, enforces deadlines, reaps crashed workers) and
    returns what happened. A task may run `grace` seconds plus `grace_share` of its
    budget past the budget before it is terminated (a fresh worker pays imports and
    kernel loading inside its budget); `retries` is how often a task whose worker died
    is run again. `memory_bytes` limits each task's memory (see the module docstring).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        grace: float = 1.0,
        grace_share: float = 0.0,
        retries: int = 0,
        start: str | None = None,
        memory_bytes: int | None = None,
    ):
        self.ctx = mp.get_context(start or start_method())
        self.size = max(1, workers or default_workers())
        self.grace, self.grace_share, self.retries = grace, grace_share, retries
        self.memory_bytes = None if memory_bytes is None else int(memory_bytes)
        self._memory_checked = 0.0
        self._queue: deque[_Job] = deque()
        self._workers: list[_Worker] = []
        self._tickets = itertools.count()
        self._ready: list[Event] = []

    # -- requests
    def submit(self, task: Task, budget: Budget | None = None, *, seconds: float | None = None) -> int:
        """Queue a task. `budget` runs from now (a batch's shared deadline); `seconds`
        instead gives the task that much time from the moment it starts (a service job
        waiting in the queue does not lose its time)."""
        job = _Job(next(self._tickets), task, budget or Budget(), seconds)
        self._queue.append(job)
        return job.ticket

    def cancel(self, ticket: int, reason: str = "cancelled") -> bool:
        """Drop a queued task or terminate a running one; False if unknown / finished."""
        for job in self._queue:
            if job.ticket == ticket:
                self._queue.remove(job)
                self._ready.append(Event("done", ticket, outcome=self._outcome(job, False, error=reason)))
                return True
        for worker in self._workers:
            if worker.job is not None and worker.job.ticket == ticket:
                self._stop(worker, reason)
                return True
        return False

    def warm(self) -> None:
        """Start every worker now, so the first tasks do not pay for process start-up
        (with forkserver: the server's imports of the solver libraries, seconds)."""
        while len(self._workers) < self.size:
            self._workers.append(_Worker(self.ctx, self.memory_bytes))

    @property
    def busy(self) -> int:
        return sum(w.job is not None for w in self._workers)

    @property
    def pending(self) -> int:
        return len(self._queue) + self.busy

    # -- the work
    def events(self, timeout: float = 0.2) -> list[Event]:
        """Advance the pool; wait at most `timeout` s for something to report."""
        self._replace_dead_idle()
        self._dispatch()
        self._enforce_deadlines()
        busy = [w for w in self._workers if w.job is not None]
        if busy and not self._ready:
            until = min(w.stop_at for w in busy) - time.monotonic()
            wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=max(0.0, min(timeout, until)))
        elif not busy and not self._ready and timeout > 0 and not self._queue:
            time.sleep(min(timeout, 0.05))
        for worker in busy:
            self._collect(worker)
        self._enforce_deadlines()
        self._dispatch()
        ready, self._ready = self._ready, []
        return ready

    def close(self) -> None:
        """Terminate everything (running tasks are reported nowhere)."""
        for worker in self._workers:
            if worker.job is None:
                worker.close()
            else:
                worker.kill()
        self._workers.clear()
        self._queue.clear()

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- internals
    def _outcome(self, job: _Job, ok: bool, value: Any = None, error: str = "", seconds: float = 0.0, interim: bool = False) -> Outcome:
        return Outcome(job.ticket, job.task.name, ok, value, error, seconds, job.attempts, interim)

    def _dispatch(self) -> None:
        while self._queue:
            job = self._queue[0]
            if job.budget.expired():
                self._queue.popleft()
                reason = "cancelled" if job.budget.cancelled else "deadline"
                self._ready.append(Event("done", job.ticket, outcome=self._outcome(job, False, error=reason)))
                continue
            worker = next((w for w in self._workers if w.job is None and w.process.is_alive()), None)
            if worker is None:
                if len(self._workers) >= self.size:
                    return
                worker = _Worker(self.ctx, self.memory_bytes)
                self._workers.append(worker)
            self._queue.popleft()
            if job.seconds is not None and job.attempts == 0:
                job.budget = Budget(job.seconds)
            left = job.budget.seconds_left()
            seconds = None if left == float("inf") else left
            job.attempts += 1
            job.interim, job.has_interim = None, False
            worker.job, worker.started = job, time.monotonic()
            worker.stop_at = worker.started + (seconds + self.grace + self.grace_share * seconds if seconds is not None else float("inf"))
            try:
                worker.conn.send((job.task, seconds))
            except (OSError, BrokenPipeError):
                # It died since the check above: the task goes back unstarted, and the
                # next call starts a fresh worker for it.
                job.attempts -= 1
                worker.job = None
                self._queue.appendleft(job)
                self._drop_dead(worker, "before it could be handed a task")
                return
            self._ready.append(Event("started", job.ticket))

    def _replace_dead_idle(self) -> None:
        """Reap the idle workers that died (kill -9, the OOM killer) and start one in
        the place of each; one that died within a second of its start is replaced only
        when a task needs it (a worker that cannot start must not be restarted in a loop)."""
        for worker in [w for w in self._workers if w.job is None and not w.process.is_alive()]:
            lived = time.monotonic() - worker.born
            self._drop_dead(worker, "while idle")
            if lived >= 1.0 and len(self._workers) < self.size:
                try:
                    self._workers.append(_Worker(self.ctx, self.memory_bytes))
                except (OSError, EOFError) as exc:  # e.g. its forkserver died too: started when a task needs it
                    log.warning("a fresh worker could not be started now (%s: %s); one starts when a task needs it", type(exc).__name__, exc)

    def _drop_dead(self, worker: _Worker, when: str) -> None:
        """Forget a worker that died without a task of its own, and say so."""
        worker.kill()  # reaps it: its exit code is known from here on
        self._workers.remove(worker)
        log.warning("worker process %s died %s (%s); a fresh worker takes its place", worker.process.pid, when, exit_reason(worker.process.exitcode))

    def _enforce_deadlines(self) -> None:
        now = time.monotonic()
        for worker in list(self._workers):
            job = worker.job
            if job is None:
                continue
            if job.budget.cancelled:
                self._stop(worker, "cancelled")
            elif now >= worker.stop_at:
                self._stop(worker, "deadline")
        self._enforce_memory(now)

    def _enforce_memory(self, now: float) -> None:
        """Stop a task whose worker's process group holds more than `memory_bytes`
        (each process is also limited on its own; this catches a task that starts
        processes which pass the limit together)."""
        if self.memory_bytes is None or now - self._memory_checked < MEMORY_POLL_SECONDS:
            return
        self._memory_checked = now
        for worker in [w for w in self._workers if w.job is not None and w.process.pid is not None]:
            held = group_memory(worker.process.pid)
            if held is not None and held > self.memory_bytes:
                self._stop(worker, "memory")

    def _stop(self, worker: _Worker, reason: str) -> None:
        job = worker.job
        self._drain(worker)
        worker.kill()
        self._workers.remove(worker)
        outcome = self._outcome(
            job, job.has_interim, job.interim, reason, time.monotonic() - worker.started, interim=job.has_interim
        )
        self._ready.append(Event("done", job.ticket, outcome=outcome))

    def _drain(self, worker: _Worker) -> None:
        """Read the interim messages already in the pipe (the freshest answer counts)."""
        try:
            while worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == _MSG_INTERIM:
                    worker.job.interim, worker.job.has_interim = payload, True
        except (EOFError, OSError):
            pass

    def _collect(self, worker: _Worker) -> None:
        job = worker.job
        try:
            while worker.job is not None and worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == _MSG_INTERIM:
                    job.interim, job.has_interim = payload, True
                    self._ready.append(Event("interim", job.ticket, value=payload))
                    continue
                ok = kind == _MSG_RESULT
                outcome = self._outcome(
                    job, ok, payload if ok else None, "" if ok else payload, time.monotonic() - worker.started
                )
                worker.job = None
                self._ready.append(Event("done", job.ticket, outcome=outcome))
        except (EOFError, OSError):
            pass
        if worker.job is not None and not worker.process.is_alive():
            # The worker died mid-task: a crash, an OOM kill, a kill -9.
            code = worker.process.exitcode
            worker.kill()
            self._workers.remove(worker)
            if job.attempts <= self.retries and not job.budget.expired():
                self._queue.appendleft(job)
            else:
                outcome = self._outcome(
                    job,
                    job.has_interim,
                    job.interim,
                    f"worker died ({exit_reason(code)})",
                    time.monotonic() - worker.started,
                    interim=job.has_interim,
                )
                self._ready.append(Event("done", job.ticket, outcome=outcome))
