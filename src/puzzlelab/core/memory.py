"""How much memory work may take (refuse up front, with the figure, what cannot
fit, instead of dying with MemoryError or taking the machine).

The one place that asks the system: the machine's memory (or its container's, cgroup v2
`memory.max`, when lower), what is available now (Linux's MemAvailable, or the
container's limit less its use), and a run's own bound: the one a `Budget` states
(`Budget.memory_bytes`: the service's per-job limit, the CLI's `--memory-mb`), else
half of the machine's memory, so that no option of one run, at its documented
maximum, takes the whole machine. Each puzzle estimates what its method needs and
compares it with these figures before it allocates.
"""

from __future__ import annotations

import os
from typing import Any

from puzzlelab.core.errors import InvalidInstance

__all__ = ["DEFAULT_SHARE", "machine_memory", "machine_available", "share_of_machine", "available_to", "format_bytes", "require_memory",
           "peak_memory_bytes"]

_FALLBACK = 8 * 10**9  # where the system says nothing
# Of the machine's memory, what one run may take when nothing states a bound (the
# tiling and matchsticks limits take the same share).
DEFAULT_SHARE = 0.5


def _read(path: str) -> str | None:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return None


def _cgroup_limit() -> int | None:
    text = (_read("/sys/fs/cgroup/memory.max") or "").strip()
    return int(text) if text.isdigit() else None


def machine_memory() -> int:
    """Bytes of memory this process may count on in all: the machine's, or its
    container's when lower."""
    try:
        total = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not a POSIX system
        total = _FALLBACK
    limit = _cgroup_limit()
    return total if limit is None else min(total, limit)


def machine_available() -> int:
    """Bytes a new allocation can count on now."""
    figures = []
    for line in (_read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemAvailable:") and line.split()[1].isdigit():
            figures.append(int(line.split()[1]) * 1024)
    limit, used = _cgroup_limit(), (_read("/sys/fs/cgroup/memory.current") or "").strip()
    if limit is not None and used.isdigit():
        figures.append(max(0, limit - int(used)))
    if not figures:
        try:
            figures = [int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_AVPHYS_PAGES"))]
        except (AttributeError, ValueError, OSError):  # pragma: no cover - not a POSIX system
            figures = [_FALLBACK]
    return min(figures)


def share_of_machine(budget: Any, share: float) -> int:
    """The budget's memory bound when it states one, else `share` of the machine's."""
    bound = getattr(budget, "memory_bytes", None)
    return int(bound) if bound else int(machine_memory() * share)


def available_to(budget: Any = None) -> tuple[int, str]:
    """(bytes, what they are) one run may take: the budget's bound where it states one
    (the service's job limit, the CLI's --memory-mb), else DEFAULT_SHARE of the
    machine's memory; never more than is available now. `what` says which, for a
    message: 'allowed', 'allowed (half of this machine's memory)' or 'available'."""
    bound = getattr(budget, "memory_bytes", None)
    allowed, kind = (int(bound), "allowed") if bound else (int(machine_memory() * DEFAULT_SHARE), "allowed (half of this machine's memory)")
    available = machine_available()
    return (allowed, kind) if allowed <= available else (available, "available")


def peak_memory_bytes() -> int | None:
    """This process's peak resident memory so far (Linux reports kB; None where the
    system has no figure), for the provenance of long runs."""
    try:
        import resource
    except ImportError:
        return None
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def format_bytes(nbytes: float) -> str:
    """A memory figure for a person: '512 MB', '6.1 GB', '110 GB' (decimal units)."""
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= size:
            value = nbytes / size
            return f"{value:.1f} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{int(nbytes)} bytes"


def require_memory(nbytes: float, what: str, budget: Any = None, field: str = "instance") -> None:
    """InvalidInstance (413, as for an instance over the size limits) saying what needs
    how much, when `nbytes` does not fit `available_to(budget)`, e.g. 'beam width
    10000000 on order 27: needs 17.3 GB, more than the 4.0 GB allowed'."""
    allowed, kind = available_to(budget)
    if nbytes > allowed:
        raise InvalidInstance(f"{what}: needs {format_bytes(nbytes)}, more than the {format_bytes(allowed)} {kind}", field, 413)
