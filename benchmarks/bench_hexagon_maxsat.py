"""What a core-guided lower bound buys a proof: "no level-k grid with fewer penalties than
the published level-k minimum", refuted by the one CaDiCaL call on the totalizer bound
(the peer: what `prove --cube-method sat` does per cube) and by RC2 stopped as soon as
its lower bound reaches the minimum (`hexagon/cnf/maxsat.py`, `--screen-method maxsat`),
side by side in one process run, repeated; medians of wall seconds and their ratio.

    python benchmarks/bench_hexagon_maxsat.py [--orders 6,7] [--levels 1,2,3] [--cube PATTERN] [--repeats 3] [--peer-conflicts N]

Both get the same rule and lex-leader symmetry breaking (none with --cube, a pattern of
1s on the cells nearest the centre as in `prove`'s cubes); both must refute, or the run
fails. The peer stops after --peer-conflicts conflicts (then its time is a floor, shown
with '>').
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
from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding  # noqa: E402
from puzzlelab.puzzles.hexagon.cnf.maxsat import penalty_lower_bound  # noqa: E402
from puzzlelab.puzzles.hexagon.model import hexagon  # noqa: E402
from puzzlelab.puzzles.hexagon.proof.cubes import proof_formula, split_cells  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import level_table  # noqa: E402


def cube_units(enc: HexEncoding, n: int, pattern: str) -> list[list[int]]:
    return [[enc.x(c, 1) if b == "1" else -enc.x(c, 1)] for c, b in zip(split_cells(n), pattern)]


def peer(n: int, level: int, bound: int, symmetry: str, pattern: str, conflicts: int) -> tuple[float, bool]:
    """(wall seconds, settled) of CaDiCaL on 'at most `bound`' under the cube."""
    from pysat.solvers import Solver

    enc, clauses = proof_formula(n, level, bound, symmetry)
    with Solver(name="cadical195", bootstrap_with=clauses + cube_units(enc, n, pattern)) as solver:
        solver.conf_budget(conflicts)
        t0 = time.perf_counter()
        answer = solver.solve_limited()
        seconds = time.perf_counter() - t0
    if answer:
        raise SystemExit(f"n={n} level {level}: CaDiCaL found a grid with at most {bound} penalties")
    return seconds, answer is False


def ours(n: int, level: int, bound: int, symmetry: str, pattern: str) -> float:
    enc = HexEncoding(hexagon(n), top=level, symmetry=symmetry)
    t0 = time.perf_counter()
    least, _, _ = penalty_lower_bound(enc, cube_units(enc, n, pattern), target=bound + 1)
    seconds = time.perf_counter() - t0
    if least <= bound:
        raise SystemExit(f"n={n} level {level}: RC2 found a grid with {least} <= {bound} penalties")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="6,7")
    parser.add_argument("--levels", default="1,2,3")
    parser.add_argument("--cube", default="", help="a cube pattern (then no symmetry breaking)")
    parser.add_argument("--bound", type=int, default=None, help="refute 'at most BOUND' (default: the level minimum - 1)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--peer-conflicts", type=int, default=2_000_000)
    args = parser.parse_args()
    symmetry = "none" if args.cube else "lex"
    rows = []
    for n in parse_range(args.orders):
        for level in parse_range(args.levels):
            bound = args.bound if args.bound is not None else level_table()[n][level - 1] - 1
            peers, mine, settled = [], [], True
            for _ in range(args.repeats):
                seconds, done = peer(n, level, bound, symmetry, args.cube, args.peer_conflicts)
                peers.append(seconds)
                settled &= done
                mine.append(ours(n, level, bound, symmetry, args.cube))
            row = {"n": n, "level": level, "bound": bound, "cube": args.cube, "cadical_s": statistics.median(peers), "cadical_settled": settled, "rc2_s": statistics.median(mine)}
            row["ratio"] = row["cadical_s"] / row["rc2_s"]
            rows.append(row)
            floor = "" if settled else ">"
            print(f"n={n} level {level} <= {bound}{' cube ' + args.cube if args.cube else ''}: CaDiCaL {floor}{row['cadical_s']:.1f} s, RC2 {row['rc2_s']:.1f} s, ratio {floor}{row['ratio']:.2f}", flush=True)
    write_json("bench_hexagon_maxsat", {"rows": rows})


if __name__ == "__main__":
    main()
