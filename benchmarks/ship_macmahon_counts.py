"""Count the solutions of MacMahon instances with the package's `enumerate` method,
keep each count certificate with its provenance (command, date, CPU seconds, commit)
in a JSON file, and write the package's `data/counts.json` from it.

    python benchmarks/ship_macmahon_counts.py --instances 2x3/free,3x8,2x12,4x6,6x4 --workers 2 --out FILE
    python benchmarks/ship_macmahon_counts.py --out FILE --ship

An instance already in FILE is skipped (a stopped run resumes). A certificate the
checker rejects is never kept; one it cannot check in full (a total with no published
count and too large to recount) is kept and shipped as a recorded count.
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

from puzzlelab.core.result import Budget, no_progress  # noqa: E402
from puzzlelab.puzzles.macmahon.count_results import run_enumerate  # noqa: E402
from puzzlelab.puzzles.macmahon.counts import DATA_NAME, check_count, data_file, write_counts  # noqa: E402
from puzzlelab.puzzles.macmahon.model import instance_key, parse_instance  # noqa: E402


def cpu_seconds() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def count(name: str, workers: int, limit: float) -> dict | None:
    inst = parse_instance(name)
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = run_enumerate(inst, budget=Budget(limit), progress=no_progress, seed=0, workers=workers)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    certificate = result.solution
    verdict = check_count(name, result.value, certificate)
    print(f"{name}: {result.value:,} {result.status.value} complete={certificate.get('complete')} {verdict.word} "
          f"wall {wall:.1f} s cpu {cpu:.1f} s: {verdict.message[:160]}", flush=True)
    if verdict.rejected or not certificate.get("complete"):
        return None
    return {
        "instance": instance_key(inst), "total": result.value, "certificate": certificate, "method": "enumerate",
        "command": f"puzzlelab macmahon count {name} --workers {workers} --json",
        "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1),
        "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": git_commit(),
        "machine": f"{os.cpu_count()} cores, shared with other jobs",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--instances", default="2x3/free,3x8,2x12,4x6,6x4")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--limit", type=float, default=3600.0, help="seconds per instance")
    parser.add_argument("--out", required=True, help="JSON file collecting the counts (resumable)")
    parser.add_argument("--ship", action="store_true", help=f"write the package's data/{DATA_NAME} from --out")
    args = parser.parse_args()
    path = Path(args.out)
    found = json.loads(path.read_text()) if path.exists() else {}
    if args.ship:
        write_counts(data_file(), list(found.values()))
        print(f"wrote {data_file()} ({len(found)} counts)")
        return
    for name in args.instances.split(","):
        if name in found:
            continue
        row = count(name, args.workers, args.limit)
        if row is not None:
            found[name] = row
            path.write_text(json.dumps(found) + "\n")


if __name__ == "__main__":
    main()
