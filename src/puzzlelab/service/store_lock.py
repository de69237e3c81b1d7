"""One server per records store. Two servers on one store would each mark the other's
running jobs `interrupted` when they start, and neither would see the jobs the other
runs (each keeps its queue in its own memory). So `puzzlelab serve` holds an OS file
lock (flock) on a file next to the store for as long as it runs, and a second server
on the same store is refused with the pid of the one that holds it.

The lock goes with the process: however the server ends (Ctrl-C, SIGTERM, kill -9)
the system releases it, so a stale lock file never blocks a restart. The file holds
the holder's pid for the message only; the lock is what counts.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.store import StoreError

__all__ = ["LOCK_SUFFIX", "lock_path", "hold_store"]

LOCK_SUFFIX = ".serve-lock"


def lock_path(store_path: str | os.PathLike) -> Path:
    """The lock file of a store: beside it, the store's name plus LOCK_SUFFIX (links
    and relative names resolved, so every spelling of one store finds one lock)."""
    store = Path(store_path).expanduser().resolve()
    return store.with_name(store.name + LOCK_SUFFIX)


def _holder(handle: IO[str]) -> str:
    handle.seek(0)
    text = handle.read(32).strip()
    return f"pid {text}" if text.isdigit() else "pid not known yet"


def hold_store(store_path: str | os.PathLike) -> IO[str]:
    """Take the store's lock for this process and return the open lock file (keep it
    open: closing it releases the lock). InvalidInstance when another process holds
    it, naming the store and that process."""
    path = lock_path(store_path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="ascii")
    except OSError as exc:
        raise StoreError(f"records store {store_path}: cannot open its lock file {path} ({exc.strerror or exc})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(handle)
        handle.close()
        raise InvalidInstance(
            f"records store {Path(store_path).expanduser()}: already served by another puzzlelab serve ({holder}); "
            "stop that one, or give this server its own store (PUZZLELAB_DB)",
            "PUZZLELAB_DB",
        ) from None
    except OSError as exc:
        handle.close()
        raise StoreError(f"records store {store_path}: cannot lock {path} ({exc.strerror or exc})") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle
