"""The service's job runner: jobs queue for a `WorkerPool`, run one per worker process,
stream progress, and end verified (or say why not).

One thread owns the pool; HTTP handlers talk to it through a command queue, and read
jobs under a lock. The budget is enforced here (the pool terminates a worker `grace`
seconds past it), not trusted to the solver; so is each job's memory limit
(`memory_bytes`: the pool's workers run under it, and a job over it ends `failed: out
of memory` while the service goes on). A job is written to the jobs table before it
is queued: one that cannot be written is refused (503), never left queued in memory. Whatever a worker returns is re-verified
in this process before it is shown or stored (`core.parallel.accept`, as every batch
driver does). Jobs are kept in the `jobs` table beside the records, so after a restart
a job that was queued or running is reported as `interrupted`, never silently dropped,
and a finished job's result is checked again before it is served (`job_rows`).

What one client may take is bounded (`service.capacity`): the queue holds at most
`max_queued` jobs (past it `submit` raises QueueFull, answered 503 with Retry-After),
and memory holds every unfinished job but only the `finished_kept` most recent finished
ones; an older job is read back from the jobs table when asked for (`job_window`).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
import uuid
from typing import Any

from puzzlelab.core.lifeline import start_fork_server
from puzzlelab.core.parallel import Answer, Failure, Outcome, Task, WorkerPool, accept
from puzzlelab.core.puzzle import WrongAnswer
from puzzlelab.core.result import Result, _json_default, format_bytes
from puzzlelab.core.store import Store, StoreError
from puzzlelab.puzzles import get
from puzzlelab.service.capacity import Capacity, QueueFull
from puzzlelab.service.job_rows import FINAL_STATES, JOBS_SCHEMA, STATES, Job, plain
from puzzlelab.service.job_window import finished_to_forget, read_job, read_jobs, retry_after
from puzzlelab.service.progress_log import SAVE_SECONDS, Series
from puzzlelab.service.progress_log import SCHEMA as PROGRESS_SCHEMA
from puzzlelab.service.worker import run_job

__all__ = ["Job", "JobRunner", "STATES", "FINAL_STATES"]

log = logging.getLogger("puzzlelab.service")


# Imported once by the forkserver, before any job (see JobRunner.start).
SOLVER_LIBRARIES = ("numpy", "numba", "ortools.sat.python.cp_model", "highspy", "pysat.solvers")
# A job may overrun its budget by `grace` seconds plus this share of the budget before
# the runner terminates it: a fresh worker imports solver modules and loads compiled
# kernels (seconds) inside the budget before the solver itself starts.
GRACE_SHARE = 1.0

class JobRunner:
    """Runs jobs in `workers` processes. `start()` before use, `stop()` at shutdown."""

    def __init__(
        self,
        store: Store,
        workers: int = 2,
        *,
        grace: float = 2.0,
        start_method: str = "forkserver",
        memory_bytes: int | None = None,
        capacity: Capacity | None = None,
    ):
        self.store = store
        self.workers = workers
        self.grace = grace
        self.start_method = start_method
        self.memory_bytes = memory_bytes
        self.capacity = capacity or Capacity(job_processes=workers, job_memory_bytes=memory_bytes)
        self._jobs: dict[str, Job] = {}  # every unfinished job, the most recent finished ones
        self._pinned: set[str] = set()  # finished jobs whose last state could not be written: kept
        self._admitting = 0  # jobs being written by `submit`, counted in the queue
        self._lock = threading.Lock()
        self._commands: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._pool: WorkerPool | None = None
        self._unsaved: dict[str, tuple] = {}  # job id -> row to write (outside the lock)
        self._series: dict[str, Series] = {}  # job id -> its progress figures (service.progress_log)

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self.open_jobs()
        if self.start_method == "forkserver":
            # Workers fork from a server that has already imported every puzzle and the
            # heavy solver libraries, so a job's budget is not spent importing them; it
            # (and so every worker) ends with the service however the service ends.
            start_fork_server(["puzzlelab.service.worker", *SOLVER_LIBRARIES])
        self._pool = WorkerPool(
            self.workers, grace=self.grace, grace_share=GRACE_SHARE, start=self.start_method, memory_bytes=self.memory_bytes
        )
        self._thread = threading.Thread(target=self._loop, name="puzzlelab-job-runner", daemon=True)
        self._thread.start()

    def open_jobs(self) -> None:
        """Create the jobs table, mark the jobs a stopped service left unfinished as
        `interrupted`, and load the most recent jobs."""
        with self.store.connect() as db:
            db.executescript(JOBS_SCHEMA + PROGRESS_SCHEMA)
            db.execute(
                "UPDATE jobs SET state = 'interrupted', finished = ?, error = 'the service stopped while this job was ' || state"
                " WHERE state IN ('queued', 'running')",
                (time.time(),),
            )
        for job in read_jobs(self.store, self.capacity.finished_kept):
            self._jobs[job.id] = job

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._pool is not None:
            self._pool.close()
        with self._lock:
            for job in self._jobs.values():
                if not job.finished_state:
                    self._set_state(job, "interrupted", error="the service stopped while this job was " + job.state)
        self._save()

    # ------------------------------------------------------------ requests (any thread)
    def submit(self, puzzle: str, instance_key: str, instance: Any, method: str, options: dict[str, Any], budget: float, seed: int) -> Job:
        """Write the job, then queue it. A job that cannot be written raises StoreError
        and is not kept: no job stays queued that no one will run. A full queue raises
        QueueFull, and nothing is written."""
        self._reserve_place()
        try:
            return self._write_and_queue(puzzle, instance_key, instance, method, options, budget, seed)
        finally:
            with self._lock:
                self._admitting -= 1

    def _reserve_place(self) -> None:
        """A place in the queue for one job being submitted, or QueueFull."""
        with self._lock:
            waiting = sum(job.state == "queued" for job in self._jobs.values()) + self._admitting
            if waiting >= self.capacity.max_queued:
                seconds = retry_after(self._jobs.values(), time.time())
                raise QueueFull(
                    f"queue: {waiting} jobs wait already, the most this server takes (serve --max-queued); try again in {seconds} s",
                    seconds,
                )
            self._admitting += 1

    def _write_and_queue(self, puzzle: str, instance_key: str, instance: Any, method: str, options: dict[str, Any], budget: float,
                         seed: int) -> Job:
        job = Job(uuid.uuid4().hex[:12], puzzle, instance_key, instance, method, options, float(budget), int(seed))
        try:
            row = (job.id, puzzle, instance_key, json.dumps(instance, default=_json_default), method,
                   json.dumps(options, default=_json_default), job.budget, job.seed, job.state, job.created)
            with self.store.connect() as db:
                db.execute(
                    "INSERT INTO jobs (id, puzzle, instance_key, instance, method, options, budget, seed, state, created)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
        except StoreError:
            raise
        except Exception as exc:  # noqa: BLE001 - a value the table cannot hold: refuse the job, keep nothing
            raise StoreError(f"records store {self.store.path}: the job could not be written ({type(exc).__name__}: {exc})") from exc
        with self._lock:
            self._jobs[job.id] = job
            job.events.append({"type": "state", "state": "queued", "job": job.to_dict()})
        self._commands.put(("submit", job.id))
        return job

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None and not job.finished_state:
            self._commands.put(("cancel", job_id))
        return job

    def get(self, job_id: str) -> Job | None:
        """The job, from memory or, for an older finished one, from the jobs table."""
        with self._lock:
            job = self._jobs.get(job_id)
        return job if job is not None else read_job(self.store, job_id)

    def jobs(self, limit: int = 100) -> list[Job]:
        """The `limit` most recent jobs. Every job memory lacks is finished and older
        than each finished one it holds, so memory answers when it holds `limit`
        finished jobs; else the jobs table does (memory's copy where it has one)."""
        with self._lock:
            kept = sorted(self._jobs.values(), key=lambda j: j.created, reverse=True)
            finished = sum(job.finished_state for job in kept)
            if limit <= finished:
                return kept[:limit]
            known = dict(self._jobs)
        return read_jobs(self.store, limit, known)

    def events_since(self, job_id: str, index: int) -> tuple[list[dict[str, Any]], bool]:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None:
                return job.events[index:], job.finished_state
        job = read_job(self.store, job_id)
        return ([], True) if job is None else (job.events[index:], True)

    def svg(self, job_id: str) -> str | None:
        """The picture of a finished job, drawn from its verified result."""
        job = self.get(job_id)
        if job is None or not job.result or not job.result.get("verified"):
            return None
        if job.svg is None:
            puzzle = get(job.puzzle)
            instance = puzzle.parse(job.instance)
            job.svg = puzzle.render_svg(instance, Result.from_dict(job.result))
        return job.svg

    @property
    def load(self) -> dict[str, int]:
        """Jobs waiting and running, the queue's bound, and the jobs held in memory."""
        with self._lock:
            states = [j.state for j in self._jobs.values()]
        counts = {s: states.count(s) for s in ("queued", "running")}
        return {**counts, "max_queued": self.capacity.max_queued, "jobs_in_memory": len(states)}

    # ------------------------------------------------------------ the runner thread
    def _loop(self) -> None:
        """The runner thread: hand commands to the pool, turn its events into job
        states. An unexpected error is logged and the loop goes on (a dead runner
        thread would leave every later job queued for ever)."""
        tickets: dict[int, str] = {}
        by_job: dict[str, int] = {}
        try:
            self._pool.warm()  # in this thread: the HTTP server is up meanwhile; jobs queue
        except (OSError, EOFError) as exc:  # e.g. the forkserver killed while it started them
            log.warning("job runner: the worker processes could not all be started now (%s: %s); "
                        "they start when jobs need them", type(exc).__name__, exc)
        while not self._stopping.is_set():
            try:
                self._take_commands(tickets, by_job)
                self._take_events(tickets, by_job)
            except Exception:  # noqa: BLE001 - keep running jobs; say loudly what broke
                log.exception("job runner: unexpected error (please report); going on")
                time.sleep(0.1)
            self._save()

    def _take_commands(self, tickets: dict[int, str], by_job: dict[str, int]) -> None:
        while True:
            try:
                command, job_id = self._commands.get_nowait()
            except queue.Empty:
                return
            job = self.get(job_id)
            if job is None or job.finished_state:
                continue
            if command == "submit":
                task = Task(run_job, (job.puzzle, job.instance, job.method, job.options, job.seed), name=job.id, context=True,
                            kwargs={"processes": self.capacity.job_processes})
                ticket = self._pool.submit(task, seconds=job.budget)
                tickets[ticket], by_job[job_id] = job_id, ticket
            elif command == "cancel" and job_id in by_job:
                self._pool.cancel(by_job[job_id])

    def _take_events(self, tickets: dict[int, str], by_job: dict[str, int]) -> None:
        for event in self._pool.events(0.1):
            job_id = tickets.get(event.ticket)
            job = self.get(job_id) if job_id else None
            if job is None:
                continue
            if event.kind == "started":
                with self._lock:
                    job.started = time.time()
                    self._set_state(job, "running")
            elif event.kind == "interim":
                self._interim(job, event.value)
            elif event.kind == "done":
                tickets.pop(event.ticket, None)
                by_job.pop(job_id, None)
                try:
                    self._finish(job, event.outcome)
                except Exception as exc:  # noqa: BLE001 - the job fails, the runner goes on
                    log.exception("job %s: its outcome could not be handled", job.id)
                    with self._lock:
                        self._set_state(job, "failed", error=f"internal error (please report): {type(exc).__name__}: {exc}")

    def _interim(self, job: Job, value: Any) -> None:
        with self._lock:
            if isinstance(value, dict) and "pid" in value:
                job.worker_pid = int(value["pid"])
                job.events.append({"type": "state", "state": job.state, "job": job.to_dict()})
            elif isinstance(value, dict) and "progress" in value:
                job.progress = value["progress"]
                job.events.append({"type": "progress", "progress": job.progress})
                if isinstance(job.progress, dict):
                    series = self._series.setdefault(job.id, Series())
                    series.add(time.time() - (job.started or job.created), job.progress)

    def _finish(self, job: Job, outcome: Outcome) -> None:
        payload = outcome.value if outcome.ok and not outcome.interim else None
        if isinstance(payload, dict):
            self._accept(job, payload)
            return
        if outcome.error == "cancelled":
            state, error = "cancelled", "cancelled at the user's request"
        else:
            state, error = "failed", self._failure(job, outcome)
            if outcome.error.startswith("worker died"):
                log.warning("job %s: its worker process %s died (%s); the job failed, a fresh worker takes the next one",
                            job.id, job.worker_pid, outcome.error.removeprefix("worker died ").strip("()"))
        with self._lock:
            self._set_state(job, state, error=error)

    def _failure(self, job: Job, outcome: Outcome) -> str:
        """Why a job gave no answer, in words ('out of memory: ...' for a job over its
        memory limit, however it was stopped)."""
        limit = "" if self.memory_bytes is None else format_bytes(self.memory_bytes)
        if outcome.error == "deadline":
            return f"the solver did not return within its budget of {job.budget:g} s (+{self.grace + GRACE_SHARE * job.budget:g} s grace) and was stopped"
        if outcome.error == "memory":
            return f"out of memory: the job's processes held more than its limit of {limit} and were stopped"
        if outcome.error.startswith("worker died"):
            return f"the worker process running this job died ({outcome.error})"
        reason = Failure(outcome.index, outcome.name, outcome.error).reason
        kind, _, message = reason.partition(": ")
        if kind.rpartition(".")[2].endswith("MemoryError"):  # numpy raises its own subclass
            return f"out of memory: the job asked for more than its limit of {limit} ({message or 'MemoryError'})" if limit else f"out of memory ({message})"
        if kind.rpartition(".")[2] == "InvalidInstance":
            return message  # the solver refused the input (e.g. more memory than allowed): its own words
        return reason

    def _accept(self, job: Job, payload: dict[str, Any]) -> None:
        """A job's answer, re-verified here and stored (`core.parallel.accept`)."""
        try:
            puzzle = get(job.puzzle)
            instance = puzzle.parse(job.instance)
            result = accept(puzzle, Answer(job.instance_key, instance, Result.from_dict(payload)), self.store)
            report = plain(puzzle.report(instance, result))
        except WrongAnswer as exc:
            with self._lock:
                self._set_state(job, "failed", error=f"internal error: {exc}")
            return
        except Exception as exc:  # noqa: BLE001 - a store or render failure fails the job, not the service
            with self._lock:
                self._set_state(job, "failed", error=f"{type(exc).__name__}: {exc}")
            return
        with self._lock:
            job.result = report
            self._set_state(job, "done")

    def _set_state(self, job: Job, state: str, error: str = "") -> None:
        """Change a job's state (the caller holds the lock) and record the event; the
        row is written by `_save`, outside the lock, so readers never wait on disk."""
        job.state = state
        if error:
            job.error = error
        if state in FINAL_STATES:
            job.finished = time.time()
        job.events.append({"type": "done" if state in FINAL_STATES else "state", "state": state, "job": job.to_dict()})
        result = json.dumps(job.result, default=_json_default) if job.result else None
        self._unsaved[job.id] = (state, job.started, job.finished, result, job.error, job.id)

    def progress_points(self, job_id: str) -> list[list[Any]]:
        """A job's progress points [seconds, phase, {figure: value}] (service.progress_log),
        from memory while it runs, else from the job_progress table."""
        with self._lock:
            series = self._series.get(job_id)
            if series is not None:
                return list(series.points)
        with self.store.connect() as db:
            row = db.execute("SELECT points FROM job_progress WHERE job_id = ?", (job_id,)).fetchone()
        return [] if row is None else Series.from_json(row[0]).points

    def _series_rows(self) -> list[tuple[str, str]]:
        """The progress series to write now (the caller holds the lock): those changed
        and not written for SAVE_SECONDS, and those of finished jobs (then dropped from
        memory: the table has them)."""
        now, rows = time.monotonic(), []
        for job_id, series in list(self._series.items()):
            job = self._jobs.get(job_id)
            finished = job is None or job.finished_state
            if series.dirty and (finished or now - series.saved_at >= SAVE_SECONDS):
                rows.append((job_id, series.to_json()))
                series.saved_at, series.dirty = now, False
            if finished and not series.dirty:
                del self._series[job_id]
        return rows

    def _save(self) -> None:
        """Write the jobs whose state changed since the last call, and their progress
        series when due."""
        with self._lock:
            rows, self._unsaved = list(self._unsaved.values()), {}
            series = self._series_rows()
        if not rows and not series:
            return
        try:
            with self.store.connect() as db:
                db.executemany("UPDATE jobs SET state = ?, started = ?, finished = ?, result = ?, error = ? WHERE id = ?", rows)
                db.executemany("INSERT OR REPLACE INTO job_progress (job_id, points) VALUES (?, ?)", series)
        except Exception as exc:  # noqa: BLE001 - keep serving; say loudly what was not saved
            log.error("jobs %s not saved to %s: %s", [r[-1] for r in rows] + [r[0] for r in series], self.store.path, exc)
            with self._lock:
                self._pinned.update(r[-1] for r in rows if r[0] in FINAL_STATES)  # the table is behind: memory answers
            return
        self._forget_finished()

    def _forget_finished(self) -> None:
        """Drop from memory the oldest finished jobs past `finished_kept`, once written
        (the jobs table answers for them from now on)."""
        with self._lock:
            for job_id in finished_to_forget(self._jobs, self.capacity.finished_kept, set(self._unsaved) | self._pinned):
                del self._jobs[job_id]
