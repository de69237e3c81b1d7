"""`hexagon prove` by the row DP beside its peer, one unrestricted UNSAT call by SAT
(lex-leader symmetry breaking, the grid of the best score as the first bound): the
question is the same, "no level-k grid of order n has E - best - 1 or fewer penalty
edges", at the level `prove` picks from the published table (n = 7: 4; n = 8: 3).

    python benchmarks/bench_hexagon_prove_dp.py [--orders 5..7] [--peer-limit 1500]

Prints per order the DP's wall time and peak states, the SAT call's time (or '>limit'),
and the ratio SAT / DP. The load average is printed: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.core.result import Budget  # noqa: E402
from puzzlelab.puzzles.hexagon import PUZZLE  # noqa: E402
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count  # noqa: E402
from puzzlelab.puzzles.hexagon.proof.prove import proof_level  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import published_table  # noqa: E402
from puzzlelab.puzzles.hexagon.rowdp.dp import DPStats, grids_within  # noqa: E402


def dp_proof(n: int, level: int, bound: int, limit: float) -> dict:
    stats = DPStats()
    t0 = time.perf_counter()
    grids = grids_within(n, level, bound, budget=Budget(limit), stats=stats)
    return {"dp_seconds": round(time.perf_counter() - t0, 2), "dp_proven": not grids, "dp_peak_states": stats.peak_states}


def sat_proof(n: int, level: int, best: int, limit: float) -> dict:
    """The peer: the best grid found first (sat, published arguments), then one UNSAT
    call through `level` asking for one penalty fewer (as bench_hexagon_best.py)."""
    found = PUZZLE.solve(HexInstance(n), "sat", budget=limit, target=best)
    start = PUZZLE.parse(found.solution) if found.solution else HexInstance(n)
    t0 = time.perf_counter()
    proof = PUZZLE.solve(start, "sat", budget=limit, levels=level)
    proven = proof.status.value == "optimal" and proof.value == best
    return {"sat_seconds": round(time.perf_counter() - t0, 2), "sat_proven": proven}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", default="5..7")
    parser.add_argument("--limit", type=float, default=1800.0, help="seconds for the DP per order")
    parser.add_argument("--peer-limit", type=float, default=1500.0, help="seconds for the SAT call per order (0 = skip the peer)")
    args = parser.parse_args()
    best_by_n = {n: int(row["best_raw_score"]) for n, row in published_table().items()}
    rows = []
    for n in parse_range(args.orders):
        best = best_by_n[n]
        bound = edge_count(n) - best - 1
        level = proof_level(n, bound)
        row = {"n": n, "level": level, "bound": bound, "load": round(os.getloadavg()[0], 1)}
        row.update(dp_proof(n, level, bound, args.limit))
        if args.peer_limit > 0:
            row.update(sat_proof(n, level, best, args.peer_limit))
            if row["sat_proven"] and row["dp_proven"]:
                row["ratio"] = round(row["sat_seconds"] / max(row["dp_seconds"], 0.01), 1)
        rows.append(row)
        sat = f"{row['sat_seconds']} s{'' if row.get('sat_proven') else ' (not proven)'}" if "sat_seconds" in row else "-"
        print(
            f"n={n} level {level} bound {bound}: row DP {row['dp_seconds']} s ({'proven' if row['dp_proven'] else 'NOT proven'},"
            f" {row['dp_peak_states']:,} states at the peak)  SAT {sat}  SAT/DP {row.get('ratio', '-')}  load {row['load']}",
            flush=True,
        )
    write_json("bench_hexagon_prove_dp", {"rows": rows})


if __name__ == "__main__":
    main()
