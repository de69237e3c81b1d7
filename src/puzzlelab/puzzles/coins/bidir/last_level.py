"""The level a `bidir` search has no memory for: probed against the other side, never kept.

When the board table or the next frontier cannot grow (the memory bound), levels
0..f forward and 0..b backward are complete and no path of f + b moves or fewer exists.
One more level can still be asked about without storing it: every child of the smaller
side's frontier (level f, say forward) is looked up in the other side's levels, and
nothing is inserted. An optimal path of f + b + 1 moves has its board f + 1 at forward
distance f + 1 and backward distance b, a child of a board of the frontier held by
the other side, so the lookup finds it when it exists; when none is found, the optimum
is at least f + b + 2. The pass reads the table only, so it needs no memory beyond one
move buffer a thread, and threads share the frontier without any atomic but the
meeting flag. It costs about one more level's generation, under the same budget; a
pass the budget stops leaves the bound where the memory stop left it.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.atomics import atomic_add_i64
from puzzlelab.core.result import NODES, Progress, should_stop
from puzzlelab.puzzles.coins.bidir.hashset import prefetch_slots, table_level
from puzzlelab.puzzles.coins.kernels import backward_moves, forward_moves

__all__ = ["probe_children", "probe_last_level", "DONE", "MEET", "STOPPED", "HALTED"]

DONE, MEET, STOPPED, HALTED = 0, 1, 4, 5
CHUNK = 1 << 18  # frontier boards a thread probes between progress reports
_ZERO = np.uint64(0)


@numba.njit(cache=True, nogil=True)
def probe_children(frontier, lo, hi, side, keys, marks, shift, geo, control, reserve, halt):
    """Every child of frontier[lo:hi] (of `side`: 0 forward, 1 backward) looked up for
    the other side, nothing inserted: (position, status, parent, child), status MEET
    with the first child the other side holds (and halt[0] set for the other threads)."""
    buf = np.empty(reserve, dtype=np.uint64)
    other = 1 - side
    generated = 0
    for i in range(lo, hi):
        if (i & 255) == 0:
            if halt[0]:
                atomic_add_i64(control, NODES, generated)
                return i, HALTED, _ZERO, _ZERO
            if should_stop(control):
                atomic_add_i64(control, NODES, generated)
                return i, STOPPED, _ZERO, _ZERO
        board = frontier[i]
        n = forward_moves(board, geo, buf) if side == 0 else backward_moves(board, geo, buf)
        generated += n
        prefetch_slots(keys, marks, shift, buf, n)
        for j in range(n):
            if table_level(keys, marks, shift, buf[j], other) >= 0:
                halt[0] = 1
                atomic_add_i64(control, NODES, generated)
                return i, MEET, board, buf[j]
    atomic_add_i64(control, NODES, generated)
    return hi, DONE, _ZERO, _ZERO


def probe_last_level(search, side) -> tuple[int, int] | str | None:
    """Probe `side`'s next level (see the module docstring) on the search's threads:
    the meeting edge (parent, child), None when no child meets the other side, or
    'stopped' when the budget ends first."""
    frontier, table = side.frontier, search.table
    threads = search.threads if search.pool is not None and frontier.shape[0] >= 4 * search.threads else 1
    cut = np.linspace(0, frontier.shape[0], threads + 1).astype(np.int64)
    position, end = [int(c) for c in cut[:-1]], [int(c) for c in cut[1:]]
    halt = np.zeros(1, dtype=np.uint8)
    name = f"{'forward' if side.index == 0 else 'backward'} level {side.depth + 1}, probed and not kept"

    def work(t: int):
        hi = min(end[t], position[t] + CHUNK)
        return probe_children(frontier, position[t], hi, side.index, table.keys, table.marks, table.shift, search.geo,
                              search.budget.control, search.reserve, halt)

    while True:
        running = [t for t in range(threads) if position[t] < end[t]]
        if not running:
            return None
        results = list(search.pool.map(work, running)) if threads > 1 else [work(running[0])]
        for t, (reached, _, _, _) in zip(running, results):
            position[t] = int(reached)
        statuses = [r[1] for r in results]
        if MEET in statuses:
            _, _, parent, child = results[statuses.index(MEET)]
            return int(parent), int(child)
        if STOPPED in statuses:
            return "stopped"
        done = sum(p - int(c) for p, c in zip(position, cut[:-1]))
        search.report(Progress(phase=name, done=done, total=frontier.shape[0], stats={"boards": search.boards}))
