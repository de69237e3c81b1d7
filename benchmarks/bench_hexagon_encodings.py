"""Which PySAT cardinality encoding should bound the penalty count? Each encoding proves
the same optima (unrestricted, with the sound symmetry clause) on the same orders and
levels; the median CPU seconds over seeds (clause orders) is printed per encoding,
with the ratio to the default. The default in sat/search.py was picked from this table.

Peer: OR-tools CP-SAT (one worker) on the contest's direct model (a one-hot value per
cell, "k needs 1..k-1 beside it", maximise the sum), proving the same optimum; the
ratio CP-SAT / ours is printed per order.

    python benchmarks/bench_hexagon_encodings.py [--orders 4,5] [--levels 3,5] [--seeds 3] [--peer-limit 300] [--encodings totalizer,seqcounter]
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
from puzzlelab.puzzles.hexagon.cnf.solver import DEFAULT_ENCODING  # noqa: E402
from puzzlelab.puzzles.hexagon.sat.search import sat_search  # noqa: E402

ENCODINGS = ("seqcounter", "totalizer", "mtotalizer", "cardnetwrk", "sortnetwrk")


def cpsat_direct(n: int, limit: float) -> tuple[int | None, bool, float]:
    """(best raw score, proven, cpu seconds) of CP-SAT on the direct model."""
    from ortools.sat.python import cp_model

    from puzzlelab.puzzles.hexagon.model import hexagon

    g = hexagon(n)
    model = cp_model.CpModel()
    b = {(c, v): model.NewBoolVar(f"b{c}_{v}") for c in range(g.cells) for v in range(1, min(7, int(g.degree[c]) + 1) + 1)}
    for c in range(g.cells):
        values = [v for v in range(1, 8) if (c, v) in b]
        model.AddExactlyOne(b[c, v] for v in values)
        for v in values:
            for k in range(1, v):
                model.AddBoolOr([b[j, k] for j in g.neighbours_of(c) if (j, k) in b]).OnlyEnforceIf(b[c, v])
    model.Maximize(sum((v - 1) * var for (c, v), var in b.items()))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = limit
    solver.parameters.num_workers = 1
    t0 = time.process_time()
    status = solver.Solve(model)
    seconds = time.process_time() - t0
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False, seconds
    return int(solver.ObjectiveValue()), status == cp_model.OPTIMAL, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="4,5")
    parser.add_argument("--levels", default="3,5")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--peer-limit", type=float, default=300.0)
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="comma list (the default encoding is always run)")
    args = parser.parse_args()
    encodings = tuple(dict.fromkeys([DEFAULT_ENCODING, *args.encodings.split(",")]))
    rows = []
    for n in parse_range(args.orders):
        for level in parse_range(args.levels):
            medians = {}
            for encoding in encodings:
                times, answers = [], set()
                for seed in range(args.seeds):
                    t0 = time.process_time()
                    summary = sat_search(n, {"levels": level, "encoding": encoding}, seed=seed)
                    times.append(time.process_time() - t0)
                    answers.add((summary["lower"], summary["proven"]))
                assert len(answers) == 1, answers  # every encoding proves the same bound
                medians[encoding] = statistics.median(times)
                rows.append({"n": n, "level": level, "encoding": encoding, "median_cpu": round(medians[encoding], 3), "times": [round(t, 3) for t in times], "lower": answers.pop()[0]})
            base = medians[DEFAULT_ENCODING]
            line = "  ".join(f"{e} {medians[e]:.2f}s (x{medians[e] / base:.2f})" for e in encodings)
            print(f"n={n} level {level}: {line}", flush=True)
            if level == 5:
                raw, proven, seconds = cpsat_direct(n, args.peer_limit)
                ratio = seconds / base if base else float("inf")
                # A peer stopped by its limit gives a lower bound on the ratio.
                print(
                    f"n={n} peer CP-SAT direct model: raw {raw} {'proven' if proven else 'not proven'} in {seconds:.2f}s cpu;"
                    f" ours ({DEFAULT_ENCODING}, proven) {base:.2f}s: CP-SAT/ours {'=' if proven else '>='} {ratio:.1f}",
                    flush=True,
                )
                rows.append({"n": n, "peer": "cpsat", "raw": raw, "proven": proven, "cpu": round(seconds, 3), "ratio_to_ours": round(ratio, 2)})
    write_json("bench_hexagon_encodings", {"rows": rows, "default": DEFAULT_ENCODING})


if __name__ == "__main__":
    main()
