"""Which PySAT cardinality encoding should bound the penalty count? Each encoding proves
the same optima (unrestricted, with the sound symmetry clause) on the same orders and
levels; the median CPU seconds over seeds (clause orders) is printed per encoding,
with the ratio to the default. The default in sat.py was picked from this table.

    python benchmarks/bench_hexagon_encodings.py [--orders 4,5] [--levels 3,5] [--seeds 3]
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
from puzzlelab.puzzles.hexagon.sat import DEFAULT_ENCODING, sat_search  # noqa: E402

ENCODINGS = ("seqcounter", "totalizer", "mtotalizer", "cardnetwrk", "sortnetwrk")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="4,5")
    parser.add_argument("--levels", default="3,5")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for n in parse_range(args.orders):
        for level in parse_range(args.levels):
            medians = {}
            for encoding in ENCODINGS:
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
            line = "  ".join(f"{e} {medians[e]:.2f}s (x{medians[e] / base:.2f})" for e in ENCODINGS)
            print(f"n={n} level {level}: {line}", flush=True)
    write_json("bench_hexagon_encodings", {"rows": rows, "default": DEFAULT_ENCODING})


if __name__ == "__main__":
    main()
