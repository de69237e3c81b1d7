"""Where a 5 x 9 level's time goes in the two-bit engine (bfs/two_bit.py's expand_shared),
stage by stage, on a slice of the rank space that takes seconds to expand.

The slice (benchmarks/coins_slice.py): 2^SLICE_BITS boards with the codes of a peak
level, parts of it standing for runs of ranks from all over the rank space, children
folded into it (DRAM misses as on the real 18.3 GB array; only the TLB reach is kinder).

Each stage kernel does what the one before does plus one thing, over the same words:
  scan      the word test for frontier fields
  unrank    + a board mask for every frontier field (one unrank a word, Gosper's step)
  moves     + the children's masks (kernels.forward_moves)
  ranks     + the children's ranks (kernels.forward_move_ranks, incremental)
  probe     + one read of each child's field (memory traffic, no write)
  expand    the engine's kernel: + the atomic OR marks and the atomic XOR on the parent
The differences are the stages' costs. `--cached` also runs `probe` and `expand` with
children folded into 2^21 boards (512 KB: the L2 cache), which leaves the memory traffic
out and the atomics in.

    nice -n 10 python benchmarks/profile_coins_twobit_level.py --slice-bits 30 --share 32
"""

from __future__ import annotations

import argparse
import math
import time

import numba
import numpy as np
from coins_slice import make_slice
from common import write_json

from puzzlelab.core.bits import ctz
from puzzlelab.core.rank import next_subset, unrank
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.coins import kernels
from puzzlelab.puzzles.coins.bfs.two_bit import expand_shared

_FIELDS = np.uint64(0x5555555555555555)
N, K = 45, 13
BOARDS = math.comb(N, K)


@numba.njit(cache=True, nogil=True)
def stage_kernel(cells, words, current, n, k, geo, word_lo, word_hi, reserve, rank_offset, slice_mask, stage):
    """Stages 0..4 of the module docstring (scan, unrank, moves, ranks, probe); returns
    (frontier boards, children, a checksum that keeps the work from being optimised away)."""
    ranks = np.empty(reserve, dtype=np.int64)
    masks = np.empty(reserve, dtype=np.uint64)
    scratch = np.empty((3, 66), dtype=np.int64)
    pattern = np.uint64(current) * _FIELDS
    boards = 0
    children = 0
    check = np.int64(0)
    for w in range(word_lo, word_hi):
        x = words[w] ^ pattern
        hits = (~(x | (x >> np.uint64(1)))) & _FIELDS
        if hits == 0:
            continue
        if stage == 0:
            boards += kernels.popcount(hits)
            continue
        r = w * 32
        mask = unrank(r + rank_offset, n, k)
        at = 0
        while hits:
            field = np.int64(ctz(hits)) >> 1
            hits &= hits - np.uint64(1)
            while at < field:
                mask = next_subset(mask)
                at += 1
            boards += 1
            if stage == 1:
                check ^= np.int64(mask)
                continue
            if stage == 2:
                count = kernels.forward_moves(mask, geo, masks)
                children += count
                for i in range(count):
                    check ^= np.int64(masks[i])
                continue
            count = kernels.forward_move_ranks(mask, r + field + rank_offset, geo, ranks, scratch)
            children += count
            if stage == 3:
                for i in range(count):
                    check ^= ranks[i]
                continue
            for i in range(count):
                ranks[i] &= slice_mask
            for i in range(count):
                kernels.prefetch(cells, ranks[i] >> 2)
            for i in range(count):
                child = ranks[i]
                check += (cells[child >> 2] >> np.uint8(2 * (child & 3))) & np.uint8(3)
    return boards, children, check


def _time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        cpu = time.process_time()
        fn()
        times.append(time.process_time() - cpu)
    return float(np.median(times))


def profile(slice_bits: int, share: int, repeats: int, cached: bool) -> dict:
    piece = make_slice(slice_bits, share)
    cells, words = piece.cells, piece.words
    pristine = cells.copy()
    geo, reserve = kernels.geometry(5, 9), kernels.max_moves(N, K)

    def run_stage(stage: int, fold: int) -> tuple[int, int]:
        boards = children = 0
        for lo, hi, offset in piece.parts:
            got = stage_kernel(cells, words, 2, N, K, geo, lo, hi, reserve, offset, fold, stage)
            boards, children = boards + got[0], children + got[1]
        return boards, children

    def run_expand(fold: int) -> float:
        cells[:] = pristine
        cpu = time.process_time()
        for lo, hi, offset in piece.parts:
            expand_shared(cells, words, 2, N, K, piece.size, geo, lo, hi, Budget().control, reserve, offset, fold)
        return time.process_time() - cpu

    for stage in range(5):  # compile
        stage_kernel(cells, words, 2, N, K, geo, 0, 4, reserve, 0, piece.fold, stage)
    run_expand(piece.fold)
    cells[:] = pristine
    boards, children = run_stage(4, piece.fold)
    rows = {}
    names = ("scan", "unrank", "moves", "ranks", "probe")
    for stage, name in enumerate(names):
        rows[name] = _time(lambda s=stage: run_stage(s, piece.fold), repeats)
    if cached:
        rows["probe_cached"] = _time(lambda: run_stage(4, (1 << 21) - 1), repeats)
    rows["expand"] = float(np.median([run_expand(piece.fold) for _ in range(repeats)]))
    if cached:
        rows["expand_cached"] = float(np.median([run_expand((1 << 21) - 1) for _ in range(repeats)]))
    print(f"slice of {piece.size:,} boards ({cells.nbytes / 2**20:.0f} MiB), 1/{share} of it in {len(piece.parts)} parts: {boards:,} frontier "
          f"boards, {children / boards:.1f} children each; CPU seconds (median of {repeats}):")
    before = 0.0
    for name in (*names, "expand"):
        t = rows[name]
        print(f"   {name:<7} {t:7.3f} s  (+{t - before:6.3f} s, {1e9 * (t - before) / boards:6.1f} ns a board, "
              f"{1e9 * (t - before) / children:5.2f} ns a child, {(t - before) / rows['expand']:4.0%})")
        before = t
    for name in ("probe_cached", "expand_cached"):
        if name in rows:
            print(f"   {name:<13} {rows[name]:7.3f} s  (children folded into 2^21 boards, 512 KB: no DRAM traffic)")
    print(f"   {boards / rows['expand'] / 1e6:.2f} M boards expanded a CPU second ({children / rows['expand'] / 1e6:.0f} M children)")
    return {"slice_boards": piece.size, "share": share, "frontier_boards": boards, "children": children, "cpu_seconds": rows,
            "expanded_per_cpu_second": boards / rows["expand"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slice-bits", type=int, default=30)
    parser.add_argument("--share", type=int, default=32, help="expand 1/N of the slice's words")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cached", action="store_true", help="also probe a cache-sized fold of the slice")
    args = parser.parse_args()
    write_json("profile_coins_twobit_level", profile(args.slice_bits, args.share, args.repeats, args.cached))


if __name__ == "__main__":
    main()
