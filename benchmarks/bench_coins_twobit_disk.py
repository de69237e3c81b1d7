"""The disk-backed two-bit BFS (bfs/two_bit_bfs.py): a full 5 x 7 start checked against the
shipped optimal table, the first levels of a 5 x 9 start run whole, a measured slice of a
middle 5 x 9 level, and projections for one 5 x 9 start on N cores and for the whole
font on a Ray cluster (one start a node).

1. --part 5x7: one 5 x 7 start until its 36 targets are found (as the byte-array
   campaign ran), on every core: each target's level must equal the optimal length of
   src/puzzlelab/puzzles/coins/data/font5x7_optimal.json (proven by the byte array),
   each path rebuilt from the level files replays in the checker; per level the boards,
   the level file's bytes and bits a board, the CPU time; the peak memory.
2. --part 5x9: levels 0..--levels-5x9 of a 5 x 9 start whole, on an array whose pages
   are taken only where boards are marked (touch=False: this shared machine cannot give
   18.3 GB to a benchmark); per level the boards, the CPU time, the level file's bytes.
3. --part slice: 2^SLICE_BITS boards of the 5 x 9 rank space filled with the codes of a
   peak level (the 5 x 7 proportions), a 1/16 part of it expanded by the real kernel
   (expand_shared, atomics included) on 1 thread (--slice-share N: 1/N of it): boards expanded and children per CPU
   second; the level file encoder's and an empty scan's bytes per second.
4. The projection, with its assumptions printed.

    nice -n 10 python benchmarks/bench_coins_twobit_disk.py --part 5x7 --start font5x7:A
    nice -n 10 python benchmarks/bench_coins_twobit_disk.py --part 5x9 --part slice
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_coins_twobit import _fill_slice, huge_page_zeros
from common import OUT, write_json

from puzzlelab.core.result import NODES, Budget
from puzzlelab.puzzles.coins import PUZZLE, kernels, model
from puzzlelab.puzzles.coins.bfs.level_file import SPAN_WORDS, encode_span
from puzzlelab.puzzles.coins.bfs.two_bit import expand_shared, two_bit_bytes
from puzzlelab.puzzles.coins.bfs.two_bit_bfs import LEVEL_FRACTIONS, TwoBitRun, disk_estimate, memory_needed
from puzzlelab.puzzles.coins.optimal_table import load_table

BOARDS_5X9 = math.comb(45, 13)


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9


def _levels_table(run: TwoBitRun, history: list[dict]) -> list[dict]:
    sizes = run.level_file_bytes()
    rows = []
    for level, boards in enumerate(run.state["counts"]):
        row = {"level": level, "boards": boards, "level_file_bytes": sizes[level], "bits_per_board": 8 * sizes[level] / max(1, boards)}
        grown = next((h for h in history if h["level"] == level), None)
        if grown:
            row.update(cpu_seconds=grown["cpu_seconds"], seconds=grown["seconds"], expanded_before=grown["expanded"])
        rows.append(row)
        print(f"   level {level:2d}: {boards:>13,} boards  level file {sizes[level]:>12,} B ({row['bits_per_board']:.2f} bits a board)"
              + (f"  made in {grown['seconds']:.1f} s wall, {grown['cpu_seconds']:.1f} s cpu" if grown else ""))
    return rows


def part_5x7(start_key: str, threads: int, folder: Path) -> dict:
    begin = model.parse_start(start_key)
    table = load_table("font5x7")
    font = model.fonts()["font5x7"]
    targets = {g: font["glyphs"][g] for g in font["order"] if g != begin.glyph}
    run = TwoBitRun(begin, folder, threads=threads)
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = run.run(targets)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"two-bit disk BFS {start_key} on {run.threads} threads: {len(outcome.levels) - 1} levels, {sum(outcome.levels):,} boards, "
          f"{wall:.0f} s wall, {cpu:.0f} s cpu, peak memory {peak_rss_gb():.2f} GB")
    rows = _levels_table(run, outcome.history)
    checked, wrong = 0, []
    for glyph, board in targets.items():
        entry = table.entry(begin.glyph, glyph)
        level = outcome.found.get(glyph, -1)
        moves = run.moves(board) if level >= 0 else None
        ok = moves is not None and len(moves) == level and PUZZLE.verify(model.parse_instance(f"font5x7:{begin.glyph}-{glyph}"), moves).ok
        if entry is not None:
            checked += 1
            if not ok or level != entry.moves:
                wrong.append((glyph, level, entry.moves))
    print(f"   {checked} targets against the shipped table (byte-array BFS): {checked - len(wrong)} equal, paths replayed; wrong: {wrong}")
    reached = sum(outcome.levels)
    file_bytes = sum(r["level_file_bytes"] for r in rows)
    expanded = sum(h["expanded"] for h in outcome.history)
    out = {
        "start": start_key, "threads": run.threads, "levels": outcome.levels, "wall_seconds": wall, "cpu_seconds": cpu,
        "peak_rss_gb": peak_rss_gb(), "targets_checked": checked, "targets_wrong": wrong, "per_level": rows,
        "level_file_bytes_total": file_bytes, "bits_per_board": 8 * file_bytes / reached, "expanded": expanded,
        "expanded_per_cpu_second": expanded / cpu, "generated": int(sum(h["generated"] for h in outcome.history)),
        "byte_array_wall_seconds_campaign": json.loads(table_path().read_text())["provenance"]["starts"].get(begin.glyph, {}).get("wall_seconds"),
    }
    print(f"   level files {file_bytes / 1e6:.0f} MB, {out['bits_per_board']:.2f} bits a board reached; {expanded / cpu / 1e6:.2f} M boards expanded per cpu second")
    run.close()
    return out


def table_path() -> Path:
    from puzzlelab.puzzles import coins

    return Path(coins.__file__).parent / "data" / "font5x7_optimal.json"


def part_5x9(start_key: str, levels: int, threads: int, folder: Path) -> dict:
    begin = model.parse_start(start_key)
    run = TwoBitRun(begin, folder, threads=threads, touch=False)
    wall = time.perf_counter()
    outcome = run.run(max_level=levels, stop_when_found=False)
    print(f"5 x 9 {start_key}, levels 0..{levels} whole on {run.threads} threads: {time.perf_counter() - wall:.0f} s wall, "
          f"peak memory {peak_rss_gb():.2f} GB (array pages taken only where marked)")
    rows = _levels_table(run, outcome.history)
    run.close()
    return {"start": start_key, "levels": outcome.levels, "per_level": rows, "peak_rss_gb": peak_rss_gb()}


def part_slice(slice_bits: int, fractions: tuple[float, float], share: int = 16) -> dict:
    n, k = 45, 13
    size = 1 << slice_bits
    offset = BOARDS_5X9 // 2
    cells = huge_page_zeros(two_bit_bytes(size))
    words = cells.view(np.uint64)
    _fill_slice(cells, size, fractions[0], fractions[1], 2, 12345)
    geo, reserve = kernels.geometry(5, 9), kernels.max_moves(n, k)
    control = Budget().control
    expand_shared(cells, words, 2, n, k, size, geo, 0, 4, control, reserve, offset, size - 1)  # compile
    control[NODES] = 0
    part = words.shape[0] // share
    cpu = time.process_time()
    _, expanded, marked = expand_shared(cells, words, 2, n, k, size, geo, 4, 4 + part, control, reserve, offset, size - 1)
    cpu_s = time.process_time() - cpu
    generated = int(control[NODES])
    encode_span(words, 3, 0, 4)
    cpu = time.process_time()
    encoded = 0
    for lo in range(0, words.shape[0], SPAN_WORDS):
        encoded += encode_span(words, 3, lo, min(words.shape[0], lo + SPAN_WORDS))[0]
    encode_s = time.process_time() - cpu
    empty = huge_page_zeros(1 << 28)
    cpu = time.process_time()
    expand_shared(empty, empty.view(np.uint64), 2, n, k, 4 * empty.nbytes, geo, 0, empty.nbytes // 8, control, reserve, offset, size - 1)
    scan_s = time.process_time() - cpu
    out = {
        "slice_boards": size, "share_expanded": 1 / share, "fractions_current_old": fractions, "expanded": int(expanded), "marked": int(marked),
        "children": generated, "children_per_expanded": generated / max(1, expanded), "cpu_seconds": cpu_s,
        "expanded_per_cpu_second": expanded / cpu_s, "children_per_cpu_second": generated / cpu_s,
        "encoded": int(encoded), "encode_seconds_per_board": encode_s / max(1, encoded),
        "encode_bytes_per_cpu_second": cells.nbytes / encode_s, "scan_bytes_per_cpu_second": empty.nbytes / scan_s,
    }
    print(f"5 x 9 slice of {size:,} boards ({cells.nbytes / 2**30:.2f} GiB), 1/{share} of it expanded on 1 thread: {expanded:,} boards, "
          f"{out['children_per_expanded']:.1f} moves each, {out['expanded_per_cpu_second'] / 1e6:.3f} M boards expanded per cpu second "
          f"({generated / cpu_s / 1e6:.1f} M children/s); level file encoding {1e9 * out['encode_seconds_per_board']:.1f} ns a board "
          f"({encoded:,} boards), empty scan {out['scan_bytes_per_cpu_second'] / 1e9:.2f} GB/s of array")
    return out


def projection(rate: dict, reach: float, levels: int, cores: list[int], nodes: int, efficiency: float, probes: float) -> dict:
    array = two_bit_bytes(BOARDS_5X9)
    expanded = BOARDS_5X9 * reach
    scans = levels * array * 2 / rate["scan_bytes_per_cpu_second"]  # the expanding and the encoding scan of each level
    one_core = expanded / rate["expanded_per_cpu_second"] + scans + expanded * rate["encode_seconds_per_board"]
    out = {"reach_fraction_assumed": reach, "levels_assumed": levels, "parallel_efficiency_assumed": efficiency,
           "one_core_hours": one_core / 3600, "memory_bytes": memory_needed(BOARDS_5X9), "disk_bytes_estimate": disk_estimate(BOARDS_5X9)}
    print(f"projection, one 5 x 9 start ({BOARDS_5X9:,} boards, {reach:.0%} reached and {levels} levels as for 5 x 7, "
          f"each level one expanding scan and one encoding scan of the {array / 1e9:.1f} GB array, {scans / 3600:.1f} h of it): "
          f"1 core {one_core / 3600:.0f} h")
    # Each child is one random probe of the array: a node's memory system caps them all.
    memory_bound = expanded * rate["children_per_expanded"] / probes / 3600
    out.update(node_random_probes_per_second_assumed=probes, memory_bound_hours=memory_bound)
    for c in cores:
        hours = max(one_core / (c * efficiency) / 3600, memory_bound)
        out[f"cores_{c}_hours"] = hours
        print(f"   {c} cores: {hours:.1f} h ({efficiency:.0%} parallel efficiency assumed, and at most {probes / 1e9:.1f} G random "
              f"probes a second a node: {memory_bound:.1f} h at least)")
    per_node = max(one_core / (cores[-1] * efficiency) / 3600, memory_bound)
    rounds = math.ceil(37 / nodes)
    out.update(cluster_nodes=nodes, cluster_hours=rounds * per_node, node_cores=cores[-1])
    print(f"   whole font5x9 (37 starts) on a Ray cluster of {nodes} nodes x {cores[-1]} cores, one start a node "
          f"({memory_needed(BOARDS_5X9) / 1e9:.1f} GB memory, ~{disk_estimate(BOARDS_5X9) / 1e9:.0f} GB disk each): "
          f"{rounds} round(s) x {per_node:.1f} h = {rounds * per_node:.1f} h")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", action="append", choices=("5x7", "5x9", "slice", "projection"),
                        help="repeatable; default 5x9 and slice; `projection` alone recomputes it from the last figures")
    parser.add_argument("--start", default="font5x7:A")
    parser.add_argument("--start-5x9", default="font5x9:A")
    parser.add_argument("--levels-5x9", type=int, default=4, help="5 x 9 levels run whole (each level's marks take pages)")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--slice-bits", type=int, default=30)
    parser.add_argument("--slice-share", type=int, default=16, help="expand 1/N of the slice's words")
    parser.add_argument("--cores", type=int, nargs="+", default=[2, 16, 64])
    parser.add_argument("--nodes", type=int, default=37)
    parser.add_argument("--levels-assumed", type=int, default=45, help="levels of a whole 5 x 9 start (each costs two scans)")
    parser.add_argument("--node-probes", type=float, default=1.5e9, help="random array probes a second one node's memory serves (assumed)")
    parser.add_argument("--workdir", default=None, help="folder for the level files (default: a temporary one, removed)")
    args = parser.parse_args()
    parts = args.part or ["5x9", "slice"]
    base = Path(args.workdir or tempfile.mkdtemp(prefix="bench-twobit-"))
    report: dict = {"benchmark": "coins_twobit_disk", "note": "shared 2-core machine (a BFS campaign on both cores); CPU seconds"}
    previous = OUT / "coins_twobit_disk.json"
    if previous.exists():
        report.update({k: v for k, v in json.loads(previous.read_text()).items() if k in ("full_5x7", "first_levels_5x9", "slice")})
    try:
        if "5x7" in parts:
            report["full_5x7"] = part_5x7(args.start, args.threads or None, base / "5x7")
            shutil.rmtree(base / "5x7", ignore_errors=True)
        if "5x9" in parts:
            report["first_levels_5x9"] = part_5x9(args.start_5x9, args.levels_5x9, args.threads or None, base / "5x9")
        if "slice" in parts:
            fractions = (max(LEVEL_FRACTIONS), sum(LEVEL_FRACTIONS[: int(np.argmax(LEVEL_FRACTIONS))]))
            report["slice"] = part_slice(args.slice_bits, fractions, args.slice_share)
    finally:
        if not args.workdir:
            shutil.rmtree(base, ignore_errors=True)
    if "slice" in report:
        report["projection"] = projection(report["slice"], sum(LEVEL_FRACTIONS), args.levels_assumed, args.cores, args.nodes, 0.8, args.node_probes)
    write_json("coins_twobit_disk", report)


if __name__ == "__main__":
    main()
