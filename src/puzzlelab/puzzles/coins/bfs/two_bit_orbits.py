"""The two-bit engine's level kernel, faster, and over one board per orbit when a
mirror or a turn of the board fixes the start (bfs/symmetry.py).

Where a 5 x 9 level's time goes (benchmarks/profile_coins_twobit_level.py, on a slice of
a peak level): of about 560 ns a board (95 children), the children's masks and ranks
take 58%, the probes of their fields 30% (the same with every probe in the L2 cache:
prefetching hides the memory), the marks 8%, the scan and the unranking 5%. So the
work is the children's arithmetic, and the way to do less of it is to generate fewer
children:

- Orbits. When a symmetry s fixes the start, b and s(b) lie at the same distance, so
  the array keeps only each orbit's canonical member (the smallest mask): a child is
  replaced by its canonical image (symmetry.canonical_move_ranks: each image is the
  parent's image with two cells toggled, ranked incrementally in the winning frame)
  and only canonical ranks are ever marked, expanded and written to the level files.
  Every other rank stays unseen. A start fixed by the two mirrors and the half turn
  (font5x9 H, I, X) expands about a quarter of the boards, one fixed by one mirror
  about half. A level's `boards` count the orbits' members (orbit_size of each board
  newly marked), so the levels are those of the run that keeps every board. A child's
  canonical image costs arithmetic too (about 2x a plain child's for one mirror, 3x
  for three symmetries, symmetry.canonical_move_ranks), so the gain is less than the
  orbit size: benchmarks/bench_coins_twobit_fast.py measures it.

The marks are those of expand_shared (an atomic OR of the next code, counted only by
the thread whose OR found the field unseen; an atomic XOR turns the expanded board
old), so threads on disjoint word ranges give the one-thread level files."""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.atomics import atomic_add_i64, atomic_or_u8, atomic_xor_u8
from puzzlelab.core.bits import ctz
from puzzlelab.core.rank import next_subset, unrank
from puzzlelab.core.result import NODES, should_stop
from puzzlelab.puzzles.coins.bfs.symmetry import canonical_move_ranks, frame_workspace_njit, orbit_size, orbit_size_of
from puzzlelab.puzzles.coins.kernels import forward_move_ranks, prefetch

__all__ = ["expand_orbits", "orbit_weight_of_level"]

_FIELDS = np.uint64(0x5555555555555555)
_UNSEEN = np.uint8(0)
_OLD = np.uint8(1)


@numba.njit(cache=True, nogil=True, inline="always")
def _children(mask, board_rank, geo, perms, perms_all, scratch, index, frame_board, frame_rank, safe, images, ranks, masks):
    """The (canonical) children's ranks of one board into `ranks`, their masks into
    `masks` (orbits only); returns their number."""
    if perms.shape[0] == 0:
        return forward_move_ranks(mask, board_rank, geo, ranks, scratch)
    return canonical_move_ranks(mask, board_rank, geo, perms_all, scratch, index, frame_board, frame_rank, safe, images, ranks, masks)


@numba.njit(cache=True, nogil=True, inline="always")
def _mark(cells, ranks, masks, count, nxt, images, frames):
    """Mark children ranks[:count] with the code `nxt` where unseen; returns (boards newly
    marked, the members of their orbits)."""
    marked = 0
    weight = 0
    for i in range(count):
        child = ranks[i]
        shift = np.uint8(2 * (child & 3))
        if (cells[child >> 2] >> shift) & np.uint8(3) == _UNSEEN:
            before = atomic_or_u8(cells, child >> 2, nxt << shift)
            if (before >> shift) & np.uint8(3) == _UNSEEN:
                marked += 1
                weight += 1 if frames == 1 else orbit_size_of(masks[i], images, frames)
    return marked, weight


@numba.njit(cache=True, nogil=True)
def expand_orbits(cells, words, current, n, k, geo, perms, word_lo, word_hi, control, reserve, rank_offset, slice_mask):
    """Expand every board coded `current` in words [word_lo, word_hi) (32 boards a word)
    of an array holding canonical boards of the stabilizer `perms` (shape (t, 64);
    t = 0: every board): unseen canonical children get the other frontier code, each
    expanded board turns OLD. As in two_bit.expand_shared, a benchmark may hold a
    slice of ranks (board i is rank rank_offset + i, children folded by `& slice_mask`;
    real runs pass 0 and -1). Returns (word reached, expanded, marked, marked members)."""
    ranks = np.empty(reserve, dtype=np.int64)
    masks = np.empty(reserve, dtype=np.uint64)
    perms_all, scratch, index, frame_board, frame_rank, safe, images = frame_workspace_njit(perms)
    nxt = np.uint8(5 - current)
    flip = np.uint8(current ^ 1)
    pattern = np.uint64(current) * _FIELDS
    expanded = marked = weight = generated = 0
    for w in range(word_lo, word_hi):
        if (w & 4095) == 0 and should_stop(control):
            atomic_add_i64(control, NODES, generated)
            return w, expanded, marked, weight
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
            while at < field:
                mask = next_subset(mask)
                at += 1
            board = r + field
            count = _children(mask, board + rank_offset, geo, perms, perms_all, scratch, index, frame_board, frame_rank, safe, images, ranks, masks)
            generated += count
            if slice_mask >= 0:
                for i in range(count):
                    ranks[i] &= slice_mask
            for i in range(count):
                prefetch(cells, ranks[i] >> 2)
            got, members = _mark(cells, ranks, masks, count, nxt, images, perms.shape[0] + 1)
            marked += got
            weight += members
            atomic_xor_u8(cells, board >> 2, flip << np.uint8(2 * (board & 3)))
            expanded += 1
    atomic_add_i64(control, NODES, generated)
    return word_hi, expanded, marked, weight


@numba.njit(cache=True, nogil=True)
def orbit_weight_of_level(ranks, n, k, perms):
    """The members of the orbits of a level's canonical boards (given by their ranks):
    the level's size in the run that keeps every board."""
    total = 0
    for i in range(ranks.shape[0]):
        total += 1 if perms.shape[0] == 0 else orbit_size(unrank(ranks[i], n, k), perms)
    return total
