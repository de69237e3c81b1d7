"""The row DP's min tables, wide (the earlier form: a hash table, 8 bytes a key word, a
4-byte penalty, an 8-byte value, at most half full) beside compact (rowdp/compact.py:
sorted keys in blocks, XOR-coded, a byte each for the penalty and the least penalty
still to come), on the same min passes (levels 1..k of order n under one bound), in one
process, the two forms alternated.

    python benchmarks/bench_hexagon_tables.py [--order 8] [--level 2] [--bound 19] [--repeats 3] [--blocks 32]

Prints for each form the bytes a state of the level-k pass takes (compact: as kept
during the pass, and after the fill drops the states with nothing within reach), the
ratio, and the median wall time of the passes; checks that both give the same lowest
states per step and the same grids. Then projects a level-3 proof at n = 13 (three
passes of 469 cells, the level in progress and the filled level below it on disk at
once, tables of the mean size measured here relative to the pass's peak): the largest
peak table that fits the disk and the memory in each form, beside the peak the n = 13
runs reached. The bytes a state are this order's; n = 13's level-3 keys take three
words where n = 8's take two, so read the projection as a rough one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.result import Budget  # noqa: E402
from puzzlelab.puzzles.hexagon.rowdp import compact as compact_tables  # noqa: E402
from puzzlelab.puzzles.hexagon.rowdp import dp, forms  # noqa: E402

N13_STEPS = 469
N13_SEEN_PEAK = 16_800_000  # n = 13, level 1 under the bound 30: states a table at cell 132 of 469, still growing (docs/hexagon-log.md)


def one_pass(n: int, level: int, bound: int, kind: str) -> dict:
    """The min passes up to `level` in tables of `kind` ("wide", or "compact" with its
    block size: "compact-32"): seconds (wall and CPU), states and bytes of the level's
    tables, and what the proof needs (the states per step, the first grids)."""
    dp.TABLES = kind.split("-")[0]
    if kind.startswith("compact-"):
        compact_tables.BLOCK = int(kind.split("-")[1])
    before_fill = {}
    fill = forms.fill_futures

    def measured_fill(setup, tables):
        if setup.k == level:
            before_fill["bytes"] = tables.bytes
        fill(setup, tables)

    forms.fill_futures = measured_fill
    try:
        stats = dp.DPStats()
        t0, c0 = time.perf_counter(), time.process_time()
        guide = dp._guides(n, level, bound, Budget(), stats)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        forms.fill_futures = fill
    steps = len(guide[1])
    states = sum(stats.sizes[-steps:])
    low = int(forms.penalties(guide[1][-1]).min())
    grids = dp._walk(n, guide, low, True, 8, allow_more=True)
    return {"seconds": seconds, "cpu": cpu, "states": states, "peak": max(stats.sizes[-steps:]), "bytes": guide[1].bytes,
            "bytes_in_pass": before_fill.get("bytes", guide[1].bytes), "sizes": stats.sizes, "grids": grids}


def project(in_pass: float, filled: float, peak_bytes_per_state: float, mean_over_peak: float, disk: float, memory: float) -> dict:
    """The largest peak table (states) a level-3 proof at n = 13 fits. On disk: the
    level in progress (bytes a state as kept in the pass) beside the filled level below
    that guides it, 469 tables each of mean size mean_over_peak x the peak. In memory:
    the step's hash table and its input (peak_bytes_per_state a state of the peak)."""
    disk_peak = disk / (N13_STEPS * mean_over_peak * (in_pass + filled))
    memory_peak = memory / peak_bytes_per_state
    return {"disk_peak": disk_peak, "memory_peak": memory_peak, "fits_seen": min(disk_peak, memory_peak) > N13_SEEN_PEAK}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--order", type=int, default=8)
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--bound", type=int, default=19, help="the penalty bound (n = 8's level-3 proof: 19)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--blocks", default="32", help="compact block sizes to run, comma-separated (the first is the one projected)")
    parser.add_argument("--disk-gb", type=float, default=70.0)
    parser.add_argument("--memory-gb", type=float, default=24.0)
    args = parser.parse_args()
    kinds = ["wide", *(f"compact-{b}" for b in args.blocks.split(","))]
    runs: dict[str, list[dict]] = {kind: [] for kind in kinds}
    for kind in kinds:  # compile (or load from numba's cache) every kernel first, so that no timed run pays for it
        one_pass(4, min(args.level, 3), 3, kind)
    for _ in range(args.repeats):
        for kind in kinds:
            runs[kind].append(one_pass(args.order, args.level, args.bound, kind))
    wide = runs["wide"][-1]
    same = all(r["grids"] == wide["grids"] and r["sizes"] == wide["sizes"] for rs in runs.values() for r in rs)
    states = wide["states"]
    per_state = {"wide": wide["bytes"] / states}
    for kind in kinds[1:]:
        per_state[f"{kind} in the pass"] = runs[kind][-1]["bytes_in_pass"] / states
        per_state[f"{kind} filled"] = runs[kind][-1]["bytes"] / states
    seconds = {kind: statistics.median(r["seconds"] for r in rs) for kind, rs in runs.items()}
    cpu = {kind: statistics.median(r["cpu"] for r in rs) for kind, rs in runs.items()}
    load = os.getloadavg()[0]
    print(f"n = {args.order}, levels 1..{args.level} under the bound {args.bound}: level {args.level}'s tables hold {states:,} states "
          f"(peak {wide['peak']:,} a table); same answers in both forms: {same}; load average {load:.1f}")
    for kind, value in per_state.items():
        ratio = f"({per_state['wide'] / value:.1f}x fewer than wide)" if kind != "wide" else ""
        print(f"  {kind:20s} {value:7.2f} bytes a state   {ratio}")
    for kind, value in seconds.items():
        print(f"  {kind:20s} {value:7.1f} s wall, {cpu[kind]:7.1f} s CPU (medians of {args.repeats}); "
              f"over wide: {value / seconds['wide']:.2f} wall, {cpu[kind] / cpu['wide']:.2f} CPU")
    mean_over_peak = states / (wide["peak"] * _steps(args.order))
    disk, memory = args.disk_gb * 1e9, args.memory_gb * 1e9
    # memory a state of the peak step: its hash table (up to 4 slots a state at 36 bytes, n = 13 level 3 having 3 key
    # words) and the step's input: the hash table before it (wide), or its sorted entries and the sort's scratch (compact)
    verdicts = {"wide": project(per_state["wide"], per_state["wide"], 4 * 36 + 4 * 36, mean_over_peak, disk, memory),
                "compact": project(per_state[f"{kinds[1]} in the pass"], per_state[f"{kinds[1]} filled"], 4 * 36 + 36 + 36, mean_over_peak, disk, memory)}
    print(f"Projection, a level-3 proof at n = 13 ({N13_STEPS} cells a pass, a level in progress beside the filled one below, a table's mean "
          f"{mean_over_peak:.2f} of its pass's peak as measured here; {args.disk_gb:.0f} GB disk, {args.memory_gb:.0f} GB memory):")
    for kind, v in verdicts.items():
        fits = min(v["disk_peak"], v["memory_peak"]) / 1e6
        verdict = (f"fits only if n = 13's tables stop growing below {fits:.0f} million" if v["fits_seen"]
                   else f"does not fit (n = 13's tables passed {N13_SEEN_PEAK / 1e6:.1f} million)")
        print(f"  {kind:8s} fits a peak of {fits:7.1f} million states a table (disk {v['disk_peak'] / 1e6:.1f}, memory "
              f"{v['memory_peak'] / 1e6:.1f}): {verdict}")
    print(f"  (n = 13, level 1 under the bound 30: {N13_SEEN_PEAK / 1e6:.1f} million states a table at cell 132 of 469, still growing)")
    write_json("bench_hexagon_tables", {"args": vars(args), "per_state": per_state, "seconds": seconds, "cpu": cpu, "same": same, "states": states,
                                        "peak": wide["peak"], "mean_over_peak": mean_over_peak, "projection": verdicts, "load": load})


def _steps(n: int) -> int:
    return 3 * n * (n - 1) + 1


if __name__ == "__main__":
    main()
