"""What the sound symmetry breaking buys a proof: the one UNSAT call that proves a grid
optimal through its proof level (`sat` from a given grid), with each `--symmetry`
mode side by side in one process. `none` is the naive peer; `centre` is one clause;
`lex` (the default) keeps one grid per orbit of the twelve symmetries (symmetry.py).

    python benchmarks/bench_hexagon_symmetry.py [--orders 6] [--seeds 3] [--limit 600] [--modes lex,centre,none]

The grid is found first with the published arguments for n (within `--limit`); each
mode then proves it from scratch on a fresh solver, once per seed (seed = clause order;
SAT times swing with it), and the median CPU seconds and the ratio to the first mode
are printed. The proof is one SAT call, which runs to its end (n = 6 without symmetry
breaking: about 90 s here; n = 7 at level 3 with lex: over 300 s).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hexagon_best import proof_level  # noqa: E402
from common import write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.puzzles.hexagon import PUZZLE  # noqa: E402
from puzzlelab.puzzles.hexagon.cnf.encoding import SYMMETRY_CHOICES  # noqa: E402
from puzzlelab.puzzles.hexagon.model import HexInstance  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import published_arguments, published_table  # noqa: E402
from puzzlelab.puzzles.hexagon.sat.search import sat_search  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="6")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--limit", type=float, default=600.0, help="seconds for finding the grid")
    parser.add_argument("--modes", default="lex,centre,none")
    args = parser.parse_args()
    modes = args.modes.split(",")
    for mode in modes:
        if mode not in SYMMETRY_CHOICES:
            raise SystemExit(f"--modes: each must be one of {SYMMETRY_CHOICES}, got {mode!r}")
    rows = []
    for n in parse_range(args.orders):
        best = int(published_table()[n]["best_raw_score"])
        found = PUZZLE.solve(HexInstance(n), "sat", budget=args.limit, target=best, **published_arguments(n))
        if found.value != best or not found.verified:
            print(f"n={n}: the published score {best} was not reached ({found.value}); skipped", flush=True)
            continue
        grid = list(PUZZLE.parse(found.solution).start)
        level = proof_level(n)
        medians = {}
        for mode in modes:
            times = []
            for seed in range(args.seeds):
                c0 = time.process_time()
                summary = sat_search(n, {"levels": level, "symmetry": mode}, seed=seed, start=grid)
                times.append(time.process_time() - c0)
                # Every mode is sound, so every one must prove the same grid optimal.
                if summary["proven"] != "optimal" or summary["penalty"] != found.stats["penalty"]:
                    raise SystemExit(f"n={n} {mode} seed {seed}: not proven optimal ({summary['proven']}, lower {summary['lower']})")
            medians[mode] = statistics.median(times)
            rows.append({"n": n, "level": level, "mode": mode, "median_cpu": round(medians[mode], 2), "cpu": [round(t, 2) for t in times]})
        base = medians[modes[0]]
        line = "  ".join(f"{m} {medians[m]:.1f}s (x{medians[m] / base:.1f})" for m in modes)
        print(f"n={n} proof at level {level} (raw {best}), median CPU over {args.seeds} seeds: {line}", flush=True)
    write_json("bench_hexagon_symmetry", {"rows": rows, "limit": args.limit})


if __name__ == "__main__":
    main()
