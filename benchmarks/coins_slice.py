"""A slice of a 5 x 9 level for the two-bit engine's level benchmarks
(bench_coins_twobit_fast.py, profile_coins_twobit_level.py): seconds to expand, and
probed like the real 18.3 GB array (DRAM misses; only the TLB reach is kinder).

- The array: 2^bits boards of random codes. A peak level's share is frontier (15.5%,
  font5x7:A's level 13); the rest is old or unseen. Each board is marked once in the
  whole search, so a level marks about as many boards as the next level holds: about
  one child of each expanded board finds its field unseen. The unseen share is set to
  that (`unseen`, 1.2% of the ranks: 80 children x 1.2% = one mark a board).
- The parts expanded: `chunks` runs of consecutive words, each standing for a run of
  consecutive ranks somewhere else in the C(45, 13) rank space (its own rank offset,
  drawn at random), so the parents are real boards in rank order from all over the
  space, and a start's orbits cover their share of them (a contiguous run of ranks
  shares its high coins, hence whether its boards are canonical).
- Children's ranks are folded into the slice (`& (2^bits - 1)`), so each probe lands
  at random in an array of the slice's size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np
from bench_coins_twobit import huge_page_zeros

from puzzlelab.core.rank import next_subset, unrank
from puzzlelab.puzzles.coins.bfs.symmetry import canonical, orbit_size
from puzzlelab.puzzles.coins.bfs.two_bit import two_bit_bytes
from puzzlelab.puzzles.coins.bfs.two_bit_budget import LEVEL_FRACTIONS

N, K = 45, 13
BOARDS = math.comb(N, K)
CURRENT = 2


@numba.njit(cache=True)
def fill_codes(cells, total, p_current, p_unseen, seed):
    """Frontier with probability p_current, unseen with p_unseen, else old (xorshift)."""
    x = np.uint64(seed) | np.uint64(1)
    for r in range(total):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        u = (x >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        code = 1
        if u < p_current:
            code = CURRENT
        elif u < p_current + p_unseen:
            code = 0
        cells[r >> 2] = (cells[r >> 2] & ~(np.uint8(3) << np.uint8(2 * (r & 3)))) | (np.uint8(code) << np.uint8(2 * (r & 3)))


@numba.njit(cache=True)
def keep_canonical(cells, offset, n, k, perms, lo, hi):
    """Clear the fields of words [lo, hi) (rank offset + 32 w + i) whose board is not
    canonical under `perms`; returns (frontier boards left, the members of their orbits)."""
    mask = unrank(offset + 32 * lo, n, k)
    kept = weight = 0
    for r in range(32 * lo, 32 * hi):
        shift = np.uint8(2 * (r & 3))
        if canonical(mask, perms) != mask:
            cells[r >> 2] &= ~(np.uint8(3) << shift)
        elif (cells[r >> 2] >> shift) & np.uint8(3) == CURRENT:
            kept += 1
            weight += orbit_size(mask, perms)
        mask = next_subset(mask)
    return kept, weight


@dataclass
class Slice:
    cells: np.ndarray
    words: np.ndarray
    size: int
    parts: list[tuple[int, int, int]]  # (word lo, word hi, rank offset)

    @property
    def fold(self) -> int:
        return self.size - 1

    def frontier(self) -> int:
        """Frontier boards in the parts (every board of the level they stand for)."""
        pattern = np.uint64(CURRENT) * np.uint64(0x5555555555555555)
        total = 0
        for lo, hi, _ in self.parts:
            x = self.words[lo:hi] ^ pattern
            hits = (~(x | (x >> np.uint64(1)))) & np.uint64(0x5555555555555555)
            total += int(np.unpackbits(hits.view(np.uint8)).sum())
        return total

    def keep_canonical(self, perms: np.ndarray) -> tuple[int, int]:
        kept = weight = 0
        for lo, hi, offset in self.parts:
            got = keep_canonical(self.cells, offset, N, K, perms, lo, hi)
            kept, weight = kept + got[0], weight + got[1]
        return kept, weight


def make_slice(bits: int, share: int, chunks: int = 64, unseen: float = 0.012, seed: int = 12345) -> Slice:
    """2^bits boards of codes; 1/share of its words expanded, in `chunks` parts."""
    size = 1 << bits
    cells = huge_page_zeros(two_bit_bytes(size))
    fill_codes(cells, size, max(LEVEL_FRACTIONS), unseen, seed)
    words = cells.view(np.uint64)
    per = max(1, words.shape[0] // share // chunks)
    rng = np.random.default_rng(seed)
    parts = []
    for c in range(chunks):
        lo = 4 + c * per
        base = int(rng.integers(0, BOARDS - 32 * per))
        parts.append((lo, lo + per, base - 32 * lo))
    return Slice(cells, words, size, parts)
