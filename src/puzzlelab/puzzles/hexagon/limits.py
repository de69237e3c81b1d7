"""How much memory a hexagon search may take (issue 22: refuse up front, with the
figure, what cannot fit, instead of dying with MemoryError).

`memory_allowed(budget)` is the figure a search compares its own estimate with: the
budget's memory bound where it states one (`Budget.memory_bytes`, the service's
per-job limit), else the memory this machine has available now (Linux's MemAvailable,
or its container's limit less what the container already uses, when that is lower).
"""

from __future__ import annotations

import os
from typing import Any

from puzzlelab.core.errors import InvalidInstance

__all__ = ["memory_allowed", "format_bytes", "require_memory"]

_FALLBACK = 8 * 10**9  # where the system says nothing


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_available() -> int | None:
    try:
        with open("/sys/fs/cgroup/memory.max") as handle:
            limit = handle.read().strip()
        with open("/sys/fs/cgroup/memory.current") as handle:
            used = handle.read().strip()
    except OSError:
        return None
    if not (limit.isdigit() and used.isdigit()):
        return None
    return max(0, int(limit) - int(used))


def machine_available() -> int:
    """Bytes this process can still count on."""
    figures = [f for f in (_meminfo_available(), _cgroup_available()) if f is not None]
    if not figures:
        try:
            figures = [int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_AVPHYS_PAGES"))]
        except (AttributeError, ValueError, OSError):  # pragma: no cover - not a POSIX system
            figures = [_FALLBACK]
    return min(figures)


def memory_allowed(budget: Any = None) -> tuple[int, str]:
    """(bytes, 'allowed' or 'available'): the budget's bound, else the machine's."""
    bound = getattr(budget, "memory_bytes", None)
    if bound is not None:
        return int(bound), "allowed"
    return machine_available(), "available"


def format_bytes(nbytes: float) -> str:
    """A memory figure for a person: '512 MB', '110 GB' (decimal units)."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= size:
            value = nbytes / size
            return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{int(nbytes)} bytes"


def require_memory(nbytes: float, what: str, budget: Any = None, field: str = "instance") -> None:
    """InvalidInstance (413) saying what needs how much, when `nbytes` does not fit,
    e.g. 'beam width 10000000 on order 27: needs 110 GB, more than the 20 GB available'."""
    allowed, kind = memory_allowed(budget)
    if nbytes > allowed:
        raise InvalidInstance(f"{what}: needs {format_bytes(nbytes)}, more than the {format_bytes(allowed)} {kind}", field, 413)
