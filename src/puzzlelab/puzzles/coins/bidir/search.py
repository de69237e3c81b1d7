"""`bidir`: bidirectional breadth-first search for one puzzle, optimal, memory bounded.

One search goes forward from the start, the other backward from the target (over the
predecessor moves of `kernels.backward_moves`); each step expands one whole level of
the side with the smaller frontier. Every generated board is checked against the other
side first, so no board is ever held by both. Hence, with levels 0..f forward and
0..b backward complete and no meeting, the optimum is > f + b (a shorter path would
have a midpoint in both). The first board of level f + 1 that the other side holds
proves the optimum is f + 1 + b: the search stops there, mid-level.

Duplicate detection, one of two (option `dedup`; both measured in
benchmarks/bench_coins_bidir.py):
- `hash`: one open-addressing table of boards holding each side's level (bidir/hashset.py);
  ~14 bytes a board; paths are rebuilt from the levels.
- `bits`: two bits per ranked board (seen forward, seen backward) over all C(cells,
  coins) boards (208 MB for 5 x 7; 18 GB for 5 x 9, so not there), plus each level's
  boards as a list (8 bytes a board) to rebuild paths.

Memory is bounded by `memory_mb`, and never more than the memory available here: when
the next level would not fit, the smaller side's next level is still probed against the
other side without being kept (bidir/last_level.py), which either finds an optimal path
of f + b + 1 moves or proves the optimum is at least f + b + 2; the search then stops
with status `unknown` and that lower bound. The bound holds at the peak: growing the hash table, a buffer or
a level counts every array held meanwhile, the kernels loaded on first use have
`KERNEL_RESERVE` set aside for them (Python and numpy, held before the call, are not
part of the bound), and a table that can only double by leaving
its old copy on disk does so (hashset.BoardTable, in the system's temporary folder;
`stats.table_spills`). `dedup="bits"` on a board whose two-bit array cannot fit (5 x 9:
18 GB) is refused up front with the figure.
"""

from __future__ import annotations

import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.rank import rank
from puzzlelab.core.result import NODES, Budget, Progress, Result, Status, should_stop, throttle
from puzzlelab.puzzles.coins.bidir.hashset import BoardTable, prefetch_slots, table_probe
from puzzlelab.puzzles.coins.bidir.last_level import probe_last_level
from puzzlelab.puzzles.coins.bidir.threads import expand_on_threads
from puzzlelab.puzzles.coins.kernels import backward_list, backward_moves, forward_list, forward_moves, geometry, max_moves
from puzzlelab.puzzles.coins.memory import cores_available, doubled, memory_limit
from puzzlelab.puzzles.coins.model import Instance, boards_to_moves, popcount

__all__ = ["bidirectional", "run_bidir", "ball_sizes", "DEDUP_CHOICES"]

DEDUP_CHOICES = ("auto", "hash", "bits")
DONE, MEET, TABLE_FULL, BUFFER_FULL, STOPPED = 0, 1, 2, 3, 4
CHUNK = 1 << 18  # frontier boards per kernel call (progress and budget granularity)
# Resident memory the search takes besides its arrays: numba loads each compiled kernel
# (table growth, spilling, the probed last level) on its first call, 14-28 MB measured
# (a 5 x 9 search asked for 8,192 MB ended 30 MB over it before this was set aside).
# Set aside out of the bound, at most an eighth of it so that tiny bounds still search.
KERNEL_RESERVE = 40 * 2**20


@numba.njit(cache=True, nogil=True)
def _expand_hash(frontier, lo, hi, side, level, keys, marks, shift, size, limit, nxt, n_next, geo, control, reserve, ahead=True):
    """Expand frontier[lo:hi] of `side` (0 forward, 1 backward) into level `level`;
    `ahead`: each board's children's slots prefetched before they are probed (False:
    the benchmark's comparison). Returns (position, n_next, size, status, parent, child)."""
    buf = np.empty(reserve, dtype=np.uint64)
    generated = 0
    for i in range(lo, hi):
        if size + reserve > limit:
            control[NODES] += generated
            return i, n_next, size, TABLE_FULL, np.uint64(0), np.uint64(0)
        if n_next + reserve > nxt.shape[0]:
            control[NODES] += generated
            return i, n_next, size, BUFFER_FULL, np.uint64(0), np.uint64(0)
        if (i & 255) == 0 and should_stop(control):
            control[NODES] += generated
            return i, n_next, size, STOPPED, np.uint64(0), np.uint64(0)
        board = frontier[i]
        if side == 0:
            n = forward_moves(board, geo, buf)
        else:
            n = backward_moves(board, geo, buf)
        generated += n
        if ahead:
            prefetch_slots(keys, marks, shift, buf, n)
        for j in range(n):
            outcome, _ = table_probe(keys, marks, shift, buf[j], side, level)
            if outcome == 2:
                control[NODES] += generated
                return i, n_next, size, MEET, board, buf[j]
            if outcome == 0 or outcome == 3:
                size += outcome == 0
                nxt[n_next] = buf[j]
                n_next += 1
    control[NODES] += generated
    return hi, n_next, size, DONE, np.uint64(0), np.uint64(0)


@numba.njit(cache=True, nogil=True)
def _expand_bits(frontier, lo, hi, side, seen, nxt, n_next, geo, control, reserve):
    """_expand_hash over a rank-indexed array of two bits a board (bit 0 forward,
    bit 1 backward, four boards a byte)."""
    buf = np.empty(reserve, dtype=np.uint64)
    own = np.uint8(1 << side)
    other = np.uint8(2 >> side)
    generated = 0
    for i in range(lo, hi):
        if n_next + reserve > nxt.shape[0]:
            control[NODES] += generated
            return i, n_next, BUFFER_FULL, np.uint64(0), np.uint64(0)
        if (i & 255) == 0 and should_stop(control):
            control[NODES] += generated
            return i, n_next, STOPPED, np.uint64(0), np.uint64(0)
        board = frontier[i]
        if side == 0:
            n = forward_moves(board, geo, buf)
        else:
            n = backward_moves(board, geo, buf)
        generated += n
        for j in range(n):
            r = rank(buf[j])
            byte = r >> 2
            bit_shift = np.uint8(2 * (r & 3))
            state = (seen[byte] >> bit_shift) & np.uint8(3)
            if state & other:
                control[NODES] += generated
                return i, n_next, MEET, board, buf[j]
            if not (state & own):
                seen[byte] |= own << bit_shift
                nxt[n_next] = buf[j]
                n_next += 1
    control[NODES] += generated
    return hi, n_next, DONE, np.uint64(0), np.uint64(0)


@numba.njit(cache=True, nogil=True)
def _mark_bits(seen, board, side):
    r = rank(np.uint64(board))
    seen[r >> 2] |= np.uint8(1 << side) << np.uint8(2 * (r & 3))


@numba.njit(cache=True, nogil=True)
def _first_member(boards, candidates_sorted):
    """A board of `boards` that is among `candidates_sorted`, or 0 (path rebuilding)."""
    for i in range(boards.shape[0]):
        j = np.searchsorted(candidates_sorted, boards[i])
        if j < candidates_sorted.shape[0] and candidates_sorted[j] == boards[i]:
            return boards[i]
    return np.uint64(0)


def _choose_dedup(dedup: str, instance: Instance, memory_bytes: int) -> str:
    if dedup != "auto":
        return dedup
    bits_bytes = instance.boards // 4
    return "bits" if bits_bytes <= memory_bytes // 4 else "hash"


class _Side:
    """One direction of the search: its frontier, depth, and (bits mode) level lists."""

    def __init__(self, board: int, index: int):
        self.index = index
        self.frontier = np.array([board], dtype=np.uint64)
        self.depth = 0
        self.levels: list[np.ndarray] = [self.frontier]


class _Search:
    """One bidirectional search: both sides, the duplicate detection of the chosen mode
    (`table` for hash, `seen` for bits) and the limits and progress it answers to."""

    def __init__(self, instance: Instance, mode: str, memory_bytes: int, budget: Budget, progress, started: float, threads: int = 1,
                 last_level: bool = True):
        self.instance = instance
        self.last_level_probe = last_level
        self.memory_stopped = False  # set by out_of_memory: the stop a probed last level can follow
        self.memory_why = ""  # what out_of_memory said ran out, for the probed level's note
        self.threads = threads
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="coins-bidir") if threads > 1 and mode == "hash" else None
        self.mode = mode
        self.memory_bytes = memory_bytes
        self.budget = budget
        self.report = throttle(progress, 0.5)
        self.started = started
        self.geo = geometry(instance.width, instance.height)
        self.reserve = max_moves(instance.cells, instance.coins)
        self.sides = [_Side(instance.start, 0), _Side(instance.target, 1)]
        self.table: BoardTable | None = None
        self.seen: np.ndarray | None = None
        self.boards = 2

    def allocate(self) -> Result | None:
        """Set up duplicate detection with both roots marked; a Result when it cannot fit."""
        if self.mode == "bits":
            seen_bytes = (self.instance.boards + 3) // 4
            if seen_bytes > self.memory_bytes // 2:
                return self.out_of_memory(f"the two-bit array needs {seen_bytes / 1e6:.0f} MB", None, 0)
            self.seen = np.zeros(seen_bytes, dtype=np.uint8)
            _mark_bits(self.seen, np.uint64(self.instance.start), 0)
            _mark_bits(self.seen, np.uint64(self.instance.target), 1)
        else:
            self.table = BoardTable(16, max_bytes=self.memory_bytes, spill_dir=tempfile.gettempdir())
            for side in self.sides:
                table_probe(self.table.keys, self.table.marks, self.table.shift, np.uint64(side.frontier[0]), side.index, 0)
            self.table.size = 2
        return None

    def expand(self, side: _Side) -> tuple[np.ndarray, int, tuple[int, int] | None] | Result:
        """Expand `side`'s frontier into its next level, chunk by chunk: (next level
        buffer, its length, the meeting edge or None), or a Result when a limit stops it."""
        if self.pool is not None and self.mode == "hash" and side.frontier.shape[0] >= 4 * self.threads:
            got = expand_on_threads(self, side)  # bidir/threads.py
            return _stopped(self.sides, self.started, self.mode, "budget ended", self.memory(None)) if got == "stopped" else got
        level = side.depth + 1
        frontier = side.frontier
        table = self.table
        room = self.buffer_room(1)
        if room is None:
            return self.out_of_memory("the next frontier reached --memory-mb", None)
        nxt = np.empty(min(room, max(1024, 2 * frontier.shape[0] + self.reserve)), dtype=np.uint64)
        n_next, position = 0, 0
        while position < frontier.shape[0]:
            hi = min(frontier.shape[0], position + CHUNK)
            if self.mode == "hash":
                position, n_next, size, status, parent, child = _expand_hash(
                    frontier, position, hi, side.index, level, table.keys, table.marks, table.shift,
                    table.size, table.limit, nxt, n_next, self.geo, self.budget.control, self.reserve,
                )
                table.size = size
            else:
                position, n_next, status, parent, child = _expand_bits(
                    frontier, position, hi, side.index, self.seen, nxt, n_next, self.geo, self.budget.control, self.reserve
                )
            if status == MEET:
                return nxt, n_next, (int(parent), int(child))
            if status == STOPPED:
                return _stopped(self.sides, self.started, self.mode, "budget ended", self.memory(nxt))
            if status == TABLE_FULL and not self.grow_table(nxt):
                return self.out_of_memory("the board table reached --memory-mb", nxt)
            if status == BUFFER_FULL:
                if not self.fits(self.memory(nxt) + 2 * nxt.nbytes):
                    return self.out_of_memory("the next frontier reached --memory-mb", nxt)
                nxt = doubled(nxt, n_next)
            self.report(
                Progress(
                    phase=f"{'forward' if side.index == 0 else 'backward'} level {level}",
                    done=position,
                    total=frontier.shape[0],
                    stats={
                        "boards": self.boards + n_next,
                        "depths": f"{self.sides[0].depth}+{self.sides[1].depth}",
                        "generated/s": _rate(self.budget, self.started),
                    },
                )
            )
        return nxt, n_next, None

    def solved(self, meet: tuple[int, int], side: _Side, nxt: np.ndarray, n_next: int) -> Result:
        """The optimal Result through the meeting edge found while expanding `side`."""
        path = _rebuild(self.mode, meet, side.index, self.sides, self.table, self.geo, self.reserve)
        moves = boards_to_moves(path, self.instance.width)
        stats = _stats(self.sides, self.started, self.mode, self.memory(nxt), self.budget)
        stats["boards"] = self.boards + n_next
        return Result(len(moves), moves, Status.OPTIMAL, "bidir", bound=len(moves), stats=stats)

    def unreachable(self, side: _Side) -> Result:
        """`side` has no next level: the target cannot be reached."""
        stats = _stats(self.sides, self.started, self.mode, self.memory(None), self.budget)
        why = "every board reachable from the start" if side.index == 0 else "every board that reaches the target"
        stats["note"] = f"searched {why}: the target cannot be reached"
        return Result(None, None, Status.INFEASIBLE, "bidir", stats=stats)

    def memory(self, nxt: np.ndarray | None) -> int:
        """Bytes the search holds now: tables, frontiers and the buffer `nxt`."""
        return _memory(self.mode, self.table, self.seen, self.sides, nxt)

    def fits(self, peak: int) -> bool:
        """Whether a step whose transient peak is `peak` bytes stays within the bound."""
        return peak <= self.memory_bytes

    def grow_table(self, *buffers: np.ndarray) -> bool:
        """Double the hash table if the old and new tables fit beside everything else
        held now (the grow counted the table alone, and a 5 x 9 search with
        8 GB peaked at 9.3 GB)."""
        others = self.memory(None) - self.table.nbytes + sum(b.nbytes for b in buffers)
        return self.table.grow(others)

    def buffer_room(self, buffers: int) -> int | None:
        """The most boards each of `buffers` new next-level buffers may hold within the
        bound (None when not even one chunk's worth fits)."""
        boards = (self.memory_bytes - self.memory(None)) // (8 * buffers)
        return boards if boards >= 1024 + self.reserve else None

    def keep_level(self, side: _Side, nxt: np.ndarray, n_next: int) -> None:
        """Make the new level `side`'s frontier: a trimmed copy when it fits beside the
        buffer, else a view of the buffer (no second array)."""
        trimmed = n_next * nxt.itemsize
        if nxt.nbytes - trimmed > trimmed // 4 and self.fits(self.memory(nxt) + trimmed):
            side.frontier = nxt[:n_next].copy()
        else:
            side.frontier = nxt[:n_next]

    def out_of_memory(self, why: str, nxt: np.ndarray | None, memory: int | None = None) -> Result:
        self.memory_stopped = True
        self.memory_why = why
        return _out_of_memory(self.sides, self.started, self.mode, why, self.memory(nxt) if memory is None else memory)

    def last_level(self, side: _Side, stopped: Result) -> Result:
        """After a memory stop while expanding `side`: its next level probed against the
        other side and not kept (bidir/last_level.py): the optimum through it, or the
        lower bound one higher; `stopped` itself when the budget ends the probe."""
        meet = probe_last_level(self, side)
        if meet == "stopped":
            return stopped
        if meet is not None:
            result = self.solved(meet, side, None, 0)
            result.stats["last_level"] = "probed, not kept"
            return result
        bound = self.sides[0].depth + self.sides[1].depth + 2
        stats = _stats(self.sides, self.started, self.mode, self.memory(None), self.budget)
        stats["last_level"] = "probed, not kept"
        direction = "forward" if side.index == 0 else "backward"
        stats["note"] = (f"memory bound: {self.memory_why}; {direction} level {side.depth + 1} was probed against the other side "
                         f"without being kept; no path of fewer than {bound} moves exists")
        return Result(None, None, Status.UNKNOWN, "bidir", bound=bound, stats=stats)


def bidirectional(
    instance: Instance,
    *,
    budget: Budget,
    progress=None,
    memory_mb: int = 2048,
    dedup: str = "auto",
    threads: int = 1,
    last_level: bool = True,
) -> Result:
    """Optimal solution of one puzzle by bidirectional BFS (see the module docstring);
    `threads` > 1 (0: every core this process may use) expands each level of the hash
    table search on that many threads (bidir/threads.py). `last_level=False` stops at
    the memory bound without probing the next level (the tests' and benchmark's
    comparison)."""
    started = time.perf_counter()
    if instance.start == instance.target:
        return Result(0, [], Status.OPTIMAL, "bidir", bound=0, stats={"boards": 1})
    memory_bytes, bound = memory_limit(int(memory_mb) * 2**20)
    memory_bytes -= min(KERNEL_RESERVE, memory_bytes // 8)
    mode = _choose_dedup(dedup, instance, memory_bytes)
    if mode == "bits" and (instance.boards + 3) // 4 > memory_bytes // 2:
        raise InvalidInstance(
            f"bidir --dedup bits: the two-bit array needs {(instance.boards + 3) // 4 / 2**20:,.0f} MB for C({instance.cells}, "
            f"{instance.coins}) = {instance.boards:,} boards, more than half of {bound} ({memory_bytes / 2**20:,.0f} MB); "
            "use --dedup hash",
            "dedup",
            413,
        )
    search = _Search(instance, mode, memory_bytes, budget, progress, started, threads or cores_available(), last_level)
    try:
        result = _search_levels(search, budget)
        if search.table is not None and search.table.spills and result.stats is not None:
            result.stats["table_spills"] = search.table.spills  # doublings done through a file
        return result
    finally:
        if search.pool is not None:
            search.pool.shutdown(wait=True)


def _search_levels(search: _Search, budget: Budget) -> Result:
    """The level loop of `bidirectional`: grow the smaller frontier until the sides meet."""
    refused = search.allocate()
    if refused is not None:
        return refused
    budget.control[NODES] = 0
    sides = search.sides
    while True:
        side = sides[0] if sides[0].frontier.shape[0] <= sides[1].frontier.shape[0] else sides[1]
        outcome = search.expand(side)
        if isinstance(outcome, Result):
            if search.memory_stopped and search.mode == "hash" and search.last_level_probe:
                return search.last_level(side, outcome)
            return outcome
        nxt, n_next, meet = outcome
        if meet is not None:
            return search.solved(meet, side, nxt, n_next)
        search.keep_level(side, nxt, n_next)
        del nxt, outcome
        side.depth += 1
        search.boards += n_next
        if search.mode == "bits":
            side.levels.append(side.frontier)
        if n_next == 0:
            return search.unreachable(side)


def run_bidir(instance: Instance, *, budget: Budget, progress, seed: int, memory_mb: int = 2048, dedup: str = "auto", threads: int = 1) -> Result:
    """The `bidir` method (methods.py); the search is deterministic, so `seed` is unused."""
    return bidirectional(instance, budget=budget, progress=progress, memory_mb=memory_mb, dedup=dedup, threads=threads)


def ball_sizes(width: int, height: int, board: int, depth: int, *, backward: bool = False, budget: Budget | None = None,
               seconds: list[float] | None = None, ahead: bool = True) -> list[int]:
    """Boards at each distance 0..depth from `board` (forward, or backward: the boards
    that reach it), by the same kernel and table as `bidir` searching one side; the wall
    time of each level is appended to `seconds` when given; `ahead` as `_expand_hash`'s."""
    budget = budget or Budget()
    geo = geometry(width, height)
    reserve = max_moves(width * height, popcount(board))
    side = 1 if backward else 0
    table = BoardTable(16)
    table_probe(table.keys, table.marks, table.shift, np.uint64(board), side, 0)
    table.size = 1
    frontier = np.array([board], dtype=np.uint64)
    sizes = [1]
    for level in range(1, depth + 1):
        tick = time.perf_counter()
        nxt = np.empty(max(1024, 4 * frontier.shape[0] + reserve), dtype=np.uint64)
        position, n_next = 0, 0
        while position < frontier.shape[0]:
            position, n_next, size, status, _, _ = _expand_hash(
                frontier, position, frontier.shape[0], side, level, table.keys, table.marks, table.shift,
                table.size, table.limit, nxt, n_next, geo, budget.control, reserve, ahead,
            )
            table.size = size
            if status == TABLE_FULL:
                table.grow()
            elif status == BUFFER_FULL:
                nxt = doubled(nxt, n_next)
            elif status == STOPPED:
                return sizes
        frontier = nxt[:n_next].copy()
        sizes.append(n_next)
        if seconds is not None:
            seconds.append(time.perf_counter() - tick)
        if n_next == 0:
            break
    return sizes


def _rebuild(mode, meet, side_index, sides, table, geo, reserve) -> list[int]:
    """The board sequence start -> target through the meeting edge parent -> child."""
    parent, child = meet
    # The meeting edge in forward orientation: a -> b, a reached forward, b backward.
    a, b = (parent, child) if side_index == 0 else (child, parent)
    forward_part = _chain(mode, a, 0, sides, table, geo, reserve)  # a ... start
    backward_part = _chain(mode, b, 1, sides, table, geo, reserve)  # b ... target
    return forward_part[::-1] + backward_part


def _level_of(mode, board, side_index, sides, table) -> int:
    if mode == "hash":
        return table.level(board, side_index)
    for level in range(len(sides[side_index].levels) - 1, -1, -1):
        if np.any(sides[side_index].levels[level] == np.uint64(board)):
            return level
    return -1


def _chain(mode, board, side_index, sides, table, geo, reserve) -> list[int]:
    """From `board`, step to neighbours one level lower on side `side_index` until its
    root: predecessors for the forward side, successors for the backward side."""
    level = _level_of(mode, board, side_index, sides, table)
    if level < 0:
        raise AssertionError("bidir: a meeting board is missing from its side")
    chain = [board]
    while level > 0:
        if side_index == 0:
            candidates = backward_list(np.uint64(board), geo, reserve)
        else:
            candidates = forward_list(np.uint64(board), geo, reserve)
        if mode == "hash":
            step = next((int(c) for c in candidates if table.level(int(c), side_index) == level - 1), None)
        else:
            found = _first_member(sides[side_index].levels[level - 1], np.sort(candidates))
            step = int(found) if found else None
        if step is None:
            raise AssertionError(f"bidir: no neighbour one level lower at level {level}")
        board, level = step, level - 1
        chain.append(board)
    return chain


def held_bytes(array: np.ndarray) -> int:
    """The bytes `array` keeps alive: a view keeps its whole base buffer."""
    return array.base.nbytes if isinstance(array.base, np.ndarray) else array.nbytes


def _memory(mode, table, seen, sides, nxt) -> int:
    total = sum(held_bytes(s.frontier) for s in sides) + (0 if nxt is None else held_bytes(nxt))
    if mode == "hash":
        total += table.nbytes
    else:
        total += seen.nbytes + sum(held_bytes(level) for s in sides for level in s.levels[:-1])
    return total


def _rate(budget: Budget, started: float) -> str:
    seconds = max(1e-9, time.perf_counter() - started)
    return f"{budget.control[NODES] / seconds / 1e6:.1f}M"


def _stats(sides, started, mode, memory, budget) -> dict:
    seconds = time.perf_counter() - started
    return {
        "seconds": round(seconds, 6),
        "dedup": mode,
        "depth_forward": sides[0].depth,
        "depth_backward": sides[1].depth,
        "generated": int(budget.control[NODES]) if budget is not None else None,
        "memory_mb": round(memory / 2**20, 1),
    }


def _stopped(sides, started, mode, why, memory) -> Result:
    bound = sides[0].depth + sides[1].depth + 1
    stats = _stats(sides, started, mode, memory, None)
    stats["note"] = f"{why}; no path of fewer than {bound} moves exists"
    return Result(None, None, Status.UNKNOWN, "bidir", bound=bound, stats=stats)


def _out_of_memory(sides, started, mode, why, memory) -> Result:
    return _stopped(sides, started, mode, f"memory bound: {why}", memory)
