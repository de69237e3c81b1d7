"""Exact column DP against CP-SAT (the peer) in one process run.

1. Random 15 x 60 grids with 5% blocked cells: median seconds of `solve_exact` and of
   CP-SAT's set partition (one thread, proven optimal), same grids, and the ratio
   (the target it was built for: DP at least 20 times faster). Both answers are verified and
   must agree.
   With --lp-duals, also the DP given the LP relaxation's duals as cell weights (its
   branch and bound then cuts most states; the LP's own time is counted beside).
2. The full 15 x 100 rectangle solved exactly (target: under 3 s), median of repeats,
   by `solve_exact` (the packed sweep with its branch and bound), and by the plain
   sweep that keeps every frontier shape (67,635 states a column).

Run: nice -n 10 .venv/bin/python benchmarks/bench_tiling.py [--grids 5] [--repeats 3] [--lp-duals]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from common import write_json

from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.bounds import lp_cell_weights
from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling
from puzzlelab.puzzles.tiling.dp import solve_exact
from puzzlelab.puzzles.tiling.model import Grid, format_solution


def random_grid(rng: np.random.Generator, height: int, width: int, blocked: float) -> np.ndarray:
    return rng.random((height, width)) >= blocked


def checked(free: np.ndarray, squares) -> int:
    grid = Grid.from_array(free)
    verdict = PUZZLE.verify(grid, format_solution(grid, squares))
    assert verdict.ok, verdict.message
    return verdict.value


def timed(fn, repeats: int):
    """(median wall seconds, median CPU seconds of this process, last value). Both
    peers run single-threaded here, so CPU seconds compare them fairly on a shared,
    overloaded machine, where wall time mostly measures the other jobs."""
    walls, cpus, value = [], [], None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        value = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), value


def lp_duals_line(free: np.ndarray, count: int, cp_cpu: float, repeats: int) -> dict:
    """The DP given the LP relaxation's duals (`bounds.lp_cell_weights`; the sweep aims at
    ceil(LP) and up): CPU seconds of the LP and of the sweeps, beside the plain DP's."""
    lp_s, lp_cpu, duals = timed(lambda: lp_cell_weights(free), repeats)
    _, dual_cpu, (value, squares, stats) = timed(lambda: solve_exact(free, duals=duals), repeats)
    assert value == count == checked(free, squares)
    plain = solve_exact(free)[2]["derived"]
    print(
        f"    with the LP's duals: lp {lp_cpu:.3f} s CPU + dp {dual_cpu:.3f} s CPU ({stats['sweeps']} sweeps, "
        f"{stats['derived'] / 1e6:.2f}M derived, plain {plain / 1e6:.1f}M)   ratio {cp_cpu / (lp_cpu + dual_cpu):6.1f}x CPU, "
        f"dp alone {cp_cpu / dual_cpu:6.1f}x"
    )
    return {
        "lp_cpu_s": lp_cpu,
        "dp_cpu_s": dual_cpu,
        "sweeps": stats["sweeps"],
        "derived_share": stats["derived"] / plain,
        "cpu_ratio": cp_cpu / (lp_cpu + dual_cpu),
        "cpu_ratio_dp_only": cp_cpu / dual_cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--grids", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cpsat-limit", type=float, default=120.0)
    parser.add_argument(
        "--lp-duals", action="store_true", help="also time the DP pruned with the LP's duals, LP solve included"
    )
    args = parser.parse_args()

    solve_exact(np.ones((3, 5), dtype=bool))  # compile / load the kernels outside the clock
    rng = np.random.default_rng(1560)
    rows, rows_duals = [], []
    for i in range(args.grids):
        free = random_grid(rng, 15, 60, 0.05)
        dp_s, dp_cpu, (count, squares, dp_stats) = timed(lambda: solve_exact(free), args.repeats)
        cp_s, cp_cpu, (status, value, cp_squares, bound, _) = timed(
            lambda: cpsat_tiling(free, budget=Budget(args.cpsat_limit), threads=1), 1
        )
        assert checked(free, squares) == count
        assert checked(free, cp_squares) == value
        proven = status == Status.OPTIMAL
        if proven:
            assert value == count, (value, count)
        rows.append(
            {
                "grid": i,
                "squares": count,
                "dp_s": dp_s,
                "dp_cpu_s": dp_cpu,
                "dp_derived": dp_stats["derived"],
                "dp_peak_states": dp_stats["peak_states"],
                "cpsat_s": cp_s,
                "cpsat_cpu_s": cp_cpu,
                "cpsat_optimal": proven,
                "ratio": cp_s / dp_s,
                "cpu_ratio": cp_cpu / dp_cpu,
            }
        )
        print(
            f"15x60 grid {i}: {count} squares   dp {dp_s:7.3f} s ({dp_cpu:.3f} s CPU, "
            f"{dp_stats['derived'] / 1e6:.1f}M derived)   "
            f"cpsat {cp_s:7.2f} s ({cp_cpu:.2f} s CPU){'' if proven else ' (not proven)'}   "
            f"ratio {cp_s / dp_s:6.1f}x wall, {cp_cpu / dp_cpu:6.1f}x CPU"
        )
        if args.lp_duals:
            rows_duals.append(lp_duals_line(free, count, cp_cpu, args.repeats))
    ratios = [r["ratio"] for r in rows]
    cpu_ratios = [r["cpu_ratio"] for r in rows]
    if rows_duals:
        print(
            "with the LP's duals: median CPU ratio cpsat/(lp + dp) "
            f"{statistics.median(r['cpu_ratio'] for r in rows_duals):.1f}x, cpsat/dp alone "
            f"{statistics.median(r['cpu_ratio_dp_only'] for r in rows_duals):.1f}x, "
            f"derived states {statistics.median(r['derived_share'] for r in rows_duals):.3f} of the plain sweep's"
        )
    print(
        f"median ratio cpsat/dp on 15x60, 5% blocked: {statistics.median(ratios):.1f}x wall, "
        f"{statistics.median(cpu_ratios):.1f}x CPU (target >= 20x)"
    )

    full = np.ones((15, 100), dtype=bool)
    full_s, full_cpu, (count, squares, stats) = timed(lambda: solve_exact(full), args.repeats)
    assert checked(full, squares) == count
    print(
        f"full 15x100 rectangle: {count} squares in {full_s:.3f} s wall, {full_cpu:.3f} s CPU "
        f"(median of {args.repeats}; target < 3 s), peak {stats['peak_states']} states"
    )
    # the same rectangle without the branch and bound: every frontier shape of every column
    from puzzlelab.puzzles.tiling.dp import ColumnDP

    def full_sweep():
        dp = ColumnDP(full)
        return dp.run(), dp.peak_states

    sweep_s, sweep_cpu, (sweep_count, sweep_peak) = timed(full_sweep, args.repeats)
    assert sweep_count == count
    print(
        f"full 15x100 without the bound (ColumnDP, all states): {sweep_s:.3f} s wall, {sweep_cpu:.3f} s CPU, "
        f"peak {sweep_peak} states"
    )
    write_json(
        "tiling",
        {
            "benchmark": "tiling dp vs cpsat",
            "rows": rows,
            "median_ratio": statistics.median(ratios),
            "median_cpu_ratio": statistics.median(cpu_ratios),
            "lp_duals": rows_duals,
            "full_15x100": {"squares": count, "seconds": full_s, "cpu_seconds": full_cpu, "peak_states": stats["peak_states"]},
            "full_15x100_unbounded": {"seconds": sweep_s, "cpu_seconds": sweep_cpu, "peak_states": sweep_peak},
        },
    )


if __name__ == "__main__":
    main()
