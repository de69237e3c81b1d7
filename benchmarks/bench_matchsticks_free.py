"""Matchsticks, free placement: for each n, the proof that letting the squares lie
anywhere (A294249's definition) does not lower the optimum found inside the largest
square (`puzzlelab matchsticks solve N --method free`; the argument: docs/matchsticks.md,
"Free placement").

Run: python benchmarks/bench_matchsticks_free.py [--n 1 2 ... 16] [--workers 2] [--budget 3600]
     [--checkpoints proofs] [--record proofs/matchsticks-free-placement.json]
--record adds every completed, verified proof to that JSON file (n, span, area, value,
nodes, seconds, commit, command) and shows the n already there instead of proving them
again; --checkpoints DIR keeps proofs/matchsticks-free-nN.json while an n runs (the same
command resumes it) and removes it once that n is recorded. It stops at the first n not
proven within the budget.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from common import git_commit, write_json

from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.reference import published_table


def prove(n: int, workers: int, budget: float, checkpoint: str | None) -> dict:
    options = {"workers": workers}
    if checkpoint:
        options["checkpoint"] = checkpoint
    wall = time.perf_counter()
    result = PUZZLE.solve(Instance(n), "free", budget=Budget(budget), **options)
    wall = time.perf_counter() - wall
    stats = result.stats
    return {
        "n": n,
        "value": result.value,
        "published": published_table()[n]["best_known"],
        "status": result.status.value,
        "verified": result.verified,
        "span": stats.get("free_span"),
        "area": stats.get("free_area"),
        "nodes": stats.get("nodes"),
        "inside_nodes": (stats.get("inside") or {}).get("nodes"),
        "subtrees": stats.get("subtrees"),
        "resumed_subtrees": stats.get("resumed_subtrees", 0),
        "wall_seconds": round(wall, 2),
        "workers": workers,
        "why_not": stats.get("free_placement"),
        "solution": result.solution,
    }


def _record(path: str, row: dict, command: str) -> None:
    target = Path(path)
    data = json.loads(target.read_text()) if target.exists() else {"how": __doc__.split("\n\n")[0], "proofs": {}}
    data["proofs"][str(row["n"])] = dict(
        row, commit=git_commit(), command=command, machine=f"{os.cpu_count()} cpus, shared", recorded=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    )
    data["proven_up_to"] = _proven_up_to(data["proofs"])
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(target)


def _proven_up_to(proofs: dict) -> int:
    """The largest n such that every n' <= n is recorded as proven."""
    n = 0
    while str(n + 1) in proofs:
        n += 1
    return n


def _show(row: dict, label: str) -> None:
    nodes = "-" if row.get("nodes") is None else f"{row['nodes']:,}"
    tail = f"  ({row['why_not']})" if row.get("why_not") else ""
    print(
        f"n={row['n']:>2} {label:<9} {row['value']} ({row['published']}) {row['status']:<8} span {row['span']} area {row['area']}  "
        f"nodes {nodes}  wall {row['wall_seconds']:.1f} s{tail}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="*", default=list(range(1, 15)))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds allowed per n")
    parser.add_argument("--checkpoints", default=None, help="folder for one resumable checkpoint per n")
    parser.add_argument("--record", default=None, help="JSON file collecting the completed proofs")
    args = parser.parse_args()
    command = "python benchmarks/bench_matchsticks_free.py " + " ".join(sys.argv[1:])
    recorded = json.loads(Path(args.record).read_text())["proofs"] if args.record and Path(args.record).exists() else {}
    rows = []
    for n in args.n:
        if str(n) in recorded:
            _show(recorded[str(n)], "recorded")
            rows.append(recorded[str(n)])
            continue
        checkpoint = None if args.checkpoints is None else str(Path(args.checkpoints) / f"matchsticks-free-n{n}.json")
        row = prove(n, args.workers, args.budget, checkpoint)
        _show(row, f"{args.workers} worker" + ("s" if args.workers > 1 else ""))
        rows.append(row)
        ok = row["status"] == Status.OPTIMAL.value and row["verified"] and row["value"] == row["published"]
        if not ok:
            print(f"n={n}: not proven ({row['status']}); stopping", flush=True)
            break
        if args.record:
            _record(args.record, row, command)
            if checkpoint and Path(checkpoint).exists():
                Path(checkpoint).unlink()
    write_json("matchsticks_free", {"benchmark": "matchsticks_free", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
