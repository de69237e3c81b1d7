"""Compact tables of the row DP's min passes: the frontiers of a step sorted, in blocks
of `BLOCK` (32) keys, each block its first key whole and every later key as the XOR with the
key before it, in 7-bit groups (LEB128); the penalty and the least penalty still to
come in a byte each. One table is one byte buffer (so one file, written atomically).

Why: a min pass keeps a table per cell, and the wide tables (a hash table with a key of
8 bytes a word, a 4-byte penalty and an 8-byte value, at most half full) took about
60 bytes a state: n = 12's level-1 pass filled 27 GB of disk. Sorted neighbours share
most of their frontier, so the XOR of two is a few bytes, and the penalties of a pass
never pass its bound. A lookup (is this frontier in the table, and what is still to
come after it) is a binary search over the blocks' first keys, then a walk through one
block. 32 keys a block: 16 took 8% more bytes at the same speed, 64 made the passes
1.7x slower (n = 8, benchmarks/bench_hexagon_tables.py).

A byte holds the bound only up to `MAX_BOUND`: a pass under a higher bound keeps the
wide tables (dp.py chooses). The least penalty still to come is kept up to `FAR`; more
(or no completion at all) is stored as `FAR`, which is above every bound these tables
take, so it prunes exactly as the exact figure would, and such states are dropped from
a filled table (`prune`): no lookup can use them.

Buffer layout (every offset a multiple of 8 up to the byte arrays):
  header: 8 int64 = states, words, block, blocks, XOR bytes, 0, 0, 0
  heads:  blocks x words uint64, the first key of each block
  starts: blocks + 1 int64, where each block's XOR bytes begin in `xors`
  pens:   states uint8; futures: states uint8; xors: the XOR bytes
Keys compare as numbers with word `words - 1` the most significant (np.lexsort of the
keys' columns gives that order).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["BLOCK", "FAR", "MAX_BOUND", "encode", "views", "block_of", "decode_keys", "lookup", "dense", "nbytes"]

BLOCK = 32
FAR = 255  # "255 or more, or never": above every bound a compact table takes
MAX_BOUND = 254
HEADER = 64


@numba.njit(cache=True)
def _compare(a, b):
    """-1, 0 or 1 as key a is below, equal to or above key b (the last word first)."""
    for w in range(a.shape[0] - 1, -1, -1):
        if a[w] != b[w]:
            return 1 if a[w] > b[w] else -1
    return 0


@numba.njit(cache=True)
def _xor_bytes(a, b):
    """How many 7-bit groups the XOR of keys a and b takes (at least one)."""
    top = 0
    for w in range(a.shape[0] - 1, -1, -1):
        x = a[w] ^ b[w]
        if x != np.uint64(0):
            bits = 0
            while x != np.uint64(0):
                x >>= np.uint64(1)
                bits += 1
            top = 64 * w + bits
            break
    return max(1, (top + 6) // 7)


@numba.njit(cache=True)
def _write_xor(a, b, out, pos):
    """Append the XOR of keys a and b to `out` at pos, 7 bits a byte, low bits first,
    the high bit set on every byte but the last; returns the next position."""
    count = _xor_bytes(a, b)
    words = a.shape[0]
    for g in range(count):
        bit = 7 * g
        w = bit // 64
        s = np.uint64(bit % 64)
        x = (a[w] ^ b[w]) >> s
        if bit % 64 > 57 and w + 1 < words:
            x |= (a[w + 1] ^ b[w + 1]) << (np.uint64(64) - s)
        byte = np.uint8(x & np.uint64(0x7F))
        if g + 1 < count:
            byte |= np.uint8(0x80)
        out[pos] = byte
        pos += 1
    return pos


@numba.njit(cache=True)
def _read_xor(xors, pos, cur):
    """XOR into key `cur` the groups at pos; returns the next position."""
    words = cur.shape[0]
    bit = 0
    while True:
        byte = xors[pos]
        pos += 1
        x = np.uint64(byte & np.uint8(0x7F))
        w = bit // 64
        s = np.uint64(bit % 64)
        if w < words:
            cur[w] ^= x << s
        if bit % 64 > 57 and w + 1 < words:
            cur[w + 1] ^= x >> (np.uint64(64) - s)
        bit += 7
        if not (byte & np.uint8(0x80)):
            return pos


@numba.njit(cache=True)
def _xor_total(keys, block):
    total = 0
    for s in range(keys.shape[0]):
        if s % block:
            total += _xor_bytes(keys[s - 1], keys[s])
    return total


@numba.njit(cache=True)
def _fill(keys, block, heads, starts, xors):
    pos = 0
    for s in range(keys.shape[0]):
        b = s // block
        if s % block == 0:
            heads[b] = keys[s]
            starts[b] = pos
        else:
            pos = _write_xor(keys[s - 1], keys[s], xors, pos)
    starts[heads.shape[0]] = pos


def nbytes(states: int, words: int, xor_bytes: int, block: int = BLOCK) -> int:
    """The size of a table's buffer."""
    blocks = -(-states // block)
    return HEADER + 8 * blocks * words + 8 * (blocks + 1) + 2 * states + xor_bytes


def encode(keys: np.ndarray, pens: np.ndarray, futures: np.ndarray | None = None, block: int | None = None) -> np.ndarray:
    """The buffer of a table from its keys in sorted order (no repeats) and their
    penalties (each 0..MAX_BOUND: a larger one is refused, never wrapped); futures
    (0..FAR) default to FAR (not filled yet); blocks of `block` keys (BLOCK)."""
    block = block or BLOCK
    states, words = keys.shape
    if states and (int(pens.min()) < 0 or int(pens.max()) > MAX_BOUND):
        raise ValueError(f"compact table: penalties {int(pens.min())}..{int(pens.max())} do not fit a byte (0..{MAX_BOUND})")
    if futures is not None and states and (int(futures.min()) < 0 or int(futures.max()) > FAR):
        raise ValueError(f"compact table: futures {int(futures.min())}..{int(futures.max())} do not fit a byte (0..{FAR})")
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    xor_bytes = _xor_total(keys, block) if states else 0
    buffer = np.zeros(nbytes(states, words, xor_bytes, block), dtype=np.uint8)
    blocks = -(-states // block)
    buffer[:HEADER].view(np.int64)[:5] = (states, words, block, blocks, xor_bytes)
    heads, starts, pen, future, xors = views(buffer)
    if states:
        _fill(keys, block, heads, starts, xors)
    pen[:] = pens
    future[:] = FAR if futures is None else futures
    return buffer


def views(buffer: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(heads, starts, pens, futures, xors): views into the buffer, no copy (a
    memory-mapped buffer's futures are written in place)."""
    states, words, block, blocks, xor_bytes = (int(x) for x in buffer[:HEADER].view(np.int64)[:5])
    if block < 1 or buffer.nbytes != nbytes(states, words, xor_bytes, block):
        raise ValueError(f"compact table: a buffer of {buffer.nbytes} bytes does not hold {states} states in blocks of {block}")
    at = HEADER
    heads = buffer[at : at + 8 * blocks * words].view(np.uint64).reshape(blocks, words)
    at += 8 * blocks * words
    starts = buffer[at : at + 8 * (blocks + 1)].view(np.int64)
    at += 8 * (blocks + 1)
    pen, future = buffer[at : at + states], buffer[at + states : at + 2 * states]
    return heads, starts, pen, future, buffer[at + 2 * states :]


def block_of(buffer: np.ndarray) -> int:
    """The block size a table's buffer was written with (its header says)."""
    return int(buffer[:HEADER].view(np.int64)[2])


@numba.njit(cache=True)
def decode_keys(heads, starts, xors, states, block):
    """Every key of a table, in order (states x words). The block size comes from the
    table's header, not from this module's constant, so that a kernel compiled (and
    cached) with another constant cannot misread a table."""
    keys = np.zeros((states, heads.shape[1]), dtype=np.uint64)
    cur = np.zeros(heads.shape[1], dtype=np.uint64)
    pos = 0
    for s in range(states):
        if s % block == 0:
            cur[:] = heads[s // block]
            pos = starts[s // block]
        else:
            pos = _read_xor(xors, pos, cur)
        keys[s] = cur
    return keys


@numba.njit(cache=True)
def lookup(heads, starts, xors, block, key, cur):
    """The index of `key` in the table of blocks of `block` keys, or -1 (cur: scratch
    of one key)."""
    lo, hi = 0, heads.shape[0]
    while lo < hi:  # the last block whose first key is <= key
        mid = (lo + hi) // 2
        if _compare(heads[mid], key) <= 0:
            lo = mid + 1
        else:
            hi = mid
    b = lo - 1
    if b < 0:
        return -1
    cur[:] = heads[b]
    if _compare(cur, key) == 0:
        return b * block
    pos, end, j = starts[b], starts[b + 1], 0
    while pos < end:
        pos = _read_xor(xors, pos, cur)
        j += 1
        c = _compare(cur, key)
        if c == 0:
            return b * block + j
        if c > 0:
            return -1
    return -1


def dense(tk: np.ndarray, tp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The occupied entries of a hash table (keys, penalties) in key order."""
    full = tp >= 0
    keys, pens = tk[full], tp[full]
    order = np.lexsort(keys.T) if keys.shape[1] > 1 else np.argsort(keys[:, 0], kind="stable")
    return np.ascontiguousarray(keys[order]), np.ascontiguousarray(pens[order])
