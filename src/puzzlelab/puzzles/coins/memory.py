"""How much memory a coins search may take: what the machine has available now, the
ceiling of every memory option (`bidir --memory-mb`, `bfs --max-memory-gb`), so that no
option lets a search allocate more than is there (refuse up front, with the
figure, what cannot fit); buffers doubled without a third copy; how many cores it may run on (`bfs` threads); and zeroed
memory on huge pages for the arrays probed at random."""

from __future__ import annotations

import mmap
import os

import numpy as np

from puzzlelab.core.memory import machine_available as memory_available

__all__ = ["memory_available", "memory_limit", "cores_available", "doubled", "zeroed", "zeros_on_huge_pages"]


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


def doubled(buffer: np.ndarray, used: int) -> np.ndarray:
    """A buffer of twice the length holding buffer[:used]: the old and the new one are
    held at once and nothing else (np.concatenate with np.empty would add a third)."""
    grown = np.empty(2 * buffer.shape[0], dtype=buffer.dtype)
    grown[:used] = buffer[:used]
    return grown


def zeroed(nbytes: int, huge: bool = True) -> tuple[mmap.mmap, np.ndarray]:
    """Zeroed anonymous memory, advised to use huge pages (fewer TLB misses on the random
    probes, as bfs/byte_store.py's `ram`) unless `huge` is false."""
    buf = mmap.mmap(-1, max(nbytes, 1), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if huge and hasattr(mmap, "MADV_HUGEPAGE"):
        buf.madvise(mmap.MADV_HUGEPAGE)
    return buf, np.frombuffer(buf, dtype=np.uint8)[:nbytes]


HUGE_FROM = 4 << 20  # smaller arrays stay on numpy's own allocation


def zeros_on_huge_pages(count: int, dtype) -> np.ndarray:
    """np.zeros(count, dtype), on huge pages when it is large: a hash table of gigabytes
    probed at random takes a TLB miss on nearly every probe with 4 KB pages. The array
    keeps its mapping alive and unmaps it when freed."""
    nbytes = count * np.dtype(dtype).itemsize
    if nbytes < HUGE_FROM:
        return np.zeros(count, dtype=dtype)
    return zeroed(nbytes)[1].view(dtype)
