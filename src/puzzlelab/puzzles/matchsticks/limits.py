"""How much memory a matchsticks search may take (refuse up front, with the
figure, what cannot fit). The boards are a few words per row (n <= 63), so what grows
is the list of subtrees a split search plans (`--subtrees`, up to ten million): each a
list of squares in Python and in the checkpoint.

`memory_allowed(budget)` is the one figure compared with: the budget's memory bound
where it states one (`Budget.memory_bytes`, the service's per-job limit), else half of
this machine's memory."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.memory import format_bytes, share_of_machine

__all__ = ["MACHINE_SHARE", "PREFIX_BYTES_PER_SQUARE", "memory_allowed", "prefix_bytes", "format_bytes"]

MACHINE_SHARE = 0.5
# A planned subtree's prefix: a Python list of [size, x, y] lists (about 100 bytes a
# square, measured), its JSON in the checkpoint and the checkpoint's digest text.
PREFIX_BYTES_PER_SQUARE = 128
PREFIX_BYTES_BASE = 128


def memory_allowed(budget: Any = None) -> int:
    """Bytes one search may take: the budget's memory bound when it states one, else
    `MACHINE_SHARE` of the machine's memory (or its container's, when lower)."""
    return share_of_machine(budget, MACHINE_SHARE)


def prefix_bytes(depth: int) -> int:
    """Memory one planned subtree of `depth` placed squares takes."""
    return PREFIX_BYTES_BASE + PREFIX_BYTES_PER_SQUARE * depth
