"""The two-bit level array (5 x 9 boards beyond what `bidir` can hold): measured on
5 x 7 and on a slice of the 5 x 9 rank space, and projected to full 5 x 9 runs and to
all 2,664 puzzles.

1. Exactness: the two-bit BFS (bfs/two_bit.py) from a 5 x 7 glyph gives the same level
   counts as the byte array (--byte-state: a bfs state.json), per level CPU time beside.
2. Why not levels mod 3 in a directed graph, from a finished 5 x 7 byte array
   (--byte-array): how many boards a mod-3 scan would expand (each board again every
   third level), and how often a predecessor carrying the right code (L - 1) mod 3 sits
   at another level, on the paths to all targets.
3. Rate on a slice: 2^SLICE_BITS boards of the 5 x 9 rank space in the middle of it,
   filled with frontier / old / unseen codes in the proportions of a peak level, then
   one level expanded, children folded into the slice: children per CPU second, and
   the scan rate of a level with no frontier (bytes per second).
4. Projection: boards reached x moves per board / rate + levels x scan time, on 1 core,
   N cores, and a cluster, with the assumptions printed; and the total for all puzzles.

    nice -n 10 python benchmarks/bench_coins_twobit.py --byte-state DIR/state.json --byte-array DIR/levels.u8
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numba
import numpy as np
from common import write_json

from puzzlelab.core.rank import rank
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.coins import kernels, model
from puzzlelab.puzzles.coins.bfs.byte_kernels import padded_length
from puzzlelab.puzzles.coins.bfs.two_bit import OLD, TwoBitBfs, expand_two_bit, two_bit_bytes
from puzzlelab.puzzles.coins.memory import zeroed


def part_exactness(start: str, byte_counts: list[int] | None, byte_history: list[dict] | None, max_level: int) -> dict:
    begin = model.parse_start(start)
    bfs = TwoBitBfs(begin.width, begin.height, begin.board, keep_levels=False)
    wall = time.perf_counter()
    counts = bfs.run(max_level=max_level)
    out = {"start": start, "levels": counts, "seconds": time.perf_counter() - wall, "history": bfs.history}
    if byte_counts is not None:
        limit = min(len(counts), len(byte_counts))
        out["equal_to_byte_array"] = counts[:limit] == byte_counts[:limit]
        print(f"two-bit BFS {start}, levels 0..{limit - 1}: counts equal to the byte array's: {out['equal_to_byte_array']}")
    for h in bfs.history:
        byte = next((b for b in (byte_history or []) if b["level"] == h["level"]), None)
        extra = "" if byte is None else f"   byte array {byte['cpu_seconds']:.1f} s cpu"
        print(f"   level {h['level']:2d}: {h['boards']:>11,} boards  two-bit {h['cpu_seconds']:.1f} s cpu{extra}")
    return out


@numba.njit(cache=True)
def _mod3_ambiguity(levels, paths_boards, geo, reserve):
    """For each board X (level j) on the given paths: predecessors coded (j-1) mod 3,
    how many sit at j - 1 and how many elsewhere; and whether some reversible one does."""
    wrong = 0
    right = 0
    steps_without_reversible = 0
    buf = np.empty(reserve, dtype=np.uint64)
    back = np.empty(reserve, dtype=np.uint64)
    for i in range(paths_boards.shape[0]):
        x = paths_boards[i]
        j = np.int64(levels[rank(x)]) - 1
        if j <= 0:
            continue
        n = kernels.backward_moves(x, geo, buf)
        reversible_ok = False
        for t in range(n):
            y = buf[t]
            ly = np.int64(levels[rank(y)]) - 1
            if ly < 0 or ly % 3 != (j - 1) % 3:
                continue
            if ly == j - 1:
                right += 1
                m = kernels.forward_moves(x, geo, back)  # is x -> y a move too?
                for u in range(m):
                    if back[u] == y:
                        reversible_ok = True
                        break
            else:
                wrong += 1
        if not reversible_ok:
            steps_without_reversible += 1
    return right, wrong, steps_without_reversible


def part_mod3(byte_state: dict, byte_array: str | None, start: str) -> dict:
    counts = byte_state["counts"]
    expanded_mod3 = sum(sum(counts[level - 3 * j] for j in range(level // 3 + 1)) for level in range(len(counts)))
    factor = expanded_mod3 / sum(counts)
    out = {"mod3_expansion_factor": factor}
    print(f"levels mod 3: a scan for code L mod 3 expands {factor:.2f}x the boards of an exact BFS (5 x 7, {start})")
    if byte_array:
        from puzzlelab.puzzles.coins.bfs.byte_kernels import path_back

        begin = model.parse_start(start)
        n, k = begin.width * begin.height, model.popcount(begin.board)
        levels = np.memmap(byte_array, dtype=np.uint8, mode="r", shape=(padded_length(math.comb(n, k)),))
        geo, reserve = kernels.geometry(begin.width, begin.height), kernels.max_moves(n, k)
        font = model.fonts()[begin.font]
        boards = []
        for glyph in font["order"]:
            if glyph != begin.glyph:
                boards.extend(int(b) for b in path_back(levels, np.uint64(font["glyphs"][glyph]), geo, reserve, np.zeros((0, 64), np.int64)))
        right, wrong, without = _mod3_ambiguity(levels, np.array(boards, dtype=np.uint64), geo, reserve)
        out.update(path_boards=len(boards), predecessors_right=int(right), predecessors_wrong=int(wrong), steps_without_reversible=int(without))
        print(
            f"   on the paths to all targets ({len(boards)} boards): predecessors with the right code: {right} at level L-1, "
            f"{wrong} at another level ({100 * wrong / max(1, right + wrong):.1f}%); steps with no reversible predecessor "
            f"at L-1 (where a code-only walk must guess): {without}"
        )
    return out


def huge_page_zeros(nbytes: int) -> np.ndarray:
    """Zeroed anonymous memory advised to use huge pages, as the engine takes its array
    (coins/memory.py's `zeroed`)."""
    return zeroed(nbytes)[1]


@numba.njit(cache=True)
def _fill_slice(cells, total, p_current, p_old, current, seed):
    """Random codes in the proportions of a peak level (xorshift, reproducible)."""
    x = np.uint64(seed) | np.uint64(1)
    for r in range(total):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        u = (x >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        code = 0
        if u < p_current:
            code = current
        elif u < p_current + p_old:
            code = OLD
        cells[r >> 2] |= np.uint8(code) << np.uint8(2 * (r & 3))


def part_slice(slice_bits: int, fractions: tuple[float, float]) -> dict:
    n, k = 45, 13
    total = math.comb(n, k)
    size = 1 << slice_bits
    offset = total // 2
    cells = huge_page_zeros(two_bit_bytes(size))
    words = cells.view(np.uint64)
    p_current, p_old = fractions
    _fill_slice(cells, size, p_current, p_old, 2, 12345)
    geo, reserve = kernels.geometry(5, 9), kernels.max_moves(n, k)
    control = Budget().control
    kept = np.empty(0, dtype=np.int64)
    expand_two_bit(cells, words, 2, n, k, size, geo, 0, 4, control, reserve, kept, 0, offset, size - 1)  # compile
    # Expand the frontier of 1/64 of the slice; its children probe the whole slice.
    wall, cpu = time.perf_counter(), time.process_time()
    control[2] = 0
    _, expanded, marked, _ = expand_two_bit(cells, words, 2, n, k, size, geo, 4, words.shape[0] // 64, control, reserve, kept, 0, offset, size - 1)
    cpu_s = time.process_time() - cpu
    generated = int(control[2])
    # A scan that finds no frontier (code 2 is gone from an all-unseen array): the
    # per-level floor set by the array's size.
    empty = huge_page_zeros(1 << 28)
    empty_words = empty.view(np.uint64)
    cpu2 = time.process_time()
    expand_two_bit(empty, empty_words, 2, n, k, 4 * empty.nbytes, geo, 0, empty_words.shape[0], control, reserve, kept, 0, offset, size - 1)
    scan_cpu = time.process_time() - cpu2
    out = {
        "slice_boards": size,
        "slice_bytes": cells.nbytes,
        "fractions_current_old": fractions,
        "expanded": int(expanded),
        "children": generated,
        "children_per_expanded": generated / max(1, expanded),
        "cpu_seconds": cpu_s,
        "wall_seconds": time.perf_counter() - wall,
        "children_per_cpu_second": generated / cpu_s,
        "scan_bytes_per_cpu_second": empty.nbytes / max(scan_cpu, 1e-9),
    }
    print(
        f"5 x 9 slice of {size:,} boards ({cells.nbytes / 2**30:.1f} GiB at two bits): {expanded:,} boards expanded, "
        f"{generated / max(1, expanded):.1f} moves each, {generated / cpu_s / 1e6:.1f} M children per cpu second; "
        f"empty-level scan {out['scan_bytes_per_cpu_second'] / 1e9:.2f} GB/s"
    )
    return out


def part_projection(slice_row: dict, reach_fraction: float, levels: int, cores: int, nodes: int, bfs_5x7_seconds: float | None) -> dict:
    total = math.comb(45, 13)
    reached = total * reach_fraction
    children = reached * slice_row["children_per_expanded"]
    expand_s = children / slice_row["children_per_cpu_second"]
    scan_s = levels * two_bit_bytes(total) / slice_row["scan_bytes_per_cpu_second"]
    one_core = expand_s + scan_s
    # Cores share the array; the kernel is bound by memory latency, so assume 80%
    # parallel efficiency (an assumption: this shared machine cannot measure it).
    n_cores = one_core / (cores * 0.8)
    # A cluster partitions the ranks; each child rank (5 bytes) goes to its owner.
    network_bytes = children * 5
    cluster = n_cores / nodes + network_bytes / nodes / (10e9 / 8) * 0.5
    out = {
        "boards": total,
        "reach_fraction_assumed": reach_fraction,
        "children": children,
        "one_core_seconds": one_core,
        "cores": cores,
        "n_cores_seconds": n_cores,
        "nodes": nodes,
        "cluster_seconds": cluster,
        "array_bytes": two_bit_bytes(total),
    }
    print(
        f"projection for one 5 x 9 start ({total:,} boards, {reach_fraction:.0%} reached as for 5 x 7, "
        f"{slice_row['children_per_expanded']:.1f} moves a board, {levels} levels): "
        f"1 core {one_core / 3600:.1f} h; {cores} cores {n_cores / 3600:.1f} h (80% efficiency assumed); "
        f"{nodes} nodes of {cores} cores {cluster / 3600:.2f} h (10 Gb/s links, rank exchange half overlapped); "
        f"array {two_bit_bytes(total) / 1e9:.1f} GB (+ level files ~5 bits a board on disk)"
    )
    starts = 37
    out["all_5x9_one_core_hours"] = starts * one_core / 3600
    out["all_5x9_n_cores_hours"] = starts * n_cores / 3600
    out["all_5x9_cluster_hours"] = starts * cluster / 3600
    if bfs_5x7_seconds is not None:
        out["all_5x7_one_core_hours"] = starts * bfs_5x7_seconds / 3600
        print(
            f"all 2,664 puzzles: font5x7 37 starts x {bfs_5x7_seconds:.0f} s (measured bfs) = {starts * bfs_5x7_seconds / 3600:.1f} h on one core; "
            f"font5x9 37 x {one_core / 3600:.1f} h = {starts * one_core / 3600:.0f} h on one core, "
            f"{starts * n_cores / 3600:.0f} h on {cores} cores, {starts * cluster / 3600:.1f} h on {nodes} nodes"
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", default="font5x7:A")
    parser.add_argument("--byte-state", help="state.json of a finished 5 x 7 bfs run (level counts and times)")
    parser.add_argument("--byte-array", help="levels.u8 of that run (for the mod-3 path analysis)")
    parser.add_argument("--exact-levels", type=int, default=12, help="two-bit BFS levels to run on 5 x 7")
    parser.add_argument("--slice-bits", type=int, default=31)
    parser.add_argument("--cores", type=int, default=32)
    parser.add_argument("--nodes", type=int, default=16)
    parser.add_argument("--levels-5x9", type=int, default=45, help="levels of a 5 x 9 run (assumed)")
    args = parser.parse_args()
    state = json.loads(Path(args.byte_state).read_text()) if args.byte_state else None
    if state and state.get("symmetry") and args.byte_array:
        parser.error("--byte-array: this array holds one board per orbit; make one with bench_coins_bfs.py --no-symmetry")
    report: dict = {"benchmark": "coins_twobit", "note": "shared 2-core machine; CPU seconds"}
    report["exact"] = part_exactness(args.start, state and state["counts"], state and state["history"], args.exact_levels)
    fractions = (0.15, 0.35)
    reach = 0.9
    bfs_seconds = None
    if state is not None:
        report["mod3"] = part_mod3(state, args.byte_array, args.start)
        counts = state["counts"]
        peak = int(np.argmax(counts))
        total = sum(counts)
        fractions = (counts[peak] / total, sum(counts[:peak]) / total)
        reach = total / math.comb(35, 12)
        bfs_seconds = sum(h["cpu_seconds"] for h in state["history"])
    report["slice"] = part_slice(args.slice_bits, fractions)
    report["projection"] = part_projection(report["slice"], reach, args.levels_5x9, args.cores, args.nodes, bfs_seconds)
    write_json("coins_twobit", report)


if __name__ == "__main__":
    main()
