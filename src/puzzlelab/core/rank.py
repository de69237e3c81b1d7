"""The combinatorial number system: a bijection between the k-subsets of {0..n-1}
(as bitmasks, n <= 64) and the integers 0 .. C(n,k)-1.

The rank of a subset with elements p_0 < p_1 < ... < p_{k-1} is sum_i C(p_i, i+1)
(colexicographic order, so ranks grow with the mask's integer value and do not depend
on n). Coin-sliding BFS stores one byte per ranked board and ranks billions of boards
(seed write-up "Coin-sliding Font Puzzles"), so `rank` is table driven: the mask is
read a byte at a time and one lookup in `BYTE_TABLE[byte_index, bits_below, byte]`
adds that byte's whole contribution -- at most 8 lookups and popcounts per rank.

Ranks are int64 (C(64, 32) < 2**63), so they index numpy arrays directly.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from puzzlelab.core.bits import ctz, popcount

__all__ = [
    "BINOMIAL",
    "BYTE_TABLE",
    "binomial",
    "rank",
    "unrank",
    "rank_many",
    "unrank_many",
    "next_subset",
    "rank_python",
]

MAX_BITS = 64


def _binomial_table() -> np.ndarray:
    """C(n, k) for 0 <= n, k <= 64 as int64 (0 where k > n)."""
    table = np.zeros((MAX_BITS + 1, MAX_BITS + 2), dtype=np.int64)
    for n in range(MAX_BITS + 1):
        for k in range(n + 1):
            table[n, k] = math.comb(n, k)
    return table


def _byte_table(binom: np.ndarray) -> np.ndarray:
    """BYTE_TABLE[c, j, b]: rank contribution of byte value b at byte position c when
    j set bits lie below it (j <= 8c, so j < 57). Kept under numba's 1 MB limit for
    arrays frozen into cached machine code."""
    table = np.zeros((MAX_BITS // 8, MAX_BITS - 7, 256), dtype=np.int64)
    for c in range(MAX_BITS // 8):
        for j in range(8 * c + 1):
            for b in range(256):
                total, t = 0, 0
                for q in range(8):
                    if b >> q & 1:
                        if j + t + 1 <= MAX_BITS:
                            total += int(binom[8 * c + q, j + t + 1])
                        t += 1
                table[c, j, b] = total
    return table


BINOMIAL = _binomial_table()
BYTE_TABLE = _byte_table(BINOMIAL)


def binomial(n: int, k: int) -> int:
    """C(n, k) for n <= 64, the number of ranks of k-subsets of n positions."""
    return int(BINOMIAL[n, k]) if 0 <= k <= n <= MAX_BITS else 0


@numba.njit(cache=True, nogil=True, inline="always")
def rank(mask):
    """Colex rank of the subset `mask` among subsets of its size (int64)."""
    mask = np.uint64(mask)
    total = np.int64(0)
    below = 0
    c = 0
    while mask:
        byte = np.int64(mask & np.uint64(0xFF))
        if byte:
            total += BYTE_TABLE[c, below, byte]
            below += popcount(np.uint64(byte))
        mask >>= np.uint64(8)
        c += 1
    return total


@numba.njit(cache=True, nogil=True)
def unrank(r, n, k):
    """The k-subset of {0..n-1} with colex rank r, as a uint64 mask (r < C(n, k))."""
    mask = np.uint64(0)
    r = np.int64(r)
    p = n - 1
    for i in range(k, 0, -1):
        while BINOMIAL[p, i] > r:
            p -= 1
        mask |= np.uint64(1) << np.uint64(p)
        r -= BINOMIAL[p, i]
        p -= 1
    return mask


@numba.njit(cache=True, nogil=True)
def rank_many(masks):
    """rank() of each mask of a uint64 array."""
    out = np.empty(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        out[i] = rank(masks[i])
    return out


@numba.njit(cache=True, nogil=True)
def unrank_many(ranks, n, k):
    """unrank() of each rank of an int64 array."""
    out = np.empty(ranks.shape[0], dtype=np.uint64)
    for i in range(ranks.shape[0]):
        out[i] = unrank(ranks[i], n, k)
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def next_subset(mask):
    """The subset of the same size with the next rank (Gosper's hack): stepping through
    ranks in order without unranking each one. Undefined past the last subset."""
    mask = np.uint64(mask)
    low = mask & (~mask + np.uint64(1))
    ripple = mask + low
    ones = (mask ^ ripple) >> np.uint64(2)
    return ripple | (ones >> ctz(low))


def rank_python(mask: int) -> int:
    """Plain-Python rank by the definition: the oracle for tests and the benchmark peer."""
    if mask < 0:
        raise ValueError("mask must be a non-negative integer")
    total, i = 0, 0
    position = 0
    while mask:
        if mask & 1:
            i += 1
            total += math.comb(position, i)
        mask >>= 1
        position += 1
    return total
