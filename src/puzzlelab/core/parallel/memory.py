"""Memory limits for worker processes (a job that asks for far too much ends
`failed: out of memory`, and the machine and the service that runs it stay up).

Two walls, measured on this project's solvers (numba kernels, OR-Tools CP-SAT with 8
threads, numpy, a pool of 64 Python threads) in forkserver workers like the service's:

- `limit_process_memory(nbytes)`: RLIMIT_DATA on the worker process, set before it
  runs a task and inherited by whatever it starts. Since Linux 4.7 it counts private
  writable memory (heap, anonymous maps, thread stacks) -- what a solver allocates --
  but neither address space that is only reserved (glibc reserves each thread's malloc
  arena without access rights) nor files mapped from disk. So an allocation past it
  fails at once with MemoryError (numpy: "Unable to allocate", numba: "Allocation
  failed") and the task reports it. RLIMIT_AS, which counts those reservations, already
  refused a 64-thread pool at 1 GB ("can't start new thread") that RLIMIT_DATA runs
  within 0.2 GB.
- `group_memory(pid)`: the memory of a worker's whole process group, for a watcher in
  the parent. The limit above holds per process; a job that starts worker processes of
  its own (a portfolio) could pass it together. Counted as proportional set size of
  anonymous and shared memory (`/proc/PID/smaps_rollup`), so pages still shared after
  a fork count once between the processes that share them.

Both are Linux facts; elsewhere the limit is not enforced (`limit_process_memory`
returns False, `group_memory` None).
"""

from __future__ import annotations

import os

from puzzlelab.core.memory import machine_memory

__all__ = ["machine_memory", "limit_process_memory", "group_memory", "process_memory"]


def limit_process_memory(nbytes: int) -> bool:
    """Limit this process's (and its future children's) private writable memory to
    `nbytes` (RLIMIT_DATA, soft and hard). False where it cannot be set."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a POSIX system
        return False
    kind = getattr(resource, "RLIMIT_DATA", None)
    if kind is None:  # pragma: no cover
        return False
    _, hard = resource.getrlimit(kind)
    limit = int(nbytes) if hard == resource.RLIM_INFINITY else min(int(nbytes), hard)
    try:
        resource.setrlimit(kind, (limit, limit))
    except (ValueError, OSError):  # pragma: no cover - refused by the OS
        return False
    return True


def process_memory(pid: int) -> int | None:
    """Bytes of anonymous and shared memory the process holds (proportional set size:
    a page shared by k processes counts 1/k); None when the process is gone or /proc
    does not say."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = {}
    for line in text.splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name.strip()] = int(parts[0]) * 1024
    if "Pss_Anon" in fields:
        return fields["Pss_Anon"] + fields.get("Pss_Shmem", 0)
    return fields.get("Pss")  # kernels before 5.7 do not split Pss


def _group_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            data = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = data.rpartition(")")[2].split()  # the name in parentheses may hold spaces
    return int(fields[2]) if len(fields) > 2 and fields[2].isdigit() else None


def group_memory(pid: int) -> int | None:
    """Memory (as `process_memory`) of every process in the group that `pid` leads, or
    of `pid` alone when it leads none; None where /proc is not there."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    members = [int(e) for e in entries if e.isdigit() and _group_of(int(e)) == pid]
    total = 0
    for member in members or [pid]:
        total += process_memory(member) or 0
    return total
