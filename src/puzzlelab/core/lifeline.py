"""Child processes die with their parent, however the parent dies.

Ctrl-C reaches the whole foreground process group, and a parent that ends normally
closes its pool; but a SIGTERM or SIGKILL sent to the parent alone does neither, and
its workers ran on (orphans of a killed `solve --workers 64` held 6.6 GB for ten
minutes). So every process the project starts asks, first thing, for SIGKILL when its
parent goes: Linux's prctl(PR_SET_PDEATHSIG). A worker leads its own process group
and its task's processes ask the same of it, so a whole tree goes down together.

Two details of that call:
- The signal comes when the *thread* that started the child ends, not only the
  process. The project starts children from a thread that waits for them or closes
  them before it ends (a WorkerPool is driven from one thread; `subprocess.run` waits),
  so that thread always outlives them.
- A parent that died before the call gives no signal (the child is adopted already):
  the child compares its parent with the pid it was given and ends at once when the
  parent is gone.
- With forkserver (the web service) a worker's parent is the fork server, which runs
  on while any process it started lives (each holds its "alive" pipe): the fork server
  itself must end with the process that started it. `start_fork_server` puts
  `core.forkserver_lifeline` first in its preload, which asks the same signal for it,
  and starts it from a thread that lives as long as the process.

Elsewhere than Linux nothing is set (`die_with_parent` returns False).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading

__all__ = ["die_with_parent", "preexec_die_with_parent", "fork_server_preload", "start_fork_server", "PARENT_ENV", "FORK_SERVER_PARENT_ENV"]

PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_ENV = "PUZZLELAB_PARENT_PID"  # for a child that is a new program (python -m ...)
FORK_SERVER_PARENT_ENV = "PUZZLELAB_FORK_SERVER_PARENT"  # the process whose fork server ends with it
FORK_SERVER_LIFELINE = "puzzlelab.core.forkserver_lifeline"


def _prctl_deathsig(signum: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return False


def _alive(pid: int) -> bool:
    """Running: a parent that was killed but not yet reaped by its own parent is a
    zombie, and counts as gone (a child that armed its signal after that death would
    otherwise run on)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - alive, another user's
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().decode("ascii", "replace").rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def die_with_parent(parent_pid: int | None) -> bool:
    """In a child: SIGKILL this process when its parent ends. `parent_pid` is the pid
    of the process that started it (os.getpid() there, passed down); when the parent
    is gone already, the child exits at once (status 1). True where the signal is set."""
    armed = _prctl_deathsig(signal.SIGKILL)
    if parent_pid is not None and os.getppid() != parent_pid and not _alive(parent_pid):
        os._exit(1)
    return armed


def preexec_die_with_parent() -> None:
    """`subprocess.Popen(preexec_fn=...)` for a child program: the signal is kept across
    exec. Only from a process with no other threads (preexec_fn is unsafe with them);
    a child that is one of ours calls `die_with_parent` itself (see PARENT_ENV)."""
    _prctl_deathsig(signal.SIGKILL)


def fork_server_preload(modules: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The modules for `multiprocessing.set_forkserver_preload`, the lifeline first:
    the fork server this process starts (and so every worker it forks) then ends with
    this process. Call it in the process that will start the fork server, before it does."""
    os.environ[FORK_SERVER_PARENT_ENV] = str(os.getpid())
    return [FORK_SERVER_LIFELINE, *(m for m in modules if m != FORK_SERVER_LIFELINE)]


_keeper: threading.Thread | None = None


def start_fork_server(modules: list[str] | tuple[str, ...] = ()) -> None:
    """Preload `modules` (and the lifeline) in the fork server and start it now, from a
    thread that lives as long as this process: the fork server's parent-death signal
    comes with the thread that started it, and a request's or a runner's thread may end
    while other workers still need it. Returns at once; a first worker waits for it."""
    global _keeper
    import multiprocessing as mp
    from multiprocessing import forkserver

    mp.set_forkserver_preload(fork_server_preload(modules))
    if _keeper is None:

        def keep() -> None:
            forkserver.ensure_running()
            threading.Event().wait()  # the fork server's parent thread: never ends

        _keeper = threading.Thread(target=keep, name="puzzlelab-fork-server", daemon=True)
        _keeper.start()
