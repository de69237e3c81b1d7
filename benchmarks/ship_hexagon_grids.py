"""Find a grid of the published best raw score for each hexagon order with the
package's own `sat` method (the published arguments from n = 7, as
bench_hexagon_best.py runs them; n <= 6 unrestricted, which proves the optimum), check
it with the independent checker and add it to a JSON file of grids with its provenance
(the command that reproduces it, the date, the CPU seconds and the code's commit).

    python benchmarks/ship_hexagon_grids.py --orders 3..27 --limit 900 --out FILE

An order already in FILE is skipped, so a stopped run resumes; `--ship` then writes the
package's `data/best_grids.json` from FILE (every grid checked again on the way).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import git_commit  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.puzzles.hexagon import PUZZLE  # noqa: E402
from puzzlelab.puzzles.hexagon.model import HexInstance  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import published_arguments, published_table  # noqa: E402
from puzzlelab.puzzles.hexagon.shipped import DATA_NAME, data_file, write_grids  # noqa: E402

FLAGS = {"ring": "--ring", "inner": "--inner", "break": "--break", "allow_at": "--allow-at"}


def cpu_seconds() -> float:
    """This process's CPU seconds and its finished children's (the SAT worker)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def command(n: int, options: dict, target: int | None) -> str:
    words = [f"puzzlelab hexagon solve {n} --method sat"]
    for name, value in options.items():
        words.append(f"{FLAGS[name]} {','.join(map(str, value)) if isinstance(value, tuple) else value}")
    if target is not None:
        words.append(f"--target {target}")
    return " ".join(words) + " --json"


def find(n: int, limit: float) -> dict | None:
    best = int(published_table()[n]["best_raw_score"])
    options = published_arguments(n) if n >= 7 else {}
    target = best if n >= 7 else None
    extra = {} if target is None else {"target": target}
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = PUZZLE.solve(HexInstance(n), "sat", budget=limit, **options, **extra)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    print(f"n={n}: raw {result.value} ({best}) {result.status.value} verified={result.verified} wall {wall:.1f} s cpu {cpu:.1f} s", flush=True)
    if not result.verified or result.value != best:
        return None
    return {
        "n": n, "raw": result.value, "grid": result.solution, "status": result.status.value,
        "method": "sat", "options": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
        "command": command(n, options, target), "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1),
        "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": git_commit(),
        "machine": f"{os.cpu_count()} cores, shared with other jobs",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--orders", default="3..27")
    parser.add_argument("--limit", type=float, default=900.0, help="seconds per order")
    parser.add_argument("--out", required=True, help="JSON file collecting the grids found (resumable)")
    parser.add_argument("--ship", action="store_true", help=f"write the package's data/{DATA_NAME} from --out")
    args = parser.parse_args()
    path = Path(args.out)
    found = json.loads(path.read_text()) if path.exists() else {}
    if args.ship:
        write_grids(data_file(), [found[k] for k in sorted(found, key=int)])
        print(f"wrote {data_file()} ({len(found)} grids)")
        return
    for n in parse_range(args.orders):
        if str(n) in found:
            continue
        row = find(n, args.limit)
        if row is not None:
            found[str(n)] = row
            path.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
