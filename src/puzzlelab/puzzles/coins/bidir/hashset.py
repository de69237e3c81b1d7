"""A board table for bidirectional search: open addressing over uint64 board masks,
with one level byte per search direction.

Both searches share one table, so one probe answers the three questions asked of every
generated board: was it met by the other search (a meeting: the path is found), seen
already by this one (a duplicate), or new (insert it with its level). Storing the level
lets a path be rebuilt without parent pointers, by stepping to a neighbour whose level
is one lower (the seed write-up's trick, here on a hash table).

Layout: `keys[i]` is a board (0 = empty slot; a board has coins, so is never 0) and
`marks[i]` holds (forward level + 1) in its low byte and (backward level + 1) in its
high byte (0 = not reached from that side). Slot = Fibonacci hash (the high bits of
key * 2^64/phi), linear probing, load kept under `MAX_LOAD`. 10 bytes a slot.
"""

from __future__ import annotations

import shutil
import tempfile

import numba
import numpy as np

from puzzlelab.puzzles.coins.kernels import prefetch
from puzzlelab.puzzles.coins.memory import zeros_on_huge_pages

__all__ = ["BoardTable", "table_probe", "table_level", "prefetch_slots", "MAX_LOAD", "SLOT_BYTES", "SPILL_CHUNK"]

MAX_LOAD = 0.7
SLOT_BYTES = 10
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_ONE = np.uint64(1)


@numba.njit(cache=True, nogil=True, inline="always")
def table_probe(keys, marks, shift, board, side, level):
    """Look `board` up for search `side` (0 forward, 1 backward) at `level`.

    Returns (outcome, slot): outcome 0 = new board (a slot filled), 3 = new for this
    side only (mark added to the other side's slot -- only when meetings are not
    checked), 1 = already seen by this side, 2 = reached by the other side (unchanged;
    a meeting)."""
    cap_mask = np.uint64(keys.shape[0] - 1)
    slot = (board * _GOLDEN) >> shift
    own_shift = np.uint16(8 * side)
    other_shift = np.uint16(8 - 8 * side)
    while True:
        key = keys[slot]
        if key == board:
            mark = marks[slot]
            if (mark >> other_shift) & np.uint16(0xFF):
                return 2, slot
            if (mark >> own_shift) & np.uint16(0xFF):
                return 1, slot
            marks[slot] = mark | (np.uint16(level + 1) << own_shift)
            return 3, slot
        if key == 0:
            keys[slot] = board
            marks[slot] = np.uint16(level + 1) << own_shift
            return 0, slot
        slot = (slot + _ONE) & cap_mask


@numba.njit(cache=True, nogil=True, inline="always")
def prefetch_slots(keys, marks, shift, boards, n):
    """Ask for the first slot of each of boards[:n] before any is probed. A table of
    gigabytes misses every cache on each probe, and one board has some 95 children:
    asked for together, their misses overlap instead of following one another."""
    for j in range(n):
        slot = (boards[j] * _GOLDEN) >> shift
        prefetch(keys, slot)
        prefetch(marks, slot)


@numba.njit(cache=True, nogil=True)
def table_level(keys, marks, shift, board, side):
    """The level at which `side` reached `board`, or -1."""
    cap_mask = np.uint64(keys.shape[0] - 1)
    slot = (np.uint64(board) * _GOLDEN) >> shift
    while True:
        key = keys[slot]
        if key == board:
            return np.int64((marks[slot] >> np.uint16(8 * side)) & np.uint16(0xFF)) - 1
        if key == 0:
            return -1
        slot = (slot + _ONE) & cap_mask


@numba.njit(cache=True, nogil=True)
def _rehash(old_keys, old_marks, keys, marks, shift):
    cap_mask = np.uint64(keys.shape[0] - 1)
    for i in range(old_keys.shape[0]):
        key = old_keys[i]
        if key != 0:
            slot = (key * _GOLDEN) >> shift
            while keys[slot] != 0:
                slot = (slot + _ONE) & cap_mask
            keys[slot] = key
            marks[slot] = old_marks[i]


SPILL_CHUNK = 1 << 22  # slots read back at a time when a spilled table is rehashed (40 MB)


class BoardTable:
    """The growable table. `size` counts boards; `limit` is the most boards it may hold
    before it must grow; `grow()` doubles it (False when that would pass `max_bytes`).

    Doubling in memory holds the old and the new table at once (3x the old bytes). When
    that would pass `max_bytes` but the new table alone fits, the old one is spilled:
    written to a file in `spill_dir` (None: no spilling), freed, and read back a chunk at
    a time into the new table, so the peak is the new table plus one chunk and a bound
    of 8 GB can hold a 5.4 GB table instead of 2.7 GB. File reads go through
    the page cache, which the process does not hold."""

    def __init__(self, capacity_log2: int = 16, max_bytes: int | None = None, spill_dir: str | None = None):
        self.max_bytes = max_bytes
        self.spill_dir = spill_dir
        self.spills = 0
        self._allocate(capacity_log2)
        self.size = 0

    def _allocate(self, capacity_log2: int) -> None:
        self.capacity_log2 = capacity_log2
        self.keys = zeros_on_huge_pages(1 << capacity_log2, np.uint64)
        self.marks = zeros_on_huge_pages(1 << capacity_log2, np.uint16)
        self.shift = np.uint64(64 - capacity_log2)

    @property
    def capacity(self) -> int:
        return self.keys.shape[0]

    @property
    def limit(self) -> int:
        return int(MAX_LOAD * self.capacity)

    @property
    def nbytes(self) -> int:
        return self.capacity * SLOT_BYTES

    def can_grow(self, other_bytes: int = 0) -> bool:
        """Growing in memory holds the old and the doubled table at once: 3x the bytes,
        beside `other_bytes` the caller holds at the same time (frontiers, buffers)."""
        return self.max_bytes is None or 3 * self.nbytes + other_bytes <= self.max_bytes

    def can_spill(self, other_bytes: int = 0) -> bool:
        """Growing through a spill file holds the doubled table and one chunk, and needs
        the old table's bytes free on the spill folder's disk."""
        if self.spill_dir is None or self.max_bytes is None:
            return False
        chunk = min(self.capacity, SPILL_CHUNK) * SLOT_BYTES
        if 2 * self.nbytes + chunk + other_bytes > self.max_bytes:
            return False
        try:
            return shutil.disk_usage(self.spill_dir).free > 2 * self.nbytes
        except OSError:
            return False

    def grow(self, other_bytes: int = 0) -> bool:
        if self.can_grow(other_bytes):
            old_keys, old_marks = self.keys, self.marks
            self._allocate(self.capacity_log2 + 1)
            _rehash(old_keys, old_marks, self.keys, self.marks, self.shift)
            return True
        if self.can_spill(other_bytes):
            self._grow_through_file()
            return True
        return False

    def _grow_through_file(self) -> None:
        """Double the table with the old one on disk meanwhile (see the class docstring)."""
        capacity = self.capacity
        with tempfile.TemporaryFile(dir=self.spill_dir, prefix="puzzlelab-bidir-table-") as spill:
            self.keys.tofile(spill)
            self.marks.tofile(spill)
            spill.flush()
            del self.keys, self.marks
            self._allocate(self.capacity_log2 + 1)
            for start in range(0, capacity, SPILL_CHUNK):
                count = min(SPILL_CHUNK, capacity - start)
                spill.seek(start * 8)
                keys = np.fromfile(spill, dtype=np.uint64, count=count)
                spill.seek(capacity * 8 + start * 2)
                marks = np.fromfile(spill, dtype=np.uint16, count=count)
                _rehash(keys, marks, self.keys, self.marks, self.shift)
        self.spills += 1

    def level(self, board: int, side: int) -> int:
        return int(table_level(self.keys, self.marks, self.shift, np.uint64(board), side))
