"""How much memory a matchsticks search may take (issue 22: refuse up front, with the
figure, what cannot fit). The boards are a few words per row (n <= 63), so what grows
is the list of subtrees a split search plans (`--subtrees`, up to ten million): each a
list of squares in Python and in the checkpoint.

`memory_allowed(budget)` is the one figure compared with: the budget's memory bound
where it states one (`Budget.memory_bytes`, the service's per-job limit), else half of
this machine's memory."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["MACHINE_SHARE", "PREFIX_BYTES_PER_SQUARE", "memory_allowed", "prefix_bytes", "format_bytes"]

MACHINE_SHARE = 0.5
# A planned subtree's prefix: a Python list of [size, x, y] lists (about 100 bytes a
# square, measured), its JSON in the checkpoint and the checkpoint's digest text.
PREFIX_BYTES_PER_SQUARE = 128
PREFIX_BYTES_BASE = 128


def memory_allowed(budget: Any = None) -> int:
    """Bytes one search may take: the budget's memory bound when it states one, else
    `MACHINE_SHARE` of the machine's memory (or its container's, when lower)."""
    bound = getattr(budget, "memory_bytes", None)
    if bound:
        return int(bound)
    try:
        total = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not a POSIX system
        total = 8 * 10**9
    try:
        with open("/sys/fs/cgroup/memory.max") as handle:
            text = handle.read().strip()
        if text.isdigit():
            total = min(total, int(text))
    except OSError:
        pass
    return int(total * MACHINE_SHARE)


def prefix_bytes(depth: int) -> int:
    """Memory one planned subtree of `depth` placed squares takes."""
    return PREFIX_BYTES_BASE + PREFIX_BYTES_PER_SQUARE * depth


def format_bytes(nbytes: float) -> str:
    """A memory figure for a person: '512 MB', '6.1 GB' (decimal units)."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= size:
            value = nbytes / size
            return f"{value:.1f} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{int(nbytes)} bytes"
