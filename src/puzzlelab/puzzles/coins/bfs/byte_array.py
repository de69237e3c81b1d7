"""The level array of `bfs` as its driver sees it: `CpuLevelKernels` owns the array of
one byte per ranked board with its seen and frontier bits, and runs the kernels of
bfs/byte_kernels.py over it, on one thread or over disjoint block ranges on several.
The driver (bfs/byte_bfs.py), the file format and the checkpoints talk only to this
class, so a GPU backend could replace the kernels behind it.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed, wait
from typing import Any, Callable, Iterator

import numpy as np

from puzzlelab.core.rank import rank_many
from puzzlelab.puzzles.coins.bfs.byte_kernels import (
    BLOCK,
    PROBES,
    byte_histogram,
    count_bytes,
    count_orbits,
    expand_pull,
    expand_push,
    expand_push_bits,
    expand_push_direct,
    fixed_boards,
    frontier_bits,
    frontier_orbit_bits,
    mark_images,
    padded_length,
    path_back,
    seen_bits,
    stored_level,
)
from puzzlelab.puzzles.coins.bfs.symmetry import canonical, orbit_size

__all__ = ["PARALLEL_CHUNK", "CpuLevelKernels"]

BUCKET_BITS = 10
PROBE_BATCH = 1 << 24  # children sorted and probed at a time (128 MB of buffers for 5 x 7)


PARALLEL_CHUNK = 1 << 16  # blocks (4.2 M ranks) a thread takes at a time


class CpuLevelKernels:
    """The kernels bfs/byte_bfs.py calls on a level array (numpy array or memmap of uint8 whose
    length is a multiple of 64). A GPU backend would offer the same methods.

    Besides the levels it owns the seen bits (one per board), the frontier bits that
    pull probes (one per board, made by prepare_pull) and, for the `sorted` probe only,
    two batch buffers of uint32 ranks when the boards number under 2^32 (5 x 7:
    834 M), else int64.

    `perms` (symmetry.stabilizer) are the symmetries fixing the start: with any, only
    one board per orbit is stored (expand_push_bits; `bits` probe only) and the
    counts and lookups go through the orbit's canonical member.

    `threads` > 1 (the `bits` probe only; the others are single-threaded benchmark
    variants): `over_blocks` runs a kernel over disjoint block ranges on that many
    threads (the kernels release the GIL). Pull, the frontier passes and the counts
    write only their own blocks' bytes and bits (a block's 64 boards own 8 whole seen
    bytes); push's children and the frontier's orbit images land anywhere, so they set
    their bits with an atomic OR and only the thread that set a bit marks and counts
    the board: the bytes and the counts are those of one thread, level by level. The
    checkpoint's dirty flags are plain stores of 1 (no read-modify-write): none is lost."""

    name = "cpu"

    def __init__(
        self,
        levels: np.ndarray,
        dirty: np.ndarray,
        n: int,
        k: int,
        total: int,
        geo: np.ndarray,
        reserve: int,
        probe: str = "bits",
        perms: np.ndarray | None = None,
        threads: int = 1,
    ):
        if probe not in PROBES:
            raise ValueError(f"probe: expected one of {PROBES}")
        self.perms = np.zeros((0, 64), dtype=np.int64) if perms is None else np.ascontiguousarray(perms, dtype=np.int64)
        if self.perms.shape[0] and probe != "bits":
            raise ValueError("probe: only 'bits' stores one board per orbit")
        self.levels = levels
        self.dirty = dirty
        self.words = levels.view(np.uint64)
        self.n, self.k, self.total, self.geo, self.reserve = n, k, total, geo, reserve
        self.blocks = levels.shape[0] // BLOCK
        self.probe = probe
        self.threads = max(1, int(threads)) if probe == "bits" else 1
        self.pool = ThreadPoolExecutor(self.threads, thread_name_prefix="coins-level") if self.threads > 1 else None
        self.seen = np.zeros(-(-total // 8), dtype=np.uint8)
        self._sum(lambda lo, hi: seen_bits(self.words, total, self.seen, lo, hi) or 0)
        self.front: np.ndarray | None = None
        self._front_of = -1  # the stored byte `front` marks
        self._images_marked = False
        dtype = np.uint32 if total <= 2**32 else np.int64
        batch = max(4 * reserve, min(PROBE_BATCH, 64 * total + reserve))
        self.buf = np.empty(batch, dtype=dtype) if probe == "sorted" else None
        self.parted = np.empty(batch, dtype=dtype) if probe == "sorted" else None
        self.starts = np.zeros((1 << BUCKET_BITS) + 1, dtype=np.int64)
        self.shift = max(0, (total - 1).bit_length() - BUCKET_BITS)

    @staticmethod
    def bytes_needed(boards: int, probe: str = "bits") -> int:
        """Memory of the kernels for `boards` boards: levels, seen and frontier bits,
        and the sorted probe's buffers (each thread's own buffers are a few KB)."""
        length = padded_length(boards)
        buffers = 2 * 4 * min(PROBE_BATCH, 64 * boards) if probe == "sorted" else 0
        return length + 2 * (length // 8) + buffers

    @property
    def nbytes(self) -> int:
        extra = 0 if self.buf is None else self.buf.nbytes + self.parted.nbytes
        extra += 0 if self.front is None else self.front.nbytes
        return self.levels.nbytes + self.seen.nbytes + extra

    def over_blocks(self, fn: Callable[[int, int], Any]) -> Iterator[tuple[int, int, Any]]:
        """(lo, hi, fn(lo, hi)) for spans of blocks that cover the array: on this thread
        in order, or on the pool's threads as they finish (each thread takes the next
        span when it is done with one, so uneven spans even out; a small array still
        makes 16 spans a thread). Returns only once no call is running, also when the
        caller stops early."""
        chunk = PARALLEL_CHUNK if self.pool is None else min(PARALLEL_CHUNK, max(1, -(-self.blocks // (16 * self.threads))))
        spans = [(lo, min(self.blocks, lo + chunk)) for lo in range(0, self.blocks, chunk)]
        if self.pool is None:
            for lo, hi in spans:
                yield lo, hi, fn(lo, hi)
            return
        futures = {self.pool.submit(fn, lo, hi): (lo, hi) for lo, hi in spans}
        try:
            for future in as_completed(futures):
                yield (*futures[future], future.result())
        finally:
            for future in futures:
                future.cancel()
            wait(list(futures))

    def _sum(self, fn: Callable[[int, int], int]) -> int:
        return sum(int(got) for _, _, got in self.over_blocks(fn))

    def push(self, stored: int, block_lo: int, block_hi: int, control: np.ndarray):
        if self.probe == "bits":
            return expand_push_bits(
                self.levels, self.words, self.dirty, self.seen, stored, self.n, self.k, self.total, self.geo,
                self.perms, block_lo, block_hi, control, self.reserve,
            )
        if self.probe == "direct":
            out = expand_push_direct(self.levels, self.words, self.dirty, stored, self.n, self.k, self.total, self.geo, block_lo, block_hi, control, self.reserve)
            return out
        return expand_push(
            self.levels, self.words, self.dirty, self.seen, stored, self.n, self.k, self.total, self.geo,
            block_lo, block_hi, control, self.reserve, self.buf, self.parted, self.starts, self.shift,
        )

    def mark_images(self) -> int:
        """Before the first pull with symmetries: mark the boards that are not canonical
        (mark_images); returns how many were marked."""
        self._images_marked = True
        if not self.perms.shape[0]:
            return 0
        args = (self.levels, self.words, self.dirty, self.seen, self.n, self.k, self.total, self.perms)
        return self._sum(lambda lo, hi: mark_images(*args, lo, hi))

    def prepare_pull(self, stored: int) -> None:
        """Before pulling into byte stored + 1: the images marked (once) and the frontier
        bits of `stored` made, on every thread. With threads, call it from the driving
        thread before `pull` runs on the pool (pull refuses otherwise)."""
        if not self._images_marked:
            self.mark_images()
        if self._front_of == stored:  # the boards of a finished level never change
            return
        if self.front is None:
            self.front = np.zeros(self.words.shape[0], dtype=np.uint8)
        self._sum(lambda lo, hi: frontier_bits(self.words, stored, self.front, lo, hi) or 0)
        if self.perms.shape[0]:  # after every plain bit is in: frontier_bits overwrites bytes
            args = (self.levels, self.words, stored, self.n, self.k, self.total, self.perms, self.front)
            self._sum(lambda lo, hi: frontier_orbit_bits(*args, lo, hi) or 0)
        self._front_of = stored

    def pull(self, stored: int, block_lo: int, block_hi: int, control: np.ndarray):
        if self._front_of != stored:
            if self.pool is not None:
                raise RuntimeError(f"pull into byte {stored + 1}: call prepare_pull({stored}) first")
            self.prepare_pull(stored)
        return expand_pull(
            self.levels, self.words, self.dirty, self.seen, self.front, stored, self.n, self.k, self.total, self.geo,
            self.perms, block_lo, block_hi, control,
        )

    def count(self, stored: int) -> int:
        """The boards at byte `stored`, each canonical one counting for its orbit."""
        if self.perms.shape[0]:
            args = (self.levels, self.words, stored, self.n, self.k, self.total, self.perms)
            return self._sum(lambda lo, hi: count_orbits(*args, lo, hi))
        return self._sum(lambda lo, hi: count_bytes(self.words, stored, lo, hi))

    def level_counts(self, levels: int) -> list[int]:
        """[count(1), ..., count(levels)] in one pass over the bytes: each canonical board
        counts for the whole group, less what the few boards with a smaller orbit
        (`fixed_boards`) do not stand for. count() computes every board's orbit instead:
        for the 20 levels of a 5 x 7 array, 64 s against 0.7 s, 91x (median of 3,
        `python benchmarks/bench_coins_level_counts.py`)."""
        histogram = np.zeros(256, dtype=np.int64)
        for _, _, part in self.over_blocks(lambda lo, hi: byte_histogram(self.levels, self.total, lo, hi)):
            histogram += part
        group = self.perms.shape[0] + 1
        counts = [group * int(histogram[stored]) for stored in range(1, levels + 1)]
        if group > 1:
            fixed = fixed_boards(self.perms, self.n, self.k)
            for board, stored in zip(fixed, self.levels[rank_many(fixed)] if fixed.size else []):
                if 1 <= stored <= levels and canonical(board, self.perms) == board:
                    counts[stored - 1] -= group - int(orbit_size(board, self.perms))
        return counts

    def stored_level(self, board: int) -> int:
        return int(stored_level(self.levels, np.uint64(board), self.perms))

    def path_back(self, board: int) -> list[int]:
        return [int(b) for b in path_back(self.levels, np.uint64(board), self.geo, self.reserve, self.perms)]

    def close(self) -> None:
        """Stop the pool's threads (the arrays stay)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None
