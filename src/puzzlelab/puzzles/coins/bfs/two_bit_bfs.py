"""`bfs` where one byte a board does not fit (5 x 9: C(45, 13) = 73,006,209,045 boards,
73 GB): the two-bit level array of bfs/two_bit.py (18.3 GB) in memory, each level's boards
written to disk as a level file (bfs/level_file.py, Elias-Fano coded), on every core.

Levels. Level L's boards carry code 2 + (L mod 2) while they are the frontier; the
expansion (two_bit.expand_shared, threads over disjoint spans of words, atomic OR and
XOR on the shared bytes) gives unseen children the other frontier code and turns each
expanded board `old`; then one scan encodes the boards holding the new code as level file
L + 1 (Korf, "Minimizing disk I/O in two-bit breadth-first search", AAAI 2008, with the
level files of Korf and Schultze's disk-based BFS).

Checkpoint. The level files are the checkpoint: the array at the end of a level is a
function of them (level files 0..L old, level file L + 1 the frontier code, every other board
unseen), so a level costs a level file's bytes of writing (about 5.4 bits a board reached,
against 18.3 GB for the array each level), and a resumed run rebuilds the array from
the level files and goes on with the level that was in progress: a killed run loses at most
that level, and the rebuilt array is the one the uninterrupted run had, bit for bit.
`state.json` (the counts) is written after the level file is renamed into place.

How a path is rebuilt, and why it is exact. The coin move graph is directed: a
predecessor of a level-L board sits at level L - 1 or at any higher level (the reverse
of a move is a move only when the vacated cell had two supporting coins), so the code
of a two-bit array, or a level's residue mod 3, does not say which predecessor is one
step nearer the start. The level files do: level file L - 1 holds exactly the boards at
distance L - 1. A board at level L >= 1 has a BFS parent in level file L - 1 (the board whose
expansion marked it), so among its predecessors (kernels.backward_moves) one at least is
found in level file L - 1; stepping to it and repeating reaches the start in exactly L moves,
each a legal move, which is optimal since L is the board's distance. Each step reads one
segment of one level file (its CRC checked first).

Orbits. When a mirror or a turn of the board fixes the start (`symmetry`, the default),
the array and the level files hold only each orbit's canonical board
(bfs/two_bit_orbits.py): about a half or a quarter of the boards are expanded and
written. `state.json`'s `counts` are the boards each level file holds, its `members`
the boards of their orbits (the levels of the run that keeps every board); a board's
level is its canonical member's, and a path steps back to a predecessor whose canonical
member is in the level file below.

Up-front refusal. The memory needed is the array plus a fixed allowance; the disk
needed is estimated by bfs/two_bit_budget.py (5 x 9: about 47 GB, or a half or a
quarter of that with orbits). A run that lacks either is refused before anything is
made, with the figures.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from puzzlelab.core.files import write_atomic
from puzzlelab.core.inputs import is_whole
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.rank import rank
from puzzlelab.core.result import NODES, Budget, Progress, no_progress, throttle
from puzzlelab.puzzles.coins.bfs.byte_bfs import BfsOutcome
from puzzlelab.puzzles.coins.bfs.level_file import SPAN_WORDS, CorruptLevelFile, LevelFileReader, LevelFileWriter, encode_span
from puzzlelab.puzzles.coins.bfs.symmetry import canonical, stabilizer
from puzzlelab.puzzles.coins.bfs.two_bit import OLD, expand_shared, two_bit_bytes
from puzzlelab.puzzles.coins.bfs.two_bit_budget import LEVEL_FRACTIONS, disk_estimate, gb, memory_needed, node_lock
from puzzlelab.puzzles.coins.bfs.two_bit_orbits import expand_orbits
from puzzlelab.puzzles.coins.bfs.workdir import confirm_finished, lock_workdir, prepare_workdir, unlock_workdir
from puzzlelab.puzzles.coins.kernels import backward_list, geometry, max_moves
from puzzlelab.puzzles.coins.memory import cores_available, memory_limit, zeroed
from puzzlelab.puzzles.coins.model import Start, boards_to_moves, popcount

__all__ = ["TwoBitRun", "FORMAT", "memory_needed", "disk_estimate", "code_of", "LEVEL_FRACTIONS"]

FORMAT = "puzzlelab coins two-bit bfs 2"  # 2: level files named level_NNN
MAX_THREADS = 1024


def code_of(level: int) -> int:
    """The frontier code of a level (2 for even levels, 3 for odd ones)."""
    return 2 + (level & 1)


def _members(members: Any, counts: list, orbit: int) -> bool:
    """Whether state.json's `members` can be the orbit members of levels of `counts`
    boards (each level's boards times 1 to `orbit`)."""
    return (isinstance(members, list) and len(members) == len(counts)
            and all(is_whole(m) and c <= m <= c * orbit for m, c in zip(members, counts)))


class TwoBitRun:
    """One BFS from `start` in `workdir` (created; resumed from its level files when it holds
    a matching run), levels expanded on `threads` threads (None or 0: every core this
    process may use). The same calls as bfs.LevelArrayRun. Raises InvalidInstance (413)
    up front when the array or the level files cannot fit. `touch=False` (benchmarks only)
    leaves the array's pages untouched and small, so the first levels of a start can be
    run where the whole array would not be taken: memory grows with the boards marked.
    `span_words` (a power of two) sets the spans the threads share out and the level file
    files' segments: small spans let tests make threads collide on small boards."""

    def __init__(self, start: Start, workdir: str | os.PathLike, *, max_memory_bytes: int | None = None, resume: bool = True,
                 threads: int | None = None, sync: bool = False, touch: bool = True, span_words: int = SPAN_WORDS,
                 symmetry: bool = True):
        if threads is not None and (not is_whole(threads) or not 0 <= threads <= MAX_THREADS):
            raise InvalidInstance(f"threads: expected a whole number from 0 (every core) to {MAX_THREADS}, got {threads!r}", "threads")
        self.threads = threads or cores_available()
        self.start, self.sync = start, sync
        self.cells_n = start.width * start.height
        self.coins = popcount(start.board)
        self.total = math.comb(self.cells_n, self.coins)
        names, perms = stabilizer(start.board, start.width, start.height)
        self.symmetries: list[str] = names if symmetry else []
        self.perms = perms if symmetry else perms[:0]
        self.nbytes = two_bit_bytes(self.total)
        self.nwords = self.nbytes // 8
        if span_words < 1 or span_words & (span_words - 1):
            raise ValueError(f"span_words: expected a power of two, got {span_words}")
        self.span_words = span_words
        self.spans = -(-self.nwords // span_words)
        self.workdir = Path(workdir)
        self.state_path = self.workdir / "state.json"
        self._check_fits(max_memory_bytes)
        self._check_folder()
        self._lock = lock_workdir(self.workdir)
        self.geo = geometry(start.width, start.height)
        self.reserve = max_moves(self.cells_n, self.coins)
        self.pool = ThreadPoolExecutor(self.threads, thread_name_prefix="coins-two-bit") if self.threads > 1 else None
        self._readers: dict[int, LevelFileReader] = {}
        try:
            with node_lock():  # check and claim the memory as one step per machine
                self._check_fits(max_memory_bytes)
                self._buffer, self.cells = zeroed(self.nbytes, huge=touch)
                if touch:
                    self.cells[:] = 0  # take every page now: the next start's check sees it taken
        except (MemoryError, OSError) as exc:
            self._release()
            raise InvalidInstance(f"bfs: the two-bit array of {gb(self.nbytes)} could not be set up ({type(exc).__name__})", "instance", 413) from None
        except InvalidInstance:
            self._release()
            raise
        self.words = self.cells[: self.nwords * 8].view(np.uint64)
        try:
            self.state = self._load_state() if resume else None
        except InvalidInstance:
            self.close()  # a damaged members field: let the folder go before saying so
            raise
        self.resumed = self.state is not None
        # state.json's counts are checked against the level files (_rebuild), and its claim that
        # the search finished by the first level grown, which must then be empty.
        self._finish_claimed = bool(self.resumed and self.state["finished"])
        if self.resumed:
            self.state["finished"] = False
        try:
            if self.resumed:
                self._rebuild()
            else:
                self._begin()
        except CorruptLevelFile as exc:
            self.close()
            raise InvalidInstance(f"workdir {self.workdir}: its level files and state.json disagree, one of them is damaged ({exc}); remove the folder to start afresh", "workdir") from None

    # ------------------------------------------------------------ set-up
    def _check_fits(self, max_memory_bytes: int | None) -> None:
        available, limit = memory_limit(max_memory_bytes)
        needed = memory_needed(self.total)
        folder = self.workdir if self.workdir.exists() else next((p for p in self.workdir.parents if p.exists()), Path("."))
        existing = sum(p.stat().st_size for p in self.workdir.glob("level_*")) if self.workdir.is_dir() else 0
        estimate = disk_estimate(self.total, self.perms.shape[0] + 1)
        free = shutil.disk_usage(folder).free
        what = (
            f"bfs: one start of C({self.cells_n}, {self.coins}) = {self.total:,} boards needs {gb(needed)} of memory "
            f"(the two-bit array, {gb(self.nbytes)}) and about {gb(estimate)} of disk for its level files"
            + (f" (one board per orbit of {', '.join(self.symmetries)})" if self.symmetries else "")
        )
        if needed > available:
            raise InvalidInstance(f"{what}; memory is short: {limit} is {gb(available)} (solve single puzzles with --method bidir)", "instance", 413)
        if estimate - existing > free:
            raise InvalidInstance(f"{what}; disk is short: {gb(free)} free at {folder}" + (f" beside {gb(existing)} of level files" if existing else ""), "workdir", 413)

    def _check_folder(self) -> None:
        prepare_workdir(self.workdir, FORMAT, "the level files", "two-bit coins bfs run")

    def _fresh_state(self) -> dict[str, Any]:
        return {"format": FORMAT, "width": self.start.width, "height": self.start.height, "coins": self.coins,
                "start": hex(self.start.board), "boards": self.total, "span_words": self.span_words, "symmetry": list(self.symmetries),
                "counts": [1], "members": [1], "finished": False, "history": []}

    def _load_state(self) -> dict[str, Any] | None:
        if not self.state_path.exists():
            return None
        state = json.loads(self.state_path.read_text())
        fresh = self._fresh_state()
        same = all(state.get(key) == fresh[key] for key in ("format", "width", "height", "coins", "start", "boards", "span_words"))
        if not same or state.get("symmetry", []) != fresh["symmetry"]:
            return None
        state.setdefault("members", list(state["counts"]) if not self.symmetries else None)
        if isinstance(state["members"], list) and isinstance(state["counts"], list):
            state["members"] = state["members"][: len(state["counts"])]  # levels past the counted ones are grown again
        if not _members(state["members"], state["counts"], self.perms.shape[0] + 1):
            raise InvalidInstance(f"workdir {self.workdir}: its state.json is damaged (members: expected, for each level, "
                                  "its boards times at most the orbit size); remove the folder to start afresh", "workdir")
        return state

    def _save_state(self) -> None:
        write_atomic(self.state_path, json.dumps(self.state, indent=1), "workdir checkpoint", "workdir")

    def _begin(self) -> None:
        r = int(rank(np.uint64(self.start.board)))
        self.cells[r >> 2] |= np.uint8(code_of(0) << (2 * (r & 3)))
        for old in self.workdir.glob("level_*"):
            old.unlink()
        self.state = self._fresh_state()
        self._write_level_file(0)
        self._save_state()

    def _rebuild(self) -> None:
        """The array at the end of the last complete level, from its level files."""
        if getattr(self, "_stale", False):  # a level stopped part way: start from zeros
            self.cells[:] = 0
        counts = self.state["counts"]
        for level, count in enumerate(counts):
            got = self.reader(level).mark_into(self.cells, OLD if level < len(counts) - 1 else code_of(level))
            if got != count:
                raise CorruptLevelFile(f"level file {level} holds {got:,} boards, state.json says {count:,}")
        self._stale = False

    # ------------------------------------------------------------ threads
    def _in_order(self, fn: Callable[[int], Any], count: int) -> Iterator[tuple[int, Any]]:
        """(i, fn(i)) for i in 0..count-1 in order, computed on the pool's threads with
        a bounded window of spans in flight (their results wait to be written in order)."""
        if self.pool is None:
            for i in range(count):
                yield i, fn(i)
            return
        window: deque = deque()
        following = 0
        try:
            while following < count or window:
                while following < count and len(window) < 4 * self.threads:
                    window.append((following, self.pool.submit(fn, following)))
                    following += 1
                i, future = window.popleft()
                yield i, future.result()
        finally:
            for _, future in window:
                future.cancel()
            for _, future in window:
                if not future.cancelled():
                    future.exception()

    def _span(self, i: int) -> tuple[int, int]:
        return i * self.span_words, min(self.nwords, (i + 1) * self.span_words)

    def _write_level_file(self, level: int) -> int:
        writer = LevelFileWriter(self.workdir, level, self.spans, self.sync)
        code = code_of(level)
        try:
            for i, (n, low, seg) in self._in_order(lambda i: encode_span(self.words, code, *self._span(i)), self.spans):
                writer.add(i, n, low, seg)
        except BaseException:
            writer.abandon()
            raise
        self._readers.pop(level, None)
        return writer.finish()

    def reader(self, level: int) -> LevelFileReader:
        if level not in self._readers:
            self._readers[level] = LevelFileReader(self.workdir, level, self.spans, self.span_words)
        return self._readers[level]

    # ------------------------------------------------------------ search
    def run(self, targets: dict[str, int] | None = None, *, budget: Budget | None = None, progress=no_progress,
            stop_when_found: bool = True, mode: str = "auto", max_level: int | None = None) -> BfsOutcome:
        """Grow levels until every target is found (when `stop_when_found`), no board is
        left, `max_level` is complete or the budget ends; each level's level file is on disk
        before state.json counts it. (`mode` is accepted for LevelArrayRun's callers:
        this engine pushes.)"""
        budget = budget or Budget()
        report = throttle(progress, 0.5)
        targets = dict(targets or {})
        started = time.perf_counter()
        if getattr(self, "_stale", False):
            self._rebuild()
        found = {name: lv for name, board in targets.items() if (lv := self.level_of(board)) >= 0}
        counts, members = self.state["counts"], self.state["members"]
        stopped = False
        while not self.state["finished"]:
            level = len(counts) - 1
            if (stop_when_found and targets and len(found) == len(targets)) or (max_level is not None and level >= max_level):
                break
            row = self._grow(level, budget, report)
            if row is None:
                stopped = self._stale = True
                break
            if self._finish_claimed:
                self._finish_claimed = False
                confirm_finished(self.workdir, level, row["boards"])
                self.state["finished"] = True  # confirmed; state.json (and its history row) already say so
                break
            if row["boards"]:
                try:
                    row["level_file_bytes"] = self._write_level_file(level + 1)
                except OSError as exc:  # a full disk: the level files before are intact, state.json unchanged
                    self._stale = True
                    raise InvalidInstance(
                        f"workdir {self.workdir}: writing level file {level + 1} failed ({exc.strerror or exc}); "
                        f"levels 0..{level} are kept: make room and run again to resume", "workdir", 507) from None
            counts.append(row["boards"])
            members.append(row["members"])
            if not row["boards"]:
                counts.pop()
                members.pop()
                self.state["finished"] = True
            self.state["history"].append(row)
            self._save_state()
            for name, board in targets.items():
                if name not in found and row["boards"] and self._field(board) == code_of(level + 1):
                    found[name] = level + 1
        return BfsOutcome(levels=list(members), found=found, finished=bool(self.state["finished"]), stopped=stopped,
                          seconds=time.perf_counter() - started, history=list(self.state["history"]))

    def _grow(self, level: int, budget: Budget, report) -> dict[str, Any] | None:
        """Expand level `level` over every span; its history row, or None when stopped."""
        wall, cpu, nodes = time.perf_counter(), time.process_time(), int(budget.control[NODES])
        code, marked, weight, expanded, stopped = code_of(level), 0, 0, 0, False
        args = (self.cells, self.words, code, self.cells_n, self.coins, self.geo, self.perms)

        def expand(i: int):
            lo, hi = self._span(i)
            if not self.symmetries:  # every board: the plain kernel (no orbit arithmetic to carry)
                reached, did, got = expand_shared(self.cells, self.words, code, self.cells_n, self.coins, self.total, self.geo,
                                                  lo, hi, budget.control, self.reserve, 0, -1)
                return hi, (reached, did, got, got)
            return hi, expand_orbits(*args, lo, hi, budget.control, self.reserve, 0, -1)

        for i, (hi, (reached, did, got, members)) in self._in_order(expand, self.spans):
            marked += int(got)
            weight += int(members)
            expanded += int(did)
            stopped = stopped or reached < hi
            elapsed = time.perf_counter() - wall
            report(Progress(phase=f"level {level + 1}", message="two-bit", done=i + 1, total=self.spans,
                            stats={"boards": f"{marked:,}", "rate": f"{expanded / max(elapsed, 1e-9) / 1e6:.2f}M expanded/s"}))
        if stopped:
            return None
        return {"level": level + 1, "threads": self.threads, "boards": marked, "members": weight, "expanded": expanded,
                "generated": int(budget.control[NODES]) - nodes, "seconds": round(time.perf_counter() - wall, 3),
                "cpu_seconds": round(time.process_time() - cpu, 3)}

    def _stored_rank(self, board) -> int:
        """The rank the array and the level files hold for a board: its canonical member's."""
        return int(rank(canonical(np.uint64(board), self.perms)))

    def _field(self, board: int) -> int:
        r = self._stored_rank(board)
        return int(self.cells[r >> 2] >> (2 * (r & 3))) & 3

    def level_of(self, board: int) -> int:
        """Distance of a board from the start, from the level files; -1 when not (yet) reached."""
        r = self._stored_rank(board)
        for level in range(len(self.state["counts"])):
            if self.reader(level).contains(r):
                return level
        return -1

    def path(self, board: int) -> list[int]:
        """Start ... board: from level L, a predecessor found (through its canonical member)
        in level file L - 1, L times: real boards, each one legal move from the last."""
        level = self.level_of(board)
        if level < 0:
            raise ValueError("board not reached")
        boards = [board]
        for below in range(level - 1, -1, -1):
            level_file = self.reader(below)
            step = next((int(c) for c in backward_list(np.uint64(board), self.geo, self.reserve) if level_file.contains(self._stored_rank(c))), None)
            if step is None:
                raise AssertionError(f"two-bit bfs: no predecessor in level file {below} (the level files are inconsistent)")
            board = step
            boards.append(board)
        if board != self.start.board:
            raise AssertionError("two-bit bfs: the path does not end at the start")
        return boards[::-1]

    def moves(self, board: int) -> list[list[int]]:
        return boards_to_moves(self.path(board), self.start.width)

    def level_file_bytes(self) -> list[int]:
        return [self.reader(level).nbytes for level in range(len(self.state["counts"]))]

    def _release(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None
        unlock_workdir(self._lock)

    def close(self) -> None:
        """Release the array, the level files and the folder's lock."""
        if getattr(self, "cells", None) is None:
            return
        for reader in self._readers.values():
            reader.close()
        self._readers.clear()
        self.cells = self.words = None
        try:
            self._buffer.close()
        except BufferError:
            pass  # a view is still alive somewhere; the mapping goes with it
        self._release()
