"""Ctrl-C for long commands: the work runs in a thread, the main thread waits for it and
turns each Ctrl-C into a call (cancel the budget, so the solver returns its best so far;
a second one gives up).

While the work runs, SIGINT gets a handler that only counts: a KeyboardInterrupt raised
asynchronously in the main thread can leave a threading primitive broken. On CPython
3.9-3.11 one landing inside Thread.join() marks the running thread as finished
(python/cpython#90882), so the command read no result or quit while its worker process
ran on; one landing inside Event.wait() can leave the condition's lock held, and both
threads then wait forever. The count is read, and the calls made, between waits.
"""

from __future__ import annotations

import signal
import threading
from typing import Any, Callable, TypeVar

__all__ = ["run_in_thread"]

T = TypeVar("T")


def run_in_thread(work: Callable[[], T], on_interrupt: Callable[[int], None]) -> T:
    """work() in a daemon thread; the n-th Ctrl-C meanwhile calls on_interrupt(n) (in
    the main thread, between waits), which may raise to give up. Returns work's value
    or raises its exception. Outside the main thread no handler can be installed and
    Ctrl-C is not watched."""
    box: dict[str, Any] = {}
    done = threading.Event()
    pending: list[int] = []

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
            box["error"] = exc
        finally:
            done.set()

    watching = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: pending.append(1)) if watching else None
    try:
        threading.Thread(target=target, daemon=True).start()
        interrupts = 0
        while not done.wait(0.2):
            while pending:
                pending.pop()
                interrupts += 1
                on_interrupt(interrupts)
    finally:
        if watching:
            signal.signal(signal.SIGINT, previous)
    if "error" in box:
        raise box["error"]
    return box["value"]
