"""Run tasks in worker processes under a Budget: `run_tasks` / `map` for batches and a
first-wins `portfolio`.

Why our own small pool rather than `concurrent.futures`: numba kernels and SAT calls do
not see Python signals, so a task that must stop is *terminated*, and a terminated or
crashed worker must cost one task, not the whole pool (ProcessPoolExecutor breaks for
good when a worker dies). Each worker here runs one task at a time over a pipe; when it
dies, its task is reported failed (or retried) and a fresh worker takes its place.

A task may report *interim* answers while it runs (`interim(value)`, given to it when
`Task.context` is true, together with its own `Budget`): when the deadline passes the
parent waits `grace` seconds for the task to return its best, then terminates it and
keeps the last interim answer. That is how a 10-second portfolio never loses what a
killed worker had found.

Backends: `local` (worker processes on this machine, the default) and `ray` (a Ray
cluster; see `puzzlelab.core.ray_backend`, imported only when asked for).
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterable, Iterator, Sequence

from puzzlelab.core.result import Budget

__all__ = ["Task", "Outcome", "run_tasks", "map", "portfolio", "default_workers", "BACKENDS"]

BACKENDS = ("local", "ray")


@dataclass
class Task:
    """One unit of work: `fn(*args, **kwargs)`, run in a worker process.

    With `context=True` the call also gets `budget=` (the task's own Budget, the time the
    batch has left) and `interim=` (a function sending a best-so-far value to the
    parent). `fn` must be importable by name (a module-level function), like any
    multiprocessing target.
    """

    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    context: bool = False


@dataclass
class Outcome:
    """What became of one task. `ok` is true when it returned normally; otherwise
    `error` says why (an exception's traceback, a crash, 'cancelled', 'deadline').
    `value` is the return value, or the last interim value of a task stopped early."""

    index: int
    name: str
    ok: bool
    value: Any = None
    error: str = ""
    seconds: float = 0.0
    attempts: int = 1
    interim: bool = False  # value is an interim answer of a stopped task


def default_workers() -> int:
    """Worker count when none is given: PUZZLELAB_WORKERS, else the machine's CPUs."""
    env = os.environ.get("PUZZLELAB_WORKERS")
    if env:
        return max(1, int(env))
    return max(1, os.cpu_count() or 1)


def _context() -> mp.context.BaseContext:
    """fork where the platform has it (workers inherit compiled kernels and start in
    milliseconds); PUZZLELAB_MP_START=spawn|forkserver overrides."""
    method = os.environ.get("PUZZLELAB_MP_START")
    if method is None:
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    return mp.get_context(method)


# ---------------------------------------------------------------------------------------
# worker side

_MSG_RESULT, _MSG_ERROR, _MSG_INTERIM = "result", "error", "interim"


def _worker_main(conn: Connection) -> None:
    """Worker loop: receive (task, budget_seconds), run it, send back the outcome."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
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
        self.process = ctx.Process(target=_worker_main, args=(child_conn,), daemon=True)
        # A forked child whose garbage collector walks the inherited heap copies every
        # page it touches; freezing first keeps the parent's objects out of its sight.
        gc.freeze()
        try:
            self.process.start()
        finally:
            gc.unfreeze()
        child_conn.close()
        self.index: int | None = None  # task being run
        self.started = 0.0
        self.stop_at = float("inf")  # hard kill time
        self.interim: Any = None
        self.has_interim = False

    def assign(self, index: int, task: Task, seconds: float | None, hard_stop: float) -> None:
        self.index, self.started, self.stop_at = index, time.monotonic(), hard_stop
        self.interim, self.has_interim = None, False
        self.conn.send((task, seconds))

    def release(self) -> None:
        self.index = None

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def close(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, BrokenPipeError):
            pass
        self.process.join(timeout=1)
        self.kill()


# ---------------------------------------------------------------------------------------
# parent side


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
    """Run `tasks`, yielding one Outcome per task as each finishes (in finishing order).

    - `budget`: when it expires, tasks not started are reported 'deadline'; running ones
      get `grace` seconds to return, then are terminated (their last interim value, if
      any, comes back with `interim=True`).
    - `retries`: a task whose worker died (crash, kill, lost node) is re-run up to this
      many times before it is reported failed. Exceptions raised by the task itself are
      not retried: they would fail again.
    - `stop_when(outcome)`: once true, every other task is terminated and reported
      'cancelled' (the first-wins rule of a portfolio).
    - `budget.cancel()` from another thread stops the batch the same way.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "ray":
        try:
            from puzzlelab.core import ray_backend
        except ImportError as exc:
            raise RuntimeError(f"the ray backend is unavailable here ({exc}); install puzzlelab[cluster]") from exc

        yield from ray_backend.run_tasks(
            tasks, budget=budget, retries=retries, stop_when=stop_when, address=address, workers=workers
        )
        return
    yield from _run_local(tasks, workers, budget, grace, retries, stop_when, on_interim)


def _run_local(tasks, workers, budget, grace, retries, stop_when, on_interim) -> Iterator[Outcome]:
    budget = budget or Budget()
    ctx = _context()
    pending = list(range(len(tasks)))[::-1]  # stack; pop() gives task 0 first
    attempts = [0] * len(tasks)
    pool: list[_Worker] = []
    n_workers = max(1, min(workers or default_workers(), len(tasks) or 1))
    done = 0
    stopping: str | None = None  # 'cancelled' once stop_when fired or budget cancelled

    def finish(worker: _Worker, outcome: Outcome) -> Outcome:
        worker.release()
        return outcome

    try:
        while done < len(tasks):
            if stopping is None and budget.cancelled:
                stopping = "cancelled"
            # Hand out work to idle workers.
            while pending and stopping is None and not budget.expired():
                idle = next((w for w in pool if w.index is None), None)
                if idle is None:
                    if len(pool) >= n_workers:
                        break
                    idle = _Worker(ctx)
                    pool.append(idle)
                index = pending.pop()
                attempts[index] += 1
                left = budget.seconds_left()
                seconds = None if left == float("inf") else left
                hard = time.monotonic() + (seconds + grace if seconds is not None else float("inf"))
                idle.assign(index, tasks[index], seconds, hard)
            # Tasks never started because time ran out or the batch stopped.
            if pending and (stopping is not None or budget.expired()):
                reason = stopping or "deadline"
                while pending:
                    index = pending.pop()
                    done += 1
                    yield Outcome(index, tasks[index].name, False, error=reason, attempts=attempts[index])
                continue
            busy = [w for w in pool if w.index is not None]
            if not busy:
                if done >= len(tasks):
                    break
                continue
            # Terminate what must stop now.
            now = time.monotonic()
            for w in busy:
                if stopping is not None or now >= w.stop_at:
                    reason = stopping or "deadline"
                    index = w.index
                    w.kill()
                    pool.remove(w)
                    done += 1
                    yield Outcome(
                        index,
                        tasks[index].name,
                        w.has_interim,
                        value=w.interim,
                        error=reason,
                        seconds=now - w.started,
                        attempts=attempts[index],
                        interim=w.has_interim,
                    )
            busy = [w for w in pool if w.index is not None]
            if not busy:
                continue
            timeout = max(0.0, min(w.stop_at for w in busy) - time.monotonic())
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=min(timeout, 0.2))
            for w in busy:
                if w.conn in ready:
                    try:
                        kind, payload = w.conn.recv()
                    except (EOFError, OSError):
                        kind, payload = None, None
                    if kind == _MSG_INTERIM:
                        w.interim, w.has_interim = payload, True
                        if on_interim is not None:
                            on_interim(w.index, payload)
                        continue
                    if kind in (_MSG_RESULT, _MSG_ERROR):
                        index = w.index
                        outcome = Outcome(
                            index,
                            tasks[index].name,
                            kind == _MSG_RESULT,
                            value=payload if kind == _MSG_RESULT else None,
                            error="" if kind == _MSG_RESULT else payload,
                            seconds=time.monotonic() - w.started,
                            attempts=attempts[index],
                        )
                        finish(w, outcome)
                        done += 1
                        yield outcome
                        if stop_when is not None and outcome.ok and stop_when(outcome):
                            stopping = "cancelled"
                        continue
                if w.index is not None and not w.process.is_alive():
                    # The worker died mid-task: a crash, an OOM kill, a kill -9.
                    index = w.index
                    code = w.process.exitcode
                    w.kill()
                    pool.remove(w)
                    if attempts[index] <= retries and stopping is None:
                        pending.append(index)
                    else:
                        done += 1
                        yield Outcome(
                            index,
                            tasks[index].name,
                            w.has_interim,
                            value=w.interim,
                            error=f"worker died (exit code {code})",
                            seconds=time.monotonic() - w.started,
                            attempts=attempts[index],
                            interim=w.has_interim,
                        )
    finally:
        for w in pool:
            if w.index is None:
                w.close()
            else:
                w.kill()


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
