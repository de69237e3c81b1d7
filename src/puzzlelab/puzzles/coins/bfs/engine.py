"""Which level array a BFS from one start runs on, chosen where it runs (the CLI's
`bfs`, a `batch` task on this machine or on a Ray node): bfs/byte_bfs.py's byte array when it
fits in the memory there (the fastest: one byte probe a child), else the two-bit
array with its levels on disk (bfs/two_bit_bfs.py: 5 x 9), else that engine's refusal,
which names what is short (memory or disk), needed against available. A work folder
that holds a run of one engine keeps that engine."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.coins.bfs.byte_array import CpuLevelKernels
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun
from puzzlelab.puzzles.coins.bfs.two_bit_bfs import FORMAT, TwoBitRun
from puzzlelab.puzzles.coins.memory import memory_limit
from puzzlelab.puzzles.coins.model import Start, popcount

__all__ = ["ENGINES", "choose_engine", "open_bfs_run"]

ENGINES = ("auto", "byte", "twobit")


def choose_engine(start: Start, workdir: str | os.PathLike, max_memory_bytes: int | None = None) -> str:
    """'byte' or 'twobit' for `auto` (see the module's docstring)."""
    state = Path(workdir) / "state.json"
    if state.is_file():
        try:
            found = json.loads(state.read_text()).get("format")
        except (OSError, ValueError, AttributeError):
            found = None  # the engine's own folder check says what is wrong with it
        if found == FORMAT:
            return "twobit"
        if found is not None:
            return "byte"
    boards = math.comb(start.width * start.height, popcount(start.board))
    available, _ = memory_limit(max_memory_bytes)
    return "byte" if CpuLevelKernels.bytes_needed(boards) <= available else "twobit"


def open_bfs_run(start: Start, workdir: str | os.PathLike, *, engine: str = "auto", max_memory_bytes: int | None = None,
                 resume: bool = True, symmetry: bool = True, threads: int | None = None) -> LevelArrayRun | TwoBitRun:
    """A BFS run from `start` in `workdir` on the chosen engine (`auto`, `byte` or
    `twobit`); both answer run(), moves(), level_of() and close() alike."""
    if engine not in ENGINES:
        raise InvalidInstance(f"option --engine: expected one of {', '.join(ENGINES)}, got {engine!r}", "engine")
    if engine == "auto":
        engine = choose_engine(start, workdir, max_memory_bytes)
    if engine == "twobit":
        return TwoBitRun(start, workdir, max_memory_bytes=max_memory_bytes, resume=resume, symmetry=symmetry, threads=threads)
    return LevelArrayRun(start, workdir, max_memory_bytes=max_memory_bytes, resume=resume, symmetry=symmetry, threads=threads)
