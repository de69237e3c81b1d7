"""The CPU kernels of `bfs`'s level array (one byte per ranked board) that grow it
level by level (the driver-facing class: bfs/byte_array.py ; bfs/byte_store.py keeps the array in memory and on file).

Board r (its colex rank among the C(cells, coins) boards, core/rank.py) holds 0 while
unseen and level + 1 once reached; bytes past the last board hold PAD. Nothing else is
stored: no frontier list and no parent pointers (the seed write-up's layout). A level
is expanded by scanning the array for its byte, eight bytes at a time (a 64-rank block
with no match is skipped in eight word tests); a matching block is unranked once and
walked with Gosper's next-subset step.

Two ways to build level L + 1 (direction-optimising BFS, Beamer et al., SC 2012):
- push: every board at level L marks its unseen forward neighbours (about 75 a board
  on 5 x 7), testing and setting one seen bit a board. The bits (104 MB for 5 x 7) stay
  in the last-level cache where the 834 MB of levels cannot, so probing them directly,
  in generation order, beats sorting batches of children first (the `sorted` probe,
  kept for comparison; `direct` probes the level bytes);
- pull: every unseen board looks for a predecessor at level L, among one bit a board
  made for the level (frontier_bits), and stops at the first.
Pull pays for every unseen board, also the unreachable ones, but stops early; it wins
once the frontier is large next to the unseen boards (bfs/byte_bfs.py's PULL_RATIO). Measured
on 5 x 7 from font5x7:A with `bench_coins_bfs.py --compare` (CPU s): level 14, push
135, pull 139; level 18, push 45, pull 17. Before the bit probes: push with sorted
batches about 270 and pull 306 on level 14.

When mirrors or turns of the board fix the start (bfs/symmetry.py), only each orbit's
canonical board (the smallest mask) is stored and expanded: push replaces each child
by its smallest image (expand_push_bits), pull probes a frontier holding whole
orbits, and the other boards of every orbit hold IMAGE once pull begins (mark_images).
Counts weigh each board by its orbit; lookups go through the canonical member.

Everything that touches the array goes through `CpuLevelKernels` (bfs/byte_array.py), so a GPU backend
(a GPU port) can replace the kernels while the driver (bfs/byte_bfs.py), the file
format and the checkpoints stay the same.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.atomics import atomic_add_i64, atomic_or_u8
from puzzlelab.core.bits import ctz
from puzzlelab.core.rank import next_subset, rank, unrank
from puzzlelab.core.result import NODES, should_stop
from puzzlelab.puzzles.coins.bfs.symmetry import canonical, canonical_move_ranks, frame_workspace_njit, orbit_size, transform
from puzzlelab.puzzles.coins.kernels import (
    G_FULL,
    backward_moves,
    coin_rank_sums,
    forward_move_ranks,
    moved_rank,
    prefetch,
    support_masks,
)

PROBES = ("bits", "sorted", "direct")

PAD = 255
IMAGE = 254  # a board of an orbit that is not its canonical member (bfs/symmetry.py), marked before pull
BLOCK = 64  # ranks per scan block; the file length is a multiple of it
DIRTY_SHIFT = 20  # the kernels flag each 1 MiB chunk they write, for checkpoints
_LOW = np.uint64(0x0101010101010101)
_HIGH = np.uint64(0x8080808080808080)
_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_GATHER = np.uint64(0x0102040810204080)  # bytes' low bits -> one byte, byte b to bit b


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
def _boards_holding(levels, words, block, byte, n, k, total, masks, ranks):
    """The boards of `block` whose byte is `byte`, into masks and ranks (64 each);
    returns their number (0 at once when the block has none). For the kernels that
    visit each board once (symmetry passes, counts); the expanding kernels walk the
    block inline."""
    if not _block_has(words, block, np.uint64(byte) * _LOW):
        return 0
    r = block * 64
    end = min(r + 64, total)
    mask = unrank(r, n, k)
    count = 0
    while True:
        if levels[r] == byte:
            masks[count] = mask
            ranks[count] = r
            count += 1
        r += 1
        if r >= end:
            return count
        mask = next_subset(mask)


@numba.njit(cache=True, nogil=True, inline="always")
def _flag(dirty, index):
    """Flag the 1 MiB chunk of `index` as changed. Read first: the flags of a level
    fit in a few cache lines that every thread's marks hit, and a store, even of the
    same 1, would pull the line away from the other cores every time."""
    chunk = index >> DIRTY_SHIFT
    if dirty[chunk] == 0:
        dirty[chunk] = 1


@numba.njit(cache=True, nogil=True, inline="always")
def _mark_unseen(levels, dirty, ranks, count, new_byte):
    marked = 0
    for i in range(count):
        child = ranks[i]
        if levels[child] == 0:
            levels[child] = new_byte
            _flag(dirty, child)
            marked += 1
    return marked


@numba.njit(cache=True, nogil=True)
def expand_push_direct(levels, words, dirty, stored, n, k, total, geo, block_lo, block_hi, control, reserve):
    """expand_push probing each child's byte at once (no seen bits, no sorting).

    Children are ranked incrementally (kernels.forward_move_ranks) and software
    pipelined: a board's child bytes are prefetched, then the previous board's
    children are marked, so the cache misses of two boards overlap. Kept as the
    measured alternative (bench_coins_bfs.py --compare)."""
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
            atomic_add_i64(control, NODES, generated)
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
    atomic_add_i64(control, NODES, generated)
    return block_hi, expanded, marked


@numba.njit(cache=True, nogil=True, inline="always")
def _claim(child, seen, levels, dirty, new_byte):
    """Mark `child` with `new_byte` unless its seen bit is set; 1 when it was new."""
    bit = np.uint8(1) << np.uint8(child & 7)
    if seen[child >> 3] & bit:
        return 0
    seen[child >> 3] |= bit
    levels[child] = new_byte
    _flag(dirty, child)
    return 1


@numba.njit(cache=True, nogil=True, inline="always")
def _claim_shared(child, seen, levels, dirty, new_byte):
    """_claim for a child that another thread may claim at the same time (push): the
    seen bit is set by an atomic OR, and only the thread that turned it on marks the
    child and counts it (a plain |= could lose a bit another thread just set, and the
    child would be counted twice, or overwritten at a later level)."""
    bit = np.uint8(1) << np.uint8(child & 7)
    if seen[child >> 3] & bit:
        return 0
    if atomic_or_u8(seen, child >> 3, bit) & bit:
        return 0
    levels[child] = new_byte
    _flag(dirty, child)
    return 1


@numba.njit(cache=True, nogil=True)
def _probe_sorted(buf, fill, parted, starts, shift, seen, levels, dirty, new_byte):
    """Mark the unseen children among buf[:fill]: first a counting sort into buckets
    of neighbouring ranks, then the probes bucket by bucket, so each bucket's stretch
    of the seen bits (about 100 KB for 5 x 7) stays in cache while it is probed."""
    starts[:] = 0
    for i in range(fill):
        starts[(buf[i] >> shift) + 1] += 1
    for b in range(starts.shape[0] - 1):
        starts[b + 1] += starts[b]
    for i in range(fill):
        b = buf[i] >> shift
        parted[starts[b]] = buf[i]
        starts[b] += 1
    marked = 0
    for i in range(fill):
        marked += _claim(np.int64(parted[i]), seen, levels, dirty, new_byte)
    return marked


@numba.njit(cache=True, nogil=True)
def expand_push(levels, words, dirty, seen, stored, n, k, total, geo, block_lo, block_hi, control, reserve, buf, parted, starts, shift):
    """Blocks [block_lo, block_hi): every board whose byte is `stored` (level + 1)
    marks its unseen forward neighbours with stored + 1. Returns (block reached,
    boards expanded, boards marked); stops early when the budget says so.

    The children's ranks (kernels.forward_move_ranks, incremental) are collected in
    `buf` and probed in rank order against `seen`, one bit a board (104 MB for 5 x 7,
    not the 834 MB of levels): a sorted batch of 16 M probes touches each cache line
    of the bits several times, where probes in generation order miss on nearly every
    one. Only new boards write their level byte."""
    scratch = np.empty((3, 66), dtype=np.int64)
    pattern = np.uint64(stored) * _LOW
    new_byte = np.uint8(stored + 1)
    fill = 0
    expanded = 0
    marked = 0
    generated = 0
    for block in range(block_lo, block_hi):
        if (block & 1023) == 0 and should_stop(control):
            marked += _probe_sorted(buf, fill, parted, starts, shift, seen, levels, dirty, new_byte)
            atomic_add_i64(control, NODES, generated)
            return block, expanded, marked
        if not _block_has(words, block, pattern):
            continue
        r = block * 64
        end = min(r + 64, total)
        mask = unrank(r, n, k)
        while True:
            if levels[r] == stored:
                if fill + reserve > buf.shape[0]:
                    marked += _probe_sorted(buf, fill, parted, starts, shift, seen, levels, dirty, new_byte)
                    fill = 0
                count = forward_move_ranks(mask, r, geo, buf[fill:], scratch)
                fill += count
                generated += count
                expanded += 1
            r += 1
            if r >= end:
                break
            mask = next_subset(mask)
    marked += _probe_sorted(buf, fill, parted, starts, shift, seen, levels, dirty, new_byte)
    atomic_add_i64(control, NODES, generated)
    return block_hi, expanded, marked


@numba.njit(cache=True, nogil=True)
def expand_push_bits(levels, words, dirty, seen, stored, n, k, total, geo, perms, block_lo, block_hi, control, reserve):
    """expand_push testing and setting each child's seen bit at once, in the order the
    children are generated: no batch, no sort. The bits (one per board: 104 MB for
    5 x 7) stay in the last-level cache where the 834 MB of levels cannot, so a probe
    costs a few nanoseconds and the child's rank (kernels.forward_move_ranks) is most
    of the work. Measured on 5 x 7: 2.3-3x faster than the sorted batches
    (bench_coins_bfs.py --compare).

    With a stabilizer `perms` (bfs/symmetry.py) the array keeps one board per orbit: the
    boards expanded are all canonical, each child is replaced by its smallest image
    before it is probed (symmetry.canonical_move_ranks), so a start with one mirror
    generates half the children, and a new board counts for its whole orbit."""
    symmetric = perms.shape[0] > 0
    perms_all, frame_scratch, index, frame_board, frame_rank, safe, images = frame_workspace_njit(perms)
    row = np.empty(reserve, dtype=np.int64)
    masks = np.empty(reserve, dtype=np.uint64)
    scratch = np.empty((3, 66), dtype=np.int64)
    pattern = np.uint64(stored) * _LOW
    new_byte = np.uint8(stored + 1)
    expanded = 0
    marked = 0
    generated = 0
    for block in range(block_lo, block_hi):
        if (block & 1023) == 0 and should_stop(control):
            atomic_add_i64(control, NODES, generated)
            return block, expanded, marked
        if not _block_has(words, block, pattern):
            continue
        r = block * 64
        end = min(r + 64, total)
        mask = unrank(r, n, k)
        while True:
            if levels[r] == stored:
                if symmetric:
                    count = canonical_move_ranks(mask, r, geo, perms_all, frame_scratch, index, frame_board, frame_rank, safe, images, row, masks)
                    for i in range(count):
                        if _claim_shared(row[i], seen, levels, dirty, new_byte):
                            marked += orbit_size(masks[i], perms)
                else:
                    count = forward_move_ranks(mask, r, geo, row, scratch)
                    for i in range(count):
                        marked += _claim_shared(row[i], seen, levels, dirty, new_byte)
                generated += count
                expanded += 1
            r += 1
            if r >= end:
                break
            mask = next_subset(mask)
    atomic_add_i64(control, NODES, generated)
    return block_hi, expanded, marked


@numba.njit(cache=True, nogil=True)
def seen_bits(words, total, seen, block_lo, block_hi):
    """Rebuild the seen bits of blocks [block_lo, block_hi) from the levels (after a
    start or a resume): seen bit r = (levels[r] != 0), eight bytes at a time as in
    frontier_bits; no bit past the last board."""
    for w in range(block_lo * 8, min(block_hi * 8, seen.shape[0])):
        x = words[w]
        zero = ~(((x & _LOW7) + _LOW7) | x) & _HIGH
        bits = ~np.uint8(((zero >> np.uint64(7)) * _GATHER) >> np.uint64(56))
        if total - 8 * w < 8:
            bits &= np.uint8((1 << (total - 8 * w)) - 1)
        seen[w] = bits


@numba.njit(cache=True, nogil=True)
def frontier_bits(words, stored, front, block_lo, block_hi):
    """front bit r = (levels[r] == stored) over blocks [block_lo, block_hi): the boards
    being expanded, one bit each, so that pull's random probes read 104 MB (5 x 7)
    rather than 834 MB. Eight bytes at a time: the zero bytes of words ^ pattern, their
    high bits gathered by a multiply."""
    pattern = np.uint64(stored) * _LOW
    for w in range(block_lo * 8, block_hi * 8):
        x = words[w] ^ pattern
        zero = ~(((x & _LOW7) + _LOW7) | x) & _HIGH
        front[w] = np.uint8(((zero >> np.uint64(7)) * _GATHER) >> np.uint64(56))


@numba.njit(cache=True, nogil=True)
def mark_images(levels, words, dirty, seen, n, k, total, perms, block_lo, block_hi):
    """Give every unseen board of blocks [block_lo, block_hi) that is not its orbit's
    canonical member the byte IMAGE (once, before the first pull), so that pull skips
    it like a seen board, and skips whole blocks again once their canonical boards are
    reached, instead of testing the orbit of some 400 million boards (5 x 7, one
    mirror) at every level. Returns the boards marked."""
    masks = np.empty(BLOCK, dtype=np.uint64)
    ranks = np.empty(BLOCK, dtype=np.int64)
    marked = 0
    for block in range(block_lo, block_hi):
        for j in range(_boards_holding(levels, words, block, 0, n, k, total, masks, ranks)):
            if canonical(masks[j], perms) != masks[j]:
                marked += _claim(ranks[j], seen, levels, dirty, np.uint8(IMAGE))
    return marked


@numba.njit(cache=True, nogil=True)
def frontier_orbit_bits(levels, words, stored, n, k, total, perms, front, block_lo, block_hi):
    """Add to `front` (frontier_bits of `stored`, complete) the images under `perms` of
    the canonical boards it marks in blocks [block_lo, block_hi), so that pull finds a
    predecessor whichever member of its orbit it is. An image lands anywhere: its bit
    is set by an atomic OR, as other threads may be setting bits of the same byte."""
    masks = np.empty(BLOCK, dtype=np.uint64)
    ranks = np.empty(BLOCK, dtype=np.int64)
    for block in range(block_lo, block_hi):
        for j in range(_boards_holding(levels, words, block, stored, n, k, total, masks, ranks)):
            for f in range(perms.shape[0]):
                image = rank(transform(masks[j], perms, f))
                atomic_or_u8(front, image >> 3, np.uint8(1) << np.uint8(image & 7))


@numba.njit(cache=True, nogil=True, inline="always")
def _parent_in(front, board, board_rank, geo, scratch):
    """Whether a predecessor of `board` has its bit set in `front`, ranking the
    predecessors one at a time (kernels.moved_rank) up to the first hit; returns
    (found, predecessors ranked)."""
    ge2, _ = support_masks(board, geo)
    empty = ~board & geo[G_FULL]
    tried = 0
    for i in range(1, coin_rank_sums(board, scratch) + 1):
        if not (ge2 >> np.uint64(scratch[0, i])) & np.uint64(1):
            continue  # this coin could not have been the last one placed
        spots = empty
        while spots:
            q = np.int64(ctz(spots))
            spots &= spots - np.uint64(1)
            tried += 1
            parent = moved_rank(board, board_rank, i, q, scratch)
            if front[parent >> 3] & (np.uint8(1) << np.uint8(parent & 7)):
                return True, tried
    return False, tried


@numba.njit(cache=True, nogil=True)
def expand_pull(levels, words, dirty, seen, front, stored, n, k, total, geo, perms, block_lo, block_hi, control):
    """Blocks [block_lo, block_hi): every unseen board with a predecessor in `front`
    (frontier_bits of `stored`) gets stored + 1. Predecessors are ranked one at a time
    (kernels.moved_rank) and the search of a board stops at the first hit. With a
    stabilizer `perms` the boards that are not canonical must hold IMAGE already
    (mark_images), `front` holds the frontier's whole orbits, and a new board counts
    for its orbit. Returns (block reached, boards examined, boards marked)."""
    scratch = np.empty((3, 66), dtype=np.int64)
    new_byte = np.uint8(stored + 1)
    examined = 0
    marked = 0
    generated = 0
    zero = np.uint64(0)
    for block in range(block_lo, block_hi):
        if (block & 1023) == 0 and should_stop(control):
            atomic_add_i64(control, NODES, generated)
            return block, examined, marked
        if not _block_has(words, block, zero):
            continue
        r = block * 64
        end = min(r + 64, total)
        mask = unrank(r, n, k)
        while True:
            if levels[r] == 0:
                examined += 1
                found, tried = _parent_in(front, mask, r, geo, scratch)
                generated += tried
                if found and _claim(r, seen, levels, dirty, new_byte):
                    marked += orbit_size(mask, perms)
            r += 1
            if r >= end:
                break
            mask = next_subset(mask)
    atomic_add_i64(control, NODES, generated)
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
def byte_histogram(levels, total, block_lo, block_hi):
    """How many of the boards in blocks [block_lo, block_hi) hold each byte value."""
    out = np.zeros(256, dtype=np.int64)
    for r in range(block_lo * BLOCK, min(block_hi * BLOCK, total)):
        out[levels[r]] += 1
    return out


def fixed_boards(perms: np.ndarray, n: int, k: int) -> np.ndarray:
    """Every board of k coins on n cells that one of the symmetries `perms` maps onto
    itself: the unions of that symmetry's cycles holding k cells. Only these boards have
    an orbit smaller than the group (orbit-stabilizer: the orbit is the group's order
    over the stabilizer's), and they are few: 82,628 of the 834 million boards of 12
    coins on 5 x 7 under its mirror."""
    found: set[int] = set()
    for f in range(perms.shape[0]):
        cycles, seen = [], set()
        for cell in range(n):
            mask, size = 0, 0
            while cell not in seen:
                seen.add(cell)
                mask, size = mask | (1 << cell), size + 1
                cell = int(perms[f, cell])
            if size:
                cycles.append((mask, size))
        room = [sum(size for _, size in cycles[i:]) for i in range(len(cycles) + 1)]
        stack = [(0, 0, k)]
        while stack:
            i, mask, left = stack.pop()
            if left == 0:
                found.add(mask)
            elif i < len(cycles) and room[i] >= left:
                stack.append((i + 1, mask, left))
                if cycles[i][1] <= left:
                    stack.append((i + 1, mask | cycles[i][0], left - cycles[i][1]))
    return np.array(sorted(found), dtype=np.uint64)


@numba.njit(cache=True, nogil=True)
def count_orbits(levels, words, stored, n, k, total, perms, block_lo, block_hi):
    """How many boards the canonical boards holding `stored` in blocks [block_lo,
    block_hi) stand for, each counting for its whole orbit under `perms`."""
    masks = np.empty(BLOCK, dtype=np.uint64)
    ranks = np.empty(BLOCK, dtype=np.int64)
    count = 0
    for block in range(block_lo, block_hi):
        for j in range(_boards_holding(levels, words, block, stored, n, k, total, masks, ranks)):
            count += orbit_size(masks[j], perms)
    return count


@numba.njit(cache=True, nogil=True)
def level_histogram(levels):
    """How many boards hold each byte value (index 0: unseen; PAD included)."""
    hist = np.zeros(256, dtype=np.int64)
    for i in range(levels.shape[0]):
        hist[levels[i]] += 1
    return hist


@numba.njit(cache=True, nogil=True)
def path_back(levels, board, geo, reserve, perms):
    """From a reached board back to the start through predecessors one level lower each
    step (no parent pointers needed; a board's level is its canonical member's under
    `perms`). Returns the boards, board first, start last."""
    board = np.uint64(board)
    stored = np.int64(levels[rank(canonical(board, perms))])
    path = np.empty(max(stored, 1), dtype=np.uint64)
    buf = np.empty(reserve, dtype=np.uint64)
    path[0] = board
    length = 1
    while stored > 1:
        count = backward_moves(board, geo, buf)
        step = np.uint64(0)
        for i in range(count):
            if np.int64(levels[rank(canonical(buf[i], perms))]) == stored - 1:
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
def stored_level(levels, board, perms):
    return np.int64(levels[rank(canonical(np.uint64(board), perms))])
