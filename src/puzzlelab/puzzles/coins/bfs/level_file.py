"""Level files of the disk-backed two-bit BFS (bfs/two_bit_bfs.py): the boards of one BFS
level as their sorted ranks, Elias-Fano coded, in segments a reader can look up.

Why Elias-Fano. A level's ranks are a sorted subset of n out of U; Elias-Fano (Elias
1974, Fano 1971; as in Vigna, "Quasi-succinct indices", WSDM 2013) stores each rank's
low l = floor(log2(U / n)) bits verbatim and its high part in unary, n * (l + 2) bits
or less, within half a bit a board of the information-theoretic minimum, and unlike
delta/varint coding it answers "is rank r in this level?" without decoding the level
(a path is rebuilt from such lookups). Measured on the levels of a 5 x 7 start
(bench_coins_twobit.py): about 5.4 bits a board reached, against 4.8 for the entropy
of each level's membership and 8+ for one-byte varint gaps.

Layout. The rank space is cut into spans of SPAN_WORDS words of the two-bit array
(32 boards a word, 2^21 ranks a span; tests use smaller spans); each span is its own Elias-Fano segment over
its own range, so threads encode spans independently, a lookup reads one segment, and
a segment's CRC-32 is checked before it is read. `level_NNN.ef` holds the segments'
uint64 words in span order (lows, then highs); `level_NNN.idx.npy` an int64 row per
span: word offset, boards, l, CRC-32. Both are written under a temporary name and
renamed, so a file with its final name is complete.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import numba
import numpy as np

from puzzlelab.core.bits import ctz, popcount

__all__ = ["SPAN_WORDS", "SPAN_RANKS", "LevelFileWriter", "LevelFileReader", "encode_span", "segment_contains", "segment_bytes", "level_file_paths", "CorruptLevelFile"]

SPAN_WORDS = 1 << 16
SPAN_RANKS = 32 * SPAN_WORDS
FIELDS = np.uint64(0x5555555555555555)
_ONE = np.uint64(1)


class CorruptLevelFile(ValueError):
    """A level file that is missing, short, or fails its CRC."""


def segment_bytes(n: int, universe: int) -> int:
    """Bytes of one Elias-Fano segment of n ranks out of `universe` (the estimate the
    disk check uses, and the size encode_span makes)."""
    if n <= 0:
        return 0
    low = max(0, (universe // n).bit_length() - 1)
    return 8 * (-(-n * low // 64) + -(-(n + (universe >> low) + 1) // 64))


@numba.njit(cache=True, nogil=True, inline="always")
def _matches(word, pattern):
    """The low bit of each two-bit field of `word` that equals the code in `pattern`."""
    x = word ^ pattern
    return (~(x | (x >> _ONE))) & FIELDS


@numba.njit(cache=True, nogil=True)
def encode_span(words, code, word_lo, word_hi):
    """The Elias-Fano segment of the ranks in words [word_lo, word_hi) whose field holds
    `code` (1..3), ranks counted from the span's first board: (n, l, uint64 words)."""
    pattern = np.uint64(code) * FIELDS
    n = 0
    for w in range(word_lo, word_hi):
        n += popcount(_matches(words[w], pattern))
    if n == 0:
        return 0, 0, np.zeros(0, dtype=np.uint64)
    universe = 32 * (word_hi - word_lo)
    low = 0
    while (universe // n) >> (low + 1):
        low += 1
    n_low = (n * low + 63) // 64
    n_high = (n + (universe >> low) + 1 + 63) // 64
    out = np.zeros(n_low + n_high, dtype=np.uint64)
    low_mask = (_ONE << np.uint64(low)) - _ONE
    i = 0
    for w in range(word_lo, word_hi):
        m = _matches(words[w], pattern)
        while m:
            bit = ctz(m)
            m &= m - _ONE
            r = np.int64((w - word_lo) * 32 + (bit >> 1))
            if low:
                value = np.uint64(r) & low_mask
                pos = i * low
                out[pos >> 6] |= value << np.uint64(pos & 63)
                if (pos & 63) + low > 64:
                    out[(pos >> 6) + 1] |= value >> np.uint64(64 - (pos & 63))
            h = (r >> low) + i
            out[n_low + (h >> 6)] |= _ONE << np.uint64(h & 63)
            i += 1
    return n, low, out


@numba.njit(cache=True, nogil=True, inline="always")
def _low_at(seg, i, low):
    if low == 0:
        return np.int64(0)
    pos = i * low
    value = seg[pos >> 6] >> np.uint64(pos & 63)
    if (pos & 63) + low > 64:
        value |= seg[(pos >> 6) + 1] << np.uint64(64 - (pos & 63))
    return np.int64(value & ((_ONE << np.uint64(low)) - _ONE))


@numba.njit(cache=True, nogil=True)
def segment_contains(seg, n, low, r):
    """Whether rank r (from the span's first board) is in the segment."""
    if n == 0:
        return False
    n_low = (n * low + 63) // 64
    bucket = r >> low
    want = r & ((1 << low) - 1)
    zeros = 0  # buckets passed; the element index of a one at bit p is p - zeros
    for w in range(n_low, seg.shape[0]):
        x = seg[w]
        base = (w - n_low) * 64
        if zeros + (64 - popcount(x)) < bucket:
            zeros += 64 - popcount(x)
            continue
        for b in range(64):
            if (x >> np.uint64(b)) & _ONE:
                if zeros == bucket:
                    v = _low_at(seg, base + b - zeros, low)
                    if v == want:
                        return True
                    if v > want:
                        return False
            else:
                if zeros == bucket:
                    return False
                zeros += 1
    return False


@numba.njit(cache=True, nogil=True)
def mark_segment(cells, seg, n, low, first_rank, code):
    """Set the two-bit field of every rank of the segment to `code` (the field must be
    unseen: a plain OR); returns the boards marked."""
    if n == 0:
        return 0
    n_low = (n * low + 63) // 64
    i = 0
    for w in range(n_low, seg.shape[0]):
        x = seg[w]
        while x and i < n:
            b = ctz(x)
            x &= x - _ONE
            h = (w - n_low) * 64 + b - i
            r = first_rank + ((h << low) | _low_at(seg, i, low))
            cells[r >> 2] |= np.uint8(code) << np.uint8(2 * (r & 3))
            i += 1
    return i


def level_file_paths(folder: Path, level: int) -> tuple[Path, Path]:
    return folder / f"level_{level:03d}.ef", folder / f"level_{level:03d}.idx.npy"


class LevelFileWriter:
    """Writes one level's segments in span order (`add`), then `finish` renames the
    files into place; `sync` also flushes them to the disk."""

    def __init__(self, folder: Path, level: int, spans: int, sync: bool = False):
        self.data_path, self.index_path = level_file_paths(folder, level)
        self._tmp = self.data_path.with_suffix(".ef.tmp")
        self._fh = open(self._tmp, "wb")
        self.index = np.zeros((spans, 4), dtype=np.int64)
        self.sync = sync
        self.offset = 0
        self.boards = 0

    def add(self, span: int, n: int, low: int, seg: np.ndarray) -> None:
        data = seg.tobytes()
        self.index[span] = (self.offset, n, low, zlib.crc32(data))
        self._fh.write(data)
        self.offset += seg.shape[0]
        self.boards += n

    def finish(self) -> int:
        """Close and rename; returns the bytes written (data and index)."""
        self._fh.flush()
        if self.sync:
            os.fsync(self._fh.fileno())
        self._fh.close()
        tmp_index = self.index_path.with_suffix(".tmp.npy")
        np.save(tmp_index, self.index)
        os.replace(self._tmp, self.data_path)
        os.replace(tmp_index, self.index_path)
        return 8 * self.offset + self.index_path.stat().st_size

    def abandon(self) -> None:
        self._fh.close()
        self._tmp.unlink(missing_ok=True)


class LevelFileReader:
    """One level's level file, mapped read-only; each segment's CRC is checked the first
    time it is read. Raises CorruptLevelFile when the files are missing or do not fit."""

    def __init__(self, folder: Path, level: int, spans: int, span_words: int = SPAN_WORDS):
        self.data_path, self.index_path = level_file_paths(folder, level)
        self.level = level
        self.span_ranks = 32 * span_words
        try:
            self.index = np.load(self.index_path, allow_pickle=False)
            size = self.data_path.stat().st_size
        except (OSError, ValueError) as exc:
            raise CorruptLevelFile(f"level file of level {level} in {self.data_path.parent}: cannot be read ({exc})") from None
        if self.index.shape != (spans, 4) or self.index.dtype != np.int64:
            raise CorruptLevelFile(f"{self.index_path}: expected {spans} spans of int64, got {self.index.shape} {self.index.dtype}")
        ends = np.append(self.index[1:, 0], size // 8)
        if size % 8 or np.any(ends < self.index[:, 0]) or (spans and self.index[0, 0] != 0):
            raise CorruptLevelFile(f"{self.data_path}: its length ({size} bytes) does not match its index")
        self.ends = ends
        self.data = np.memmap(self.data_path, dtype=np.uint64, mode="r") if size else np.zeros(0, dtype=np.uint64)
        self.checked = np.zeros(spans, dtype=bool)
        self.boards = int(self.index[:, 1].sum())
        self.nbytes = size + self.index_path.stat().st_size

    def segment(self, span: int) -> tuple[np.ndarray, int, int]:
        offset, n, low, crc = (int(v) for v in self.index[span])
        seg = np.asarray(self.data[offset : int(self.ends[span])])
        if not self.checked[span]:
            if zlib.crc32(seg.tobytes()) != crc:
                raise CorruptLevelFile(f"{self.data_path}: span {span} fails its CRC-32 (the file is damaged)")
            self.checked[span] = True
        return seg, n, low

    def contains(self, rank: int) -> bool:
        span = rank // self.span_ranks
        seg, n, low = self.segment(span)
        return bool(segment_contains(seg, n, low, rank - span * self.span_ranks))

    def mark_into(self, cells: np.ndarray, code: int) -> int:
        """Set every board of the level file to `code` in a two-bit array; returns the count."""
        marked = 0
        for span in range(self.index.shape[0]):
            seg, n, low = self.segment(span)
            marked += int(mark_segment(cells, seg, n, low, span * self.span_ranks, code))
        if marked != self.boards:
            raise CorruptLevelFile(f"{self.data_path}: decoded {marked} boards, its index says {self.boards}")
        return marked

    def ranks(self) -> np.ndarray:
        """Every rank of the level file, in order (for tests and small boards)."""
        cells = np.zeros(-(-(self.index.shape[0] * self.span_ranks) // 4), dtype=np.uint8)
        self.mark_into(cells, 1)
        fields = (cells[:, None] >> np.arange(0, 8, 2, dtype=np.uint8)) & 3
        return np.flatnonzero(fields.reshape(-1) == 1)

    def close(self) -> None:
        data, self.data = self.data, None
        del data
