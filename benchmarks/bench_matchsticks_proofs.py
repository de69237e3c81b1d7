"""Matchsticks: proofs with counts. Each n is proven optimal by
`full --count-solutions` (bound searches included), its optimal solutions counted and
classified as the write-up does (squares on the main diagonal, first square off it),
with nodes, wall and CPU seconds, beside the figures measured with the code
before the kernel's rework (one core: n = 24 in 3.4 s, 26 in 17 s, 28 in 82 s and 235 million nodes).

Run: python benchmarks/bench_matchsticks_proofs.py [--n 26 27 28] [--workers 2] [--budget 3600]
     [--checkpoints proofs] [--record proofs/matchsticks-proofs.json] [--subtrees 256] [--peer-workers 1]
--checkpoints DIR keeps proofs/matchsticks-n{N}.json per n (a stopped run resumes there);
--record adds every completed, verified proof to that JSON file (the campaign's record)
and shows the n already there instead of proving them again (--again: proves them again
with today's code, and the record keeps the earlier figures beside the new);
--peer-workers W also runs each n with W workers for a side-by-side ratio (same code).
--versus REF proves each n twice, with this tree and with git revision REF (exported by
`common.export_ref`), each in a fresh process (kernels compiled first, not timed), and
prints the two side by side (optimum, optimal solutions, nodes, wall seconds, ratio,
the machine's load); each n's value and count must equal the recorded proof in
proofs/matchsticks-proofs.json where there is one (the run fails otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from common import export_ref, git_commit, write_json

from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.checkpoint import subtree_seconds
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.reference import published_table

BEFORE = {24: (3.4, None), 26: (17.0, None), 28: (82.0, 235_000_000)}  # the code before the kernel's rework: seconds, nodes, one core


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def prove(n: int, workers: int, budget: float, checkpoint: str | None, subtrees: int = 0) -> dict:
    options = {"count_solutions": True, "workers": workers, "subtrees": subtrees}
    if checkpoint:
        options["checkpoint"] = checkpoint
    wall, cpu = time.perf_counter(), _cpu()
    result = PUZZLE.solve(Instance(n), "full", budget=Budget(budget), **options)
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    stats = result.stats
    return {
        **_subtree_seconds(checkpoint),
        "n": n,
        "value": result.value,
        "published": published_table()[n]["best_known"],
        "status": result.status.value,
        "verified": result.verified,
        "optimal_solutions": stats.get("optimal_solutions"),
        "solution_classes": stats.get("solution_classes"),
        "nodes": stats.get("nodes"),
        "subtrees": stats.get("subtrees"),
        "resumed_subtrees": stats.get("resumed_subtrees", 0),
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2) if workers == 1 else None,  # worker processes' time is not seen here
        "workers": workers,
        "solution": result.solution,
    }


def _subtree_seconds(checkpoint: str | None) -> dict:
    seconds = subtree_seconds(checkpoint)
    return {} if seconds is None else {"subtree_cpu_seconds": seconds}


def _show(row: dict, label: str) -> None:
    before = BEFORE.get(row["n"])
    then = f"  (before: {before[0]:g} s" + (f", {before[1]:,} nodes)" if before[1] else ")") if before else ""
    classes = ", ".join(f"{c['solutions']} x [{c['on_diagonal']} on diagonal, first off {c['first_off_diagonal']}]" for c in row["solution_classes"] or [])
    nodes = f"{row['nodes']:,}" if row["nodes"] is not None else "-"
    cpu = "-" if row["cpu_seconds"] is None else f"{row['cpu_seconds']:.1f} s"
    print(
        f"n={row['n']:>2} {label:<10} {row['value']} ({row['published']}) {row['status']:<8} count {row['optimal_solutions']}  "
        f"wall {row['wall_seconds']:8.1f} s  cpu {cpu}  nodes {nodes}{then}  {classes}",
        flush=True,
    )


def _record(path: str, row: dict) -> None:
    target = Path(path)
    data = json.loads(target.read_text()) if target.exists() else {"how": __doc__.split("\n\n")[0], "proofs": {}}
    commit = git_commit()
    earlier = data["proofs"].get(str(row["n"]))
    if earlier is not None:  # a rerun (--again): the earlier run's figures stay beside it
        history = earlier.pop("earlier", [])
        row = dict(row, earlier=history + [{k: earlier.get(k) for k in ("nodes", "wall_seconds", "workers", "commit", "recorded")}])
    data["proofs"][str(row["n"])] = dict(row, commit=commit, machine=f"{os.cpu_count()} cpus, shared", recorded=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    target.write_text(json.dumps(data, indent=1) + "\n")


PROOF_PROBE = r"""
import json, sys, time
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance
n, workers, budget = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
PUZZLE.solve(Instance(9), "full", budget=Budget(600), count_solutions=True, workers=workers)  # compile (or load) first
started = time.perf_counter()
result = PUZZLE.solve(Instance(n), "full", budget=Budget(budget), count_solutions=True, workers=workers)
wall = time.perf_counter() - started
stats = result.stats
print(json.dumps({"n": n, "value": result.value, "status": result.status.value, "verified": result.verified,
                  "optimal_solutions": stats.get("optimal_solutions"), "nodes": stats.get("nodes"), "wall_seconds": round(wall, 2)}))
"""


def _probe(src: Path, n: int, workers: int, budget: float) -> dict:
    """One proof of n in a fresh process running the package at `src`."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", PROOF_PROBE, str(n), str(workers), str(budget)], env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"n={n}: the proof with {src} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def versus(ns: list[int], ref: str, workers: int, budget: float, record: str | None) -> list[dict]:
    """Each n proven with this tree and with `ref`, side by side; SystemExit when a value
    or count differs from the recorded proof (or between the two)."""
    recorded = json.loads(Path(record).read_text())["proofs"] if record and Path(record).exists() else {}
    old_src, new_src = export_ref(ref), Path(__file__).resolve().parents[1] / "src"
    print(f"{'n':>3} {'optimum':>7} {'count':>5} | {ref + ' nodes':>16} {'wall s':>8} | {'this tree nodes':>16} {'wall s':>8} | {'ratio':>6} | record | load", flush=True)
    rows, wrong = [], []
    for n in ns:
        load = os.getloadavg()[0]
        new, old = _probe(new_src, n, workers, budget), _probe(old_src, n, workers, budget)
        want = recorded.get(str(n))
        same = (new["value"], new["optimal_solutions"]) == (old["value"], old["optimal_solutions"])
        as_recorded = want is None or (new["value"], new["optimal_solutions"]) == (want["value"], want["optimal_solutions"])
        ok = same and as_recorded and new["status"] == "optimal" and new["verified"]
        if not ok:
            wrong.append(n)
        verdict = "-" if want is None else ("same" if as_recorded else "DIFFERENT")
        print(
            f"{n:>3} {new['value']:>7} {new['optimal_solutions']:>5} | {old['nodes']:>16,} {old['wall_seconds']:>8.1f} | "
            f"{new['nodes']:>16,} {new['wall_seconds']:>8.1f} | {old['wall_seconds'] / max(new['wall_seconds'], 1e-9):>5.2f}x | {verdict:<6} | "
            f"{load:.1f}-{os.getloadavg()[0]:.1f}",
            flush=True,
        )
        rows.append({"n": n, "new": new, "old": old, "ref": ref, "recorded": want and {k: want[k] for k in ("value", "optimal_solutions", "nodes", "wall_seconds")}, "ok": ok})
    if wrong:
        raise SystemExit(f"n = {wrong}: not proven, or the value or count differs from the other tree or the record")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="*", default=[24, 26])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds allowed per n")
    parser.add_argument("--checkpoints", default=None, help="folder for one resumable checkpoint per n")
    parser.add_argument("--record", default=None, help="JSON file collecting the completed proofs")
    parser.add_argument("--subtrees", type=int, default=0, help="cut each proof into at least this many subtrees (0: automatic)")
    parser.add_argument("--again", action="store_true", help="prove the n already in --record again (the record keeps the earlier figures)")
    parser.add_argument("--peer-workers", type=int, default=0, help="also run each n with this many workers, for the ratio")
    parser.add_argument("--versus", default=None, help="git revision to prove each n with too, side by side (see the module docstring)")
    args = parser.parse_args()
    if args.versus:
        rows = versus(args.n, args.versus, args.workers, args.budget, args.record or "proofs/matchsticks-proofs.json")
        write_json("matchsticks_proofs_versus", {"benchmark": "matchsticks_proofs_versus", "args": vars(args), "rows": rows})
        return
    rows = []
    recorded = json.loads(Path(args.record).read_text())["proofs"] if args.record and Path(args.record).exists() else {}
    for n in args.n:
        if str(n) in recorded and not args.again:  # proven by an earlier run: shown, not redone
            _show(recorded[str(n)], "recorded")
            rows.append(recorded[str(n)])
            continue
        checkpoint = None if args.checkpoints is None else str(Path(args.checkpoints) / f"matchsticks-n{n}.json")
        row = prove(n, args.workers, args.budget, checkpoint, args.subtrees)
        _show(row, f"{args.workers} workers")
        ok = row["status"] == Status.OPTIMAL.value and row["verified"] and row["value"] == row["published"]
        if ok and args.record:
            _record(args.record, row)
        rows.append(row)
        if args.peer_workers:
            peer = prove(n, args.peer_workers, args.budget, None)
            _show(peer, f"{args.peer_workers} workers")
            print(f"n={n}: {args.workers} workers / {args.peer_workers}: wall ratio {peer['wall_seconds'] / max(row['wall_seconds'], 1e-9):.2f}x", flush=True)
            rows.append(dict(peer, peer=True))
        if not ok:
            print(f"n={n}: not proven within {args.budget:g} s ({row['status']}); stopping", flush=True)
            break
    write_json("matchsticks_proofs", {"benchmark": "matchsticks_proofs", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
