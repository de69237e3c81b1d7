"""What one start of the two-bit engine (bfs/two_bit_bfs.py) takes: its memory (the
array plus a fixed allowance), its disk (the level files, estimated), and the
per-machine lock under which a run takes the array (its zeroed memory: coins/memory.py).

The disk estimate assumes that a start's level sizes, as fractions of all boards, are
those of the 5 x 7 start font5x7:A (LEVEL_FRACTIONS, from the byte-array campaign: 96%
of the boards reached in 20 levels), each level coded as bfs/level_file.py codes it; a
run that keeps one board per orbit of a stabilizer of order t writes about 1/t of the
boards. For 5 x 9 that is about 47 GB without symmetry."""

from __future__ import annotations

import contextlib
import fcntl
import math
import tempfile
from pathlib import Path
from typing import Iterator

from puzzlelab.puzzles.coins.bfs.level_file import SPAN_RANKS, segment_bytes
from puzzlelab.puzzles.coins.bfs.two_bit import two_bit_bytes

__all__ = ["ALLOWANCE", "LEVEL_FRACTIONS", "memory_needed", "disk_estimate", "gb", "node_lock"]

ALLOWANCE = 256 * 2**20  # interpreter, numba, thread buffers, segments in flight
# font5x7:A's level sizes / C(35, 12) (campaign store, 2026-11-25): the disk estimate's
# assumption for other boards.
_A_LEVELS = (1, 112, 3571, 44666, 296206, 1241890, 3761911, 9110704, 19040247, 35623895, 60022996, 90749092,
             118869505, 129344493, 118294331, 93719507, 62111748, 34809068, 17631314, 7601216)
LEVEL_FRACTIONS = tuple(n / math.comb(35, 12) for n in _A_LEVELS)


def memory_needed(boards: int) -> int:
    return two_bit_bytes(boards) + ALLOWANCE


def disk_estimate(boards: int, orbit: int = 1) -> int:
    """Bytes of all level files of one start, under the LEVEL_FRACTIONS assumption, for
    a run that keeps one board per orbit of a stabilizer of order `orbit` (1: every board)."""
    spans = -(-boards // SPAN_RANKS)
    per_level = [spans * segment_bytes(max(1, round(f * SPAN_RANKS / orbit)), SPAN_RANKS) if f * boards >= orbit else 64
                 for f in LEVEL_FRACTIONS]
    return sum(per_level) + len(LEVEL_FRACTIONS) * (spans * 32 + 128)


def gb(n: float) -> str:
    return f"{n / 1e9:.1f} GB"


@contextlib.contextmanager
def node_lock() -> Iterator[None]:
    """A lock per machine (a file in the temporary folder), held while a run checks the
    memory free and takes it: two starts that a cluster puts on one node at once (Ray's
    tasks ask for one CPU) do not both see the memory free."""
    path = Path(tempfile.gettempdir()) / "puzzlelab-coins-two-bit.lock"
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
