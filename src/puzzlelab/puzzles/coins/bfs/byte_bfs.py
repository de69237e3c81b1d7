"""`bfs`: breadth-first search from one start over every ranked board, one byte a board.

The seed write-up's design ("Coin-sliding Font Puzzles"): the level of every board
reached, in an array indexed by the board's combinatorial rank (bfs/byte_array.py), grown
one level at a time by scanning the array; a target's optimal length is its level, and
its path is rebuilt by stepping back to a predecessor one level lower. One run reaches
every target of a start (all 36 glyphs of a font) in the time of a single search.
When a symmetry of the board fixes the start (a mirror for A, M, T, ...), the array
holds one board per orbit (bfs/symmetry.py) and the search generates half the children or
fewer; `symmetry=False` keeps every board. Each level is expanded by `threads` threads
over disjoint block ranges (default: every core this process may use; bfs/byte_array.py's
CpuLevelKernels says why the array, the counts and the paths are those of one thread).

The array is backed by a file in a work folder (bfs/byte_store.py: worked on in huge-page
RAM and written back per level, or a plain file-backed memmap), with a `state.json`
checkpoint written after each level once the array is on file, so a killed run resumes
from the last complete level. The array must fit in memory (random access to a board's byte
from disk would thrash): the run refuses up front, with the figures, when it does not
(5 x 9 boards need C(45, 13) bytes = 73 GB), or when the disk lacks room for it.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from puzzlelab.core.files import check_output_folder, write_atomic
from puzzlelab.core.inputs import is_whole
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.rank import rank_many
from puzzlelab.core.result import NODES, Budget, Progress, Result, Status, no_progress, throttle
from puzzlelab.puzzles.coins.bfs.byte_array import CpuLevelKernels
from puzzlelab.puzzles.coins.bfs.byte_kernels import DIRTY_SHIFT, IMAGE, PAD, padded_length
from puzzlelab.puzzles.coins.bfs.byte_store import STORAGES, LevelStore
from puzzlelab.puzzles.coins.bfs.symmetry import stabilizer
from puzzlelab.puzzles.coins.bfs.workdir import confirm_finished, lock_workdir, prepare_workdir, unlock_workdir
from puzzlelab.puzzles.coins.kernels import geometry, max_moves
from puzzlelab.puzzles.coins.memory import cores_available, memory_available, memory_limit
from puzzlelab.puzzles.coins.model import Instance, Start, boards_to_moves, popcount

__all__ = ["LevelArrayRun", "BfsOutcome", "run_bfs", "memory_available", "array_bytes", "STATE_FORMAT", "STORAGES"]

STATE_FORMAT = 1
MODES = ("auto", "push", "pull")
MAX_THREADS = 1024  # each makes 16 spans of the array: a sane bound on threads and spans


def array_bytes(cells: int, coins: int) -> int:
    return padded_length(math.comb(cells, coins))


def _gb(n: float) -> str:
    return f"{n / 1e9:.1f} GB"


@dataclass
class BfsOutcome:
    """What a run found: levels[i] = boards at distance i; found = target -> distance."""

    levels: list[int]
    found: dict[str, int]
    finished: bool
    stopped: bool
    seconds: float
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def complete_level(self) -> int:
        return len(self.levels) - 1


@dataclass
class _Level:
    """One level being grown, and the figures its entry in state.json's history keeps."""

    level: int
    mode: str  # push or pull
    threads: int
    started: float  # perf_counter and process_time at its start
    cpu_started: float
    generated_before: int  # the budget's node counter at its start
    marked: int = 0
    work: int = 0
    stopped: bool = False

    def history(self, generated_now: int) -> dict[str, Any]:
        return {
            "level": self.level,
            "mode": self.mode,
            "threads": self.threads,
            "boards": self.marked,
            "work": self.work,
            "generated": generated_now - self.generated_before,
            "seconds": round(time.perf_counter() - self.started, 3),
            "cpu_seconds": round(time.process_time() - self.cpu_started, 3),
        }


class LevelArrayRun:
    """One BFS from `start` in `workdir` (created; resumed when it holds a matching
    checkpoint), each level expanded on `threads` threads (None or 0: every core this
    process may use). Raises InvalidInstance (413) up front when the array cannot fit."""

    def __init__(
        self,
        start: Start,
        workdir: str | os.PathLike,
        *,
        max_memory_bytes: int | None = None,
        resume: bool = True,
        storage: str = "ram",
        probe: str = "bits",
        symmetry: bool = True,
        threads: int | None = None,
    ):
        if threads is not None and (not is_whole(threads) or not 0 <= threads <= MAX_THREADS):
            raise InvalidInstance(f"threads: expected a whole number from 0 (every core) to {MAX_THREADS}, got {threads!r}", "threads")
        self.threads = threads or cores_available()
        self.start = start
        self.cells = start.width * start.height
        self.coins = popcount(start.board)
        self.total = math.comb(self.cells, self.coins)
        self.nbytes = padded_length(self.total)
        self.workdir = Path(workdir)
        self.probe = probe
        self._check_fits(max_memory_bytes)
        self._check_folder()
        self._lock = lock_workdir(self.workdir)
        self.array_path = self.workdir / "levels.u8"
        self.state_path = self.workdir / "state.json"
        self.geo = geometry(start.width, start.height)
        self.reserve = max_moves(self.cells, self.coins)
        names, perms = stabilizer(start.board, start.width, start.height)
        self.symmetries = names if symmetry and probe == "bits" else []
        self.perms = perms if self.symmetries else perms[:0]
        self.state = self._load_state() if resume else None
        self.resumed = self.state is not None
        try:
            self.store = LevelStore(self.array_path, self.nbytes, storage, create=not self.resumed)
            self.levels = self.store.array
            if not self.resumed:
                self._start_array()
            self.kernels = CpuLevelKernels(
                self.levels, self.store.dirty, self.cells, self.coins, self.total, self.geo, self.reserve, probe, self.perms, self.threads
            )
        except (MemoryError, OSError) as exc:  # the figures fit, but the machine says no
            unlock_workdir(self._lock)
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            raise InvalidInstance(f"bfs: the level array of {_gb(self.nbytes)} could not be set up in {self.workdir} ({why})", "workdir", 413) from None
        # state.json is a summary, checked against the array on resume: its counts here,
        # its claim that the search finished by the first level grown (which must be empty).
        self._finish_claimed = bool(self.resumed and self.state["finished"])
        if self.resumed:
            self.state["finished"] = False
            try:
                self._check_counts()
            except BaseException:
                self.close()
                raise

    # ------------------------------------------------------------ set-up
    def _check_fits(self, max_memory_bytes: int | None) -> None:
        available, limit = memory_limit(max_memory_bytes)
        needed = CpuLevelKernels.bytes_needed(self.total, self.probe)
        existing = (self.workdir / "levels.u8").stat().st_size if (self.workdir / "levels.u8").exists() else 0
        folder = self.workdir if self.workdir.exists() else next((p for p in self.workdir.parents if p.exists()), Path("."))
        disk = shutil.disk_usage(folder).free + existing
        what = (
            f"bfs: the level array needs one byte for each of C({self.cells}, {self.coins}) = {self.total:,} boards "
            f"({_gb(self.nbytes)}; {_gb(needed)} with its seen and frontier bits)"
        )
        advice = (
            "; solve single puzzles of this size with --method bidir, or use the two-bit engine "
            f"(--engine twobit or auto: {_gb(self.total / 4)} of memory, its levels on disk)"
        )
        if needed > available:
            limit = "--max-memory-gb" if limit != "the memory available here" else limit
            raise InvalidInstance(f"{what}, more than {limit} ({_gb(available)}){advice}", "instance", status=413)
        if self.nbytes > disk:
            raise InvalidInstance(f"{what}, more than the free disk at {folder} ({_gb(disk)}){advice}", "workdir", status=413)

    def _check_folder(self) -> None:
        prepare_workdir(self.workdir, STATE_FORMAT, "the level array", "coins bfs run")

    def _fresh_state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "width": self.start.width,
            "height": self.start.height,
            "coins": self.coins,
            "start": hex(self.start.board),
            "boards": self.total,
            "symmetry": list(self.symmetries),
            "counts": [1],
            "finished": False,
            "history": [],
        }

    def _load_state(self) -> dict[str, Any] | None:
        if not (self.state_path.exists() and self.array_path.exists()):
            return None
        try:
            state = json.loads(self.state_path.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        fresh = self._fresh_state()
        same = all(state.get(key) == fresh[key] for key in ("format", "width", "height", "coins", "start", "boards"))
        same = same and state.get("symmetry", []) == fresh["symmetry"]
        if not same or self.array_path.stat().st_size != self.nbytes:
            return None
        return state

    def _check_counts(self) -> None:
        """Each level's count in state.json against the array's bytes (level L is byte
        L + 1, a canonical board counting for its orbit). Marks of the next two levels may
        be in the array ahead of state.json (a background checkpoint writes them): those
        are not compared, and no level after them may hold a board."""
        claims = self.state["counts"]
        held = self.kernels.level_counts(IMAGE - 1)  # every level byte the array can hold
        for level, claimed in enumerate(claims):
            if held[level] != claimed:
                raise InvalidInstance(
                    f"workdir {self.workdir}: its state.json is damaged (level {level}: it says {claimed:,} boards, the array holds {held[level]:,}); "
                    "remove the folder to start afresh",
                    "workdir",
                )
        beyond = next((level for level in range(len(claims) + 2, len(held)) if held[level]), None)
        if beyond is not None:
            raise InvalidInstance(
                f"workdir {self.workdir}: its state.json is damaged (it counts levels 0..{len(claims) - 1}, "
                f"the array holds {held[beyond]:,} boards of level {beyond}); remove the folder to start afresh",
                "workdir",
            )

    def _start_array(self) -> None:
        # The file starts sparse (all zeros: every board unseen); bytes past the last
        # board hold PAD, and the start is level 0 (byte 1).
        self.levels[self.total :] = PAD
        start_rank = int(rank_many(np.array([self.start.board], dtype=np.uint64))[0])
        self.levels[start_rank] = 1
        for index in (start_rank, self.total, self.nbytes - 1):
            self.store.dirty[min(index, self.nbytes - 1) >> DIRTY_SHIFT] = 1
        self.store.checkpoint()
        self.state = self._fresh_state()
        self._save_state()

    def _save_state(self, text: str | None = None) -> None:
        write_atomic(self.state_path, json.dumps(self.state, indent=1) if text is None else text, "workdir checkpoint", "workdir")

    # ------------------------------------------------------------ search
    def level_of(self, board: int) -> int:
        """Distance of a board from the start, -1 when not (yet) reached."""
        return self.kernels.stored_level(board) - 1

    def run(
        self,
        targets: dict[str, int] | None = None,
        *,
        budget: Budget | None = None,
        progress=no_progress,
        stop_when_found: bool = True,
        mode: str = "auto",
        max_level: int | None = None,
    ) -> BfsOutcome:
        """Grow levels until every target is found (when `stop_when_found`), no board is
        left, `max_level` is complete or the budget ends; checkpoint after each level."""
        if mode not in MODES:
            raise ValueError(f"mode: expected one of {MODES}")
        budget = budget or Budget()
        report = throttle(progress, 0.5)
        targets = dict(targets or {})
        started = time.perf_counter()
        found = {name: lv for name, board in targets.items() if (lv := self.level_of(board)) >= 0}
        counts = self.state["counts"]
        stopped = False
        # After a resume the file may hold marks of the next two levels (written ahead
        # by a background checkpoint): count those levels by scanning, not by marks.
        recount = 2 if self.resumed else 0
        while not self.state["finished"]:
            level = len(counts) - 1
            if stop_when_found and targets and len(found) == len(targets):
                break
            if max_level is not None and level >= max_level:
                break
            if level + 2 >= IMAGE:
                raise InvalidInstance(f"bfs: level {level + 1} does not fit the array's byte (at most {IMAGE - 2} levels)", "instance")
            use_pull = mode == "pull" or (mode == "auto" and self._prefer_pull(counts))
            grown = self._grow_level(level, use_pull, budget, report)
            if grown.stopped:
                stopped = True
                self.store.checkpoint()  # keeps the partial level; state.json does not move
                break
            if recount:
                grown.marked = self.kernels.count(level + 2)
                recount -= 1
            self._close_level(grown, budget)
            for name, board in targets.items():
                if name not in found and (lv := self.level_of(board)) >= 0:
                    found[name] = lv
        self.store.wait()
        return BfsOutcome(
            levels=list(counts),
            found=found,
            finished=bool(self.state["finished"]),
            stopped=stopped,
            seconds=time.perf_counter() - started,
            history=list(self.state["history"]),
        )

    def _grow_level(self, level: int, use_pull: bool, budget: Budget, report) -> _Level:
        """Mark level `level + 1` by pushing from level `level` or pulling into unseen
        boards, a span of blocks per kernel call on each thread, until done or stopped
        by the budget."""
        kernels = self.kernels
        mode = "pull" if use_pull else "push"
        grown = _Level(level + 1, mode, kernels.threads, time.perf_counter(), time.process_time(), int(budget.control[NODES]))
        reached = sum(self.state["counts"])
        kernels.dirty = self.store.dirty
        if use_pull:
            kernels.prepare_pull(level + 1)  # before the threads pull: the frontier bits
        step = kernels.pull if use_pull else kernels.push
        done = 0
        for lo, hi, (block, did, got) in kernels.over_blocks(lambda lo, hi: step(level + 1, lo, hi, budget.control)):
            grown.marked += got
            grown.work += did
            done += hi - lo
            elapsed = time.perf_counter() - grown.started
            report(
                Progress(
                    phase=f"level {level + 1}",
                    message=grown.mode,
                    done=done,
                    total=kernels.blocks,
                    stats={"boards": f"{reached + grown.marked:,}", "rate": f"{grown.marked / max(elapsed, 1e-9) / 1e6:.2f}M boards/s"},
                )
            )
            if block < hi:  # stopped by the budget (the other spans stop at once too)
                grown.stopped = True
                break
        return grown

    def _close_level(self, grown: _Level, budget: Budget) -> None:
        """Record a level grown to its end (no board in it: the search is finished) and
        checkpoint the array and state.json in the background."""
        counts = self.state["counts"]
        if self._finish_claimed:  # the level after the last one must be empty, as state.json says
            self._finish_claimed = False
            confirm_finished(self.workdir, len(counts) - 1, grown.marked)
            self.state["finished"] = True  # confirmed; state.json (and its history row) already say so
            return
        counts.append(grown.marked)
        self.state["history"].append(grown.history(int(budget.control[NODES])))
        if grown.marked == 0:
            counts.pop()
            self.state["finished"] = True
        text = json.dumps(self.state, indent=1)
        self.store.checkpoint_in_background(lambda written, text=text: self._save_state(text))

    def _prefer_pull(self, counts: list[int]) -> bool:
        """Pull when the frontier is large next to the boards not yet seen: then most
        unseen boards find a parent after a few probes (see bench_coins_bfs.py)."""
        frontier = counts[-1]
        unseen = self.total - sum(counts)
        return frontier * PULL_RATIO > unseen

    def path(self, board: int) -> list[int]:
        """Boards from the start to a reached board (a shortest path)."""
        if self.level_of(board) < 0:
            raise ValueError("board not reached")
        boards = self.kernels.path_back(board)
        if not boards or boards[-1] != self.start.board:
            raise AssertionError("bfs: the level array is inconsistent (no predecessor one level lower)")
        return boards[::-1]

    def moves(self, board: int) -> list[list[int]]:
        return boards_to_moves(self.path(board), self.start.width)

    def close(self) -> None:
        """Release the array and the folder's lock (the file keeps the last checkpoint)."""
        if self.levels is None:
            return
        self.kernels.close()
        del self.kernels
        self.levels = None
        self.store.close()
        unlock_workdir(self._lock)


PULL_RATIO = 4


def run_bfs(
    instance: Instance,
    *,
    budget: Budget,
    progress,
    seed: int,
    workdir: str = "",
    max_memory_gb: float = 0.0,
    keep: bool = False,
    threads: int = 0,
) -> Result:
    """The `bfs` method (methods.py) for one puzzle: search from the start until the
    target's level. An empty `workdir` means a temporary folder (removed unless `keep`),
    `max_memory_gb` 0 the memory available (within the budget's memory bound, where it
    states one), `threads` 0 every core this process may use; the search is
    deterministic (`seed` unused)."""
    started = time.perf_counter()
    if instance.start == instance.target:
        return Result(0, [], Status.OPTIMAL, "bfs", bound=0)
    temporary = not workdir
    folder = Path(tempfile.mkdtemp(prefix="coins-bfs-")) if temporary else check_output_folder(workdir, "workdir")
    start = Start(instance.width, instance.height, instance.start, instance.font, instance.start_glyph)
    limit = int(max_memory_gb * 1e9) if max_memory_gb else budget.memory_bytes  # 0: the bound the caller states, if any
    run = None
    try:
        run = LevelArrayRun(start, folder, max_memory_bytes=limit, threads=threads)
        outcome = run.run({"target": instance.target}, budget=budget, progress=progress)
        stats = {
            "seconds": round(time.perf_counter() - started, 6),
            "levels": outcome.levels,
            "boards": sum(outcome.levels),
            "array_bytes": run.nbytes,
            "resumed": run.resumed,
            "threads": run.threads,
        }
        if "target" in outcome.found:
            moves = run.moves(instance.target)
            return Result(len(moves), moves, Status.OPTIMAL, "bfs", bound=len(moves), stats=stats)
        if outcome.finished:
            stats["note"] = "every board reachable from the start was searched: the target cannot be reached"
            return Result(None, None, Status.INFEASIBLE, "bfs", stats=stats)
        bound = outcome.complete_level + 1
        stats["note"] = f"stopped after level {outcome.complete_level}; no path of fewer than {bound} moves exists"
        return Result(None, None, Status.UNKNOWN, "bfs", bound=bound, stats=stats)
    finally:
        if run is not None:
            run.close()
        if temporary and not keep:
            shutil.rmtree(folder, ignore_errors=True)
