"""The two-bit engine's level expansion before and after, side by side in one process on
the same 5 x 9 slice, and what the figure after projects for one whole 5 x 9 start and for
the whole font on a Ray cluster.

The slice (as profile_coins_twobit_level.py): 2^SLICE_BITS consecutive ranks from the
middle of the C(45, 13) boards, with the codes of a peak level (the 5 x 7 proportions),
children folded into it. 1/SHARE of its words is expanded, over and over from the same
codes:
- before: two_bit.expand_shared over every board of the part (what a start without
  symmetry, and every start until now, runs);
- the orbit kernel with no symmetry (a check that it marks what `before` marks; a start
  without symmetry runs `before`, the faster of the two);
- after, orbits: expand_orbits for START's stabilizer, on the same part with every
  non-canonical board cleared (the array of a run that keeps one board per orbit).
"Boards a CPU second" counts boards of the level done: each canonical board stands for
the members of its orbit. Rounds alternate the kernels (this machine is shared);
medians, and the ratio.

    nice -n 10 python benchmarks/bench_coins_twobit_fast.py --start font5x9:X

`--from-run X.json` projects from a whole start instead (the summary `coins bfs --json`
prints, or proofs/coins-font5x9/solved.json): each other start's CPU time is the run's
measured CPU time scaled by the kernels' relative rates (boards of a level a CPU second,
by the order of the start's stabilizer) from the last side-by-side run's JSON
(`--rates`, default benchmarks/out/coins_twobit_fast.json), and the whole font on a Ray
cluster, one start a node, with the node memory and disk that run measured:
    python benchmarks/bench_coins_twobit_fast.py --from-run X.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

import numpy as np
from bench_coins_twobit import huge_page_zeros
from coins_slice import BOARDS, Slice, fill_codes, make_slice
from common import write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.coins import kernels, model
from puzzlelab.puzzles.coins.bfs.level_file import SPAN_WORDS, encode_span
from puzzlelab.puzzles.coins.bfs.symmetry import stabilizer
from puzzlelab.puzzles.coins.bfs.two_bit import expand_shared, two_bit_bytes
from puzzlelab.puzzles.coins.bfs.two_bit_budget import LEVEL_FRACTIONS, disk_estimate, memory_needed
from puzzlelab.puzzles.coins.bfs.two_bit_orbits import expand_orbits

N, K = 45, 13


def _over_parts(kernel, piece: Slice):
    """Run a level kernel over every part of the slice; (expanded, marked) summed."""
    expanded = marked = 0
    for lo, hi, offset in piece.parts:
        got = kernel(lo, hi, offset)
        expanded, marked = expanded + int(got[1]), marked + int(got[2])
    return expanded, marked


def side_by_side(start_keys: list[str], slice_bits: int, share: int, rounds: int) -> dict:
    """Medians of `rounds` alternating runs of the kernels before and after on one slice."""
    piece = make_slice(slice_bits, share)
    cells, words, fold = piece.cells, piece.words, piece.fold
    plain = cells.copy()
    geo, reserve = kernels.geometry(5, 9), kernels.max_moves(N, K)
    none = np.zeros((0, 64), dtype=np.int64)

    def before(lo, hi, offset):
        return expand_shared(cells, words, 2, N, K, piece.size, geo, lo, hi, Budget().control, reserve, offset, fold)

    def after(perms):
        return lambda lo, hi, offset: expand_orbits(cells, words, 2, N, K, geo, perms, lo, hi, Budget().control, reserve, offset, fold)

    kinds = {"before": (plain, before), "orbit kernel, no symmetry": (plain, after(none))}
    boards = {"before": piece.frontier(), "orbit kernel, no symmetry": piece.frontier()}
    symmetries = {}
    for key in start_keys:
        names, perms = stabilizer(model.parse_start(key).board, 5, 9)
        cells[:] = plain
        _, boards[f"after, {key}"] = piece.keep_canonical(perms)
        symmetries[key] = names
        kinds[f"after, {key}"] = (cells.copy(), after(perms))
    cpu: dict[str, list[float]] = {name: [] for name in kinds}
    done: dict[str, tuple] = {}
    for round_ in range(rounds + 1):  # round 0 compiles and is not counted
        for name, (codes, kernel) in kinds.items():
            cells[:] = codes
            began = time.process_time()
            done[name] = _over_parts(kernel, piece)
            if round_:
                cpu[name].append(time.process_time() - began)
    assert done["orbit kernel, no symmetry"] == done["before"] and done["before"][0] == boards["before"]
    rate = {name: boards[name] / statistics.median(cpu[name]) for name in kinds}
    print(f"5 x 9 slice of {piece.size:,} boards ({cells.nbytes / 2**20:.0f} MiB), 1/{share} of it expanded in {len(piece.parts)} parts "
          f"from all over the rank space, {rounds} rounds (CPU seconds, medians):")
    for name in kinds:
        expanded, marked = done[name]
        print(f"   {name:<22} {statistics.median(cpu[name]):6.3f} s  {expanded:>10,} expanded ({marked / expanded:.2f} marks each) "
              f"for {boards[name]:>10,} boards of the level  {rate[name] / 1e6:5.2f} M boards a CPU second  x{rate[name] / rate['before']:.2f}")
    for key in start_keys:
        print(f"   {key}: {', '.join(symmetries[key]) or 'no symmetry'}")
    return {"slice_boards": piece.size, "share": share, "parts": len(piece.parts), "rounds": rounds, "cpu_seconds": cpu, "boards": boards,
            "expanded_marked": done, "symmetries": symmetries, "boards_per_cpu_second": rate,
            "ratio": {name: rate[name] / rate["before"] for name in kinds}}


def scan_and_encode_rates() -> dict:
    """Bytes a CPU second of a level's expanding scan over an empty array, and CPU
    seconds a board of the level file encoder (on a peak level's density)."""
    empty = huge_page_zeros(1 << 28)
    empty[:] = 0  # take the pages, as a run takes its array up front
    geo, reserve, none = kernels.geometry(5, 9), kernels.max_moves(N, K), np.zeros((0, 64), dtype=np.int64)
    expand_orbits(empty, empty.view(np.uint64), 2, N, K, geo, none, 0, 1, Budget().control, reserve, 0, -1)
    began = time.process_time()
    expand_orbits(empty, empty.view(np.uint64), 2, N, K, geo, none, 0, empty.nbytes // 8, Budget().control, reserve, 0, -1)
    scan = empty.nbytes / (time.process_time() - began)
    fill_codes(empty, 4 * empty.nbytes, max(LEVEL_FRACTIONS), 0.0, 7)
    words = empty.view(np.uint64)
    encode_span(words, 2, 0, 4)
    began, encoded = time.process_time(), 0
    for at in range(0, words.shape[0], SPAN_WORDS):
        encoded += encode_span(words, 2, at, at + SPAN_WORDS)[0]
    return {"scan_bytes_per_cpu_second": scan, "encode_cpu_seconds_per_board": (time.process_time() - began) / encoded}


def plan_start(key: str, rate: float, io: dict, cores: int, efficiency: float, levels: int, show=print) -> dict:
    """One whole 5 x 9 start from the measured rate: the boards reached as for 5 x 7
    (LEVEL_FRACTIONS), each level one expanding scan of the array and one encoding scan."""
    names, perms = stabilizer(model.parse_start(key).board, 5, 9)
    orbit = perms.shape[0] + 1
    reached = BOARDS * sum(LEVEL_FRACTIONS)
    array = two_bit_bytes(BOARDS)
    cpu = reached / rate + 2 * levels * array / io["scan_bytes_per_cpu_second"] + reached / orbit * io["encode_cpu_seconds_per_board"]
    wall = cpu / (cores * efficiency)
    plan = {"start": key, "symmetries": names, "boards_reached_assumed": reached, "levels_assumed": levels, "cpu_hours": cpu / 3600,
            "cores": cores, "efficiency_assumed": efficiency, "wall_hours": wall / 3600, "memory_bytes": memory_needed(BOARDS),
            "disk_bytes": disk_estimate(BOARDS, orbit)}
    show(f"   {key} ({', '.join(names) or 'no symmetry'}): {cpu / 3600:.1f} CPU h, {wall / 3600:.2f} h wall on {cores} cores "
         f"({efficiency:.0%} efficiency assumed), {plan['memory_bytes'] / 1e9:.1f} GB memory, ~{plan['disk_bytes'] / 1e9:.0f} GB disk")
    return plan


def project(rates: dict, io: dict, start_keys: list[str], args) -> dict:
    """One start on this machine, and the whole font on a Ray cluster, one start a node."""
    print(f"projection ({BOARDS:,} boards, {sum(LEVEL_FRACTIONS):.0%} reached and {args.levels} levels assumed, as for 5 x 7; "
          f"scans {io['scan_bytes_per_cpu_second'] / 1e9:.1f} GB a CPU second, encoding {1e9 * io['encode_cpu_seconds_per_board']:.1f} ns a board):")
    here = {key: plan_start(key, rates[f"after, {key}"], io, args.cores, args.efficiency, args.levels) for key in start_keys}
    here["before, no symmetry"] = plan_start("font5x9:A", rates["before"], io, args.cores, args.efficiency, args.levels, show=lambda line: print(line + "  (before)"))
    by_order = {1: rates["before"]}  # a start without symmetry runs the plain kernel
    for key in start_keys:
        by_order[len(stabilizer(model.parse_start(key).board, 5, 9)[0]) + 1] = rates[f"after, {key}"]
    font = model.fonts()["font5x9"]
    quiet = lambda line: None  # noqa: E731
    hours = []
    for glyph in font["order"]:
        order = len(stabilizer(font["glyphs"][glyph], 5, 9)[0]) + 1
        rate = by_order.get(order, by_order[max(o for o in by_order if o <= order)])
        hours.append(plan_start(f"font5x9:{glyph}", rate, io, args.node_cores, args.efficiency, args.levels, show=quiet)["wall_hours"])
    memory_bound = BOARDS * sum(LEVEL_FRACTIONS) * 80 / args.node_probes / 3600  # every child one random probe, no symmetry
    per_node = sorted(max(h, memory_bound / 2 if h < memory_bound else memory_bound) for h in hours)
    rounds = math.ceil(len(hours) / args.nodes)
    wall = sum(per_node[-args.nodes * r - 1] for r in range(rounds)) if rounds > 1 else per_node[-1]
    print(f"   whole font5x9 ({len(hours)} starts) on {args.nodes} Ray nodes of {args.node_cores} cores, one start a node "
          f"({memory_needed(BOARDS) / 1e9:.1f} GB of memory and up to ~{disk_estimate(BOARDS) / 1e9:.0f} GB of disk a node): "
          f"{wall:.1f} h wall, {sum(hours):.0f} node-hours (the slowest start {per_node[-1]:.1f} h; "
          f"at most {args.node_probes / 1e9:.1f} G random probes a second a node assumed)")
    return {"here": here, "font": {"nodes": args.nodes, "node_cores": args.node_cores, "wall_hours": wall, "node_hours": sum(hours),
            "node_memory_bytes": memory_needed(BOARDS), "node_disk_bytes": disk_estimate(BOARDS), "node_probes_assumed": args.node_probes}}


def run_figures(path: str) -> tuple[str, dict]:
    """(start, its run figures) from a `coins bfs --json` summary or from solved.json
    (its first start)."""
    data = json.loads(Path(path).read_text())
    if "starts" in data:
        start, entry = next(iter(data["starts"].items()))
        return f"{data.get('font', 'font5x9')}:{start}", entry["run"]
    return data["start"], data


def project_from_run(path: str, rates_path: str, args) -> dict:
    """The whole font from one measured start (see the module docstring)."""
    start, run = run_figures(path)
    rates = json.loads(Path(rates_path).read_text())["side_by_side"]["boards_per_cpu_second"]
    by_order = {1: rates["before"]}
    for key, rate in rates.items():
        if key.startswith("after, "):
            by_order[len(stabilizer(model.parse_start(key[len("after, "):]).board, 5, 9)[0]) + 1] = rate
    order_of = lambda glyph_board: len(stabilizer(glyph_board, 5, 9)[0]) + 1  # noqa: E731
    measured_order = order_of(model.parse_start(start).board)
    cpu, wall, peak = float(run["cpu_seconds"]), float(run.get("level_wall_seconds") or run["seconds"]), run.get("peak_memory_bytes")
    threads = int(run.get("threads") or args.cores)
    efficiency = cpu / (wall * threads) if wall else args.efficiency
    print(f"{start}, measured: {cpu / 3600:.2f} CPU h, {wall / 3600:.2f} h wall on {threads} threads ({efficiency:.0%} of them busy), "
          f"{len(run['levels']) - 1 if isinstance(run.get('levels'), list) else run.get('levels')} levels, peak memory {peak / 1e9 if peak else float('nan'):.1f} GB")
    font = model.fonts()["font5x9"]
    node_hours, slowest = [], 0.0
    for glyph in font["order"]:
        order = order_of(font["glyphs"][glyph])
        rate = by_order.get(order, by_order[max(o for o in by_order if o <= order)])
        start_cpu = cpu * by_order[measured_order] / rate
        hours = start_cpu / (args.node_cores * min(efficiency, args.efficiency)) / 3600
        node_hours.append(hours)
        slowest = max(slowest, hours)
    rounds = math.ceil(len(node_hours) / args.nodes)
    ranked = sorted(node_hours)
    wall_font = sum(ranked[-args.nodes * r - 1] for r in range(rounds)) if rounds > 1 else ranked[-1]
    print(f"whole font5x9 ({len(node_hours)} starts) on {args.nodes} Ray nodes of {args.node_cores} cores, one start a node "
          f"({(peak or memory_needed(BOARDS)) / 1e9:.1f} GB of memory a node, as measured; up to ~{disk_estimate(BOARDS) / 1e9:.0f} GB of disk "
          f"for a start without symmetry): {wall_font:.1f} h wall, {sum(node_hours):.0f} node-hours, the slowest start {slowest:.1f} h "
          f"(each start's CPU time: the measured {cpu / 3600:.2f} h scaled by the kernels' rates; "
          f"{min(efficiency, args.efficiency):.0%} of the node's cores assumed busy)")
    return {"start": start, "measured": {k: run.get(k) for k in ("cpu_seconds", "seconds", "level_wall_seconds", "peak_memory_bytes", "levels", "threads")},
            "font": {"nodes": args.nodes, "node_cores": args.node_cores, "wall_hours": wall_font, "node_hours": sum(node_hours),
                     "node_memory_bytes": peak, "node_disk_bytes": disk_estimate(BOARDS)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", default="font5x9:X,font5x9:T", help="starts whose orbits are measured (comma-separated)")
    parser.add_argument("--slice-bits", type=int, default=30)
    parser.add_argument("--share", type=int, default=64, help="expand 1/N of the slice's words")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cores", type=int, default=2, help="cores of the machine one start is projected on")
    parser.add_argument("--efficiency", type=float, default=0.8, help="parallel efficiency assumed on those cores")
    parser.add_argument("--levels", type=int, default=45, help="levels of a whole 5 x 9 start assumed (each costs two scans)")
    parser.add_argument("--nodes", type=int, default=37, help="Ray nodes, one start each")
    parser.add_argument("--node-cores", type=int, default=16)
    parser.add_argument("--node-probes", type=float, default=1.5e9, help="random array probes a second one node's memory serves (assumed)")
    parser.add_argument("--from-run", default=None, help="project from this whole start's figures (coins bfs --json, or solved.json)")
    parser.add_argument("--rates", default=str(Path(__file__).resolve().parent / "out" / "coins_twobit_fast.json"),
                        help="the side-by-side run whose kernel rates scale --from-run's CPU time")
    args = parser.parse_args()
    if args.from_run:
        write_json("coins_twobit_from_run", project_from_run(args.from_run, args.rates, args))
        return
    keys = [k.strip() for k in args.starts.split(",") if k.strip()]
    report = {"benchmark": "coins_twobit_fast", "side_by_side": side_by_side(keys, args.slice_bits, args.share, args.rounds)}
    report["io"] = scan_and_encode_rates()
    report["projection"] = project(report["side_by_side"]["boards_per_cpu_second"], report["io"], keys, args)
    write_json("coins_twobit_fast", report)


if __name__ == "__main__":
    main()
