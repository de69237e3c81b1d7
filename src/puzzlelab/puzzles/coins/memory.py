"""How much memory a coins search may take: what the machine has available now, the
ceiling of every memory option (`bidir --memory-mb`, `bfs --max-memory-gb`), so that no
option lets a search allocate more than is there (issue 22: refuse up front, with the
figure, what cannot fit)."""

from __future__ import annotations

from puzzlelab.core.memory import machine_available as memory_available

__all__ = ["memory_available", "memory_limit"]


def memory_limit(requested: int | None) -> tuple[int, str]:
    """(bytes a search may use, what set that figure): the requested bound, but never
    more than the memory available here."""
    available = memory_available()
    if requested is None or requested >= available:
        return available, "the memory available here"
    return max(0, requested), "the requested memory bound"
