"""Worker processes: batches, crashes, retries, deadlines with interim answers, and the
first-wins portfolio that terminates the losers."""

import os
import signal
import time

import numba
import pytest

from puzzlelab.core import parallel
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.parallel import Task
from puzzlelab.core.parallel.pool import start_method
from puzzlelab.core.result import Budget


def square(x):
    return x * x


def fail(x):
    raise ValueError(f"bad {x}")


def crash(x):
    os.kill(os.getpid(), signal.SIGKILL)


def crash_once(marker):
    """Dies the first time (leaving a marker file), succeeds when retried."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return "second try"


def sleep_then(seconds, value):
    time.sleep(seconds)
    return value


@numba.njit(cache=True)
def _busy_kernel(n):
    """A kernel that ignores every signal and budget: only termination stops it."""
    s = 0
    for i in range(n):
        s = (s * 31 + i) % 1000003
    return s


def stubborn():
    return _busy_kernel(10**13)


def polite(budget, interim):
    """Reports improving answers and returns its best when the budget ends. Like every
    solver it has a first answer before it looks at the clock: on a loaded machine the
    forks that start the pool can use up a 1.5 s batch budget before it runs."""
    best = 1
    interim(best)
    while not budget.expired():
        time.sleep(0.02)
        best += 1
        interim(best)
    return best


def deaf(budget, interim):
    interim("partial")
    _busy_kernel(10**13)


def test_map_keeps_order_and_reports_errors():
    outcomes = parallel.map(square, range(20), workers=2)
    assert [o.value for o in outcomes] == [x * x for x in range(20)]
    assert all(o.ok for o in outcomes)
    bad = parallel.map(fail, [1, 2], workers=2)
    assert not any(o.ok for o in bad) and "ValueError: bad 1" in bad[0].error


def test_crashed_worker_costs_one_task_not_the_batch():
    tasks = [Task(square, (3,)), Task(crash, (0,)), Task(square, (4,))]
    outcomes = sorted(parallel.run_tasks(tasks, workers=2), key=lambda o: o.index)
    assert [o.ok for o in outcomes] == [True, False, True]
    assert "worker died" in outcomes[1].error
    assert outcomes[0].value == 9 and outcomes[2].value == 16


def test_crashed_task_is_retried(tmp_path):
    outcomes = parallel.map(crash_once, [str(tmp_path / "m")], workers=1, retries=1)
    assert outcomes[0].ok and outcomes[0].value == "second try" and outcomes[0].attempts == 2


def test_deadline_terminates_deaf_kernels_and_keeps_interim():
    _busy_kernel(10)
    tasks = [Task(stubborn, name="stubborn"), Task(polite, context=True), Task(deaf, context=True)]
    started = time.monotonic()
    outcomes = sorted(parallel.run_tasks(tasks, workers=3, budget=Budget(1.5), grace=2.0), key=lambda o: o.index)
    assert time.monotonic() - started < 10
    assert not outcomes[0].ok and outcomes[0].error == "deadline"
    assert outcomes[1].ok and outcomes[1].value >= 1 and not outcomes[1].interim
    assert outcomes[2].ok and outcomes[2].interim and outcomes[2].value == "partial"


def test_tasks_not_started_before_the_deadline_are_reported():
    # 12 half-second tasks on one worker against a 4 s budget: the first ones finish and
    # the last ones are never started. The budget leaves room for the worker's fork,
    # which took over a second on a loaded CI machine (a 0.5 s budget failed there).
    outcomes = parallel.map(sleep_then, [(0.5, i) for i in range(12)], workers=1, budget=Budget(4.0))
    assert len(outcomes) == 12
    assert outcomes[0].ok and outcomes[0].value == 0
    assert not outcomes[-1].ok and outcomes[-1].error == "deadline"
    done = [o.ok for o in outcomes]
    assert done == sorted(done, reverse=True)  # one worker runs them in order: finished, then not


class _RecordingTasks:
    """A lazy task sequence that notes, as each task is built, how many outcomes the
    caller had seen by then (the matchsticks subtrees build their bound that way)."""

    def __init__(self, count, seen):
        self.count, self.seen, self.built_after = count, seen, []

    def __len__(self):
        return self.count

    def __getitem__(self, i):
        self.built_after.append(len(self.seen))
        return Task(sleep_then, (0.05, i))


def test_tasks_are_taken_as_workers_come_free():
    seen = []
    tasks = _RecordingTasks(8, seen)
    for outcome in parallel.run_tasks(tasks, workers=2):
        seen.append(outcome.value)
    assert sorted(seen) == list(range(8))
    # two in flight at first, then one more after each outcome the caller has seen
    assert tasks.built_after == [0, 0, 1, 2, 3, 4, 5, 6]


def test_tasks_not_taken_when_the_batch_stops_are_reported():
    outcomes = parallel.portfolio(
        [Task(sleep_then, (0.1, "proven"))] + [Task(sleep_then, (30, i)) for i in range(5)], is_final=lambda v: v == "proven", workers=2
    )
    assert len(outcomes) == 6 and outcomes[0].value == "proven"
    assert all(o.error == "cancelled" for o in outcomes[1:])


def test_portfolio_first_proven_answer_stops_the_rest():
    _busy_kernel(10)
    tasks = [Task(stubborn), Task(sleep_then, (0.2, "proven")), Task(stubborn)]
    started = time.monotonic()
    outcomes = parallel.portfolio(tasks, is_final=lambda v: v == "proven", workers=3)
    assert time.monotonic() - started < 5
    assert outcomes[1].value == "proven"
    assert [o.error for o in (outcomes[0], outcomes[2])] == ["cancelled", "cancelled"]


def test_cancel_from_budget_stops_the_batch():
    import threading

    budget = Budget()
    threading.Timer(0.3, budget.cancel).start()
    started = time.monotonic()
    outcomes = parallel.map(sleep_then, [(30, 1), (30, 2), (30, 3)], workers=2, budget=budget)
    assert time.monotonic() - started < 5
    assert all(o.error == "cancelled" for o in outcomes)


def test_no_worker_processes_are_left_behind():
    import multiprocessing

    parallel.map(square, range(8), workers=2)
    parallel.portfolio([Task(stubborn), Task(square, (2,))], is_final=lambda v: v == 4, workers=2)
    time.sleep(0.1)
    assert multiprocessing.active_children() == []


def test_worker_pool_queue_cancel_and_reuse():
    from puzzlelab.core.parallel import WorkerPool

    _busy_kernel(10)
    with WorkerPool(2) as pool:
        running = pool.submit(Task(stubborn))
        queued = [pool.submit(Task(square, (i,))) for i in range(5)]
        doomed = pool.submit(Task(sleep_then, (30, "never")))
        assert pool.cancel(doomed)
        done = {}
        deadline = time.monotonic() + 20
        while len(done) < 6 and time.monotonic() < deadline:
            for event in pool.events(0.1):
                if event.kind == "done":
                    done[event.ticket] = event.outcome
        assert done[doomed].error == "cancelled" and not done[doomed].ok
        assert [done[t].value for t in queued] == [0, 1, 4, 9, 16]
        assert pool.cancel(running) and not pool.cancel(running)
        events = pool.events(0.1)
        assert [e.outcome.error for e in events if e.kind == "done"] == ["cancelled"]
        again = pool.submit(Task(square, (7,)))
        result = None
        while result is None:
            result = next((e.outcome for e in pool.events(0.1) if e.kind == "done" and e.ticket == again), None)
        assert result.value == 49


@pytest.mark.parametrize("value", ["abc", "0", "-3", "1.5", "9" * 40])
def test_a_bad_worker_count_in_the_environment_is_a_named_error(monkeypatch, value):
    """Found by the CLI fuzzing: PUZZLELAB_WORKERS=abc was an internal error (exit 5)."""
    monkeypatch.setenv("PUZZLELAB_WORKERS", value)
    with pytest.raises(InvalidInstance, match="PUZZLELAB_WORKERS: expected"):
        parallel.default_workers()


def test_a_good_worker_count_in_the_environment_is_used(monkeypatch):
    monkeypatch.setenv("PUZZLELAB_WORKERS", " 3 ")
    assert parallel.default_workers() == 3


def test_an_unknown_start_method_in_the_environment_is_a_named_error(monkeypatch):
    monkeypatch.setenv("PUZZLELAB_MP_START", "nonsense")
    with pytest.raises(InvalidInstance, match="PUZZLELAB_MP_START: expected one of .*spawn"):
        start_method()
    monkeypatch.setenv("PUZZLELAB_MP_START", "spawn")
    assert start_method() == "spawn"
