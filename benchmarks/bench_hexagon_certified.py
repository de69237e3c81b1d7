"""What certified UNSAT answers cost (issue 25): the proofs of n = 3.. ("no level-k grid
with at most E - published - 1 penalty edges", k = proof.proof_level: 3 for n = 4-6 and
8-9, 4 for n = 7), run as `prove` runs them
(the peer: trusted CaDiCaL answers, no screens) and certified (`prove --certified`:
each cube's UNSAT with CaDiCaL's DRAT proof, checked by core/drat.py), side by side.
Per order: cubes, DRAT bytes, solving seconds (summed over cubes), checking seconds
(summed), wall seconds of both runs and their ratio (median of --repeats).

    python benchmarks/bench_hexagon_certified.py [--orders 3..6] [--workers 2] [--repeats 1] [--depth 14]
    python benchmarks/bench_hexagon_certified.py --checkpoint proofs/hexagon-n8-level3-raw442.json --cubes 1100:12

The second form prices a proof too long to rerun: a slice of its checkpoint's cubes,
refuted on one solver trusted and then certified (one core), with the same figures.

The checker's numba kernels are compiled (or loaded from numba's cache) before the
timing. The cover check runs in both (certified: through the checker too).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.drat import check_drat  # noqa: E402
from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.puzzles.hexagon.cube_proof import prove_below  # noqa: E402
from puzzlelab.puzzles.hexagon.model import edge_count  # noqa: E402
from puzzlelab.puzzles.hexagon.proof import proof_level  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import published_raw  # noqa: E402
from puzzlelab.puzzles.hexagon.refute import refute_cubes  # noqa: E402


def one_run(n: int, level: int, bound: int, certified: bool, workers: int, depth: int) -> tuple[float, object]:
    t0 = time.perf_counter()
    summary = prove_below(n, level, bound, depth=depth, workers=workers, certified=certified)
    seconds = time.perf_counter() - t0
    if not summary.proven or not summary.cover_checked:
        raise SystemExit(f"n={n} certified={certified}: not proven ({summary})")
    return seconds, summary


def cube_slice(path: str, where: str) -> None:
    """Trusted and certified refutation of checkpoint cubes START:COUNT, one after the other."""
    saved = json.loads(Path(path).read_text())
    start, count = (int(part) for part in where.split(":"))
    cubes = saved["cubes"][start : start + count]
    n, level, bound, symmetry = saved["n"], saved["level"], saved["bound"], saved["symmetry"]
    walls = {}
    for certified in (False, True):
        t0 = time.perf_counter()
        out = refute_cubes(n, level, bound, symmetry, cubes, certified=certified)
        walls[certified] = time.perf_counter() - t0
        if len(out.refuted) != len(cubes):
            raise SystemExit(f"certified={certified}: {len(out.refuted)} of {len(cubes)} cubes refuted ({out.certificate_failure or 'split or open'})")
    figures = [sum(c[i] for c in out.certificates.values()) for i in range(3)]
    print(
        f"n={n} level {level}, cubes {start}:{start + count}: trusted {walls[False]:.1f} s, certified {walls[True]:.1f} s "
        f"(ratio {walls[True] / walls[False]:.2f}); solve {figures[0]:.1f} s, DRAT {figures[1]:,.0f} bytes, check {figures[2]:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="3..6")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--checkpoint", help="price a slice of this proof checkpoint's cubes instead (with --cubes)")
    parser.add_argument("--cubes", default="0:10", help="START:COUNT of the checkpoint's cubes")
    args = parser.parse_args()
    check_drat([[1], [-1]], "0\n")  # compile the checker once, outside the timing
    if args.checkpoint:
        cube_slice(args.checkpoint, args.cubes)
        return
    rows = []
    print(f"{'n':>3} {'level':>5} {'cubes':>6} {'DRAT bytes':>12} {'solve s':>9} {'check s':>9} {'trusted wall':>13} {'certified wall':>15} {'ratio':>6}")
    for n in parse_range(args.orders, "orders"):
        bound = edge_count(n) - published_raw(n) - 1
        level = proof_level(n, bound)
        trusted, certified, summary = [], [], None
        for _ in range(args.repeats):
            trusted.append(one_run(n, level, bound, False, args.workers, args.depth)[0])
            seconds, summary = one_run(n, level, bound, True, args.workers, args.depth)
            certified.append(seconds)
        row = dict(
            n=n, level=level, bound=bound, cubes=summary.cubes, proof_bytes=summary.proof_bytes, solve_seconds=summary.solve_seconds,
            check_seconds=summary.check_seconds, trusted_wall=statistics.median(trusted), certified_wall=statistics.median(certified),
        )
        row["ratio"] = row["certified_wall"] / row["trusted_wall"]
        rows.append(row)
        print(
            f"{n:>3} {level:>5} {row['cubes']:>6} {row['proof_bytes']:>12,} {row['solve_seconds']:>9.1f} {row['check_seconds']:>9.1f} "
            f"{row['trusted_wall']:>13.1f} {row['certified_wall']:>15.1f} {row['ratio']:>6.2f}",
            flush=True,
        )
    write_json("bench_hexagon_certified", {"workers": args.workers, "depth": args.depth, "repeats": args.repeats, "rows": rows})


if __name__ == "__main__":
    main()
