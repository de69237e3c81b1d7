"""What certified UNSAT answers cost: the proofs of n = 3.. ("no level-k grid
with at most E - published - 1 penalty edges", k = proof.proof_level: 3 for n = 4-6 and
8-9, 4 for n = 7), run as `prove` runs them
(the peer: trusted CaDiCaL answers, no screens) and certified (`prove --certified`:
each cube's UNSAT with CaDiCaL's LRAT proof, checked by core/certificates/lrat.py, or with
--proof-format drat its DRAT proof, checked forwards by core/certificates/drat.py), side by side.
Per order: cubes, proof bytes, solving seconds (summed over cubes), checking seconds
(summed), wall and CPU seconds of both runs (CPU: this process and its workers, the
figure to compare on a loaded machine) and the ratio of the CPU seconds (median of
--repeats).

    python benchmarks/bench_hexagon_certified.py [--orders 3..6] [--workers 2] [--repeats 1] [--depth 14] [--proof-format lrat]
    python benchmarks/bench_hexagon_certified.py --checkpoint proofs/hexagon-n8-level3-raw442.json --cubes 1100:12 [--budget S]

The second form prices a proof too long to rerun: a slice of its checkpoint's cubes,
refuted on one solver trusted and then certified (one core), with the same figures;
`--budget` stops each run after S wall seconds (the cubes refuted are then printed).

The checker's numba kernels are compiled (or loaded from numba's cache) before the
timing. The cover check runs in both (certified: through the checker too).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.certificates.drat import check_drat  # noqa: E402
from puzzlelab.core.certificates.lrat import check_lrat  # noqa: E402
from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.core.result import Budget  # noqa: E402
from puzzlelab.puzzles.hexagon.model import edge_count  # noqa: E402
from puzzlelab.puzzles.hexagon.proof import certify  # noqa: E402
from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import prove_below  # noqa: E402
from puzzlelab.puzzles.hexagon.proof.prove import proof_level  # noqa: E402
from puzzlelab.puzzles.hexagon.proof.refute import refute_cubes  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import published_raw  # noqa: E402


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (the workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def one_run(n: int, level: int, bound: int, certified: bool, workers: int, depth: int) -> tuple[float, float, object]:
    t0, c0 = time.perf_counter(), cpu_seconds()
    summary = prove_below(n, level, bound, depth=depth, workers=workers, certified=certified)
    seconds, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    if not summary.proven or not summary.cover_checked:
        raise SystemExit(f"n={n} certified={certified}: not proven ({summary})")
    return seconds, cpu, summary


def cube_slice(path: str, where: str, budget: float | None) -> None:
    """Trusted and certified refutation of checkpoint cubes START:COUNT, one after the other."""
    saved = json.loads(Path(path).read_text())
    start, count = (int(part) for part in where.split(":"))
    cubes = saved["cubes"][start : start + count]
    n, level, bound, symmetry = saved["n"], saved["level"], saved["bound"], saved["symmetry"]
    walls, cpus, done = {}, {}, {}
    for certified in (False, True):
        t0, c0 = time.perf_counter(), cpu_seconds()
        out = refute_cubes(n, level, bound, symmetry, cubes, certified=certified, budget=Budget(budget))
        walls[certified], cpus[certified] = time.perf_counter() - t0, cpu_seconds() - c0
        done[certified] = len(out.refuted)
        if out.certificate_failure or out.grid is not None or out.split or (budget is None and len(out.refuted) != len(cubes)):
            raise SystemExit(f"certified={certified}: {len(out.refuted)} of {len(cubes)} cubes refuted ({out.certificate_failure or 'split or open'})")
    figures = [sum(c[i] for c in out.certificates.values()) for i in range(3)]
    print(
        f"n={n} level {level}, cubes {start}:{start + count}: trusted {done[False]} cubes, {walls[False]:.1f} s wall, {cpus[False]:.1f} s CPU; "
        f"certified {done[True]} cubes, {walls[True]:.1f} s wall, {cpus[True]:.1f} s CPU (CPU ratio {cpus[True] / max(cpus[False], 1e-9):.2f}); "
        f"solve {figures[0]:.1f} s, proof ({certify.PROOF_FORMAT.upper()}) {figures[1]:,.0f} bytes, check {figures[2]:.1f} s; peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="3..6")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--checkpoint", help="price a slice of this proof checkpoint's cubes instead (with --cubes)")
    parser.add_argument("--cubes", default="0:10", help="START:COUNT of the checkpoint's cubes")
    parser.add_argument("--budget", type=float, help="wall seconds for each run of the slice (default: none)")
    parser.add_argument("--proof-format", choices=("lrat", "drat"), default=certify.PROOF_FORMAT, help="the certificate: LRAT (core.certificates.lrat) or DRAT (core.certificates.drat, forwards)")
    args = parser.parse_args()
    certify.PROOF_FORMAT = args.proof_format
    check_drat([[1, 2], [-1, 2], [1, -2], [-1, -2]], b"a\x02\x00d\x02\x04\x00a\x00")  # compile the checkers' kernels once, outside the timing
    check_lrat([[1, 2], [-1, 2], [1, -2], [-1, -2]], b"5 1 0 1 3 0\n6 0 5 2 4 0\n", goals=[(0, [1, 2])])
    check_lrat([[1, 2], [-1, 2], [1, -2], [-1, -2]], b"a\x0a\x02\x00\x02\x06\x00a\x0c\x00\x0a\x04\x08\x00", goals=[(0, [1, 2])], binary=True)
    if args.checkpoint:
        cube_slice(args.checkpoint, args.cubes, args.budget)
        return
    rows = []
    print(f"{'n':>3} {'level':>5} {'cubes':>6} {'proof bytes':>12} {'solve s':>9} {'check s':>9} {'trusted wall/CPU':>17} {'certified wall/CPU':>19} {'CPU ratio':>9}")
    for n in parse_range(args.orders, "orders"):
        bound = edge_count(n) - published_raw(n) - 1
        level = proof_level(n, bound)
        trusted, certified, summary = [], [], None
        for _ in range(args.repeats):
            trusted.append(one_run(n, level, bound, False, args.workers, args.depth)[:2])
            *seconds, summary = one_run(n, level, bound, True, args.workers, args.depth)
            certified.append(seconds)
        row = dict(
            n=n, level=level, bound=bound, cubes=summary.cubes, proof_bytes=summary.proof_bytes, solve_seconds=summary.solve_seconds,
            check_seconds=summary.check_seconds, trusted_wall=statistics.median(t[0] for t in trusted), certified_wall=statistics.median(c[0] for c in certified),
            trusted_cpu=statistics.median(t[1] for t in trusted), certified_cpu=statistics.median(c[1] for c in certified),
        )
        row["ratio"] = row["certified_cpu"] / row["trusted_cpu"]
        rows.append(row)
        print(
            f"{n:>3} {level:>5} {row['cubes']:>6} {row['proof_bytes']:>12,} {row['solve_seconds']:>9.1f} {row['check_seconds']:>9.1f} "
            f"{row['trusted_wall']:>8.1f}/{row['trusted_cpu']:<8.1f} {row['certified_wall']:>9.1f}/{row['certified_cpu']:<9.1f} {row['ratio']:>9.2f}",
            flush=True,
        )
    write_json("bench_hexagon_certified", {"workers": args.workers, "depth": args.depth, "repeats": args.repeats, "proof_format": args.proof_format, "rows": rows})


if __name__ == "__main__":
    main()
