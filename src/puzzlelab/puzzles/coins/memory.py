"""How much memory a coins search may take: what the machine has available now, the
ceiling of every memory option (`bidir --memory-mb`, `bfs --max-memory-gb`), so that no
option lets a search allocate more than is there (refuse up front, with the
figure, what cannot fit); and how many cores it may run on (`bfs` threads)."""

from __future__ import annotations

import os

from puzzlelab.core.memory import machine_available as memory_available

__all__ = ["memory_available", "memory_limit", "cores_available"]


def cores_available() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's count)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def memory_limit(requested: int | None) -> tuple[int, str]:
    """(bytes a search may use, what set that figure): the requested bound, but never
    more than the memory available here."""
    available = memory_available()
    if requested is None or requested >= available:
        return available, "the memory available here"
    return max(0, requested), "the requested memory bound"
