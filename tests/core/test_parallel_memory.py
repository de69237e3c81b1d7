"""Memory limits of worker processes: a task over its limit fails (MemoryError
in the worker, or the pool stops its process group), the pool goes on, the task's
Budget carries the bound, and threads are not refused (RLIMIT_DATA, not RLIMIT_AS)."""

import mmap
import multiprocessing as mp
import os
import pickle
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.parallel import Task, WorkerPool, machine_memory
from puzzlelab.core.parallel.memory import group_memory, process_memory
from puzzlelab.core.result import Budget, format_bytes


def _vm_data() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmData:"):
            return int(line.split()[1]) * 1024
    return 200 * 1024**2


def limit_now() -> int:
    """A worker's limit: what this process holds now plus 1 GB. The workers fork from
    it and start with what it holds when they fork, so it is taken when a test starts,
    not when the module is imported (the process grows as the suite runs)."""
    return _vm_data() + 1024**3

linux = pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="memory limits are enforced on Linux")


def allocate(nbytes, *, budget, interim):
    return float(np.ones(int(nbytes) // 8).sum())


def bound_of_budget(*, budget, interim):
    return budget.memory_bytes


def many_threads(count):
    workers = [threading.Thread(target=time.sleep, args=(0.1,)) for _ in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return count


def _hold(nbytes):
    """Hold `nbytes` of shared anonymous memory, touched (resident). RLIMIT_DATA counts
    only private memory, so no child can fail to allocate, however much the worker it
    forked from holds already: only the watcher of the process group can stop them."""
    block = mmap.mmap(-1, nbytes)  # MAP_SHARED | MAP_ANONYMOUS: counted as Pss_Shmem
    for offset in range(0, nbytes, mmap.PAGESIZE):
        block[offset] = 1
    time.sleep(60)
    block.close()


def children_holding(nbytes, count, *, budget, interim):
    ctx = mp.get_context("fork")
    children = [ctx.Process(target=_hold, args=(nbytes,)) for _ in range(count)]
    for child in children:
        child.start()
    for child in children:
        child.join()
    return "not reached"


def run(pool, task, seconds=60.0):
    ticket = pool.submit(task, seconds=seconds)
    deadline = time.monotonic() + seconds + 30
    while time.monotonic() < deadline:
        for event in pool.events(0.1):
            if event.kind == "done" and event.ticket == ticket:
                return event.outcome
    raise AssertionError("the task did not end")


@linux
def test_a_task_over_its_limit_fails_and_the_pool_goes_on():
    limit = limit_now()
    with WorkerPool(1, memory_bytes=limit, start="fork") as pool:
        failed = run(pool, Task(allocate, (64e9,), context=True))
        assert not failed.ok and "MemoryError" in failed.error.strip().splitlines()[-1]
        fits = run(pool, Task(allocate, (64e6,), context=True))
        assert fits.ok and fits.value == 8e6
        assert run(pool, Task(bound_of_budget, context=True)).value == limit
        assert run(pool, Task(many_threads, (64,))).value == 64


@linux
def test_processes_of_a_task_are_bounded_together():
    limit = limit_now()
    share = int(limit * 0.4)  # three children pass the limit together
    with WorkerPool(1, memory_bytes=limit, start="fork") as pool:
        started = time.monotonic()
        stopped = run(pool, Task(children_holding, (share, 3), context=True))
        assert not stopped.ok and stopped.error == "memory"
        assert time.monotonic() - started < 30
        assert run(pool, Task(allocate, (8e6,), context=True)).ok


def test_no_limit_by_default():
    with WorkerPool(1, start="fork") as pool:
        assert run(pool, Task(bound_of_budget, context=True)).value is None


def test_budget_memory_bound_travels_and_refuses_with_the_figure():
    budget = Budget(30, memory_bytes=2e9)
    again = pickle.loads(pickle.dumps(budget))
    assert again.memory_bytes == 2_000_000_000 and 29 < again.seconds_left() <= 30
    assert budget.sub(5).memory_bytes == 2_000_000_000 and Budget().memory_bytes is None
    with pytest.raises(InvalidInstance) as caught:
        again.require_memory(6.1e9, "tiling 1000x1000 by cpsat", "instance")
    assert caught.value.status == 413 and "needs 6.1 GB, more than the 2.0 GB allowed" in str(caught.value)
    assert budget.allows_memory(2e9) and not budget.allows_memory(2e9 + 1)
    for bad in (0, -1, float("nan")):
        with pytest.raises(ValueError):
            Budget(1, memory_bytes=bad)
    assert [format_bytes(n) for n in (512, 2e3, 512e6, 6.1e9, 250e9, 3e12)] == ["512 bytes", "2.0 kB", "512 MB", "6.1 GB", "250 GB", "3.0 TB"]


@linux
def test_memory_figures_of_this_machine():
    assert machine_memory() > 0
    mine = process_memory(os.getpid())
    assert mine is not None and mine > 0
    assert group_memory(os.getpid()) > 0
    assert process_memory(2**22 + 12345) is None  # no such process
