"""Prove the optimum of each of the ten Cimpress contest puzzles with the package's
`prove` method (auto's tiling, then the exact DP or CP-SAT on each group with its LP
bound), check the tiling with the independent checker and add it, with its provenance
(command, date, CPU seconds, code commit), to a JSON file.

    python benchmarks/ship_tiling_contests.py --numbers 1..10 --limit 300 --out FILE

A puzzle already in FILE is skipped, so a stopped run resumes; `--ship` writes the
package's `data/contest_tilings.json` from FILE (every tiling checked again).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import git_commit  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.core.result import Status  # noqa: E402
from puzzlelab.puzzles.tiling import PUZZLE  # noqa: E402
from puzzlelab.puzzles.tiling.contest_tilings import DATA_NAME, data_file, write_tilings  # noqa: E402
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA  # noqa: E402


def cpu_seconds() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def prove(number: int, limit: float) -> dict | None:
    name = f"contest_{number}"
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = PUZZLE.solve(PUZZLE.load(name), "prove", budget=limit, threads=1, workers=1)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    print(f"{name}: {result.value} ({CONTEST_OPTIMA[number]}) {result.status.value} verified={result.verified} "
          f"wall {wall:.1f} s cpu {cpu:.1f} s", flush=True)
    if not result.verified or result.status != Status.OPTIMAL or result.value != CONTEST_OPTIMA[number]:
        return None
    return {
        "number": number, "value": result.value, "squares": [[s["X"], s["Y"], s["Size"]] for s in result.solution["squares"]],
        "method": "prove", "proof": result.stats.get("proof"),
        "command": f"puzzlelab tiling solve {name} --method prove --threads 1 --workers 1 --budget {limit:g} --json",
        "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1),
        "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": git_commit(),
        "machine": f"{os.cpu_count()} cores, shared with other jobs",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--numbers", default="1..10")
    parser.add_argument("--limit", type=float, default=300.0, help="seconds per puzzle")
    parser.add_argument("--out", required=True, help="JSON file collecting the tilings (resumable)")
    parser.add_argument("--ship", action="store_true", help=f"write the package's data/{DATA_NAME} from --out")
    args = parser.parse_args()
    path = Path(args.out)
    found = json.loads(path.read_text()) if path.exists() else {}
    if args.ship:
        write_tilings(data_file(), [found[k] for k in sorted(found, key=int)])
        print(f"wrote {data_file()} ({len(found)} tilings)")
        return
    for number in parse_range(args.numbers):
        if str(number) in found:
            continue
        row = prove(number, args.limit)
        if row is not None:
            found[str(number)] = row
            path.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
