"""The level array of `bfs`: one byte per ranked board, in a file-backed memmap, and the
CPU kernels that grow it level by level.

Board r (its colex rank among the C(cells, coins) boards, core/rank.py) holds 0 while
unseen and level + 1 once reached; bytes past the last board hold PAD. Nothing else is
stored: no frontier list and no parent pointers (the seed write-up's layout). A level
is expanded by scanning the array for its byte, eight bytes at a time (a 64-rank block
with no match is skipped in eight word tests); a matching block is unranked once and
walked with Gosper's next-subset step.

Two ways to build level L + 1 (direction-optimising BFS, Beamer et al., SC 2012):
- push: every board at level L marks its unseen forward neighbours;
- pull: every unseen board looks for a predecessor at level L and stops at the first.
Pull wins when the frontier is large and most unseen boards have a parent in it.

Everything that touches the array goes through `CpuLevelKernels`, so a GPU backend
(the issue's moonshot) can replace the kernels while the driver (bfs.py), the file
format and the checkpoints stay the same.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.rank import next_subset, rank, unrank
from puzzlelab.core.result import NODES, should_stop
from puzzlelab.puzzles.coins.kernels import backward_moves, forward_move_ranks, prefetch

__all__ = ["PAD", "BLOCK", "DIRTY_SHIFT", "padded_length", "CpuLevelKernels"]

PAD = 255
BLOCK = 64  # ranks per scan block; the file length is a multiple of it
DIRTY_SHIFT = 20  # the kernels flag each 1 MiB chunk they write, for checkpoints
_LOW = np.uint64(0x0101010101010101)
_HIGH = np.uint64(0x8080808080808080)


def padded_length(boards: int) -> int:
    return -(-boards // BLOCK) * BLOCK


@numba.njit(cache=True, nogil=True, inline="always")
def _block_has(words, block, pattern):
    """True when one of the 64 bytes of `block` equals the byte repeated in `pattern`."""
    for j in range(8):
        x = words[block * 8 + j] ^ pattern
        if ((x - _LOW) & ~x & _HIGH) != 0:
            return True
    return False


@numba.njit(cache=True, nogil=True, inline="always")
def _mark_unseen(levels, dirty, ranks, count, new_byte):
    marked = 0
    for i in range(count):
        child = ranks[i]
        if levels[child] == 0:
            levels[child] = new_byte
            dirty[child >> DIRTY_SHIFT] = 1
            marked += 1
    return marked


@numba.njit(cache=True, nogil=True)
def expand_push(levels, words, dirty, stored, n, k, total, geo, block_lo, block_hi, control, reserve):
    """Blocks [block_lo, block_hi): every board whose byte is `stored` (level + 1)
    marks its unseen forward neighbours with stored + 1. Returns (block reached,
    boards expanded, boards marked); stops early when the budget says so.

    Children are ranked incrementally (kernels.forward_move_ranks) and software
    pipelined: a board's child bytes are prefetched, then the previous board's
    children are marked, so the cache misses of two boards overlap."""
    ranks = np.empty((2, reserve), dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    scratch = np.empty((3, 66), dtype=np.int64)
    pattern = np.uint64(stored) * _LOW
    new_byte = np.uint8(stored + 1)
    slot = 0
    expanded = 0
    marked = 0
    generated = 0
    for block in range(block_lo, block_hi):
        if (block & 1023) == 0 and should_stop(control):
            marked += _mark_unseen(levels, dirty, ranks[1 - slot], counts[1 - slot], new_byte)
            control[NODES] += generated
            return block, expanded, marked
        if not _block_has(words, block, pattern):
            continue
        r = block * 64
        end = min(r + 64, total)
        mask = unrank(r, n, k)
        while True:
            if levels[r] == stored:
                row = ranks[slot]
                count = forward_move_ranks(mask, r, geo, row, scratch)
                for i in range(count):
                    prefetch(levels, row[i])
                counts[slot] = count
                generated += count
                expanded += 1
                slot = 1 - slot
                marked += _mark_unseen(levels, dirty, ranks[slot], counts[slot], new_byte)
                counts[slot] = 0
            r += 1
            if r >= end:
                break
            mask = next_subset(mask)
    marked += _mark_unseen(levels, dirty, ranks[1 - slot], counts[1 - slot], new_byte)
    control[NODES] += generated
    return block_hi, expanded, marked


@numba.njit(cache=True, nogil=True)
def expand_pull(levels, words, dirty, stored, n, k, total, geo, block_lo, block_hi, control, reserve):
    """Blocks [block_lo, block_hi): every unseen board with a predecessor whose byte is
    `stored` gets stored + 1. Returns (block reached, boards examined, boards marked)."""
    buf = np.empty(reserve, dtype=np.uint64)
    new_byte = np.uint8(stored + 1)
    examined = 0
    marked = 0
    generated = 0
    zero = np.uint64(0)
    for block in range(block_lo, block_hi):
        if (block & 1023) == 0 and should_stop(control):
            control[NODES] += generated
            return block, examined, marked
        if not _block_has(words, block, zero):
            continue
        r = block * 64
        end = min(r + 64, total)
        mask = unrank(r, n, k)
        while True:
            if levels[r] == 0:
                examined += 1
                count = backward_moves(mask, geo, buf)
                for i in range(count):
                    generated += 1
                    if levels[rank(buf[i])] == stored:
                        levels[r] = new_byte
                        dirty[r >> DIRTY_SHIFT] = 1
                        marked += 1
                        break
            r += 1
            if r >= end:
                break
            mask = next_subset(mask)
    control[NODES] += generated
    return block_hi, examined, marked


@numba.njit(cache=True, nogil=True)
def count_bytes(words, stored, block_lo, block_hi):
    """How many of the bytes in blocks [block_lo, block_hi) equal `stored`."""
    total = 0
    target = np.uint8(stored)
    for w in range(block_lo * 8, block_hi * 8):
        x = words[w]
        for b in range(8):
            if np.uint8((x >> np.uint64(8 * b)) & np.uint64(0xFF)) == target:
                total += 1
    return total


@numba.njit(cache=True, nogil=True)
def level_histogram(levels):
    """How many boards hold each byte value (index 0: unseen; PAD included)."""
    hist = np.zeros(256, dtype=np.int64)
    for i in range(levels.shape[0]):
        hist[levels[i]] += 1
    return hist


@numba.njit(cache=True, nogil=True)
def path_back(levels, board, geo, reserve):
    """From a reached board back to the start through predecessors one level lower each
    step (no parent pointers needed). Returns the boards, board first, start last."""
    board = np.uint64(board)
    stored = np.int64(levels[rank(board)])
    path = np.empty(max(stored, 1), dtype=np.uint64)
    buf = np.empty(reserve, dtype=np.uint64)
    path[0] = board
    length = 1
    while stored > 1:
        count = backward_moves(board, geo, buf)
        step = np.uint64(0)
        for i in range(count):
            if np.int64(levels[rank(buf[i])]) == stored - 1:
                step = buf[i]
                break
        if step == 0:
            return path[:0]  # the array is inconsistent
        board = step
        stored -= 1
        path[length] = board
        length += 1
    return path[:length]


@numba.njit(cache=True, nogil=True)
def stored_level(levels, board):
    return np.int64(levels[rank(np.uint64(board))])


class CpuLevelKernels:
    """The kernels bfs.py calls on a level array (numpy array or memmap of uint8 whose
    length is a multiple of 64). A GPU backend would offer the same five methods."""

    name = "cpu"

    def __init__(self, levels: np.ndarray, dirty: np.ndarray, n: int, k: int, total: int, geo: np.ndarray, reserve: int):
        self.levels = levels
        self.dirty = dirty
        self.words = levels.view(np.uint64)
        self.n, self.k, self.total, self.geo, self.reserve = n, k, total, geo, reserve
        self.blocks = levels.shape[0] // BLOCK

    def push(self, stored: int, block_lo: int, block_hi: int, control: np.ndarray):
        return expand_push(self.levels, self.words, self.dirty, stored, self.n, self.k, self.total, self.geo, block_lo, block_hi, control, self.reserve)

    def pull(self, stored: int, block_lo: int, block_hi: int, control: np.ndarray):
        return expand_pull(self.levels, self.words, self.dirty, stored, self.n, self.k, self.total, self.geo, block_lo, block_hi, control, self.reserve)

    def count(self, stored: int) -> int:
        return int(count_bytes(self.words, stored, 0, self.blocks))

    def stored_level(self, board: int) -> int:
        return int(stored_level(self.levels, np.uint64(board)))

    def path_back(self, board: int) -> list[int]:
        return [int(b) for b in path_back(self.levels, np.uint64(board), self.geo, self.reserve)]
