"""Run tasks in worker processes under a Budget: a long-lived `WorkerPool` (submit,
cancel, events: what the service's job runner uses), and on top of it `run_tasks` /
`map` for batches and a first-wins `portfolio`.

Why our own small pool rather than `concurrent.futures`: numba kernels and SAT calls do
not see Python signals, so a task that must stop is *terminated*, and a terminated or
crashed worker must cost one task, not the whole pool (ProcessPoolExecutor breaks for
good when a worker dies). Each worker runs one task at a time over a pipe; when it dies,
its task is reported failed (or retried) and a fresh worker takes its place.

A task may report *interim* answers while it runs (`interim(value)`, given to it when
`Task.context` is true, together with its own `Budget`): when the deadline passes the
pool waits `grace` seconds for the task to return its best, then terminates it and
keeps the last interim answer. That is how a 10-second portfolio never loses what a
killed worker had found, and how the service streams progress.

Backends: `local` (worker processes on this machine, the default) and `ray` (a Ray
cluster; `puzzlelab.core.ray_backend`, imported only when asked for).
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing as mp
import os
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterable, Iterator, Sequence

from puzzlelab.core.result import Budget

__all__ = ["Task", "Outcome", "Event", "WorkerPool", "run_tasks", "map", "portfolio", "default_workers", "spin", "BACKENDS"]

BACKENDS = ("local", "ray")


@dataclass
class Task:
    """One unit of work: `fn(*args, **kwargs)`, run in a worker process.

    With `context=True` the call also gets `budget=` (the task's own Budget, the time it
    has left) and `interim=` (a function sending a value to the parent while the task
    runs). `fn` must be importable by name (a module-level function).
    """

    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    context: bool = False


@dataclass
class Outcome:
    """What became of one task. `ok` is true when it returned normally or left an
    interim answer; otherwise `error` says why (a traceback, 'worker died ...',
    'cancelled', 'deadline'). `value` is the return value, or the last interim value of
    a task stopped early (`interim=True`)."""

    index: int
    name: str
    ok: bool
    value: Any = None
    error: str = ""
    seconds: float = 0.0
    attempts: int = 1
    interim: bool = False


@dataclass
class Event:
    """What a WorkerPool reports: 'started', 'interim' (value = the interim payload) or
    'done' (outcome set)."""

    kind: str
    ticket: int
    value: Any = None
    outcome: Outcome | None = None


def default_workers() -> int:
    """Worker count when none is given: PUZZLELAB_WORKERS, else the machine's CPUs."""
    env = os.environ.get("PUZZLELAB_WORKERS")
    if env:
        return max(1, int(env))
    return max(1, os.cpu_count() or 1)


def start_method() -> str:
    """fork where the platform has it (workers inherit compiled kernels and start in
    milliseconds); PUZZLELAB_MP_START=spawn|forkserver overrides. A multi-threaded
    parent (the web service) should pass 'forkserver' to WorkerPool."""
    method = os.environ.get("PUZZLELAB_MP_START")
    if method is None:
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    return method


# ---------------------------------------------------------------------------------------
# worker side

_MSG_RESULT, _MSG_ERROR, _MSG_INTERIM = "result", "error", "interim"


_GROUP_ENV = "PUZZLELAB_WORKER_GROUP"


def _worker_main(conn: Connection) -> None:
    """Worker loop: receive (task, budget_seconds), run it, send back the outcome.

    A top-level worker leads its own process group, and the processes its task starts
    (a portfolio's own pool, a service job's eight orientations) stay in that group, so
    stopping the worker stops them all (`_Worker.kill` signals the group)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if hasattr(os, "setpgid") and not os.environ.get(_GROUP_ENV):
        os.setpgid(0, 0)
        os.environ[_GROUP_ENV] = str(os.getpid())
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
            kwargs["budget"] = Budget(seconds)
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
    def __init__(self, ctx: mp.context.BaseContext):
        self.conn, child_conn = ctx.Pipe()
        # Not daemonic: a task may start processes of its own (see _worker_main).
        self.process = ctx.Process(target=_worker_main, args=(child_conn,), daemon=False)
        # A forked child whose garbage collector walks the inherited heap copies every
        # page it touches; freezing first keeps the parent's objects out of its sight.
        gc.freeze()
        try:
            self.process.start()
        finally:
            gc.unfreeze()
        child_conn.close()
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
    is run again.
    """

    def __init__(self, workers: int | None = None, *, grace: float = 1.0, grace_share: float = 0.0, retries: int = 0, start: str | None = None):
        self.ctx = mp.get_context(start or start_method())
        self.size = max(1, workers or default_workers())
        self.grace, self.grace_share, self.retries = grace, grace_share, retries
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
            self._workers.append(_Worker(self.ctx))

    @property
    def busy(self) -> int:
        return sum(w.job is not None for w in self._workers)

    @property
    def pending(self) -> int:
        return len(self._queue) + self.busy

    # -- the work
    def events(self, timeout: float = 0.2) -> list[Event]:
        """Advance the pool; wait at most `timeout` s for something to report."""
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
            worker = next((w for w in self._workers if w.job is None), None)
            if worker is None:
                if len(self._workers) >= self.size:
                    return
                worker = _Worker(self.ctx)
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
                pass  # reaped as a dead worker in _collect
            self._ready.append(Event("started", job.ticket))

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
                    f"worker died (exit code {code})",
                    time.monotonic() - worker.started,
                    interim=job.has_interim,
                )
                self._ready.append(Event("done", job.ticket, outcome=outcome))


# ---------------------------------------------------------------------------------------
# batches


def run_tasks(
    tasks: Sequence[Task],
    *,
    workers: int | None = None,
    budget: Budget | None = None,
    grace: float = 1.0,
    retries: int = 0,
    stop_when: Callable[[Outcome], bool] | None = None,
    on_interim: Callable[[int, Any], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[Outcome]:
    """Run `tasks`, yielding one Outcome per task as each finishes (finishing order;
    `Outcome.index` is the task's position in `tasks`).

    - `budget`: when it expires, tasks not started are reported 'deadline'; running ones
      get `grace` seconds to return, then are terminated (their last interim value, if
      any, comes back with `interim=True`). `budget.cancel()` from another thread stops
      the batch the same way ('cancelled').
    - `retries`: a task whose worker died (crash, kill, lost node) is re-run up to this
      many times before it is reported failed. Exceptions raised by the task itself are
      not retried: they would fail again.
    - `stop_when(outcome)`: once true, every other task is terminated and reported
      'cancelled' (the first-wins rule of a portfolio).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "ray":
        from puzzlelab.core import ray_backend

        yield from ray_backend.run_tasks(
            tasks, budget=budget, retries=retries, stop_when=stop_when, address=address, workers=workers, grace=grace
        )
        return
    budget = budget or Budget()
    n_workers = max(1, min(workers or default_workers(), len(tasks) or 1))
    with WorkerPool(n_workers, grace=grace, retries=retries) as pool:
        tickets = {pool.submit(task, budget): index for index, task in enumerate(tasks)}
        remaining = len(tasks)
        stopping = False
        while remaining:
            if budget.cancelled and not stopping:
                stopping = True
                for ticket in list(tickets):
                    pool.cancel(ticket)
            for event in pool.events(0.2):
                index = tickets[event.ticket]
                if event.kind == "interim" and on_interim is not None:
                    on_interim(index, event.value)
                if event.kind != "done":
                    continue
                remaining -= 1
                outcome = event.outcome
                outcome.index = index
                yield outcome
                if stop_when is not None and outcome.ok and not stopping and stop_when(outcome):
                    stopping = True
                    for ticket in list(tickets):
                        pool.cancel(ticket)




def map(
    fn: Callable[..., Any],
    items: Iterable[Any],
    *,
    workers: int | None = None,
    budget: Budget | None = None,
    retries: int = 0,
    on_outcome: Callable[[Outcome], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[Outcome]:
    """fn(item) for every item in worker processes; Outcomes in the order of `items`.

    `on_outcome` sees each Outcome as it finishes (store it there to make a long batch
    resumable). Items that are tuples are spread as positional arguments.
    """
    tasks = [Task(fn, item if isinstance(item, tuple) else (item,), name=str(i)) for i, item in enumerate(items)]
    outcomes: list[Outcome | None] = [None] * len(tasks)
    for outcome in run_tasks(tasks, workers=workers, budget=budget, retries=retries, backend=backend, address=address):
        outcomes[outcome.index] = outcome
        if on_outcome is not None:
            on_outcome(outcome)
    return [o for o in outcomes if o is not None]


def portfolio(
    tasks: Sequence[Task],
    *,
    is_final: Callable[[Any], bool],
    workers: int | None = None,
    budget: Budget | None = None,
    grace: float = 1.0,
    on_interim: Callable[[int, Any], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[Outcome]:
    """Run competing tasks; the first whose value satisfies `is_final` (a proven answer)
    stops all the others, which are terminated. Returns every Outcome (index order),
    interim answers of stopped tasks included, so the caller can pick the best."""
    outcomes: list[Outcome | None] = [None] * len(tasks)
    for outcome in run_tasks(
        tasks,
        workers=workers,
        budget=budget,
        grace=grace,
        stop_when=lambda o: is_final(o.value),
        on_interim=on_interim,
        backend=backend,
        address=address,
    ):
        outcomes[outcome.index] = outcome
    return [o for o in outcomes if o is not None]


def spin(seconds: float, token: Any = None) -> Any:
    """A calibration task: keep one core busy for `seconds`, then return `token`. The
    backend benchmark uses it to measure what dispatch costs beside real work."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return token
