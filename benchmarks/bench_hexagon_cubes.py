"""What cube-and-conquer buys a proof: "no level-k grid with fewer penalties than the
published level-k minimum", as the one CaDiCaL call (the peer: what `sat` does) and
split into cubes refuted by worker processes (`hexagon/proof/cube_and_conquer.py`, what `prove` does),
side by side in one process run, repeated; medians of wall seconds and their ratio.
A third run screens the cubes at the lower levels first (`prove`'s default).

    python benchmarks/bench_hexagon_cubes.py [--orders 6,7] [--level 3] [--depth 12] [--workers 2] [--repeats 3]

Both prove the same formula (rule, lex-leader symmetry breaking, a fixed totalizer
bound); both must answer UNSAT, or the run fails. The single call runs on one core
whatever the machine has; the cubes use `--workers` processes, and with one worker
the ratio shows what the split itself costs or saves.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import prove_below  # noqa: E402
from puzzlelab.puzzles.hexagon.proof.cubes import proof_formula  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import level_table  # noqa: E402


def single_call(n: int, level: int, bound: int) -> float:
    """Wall seconds of the one UNSAT call (formula built outside the timing)."""
    from pysat.solvers import Solver

    _, clauses = proof_formula(n, level, bound)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        t0 = time.perf_counter()
        answer = solver.solve()
        seconds = time.perf_counter() - t0
    if answer:
        raise SystemExit(f"n={n}: the single call found a level-{level} grid with at most {bound} penalties")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="6,7")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for n in parse_range(args.orders):
        bound = level_table()[n][args.level - 1] - 1
        singles, splits, screens = [], [], []
        for _ in range(args.repeats):
            singles.append(single_call(n, args.level, bound))
            for screen_levels, times in (((), splits), (tuple(range(1, args.level)), screens)):
                t0 = time.perf_counter()
                summary = prove_below(n, args.level, bound, depth=args.depth, workers=args.workers, screen_levels=screen_levels)
                times.append(time.perf_counter() - t0)
                if not summary["proven"]:
                    raise SystemExit(f"n={n}: the cubes did not prove the bound ({summary})")
        single, split, screened = statistics.median(singles), statistics.median(splits), statistics.median(screens)
        rows.append({"n": n, "level": args.level, "bound": bound, "cubes": summary["cubes"], "depth": args.depth, "workers": args.workers,
                     "single_s": [round(t, 2) for t in singles], "cubes_s": [round(t, 2) for t in splits], "ratio": round(split / single, 3),
                     "screened_s": [round(t, 2) for t in screens], "screened_ratio": round(screened / single, 3)})
        print(f"n={n} level {args.level} <= {bound}: single call {single:.1f} s, {summary['cubes']} cubes on {args.workers} workers "
              f"{split:.1f} s, screened first {screened:.1f} s (median of {args.repeats}; cubes/single = {split / single:.2f}, "
              f"screened/single = {screened / single:.2f})", flush=True)
    write_json("bench_hexagon_cubes", {"rows": rows})


if __name__ == "__main__":
    main()
