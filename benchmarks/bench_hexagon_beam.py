"""The hexagon beam kernel as the write-up tunes it (seed write-up, "Beam search": a
lookaside cache of a cell's assignment penalties, cell values packed in the fewest
bits) beside the reference kernel, in one process on the same runs (same order, width,
seed, levels): `history` (a parent index and a value per step per state), `packed`
(the packed grid, no cache) and `cached` (packed with the cache, the default of
beam_search). Prints median seconds, states a second (children generated, the
kernel's node count), the cache's hit rate, states per GB of the kernel's arrays
(beam.beam_bytes, the memory check's figure, less its fixed part) and the ratios to `history`.
Every run's final states must be the same grids with the same penalties, and the best
grid of each (levels 5) must pass the verifier, or the run fails.

    python benchmarks/bench_hexagon_beam.py [--orders 7,9,12] [--width 20000] [--levels 5]
        [--order spiral] [--seed 0] [--repeats 3] [--keep 20] [--cache-bits 14]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.core.result import NODES, Budget  # noqa: E402
from puzzlelab.puzzles.hexagon.beam.search import CACHE_BITS, beam_bytes, beam_plan, cell_order, run_kernel  # noqa: E402
from puzzlelab.puzzles.hexagon.completion.linear import split_sixes  # noqa: E402
from puzzlelab.puzzles.hexagon.model import hexagon  # noqa: E402
from puzzlelab.puzzles.hexagon.scoring import level_penalty  # noqa: E402
from puzzlelab.puzzles.hexagon.verify import rule_violation  # noqa: E402

KERNELS = {"history": ("history", 0), "packed": ("packed", 0), "cached": ("packed", None)}


def one_run(n: int, name: str, args) -> dict:
    """One kernel on one run: median seconds, nodes, the final states, cache figures."""
    kernel, cache_bits = KERNELS[name]
    g = hexagon(n)
    order = cell_order(g, args.order)
    plan = beam_plan(g, order, args.levels)
    zobrist = np.random.default_rng(args.seed).integers(0, np.iinfo(np.int64).max, size=(plan.slots, 8, 64), dtype=np.int64).astype(np.uint64)
    bits = args.cache_bits if cache_bits is None else cache_bits
    times = []
    for _ in range(args.repeats):
        budget = Budget()
        start = time.perf_counter()
        states, penalty, count, done, lookups, hits = run_kernel(plan, args.levels, args.width, zobrist, 1 << 30, budget, kernel, bits)
        times.append(time.perf_counter() - start)
    finals = []
    for t in range(min(args.keep, count)):
        values = [0] * g.cells
        for i, v in enumerate(states(t)):
            values[order[i]] = v
        finals.append((int(penalty[t]), values))
    seconds = statistics.median(times)
    nodes = int(budget.control[NODES])
    nbytes = beam_bytes(g.cells, plan.slots, args.width, args.levels, kernel) - beam_bytes(g.cells, plan.slots, 0, args.levels, kernel)
    return {
        "seconds": round(seconds, 3),
        "states_per_s": round(nodes / seconds),
        "hit_rate": round(hits / lookups, 4) if lookups else None,
        "bytes_per_state": round(nbytes / args.width),
        "states_per_gb": round(args.width * 1e9 / nbytes),
        "finals": finals,
        "done": done == len(order),
    }


def check(n: int, runs: dict, levels: int) -> int:
    """The kernels agree state for state; the penalties are the grids' own; the best
    grid passes the verifier (levels 5). Returns the best penalty."""
    g = hexagon(n)
    reference = runs["history"]["finals"]
    for name, run in runs.items():
        if run["finals"] != reference:
            raise SystemExit(f"n={n}: kernel {name} differs from history")
    for penalty, values in reference:
        if penalty != level_penalty(g, values, levels):
            raise SystemExit(f"n={n}: penalty {penalty} is not the grid's")
    if levels == 5 and reference:
        problem = rule_violation(n, split_sixes(g, reference[0][1]))
        if problem:
            raise SystemExit(f"n={n}: best grid fails the verifier: {problem}")
    return reference[0][0] if reference else -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", default="7,9,12")
    parser.add_argument("--width", type=int, default=20000)
    parser.add_argument("--levels", type=int, default=5)
    parser.add_argument("--order", default="spiral")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=int, default=20)
    parser.add_argument("--cache-bits", type=int, default=CACHE_BITS)
    args = parser.parse_args()
    for name in KERNELS:  # compile outside the timings
        one_run(3, name, argparse.Namespace(**{**vars(args), "repeats": 1, "width": 10}))
    rows = []
    print(f"width {args.width}, levels {args.levels}, {args.order} order, seed {args.seed}, median of {args.repeats}")
    print("  n  kernel   seconds  states/s   hits    states/GB  speed x  per-GB x  penalty")
    for n in parse_range(args.orders):
        runs = {name: one_run(n, name, args) for name in KERNELS}
        best = check(n, runs, args.levels)
        base = runs["history"]
        for name, run in runs.items():
            speed = base["seconds"] / run["seconds"]
            dense = run["states_per_gb"] / base["states_per_gb"]
            hits = f"{run['hit_rate']:.1%}" if run["hit_rate"] is not None else "-"
            print(f"{n:3d}  {name:8s} {run['seconds']:7.2f}  {run['states_per_s']:9,d}  {hits:>6s}  {run['states_per_gb']:10,d}  {speed:6.2f}  {dense:7.2f}  {best}")
            rows.append({"n": n, "kernel": name, **{k: v for k, v in run.items() if k != "finals"}, "speed_ratio": round(speed, 3), "per_gb_ratio": round(dense, 3), "penalty": best})
    write_json("bench_hexagon_beam", {"args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
