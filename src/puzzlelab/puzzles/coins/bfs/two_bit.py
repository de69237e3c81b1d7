"""A level array at two bits a board, for boards where one byte each does not fit
(5 x 9: C(45, 13) = 73 billion boards; 18.3 GB at two bits instead of 73 GB).

Why not "levels mod 3". Three codes plus "unseen" fill two bits, and in an undirected
graph they suffice (Cooperman and Finkelstein's two-bit BFS): a neighbour of a level-L
board sits at L - 1, L or L + 1. The coin move graph is directed (kernels.py): a
predecessor of a level-L board can sit at any level >= L - 1. Two things break:
scanning for code L mod 3 also finds every board of level L - 3, L - 6, ... and expands
it again (each board about (depth - level) / 3 + 1 times; bench_coins_twobit.py computes
the factor from the 5 x 7 level counts), and walking back from a target, a predecessor
with code (L - 1) mod 3 may sit at L + 2, so paths need backtracking.

What is done instead (Korf's two-bit BFS, "Minimizing disk I/O in two-bit breadth-first
search", AAAI 2008): the four values are unseen (0), old (1), and two frontier codes
that swap roles every level: boards of the current level carry `current`, boards found
for the next level `next`. A board is expanded exactly once and is relabelled old right
after, so once a level's scan ends no `current` is left and the codes swap with no
extra pass. Each level's boards (the ranks found in the scan, in increasing order) can
be written out as a level file; a path is rebuilt by stepping back into the previous level,
exactly as with the byte array.

The kernels below are the CPU version; like bfs/byte_array.py they keep the array a plain
numpy buffer that a GPU backend could own instead.
"""

from __future__ import annotations

import math
import time

import numba
import numpy as np

from puzzlelab.core.atomics import atomic_add_i64, atomic_or_u8, atomic_xor_u8
from puzzlelab.core.bits import ctz
from puzzlelab.core.bits import popcount as popcount_bits
from puzzlelab.core.rank import next_subset, rank, unrank
from puzzlelab.core.result import NODES, Budget, should_stop
from puzzlelab.puzzles.coins.kernels import backward_list, forward_move_ranks, geometry, max_moves, prefetch
from puzzlelab.puzzles.coins.model import boards_to_moves, popcount

__all__ = ["TwoBitBfs", "UNSEEN", "OLD", "expand_two_bit", "expand_shared", "two_bit_bytes"]

UNSEEN, OLD = 0, 1
_FIELDS = np.uint64(0x5555555555555555)  # the low bit of each 2-bit field


def two_bit_bytes(boards: int) -> int:
    """Bytes of a two-bit array over `boards` ranks, padded to whole 64-bit words."""
    return -(-boards // 32) * 8


@numba.njit(cache=True, nogil=True, inline="always")
def _get(cells, r):
    return (cells[r >> 2] >> np.uint8(2 * (r & 3))) & np.uint8(3)


@numba.njit(cache=True, nogil=True, inline="always")
def _set(cells, r, code):
    shift = np.uint8(2 * (r & 3))
    cells[r >> 2] = (cells[r >> 2] & ~(np.uint8(3) << shift)) | (np.uint8(code) << shift)


@numba.njit(cache=True, nogil=True)
def expand_two_bit(cells, words, current, n, k, total, geo, word_lo, word_hi, control, reserve, kept, kept_n, rank_offset, slice_mask):
    """Expand every board coded `current` in words [word_lo, word_hi) (32 boards a
    word): unseen forward neighbours get the other frontier code, then the board
    becomes OLD. Appends the expanded ranks to `kept` while it has room (kept_n
    counts them all). Real runs pass rank_offset 0 and slice_mask -1. A benchmark may
    hold only a slice of the ranks: board i of the array is rank rank_offset + i, and
    child ranks are folded into the slice by `& slice_mask` (probing an array of the
    slice's size at random, as the full array would be probed).
    Returns (word reached, expanded, marked, kept_n)."""
    ranks = np.empty(reserve, dtype=np.int64)
    scratch = np.empty((3, 66), dtype=np.int64)
    nxt = np.uint8(5 - current)  # 2 <-> 3
    pattern = np.uint64(current) * _FIELDS
    expanded = 0
    marked = 0
    generated = 0
    for w in range(word_lo, word_hi):
        if (w & 4095) == 0 and should_stop(control):
            control[NODES] += generated
            return w, expanded, marked, kept_n
        x = words[w] ^ pattern
        if ((~(x | (x >> np.uint64(1)))) & _FIELDS) == 0:
            continue  # no field of this word equals `current`
        r = w * 32
        end = min(r + 32, total)
        mask = unrank(r + rank_offset, n, k)
        while True:
            if _get(cells, r) == current:
                count = forward_move_ranks(mask, r + rank_offset, geo, ranks, scratch)
                generated += count
                if slice_mask >= 0:
                    for i in range(count):
                        ranks[i] &= slice_mask
                for i in range(count):
                    prefetch(cells, ranks[i] >> 2)
                for i in range(count):
                    child = ranks[i]
                    if _get(cells, child) == UNSEEN:
                        _set(cells, child, nxt)
                        marked += 1
                _set(cells, r, OLD)
                if kept_n < kept.shape[0]:
                    kept[kept_n] = r + rank_offset
                kept_n += 1
                expanded += 1
            r += 1
            if r >= end:
                break
            mask = next_subset(mask)
    control[NODES] += generated
    return word_hi, expanded, marked, kept_n


@numba.njit(cache=True, nogil=True)
def expand_shared(cells, words, current, n, k, total, geo, word_lo, word_hi, control, reserve, rank_offset, slice_mask):
    """expand_two_bit for threads running side by side on disjoint word ranges (the
    disk-backed engine, bfs/two_bit_bfs.py). A byte holds four boards, so a plain
    read-modify-write of one field can undo another thread's write to a neighbouring
    field. Instead: a child is marked by an atomic OR of the next code into its byte,
    and only the thread whose OR found the field still unseen counts it (a field that
    reads unseen can only have become `next` meanwhile, and next | next = next); an
    expanded board turns old by an atomic XOR of current ^ OLD into its own field
    (only its range's thread ever changes a `current` field). The scan reads its words
    while others OR into them: the `current` fields it looks for never change under it.
    Returns (word reached, expanded, marked); no level's ranks are kept (bfs/level_file.py encodes
    the level from the array afterwards)."""
    ranks = np.empty(reserve, dtype=np.int64)
    scratch = np.empty((3, 66), dtype=np.int64)
    nxt = np.uint8(5 - current)
    flip = np.uint8(current ^ OLD)
    pattern = np.uint64(current) * _FIELDS
    expanded = 0
    marked = 0
    generated = 0
    for w in range(word_lo, word_hi):
        if (w & 4095) == 0 and should_stop(control):
            atomic_add_i64(control, NODES, generated)
            return w, expanded, marked
        x = words[w] ^ pattern
        hits = (~(x | (x >> np.uint64(1)))) & _FIELDS
        if hits == 0:
            continue
        r = w * 32
        mask = unrank(r + rank_offset, n, k)
        at = 0
        while hits:
            field = np.int64(ctz(hits)) >> 1
            hits &= hits - np.uint64(1)
            while at < field:  # Gosper's step to the next board holding `current`
                mask = next_subset(mask)
                at += 1
            board = r + field
            count = forward_move_ranks(mask, board + rank_offset, geo, ranks, scratch)
            generated += count
            if slice_mask >= 0:
                for i in range(count):
                    ranks[i] &= slice_mask
            for i in range(count):
                prefetch(cells, ranks[i] >> 2)
            for i in range(count):
                child = ranks[i]
                shift = np.uint8(2 * (child & 3))
                if (cells[child >> 2] >> shift) & np.uint8(3) == UNSEEN:
                    before = atomic_or_u8(cells, child >> 2, nxt << shift)
                    if (before >> shift) & np.uint8(3) == UNSEEN:
                        marked += 1
            atomic_xor_u8(cells, board >> 2, flip << np.uint8(2 * (board & 3)))
            expanded += 1
    atomic_add_i64(control, NODES, generated)
    return word_hi, expanded, marked


@numba.njit(cache=True, nogil=True)
def _count_code(words, code):
    total = 0
    pattern = np.uint64(code) * _FIELDS
    for w in range(words.shape[0]):
        x = words[w] ^ pattern
        total += popcount_bits((~(x | (x >> np.uint64(1)))) & _FIELDS)
    return total


class TwoBitBfs:
    """An exact BFS from `start` at two bits a board, in memory, keeping each level's
    ranks (sorted) when `keep_levels` so paths can be rebuilt. For boards of the size
    of the tests and of 5 x 7; at 5 x 9 they would go to disk as level files, delta-coded."""

    def __init__(self, width: int, height: int, start: int, keep_levels: bool = True):
        self.width, self.height, self.start = width, height, start
        self.n = width * height
        self.k = popcount(start)
        self.total = math.comb(self.n, self.k)
        self.cells = np.zeros(two_bit_bytes(self.total), dtype=np.uint8)
        self.words = self.cells.view(np.uint64)
        self.geo = geometry(width, height)
        self.reserve = max_moves(self.n, self.k)
        self.keep_levels = keep_levels
        start_rank = int(rank(np.uint64(start)))
        self.cells[start_rank >> 2] |= np.uint8(2 << (2 * (start_rank & 3)))
        self.level_ranks: list[np.ndarray] = [np.array([start_rank], dtype=np.int64)]
        self.counts = [1]
        self.current = 2
        self.history: list[dict] = []

    def run(self, budget: Budget | None = None, max_level: int | None = None) -> list[int]:
        """Expand levels until none is left (or `max_level`); returns the level counts."""
        budget = budget or Budget()
        while self.counts[-1] and (max_level is None or len(self.counts) - 1 < max_level):
            started, cpu = time.perf_counter(), time.process_time()
            size = self.counts[-1] if self.keep_levels else 0
            kept = np.empty(size, dtype=np.int64)
            word, expanded, marked, got = expand_two_bit(
                self.cells, self.words, self.current, self.n, self.k, self.total, self.geo,
                0, self.words.shape[0], budget.control, self.reserve, kept, 0, 0, -1,
            )
            if word < self.words.shape[0]:
                raise TimeoutError("budget ended inside a level")
            if self.keep_levels:
                self.level_ranks[-1] = kept[:got]
            self.current = 5 - self.current
            self.counts.append(marked)
            self.history.append(
                {"level": len(self.counts) - 1, "boards": marked, "seconds": time.perf_counter() - started, "cpu_seconds": time.process_time() - cpu}
            )
            if self.keep_levels:
                self.level_ranks.append(np.empty(0, dtype=np.int64))
        if self.counts[-1] == 0:
            self.counts.pop()
            if self.keep_levels:
                self.level_ranks.pop()
        return list(self.counts)

    def level_of(self, board: int) -> int:
        """A board's level, from the levels' ranks (-1 when not reached)."""
        r = int(rank(np.uint64(board)))
        for level, kept in enumerate(self.level_ranks):
            i = np.searchsorted(kept, r)
            if i < kept.shape[0] and kept[i] == r:
                return level
        return -1

    def path(self, board: int) -> list[int]:
        """Start ... board, stepping back into the previous level each time."""
        level = self.level_of(board)
        if level < 0:
            raise ValueError("board not reached")
        boards = [board]
        while level > 0:
            before = self.level_ranks[level - 1]
            step = None
            for candidate in backward_list(np.uint64(board), self.geo, self.reserve):
                r = int(rank(np.uint64(candidate)))
                i = np.searchsorted(before, r)
                if i < before.shape[0] and before[i] == r:
                    step = int(candidate)
                    break
            if step is None:
                raise AssertionError("two-bit BFS: no predecessor in the previous level")
            board, level = step, level - 1
            boards.append(board)
        return boards[::-1]

    def moves(self, board: int) -> list[list[int]]:
        return boards_to_moves(self.path(board), self.width)

    def count_code(self, code: int) -> int:
        """Boards holding a code (for checks: OLD equals the boards expanded)."""
        return int(_count_code(self.words, code)) - (0 if code else (self.words.shape[0] * 32 - self.total))
