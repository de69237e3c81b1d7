"""One level of `bidir` (hash table) expanded by several threads at once.

Why: a 12-move 5 x 9 puzzle needs some 2.5 billion children generated and probed
(bench_coins_bidir59.py --balls): its time is CPU time on one core, and threads are
what the measurement points to. The frontier is cut into one contiguous part a thread;
every thread probes and inserts into the one table that both searches share
(bidir/hashset.py's layout), each into its own next-level buffer.

Races and why they do no harm. Only one side expands during a level, so every board a
thread may insert belongs to that side and that level; the other side's boards were
all written before the level began (the threads of the previous level were joined).
- An empty slot is claimed by a compare-and-swap of its key (core/atomics.py); a thread
  that loses the slot to another board probes on, one that loses it to the same board
  has found a duplicate.
- A slot whose key is set but whose level byte is not written yet is an insert of this
  level by another thread: a duplicate, never a meeting (a meeting is a board the
  other side holds, and its bytes are all written).
So each board of the level is inserted, and put in a next buffer, exactly once, and a
meeting is reported only for a board the other side holds: the levels are those of one
thread (the order of the frontier differs), and so are the optimum and its proof.
The table cannot grow while threads run: each thread gets a share of the room left,
and stops (TABLE_FULL) when it is used; the driver grows the table and goes on.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.atomics import atomic_add_i64, atomic_cas_u64
from puzzlelab.core.result import NODES, Result, should_stop
from puzzlelab.puzzles.coins.bidir.hashset import prefetch_slots
from puzzlelab.puzzles.coins.kernels import backward_moves, forward_moves
from puzzlelab.puzzles.coins.memory import doubled

__all__ = ["DONE", "MEET", "TABLE_FULL", "BUFFER_FULL", "STOPPED", "expand_hash_shared", "expand_on_threads"]

DONE, MEET, TABLE_FULL, BUFFER_FULL, STOPPED, HALTED = 0, 1, 2, 3, 4, 5
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # bidir/hashset.py's slot hash
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@numba.njit(cache=True, nogil=True, inline="always")
def _probe_shared(keys, marks, shift, board, side, level):
    """0: inserted (new), 1: this side has it (or is inserting it), 2: the other side
    has it (a meeting)."""
    cap_mask = np.uint64(keys.shape[0] - 1)
    slot = (board * _GOLDEN) >> shift
    other_shift = np.uint16(8 - 8 * side)
    while True:
        key = keys[slot]
        if key == _ZERO:
            key = atomic_cas_u64(keys, slot, _ZERO, board)
            if key == _ZERO:
                marks[slot] = np.uint16(level + 1) << np.uint16(8 * side)
                return 0
        if key == board:
            return 2 if (marks[slot] >> other_shift) & np.uint16(0xFF) else 1
        slot = (slot + _ONE) & cap_mask


@numba.njit(cache=True, nogil=True)
def expand_hash_shared(frontier, lo, hi, side, level, keys, marks, shift, quota, nxt, n_next, geo, control, reserve, halt, ahead=True):
    """bidir._expand_hash for a thread sharing the table: at most `quota` inserts; a
    thread that meets the other side sets halt[0], and the others stop (HALTED);
    `ahead` as there.
    Returns (position, n_next, inserted, status, parent, child)."""
    buf = np.empty(reserve, dtype=np.uint64)
    generated = 0
    inserted = 0
    for i in range(lo, hi):
        if inserted + reserve > quota:
            atomic_add_i64(control, NODES, generated)
            return i, n_next, inserted, TABLE_FULL, _ZERO, _ZERO
        if n_next + reserve > nxt.shape[0]:
            atomic_add_i64(control, NODES, generated)
            return i, n_next, inserted, BUFFER_FULL, _ZERO, _ZERO
        if (i & 255) == 0:
            if halt[0]:
                atomic_add_i64(control, NODES, generated)
                return i, n_next, inserted, HALTED, _ZERO, _ZERO
            if should_stop(control):
                atomic_add_i64(control, NODES, generated)
                return i, n_next, inserted, STOPPED, _ZERO, _ZERO
        board = frontier[i]
        n = forward_moves(board, geo, buf) if side == 0 else backward_moves(board, geo, buf)
        generated += n
        if ahead:
            prefetch_slots(keys, marks, shift, buf, n)
        for j in range(n):
            outcome = _probe_shared(keys, marks, shift, buf[j], side, level)
            if outcome == 2:
                halt[0] = 1
                atomic_add_i64(control, NODES, generated)
                return i, n_next, inserted, MEET, board, buf[j]
            if outcome == 0:
                inserted += 1
                nxt[n_next] = buf[j]
                n_next += 1
    atomic_add_i64(control, NODES, generated)
    return hi, n_next, inserted, DONE, _ZERO, _ZERO


class _Part:
    """A thread's share of the frontier: [position, hi) left, and its next buffer."""

    def __init__(self, lo: int, hi: int, size: int):
        self.position, self.hi = lo, hi
        self.nxt = np.empty(size, dtype=np.uint64)
        self.n_next = 0


def _buffers(parts: list[_Part]) -> int:
    return sum(p.nxt.nbytes for p in parts)


def _grow_table(search, parts: list[_Part]):
    if search.grow_table(*(p.nxt for p in parts)):
        return None
    return search.out_of_memory("the board table reached --memory-mb", None, search.memory(None) + _buffers(parts))


def _grow_buffer(search, part: _Part, parts: list[_Part]):
    """Double `part`'s buffer: the old and the new one are held at once, beside every
    other part's buffer."""
    held = search.memory(None) + _buffers(parts)
    if not search.fits(held + 2 * part.nxt.nbytes):
        return search.out_of_memory("the next frontier reached --memory-mb", None, held)
    part.nxt = doubled(part.nxt, part.n_next)
    return None


def _join(search, parts: list[_Part]):
    """The parts' boards as one array: the parts and the joined copy are held at once."""
    held = search.memory(None) + _buffers(parts)
    if not search.fits(held + 8 * sum(p.n_next for p in parts)):
        return search.out_of_memory("the next frontier reached --memory-mb", None, held)
    return np.concatenate([p.nxt[: p.n_next] for p in parts])


def expand_on_threads(search, side):
    """Expand `side`'s frontier on the search's pool (`search.threads` threads): (next
    level, its length, the meeting edge or None), or 'stopped' when the budget ends, or
    the search's out-of-memory Result when the table or a buffer cannot grow."""
    frontier, table, level, threads, pool = side.frontier, search.table, side.depth + 1, search.threads, search.pool
    cut = np.linspace(0, frontier.shape[0], threads + 1).astype(np.int64)
    room = search.buffer_room(threads)
    if room is None:
        return search.out_of_memory("the next frontier reached --memory-mb", None)
    parts = [_Part(int(cut[t]), int(cut[t + 1]), min(room, max(1024, 2 * int(cut[t + 1] - cut[t]) + search.reserve))) for t in range(threads)]
    halt = np.zeros(1, dtype=np.uint8)
    while any(p.position < p.hi for p in parts):
        running = [p for p in parts if p.position < p.hi]
        quota = (table.limit - table.size) // len(running)
        if quota <= search.reserve:
            refused = _grow_table(search, parts)
            if refused is not None:
                return refused
            continue

        def work(p: _Part):
            return expand_hash_shared(frontier, p.position, p.hi, side.index, level, table.keys, table.marks, table.shift, quota,
                                      p.nxt, p.n_next, search.geo, search.budget.control, search.reserve, halt)

        results = list(pool.map(work, running))
        for p, (position, n_next, inserted, _, _, _) in zip(running, results):
            p.position, p.n_next = position, n_next
            table.size += int(inserted)
        statuses = [r[3] for r in results]
        if MEET in statuses:
            _, _, _, _, parent, child = results[statuses.index(MEET)]
            nxt = _join(search, parts)
            return nxt if isinstance(nxt, Result) else (nxt, nxt.shape[0], (int(parent), int(child)))
        if STOPPED in statuses:
            return "stopped"
        for p, status in zip(running, statuses):
            refused = _grow_buffer(search, p, parts) if status == BUFFER_FULL else None
            if refused is not None:
                return refused
        if TABLE_FULL in statuses:
            refused = _grow_table(search, parts)
            if refused is not None:
                return refused
    nxt = _join(search, parts)
    return nxt if isinstance(nxt, Result) else (nxt, nxt.shape[0], None)
