"""Matchsticks: the restricted searches against the published columns of A294249's
table (diagonal1, diagonal20, greedy: each the exact optimum of its search), n by n,
ours beside the published value with the time of each n, and a closing note per column
(how many equal, the total time).

Run: python benchmarks/bench_matchsticks_columns.py [--columns diagonal1 diagonal20 greedy]
     [--n-from 1] [--n-to 63] [--budget-per-n 600] [--column-budget 3600] [--workers 1]
     [--record] [--stored] [--checkpoints proofs]
--record writes every complete, verified result into the shipped file
(`src/puzzlelab/puzzles/matchsticks/data/restricted_columns.json`, see `columns.py`) as it
comes, and skips the n already there (so a stopped run resumes); --stored prints the
shipped rows (re-verified on load) with the seconds they took, solving nothing.
--checkpoints DIR keeps each greedy search's finished subtrees in
DIR/matchsticks-greedy-nN.json, so a search stopped by its budget or killed resumes
there (the file is removed once the row is recorded; the row then says how many
subtrees were resumed and the CPU seconds of all of them).
A column stops at the first n whose search does not complete within --budget-per-n
(larger n only take longer) or when --column-budget is spent.
While an n runs, a progress line (subtrees done, nodes, best so far, seconds) is printed
at most every --progress-seconds (0: none), so an hours-long search can be followed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from common import git_commit, write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.checkpoint import subtree_seconds
from puzzlelab.puzzles.matchsticks.columns import COLUMNS, data_file, record_row, shipped_columns
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.reference import published_table


def _provenance(workers: int) -> dict:
    commit = git_commit()
    return {
        "how": "each row: the method's search run to completion (stats.complete), its answer verified; "
        "written by benchmarks/bench_matchsticks_columns.py --record",
        "command": "python benchmarks/bench_matchsticks_columns.py --record " + " ".join(sys.argv[1:]),
        "commit": commit,
        "machine": f"{os.cpu_count()} cpus (shared), {platform.platform()}, python {platform.python_version()}",
        "workers": workers,
        "seconds": "wall seconds of the method call on that machine (shared with other jobs)",
    }


def _resumed(checkpoint: str | None, result) -> dict:
    """For a search that ran from a checkpoint: subtrees resumed, and the kernel CPU
    seconds of every subtree (its wall time over several runs is not one figure)."""
    seconds = subtree_seconds(checkpoint)
    if seconds is None:
        return {}
    return {"resumed_subtrees": result.stats.get("resumed_subtrees", 0), "subtree_cpu_seconds": seconds}


def _line(name: str, n: int, value, published: int, verdict: str, seconds: float, nodes) -> None:
    nodes_text = "" if nodes is None else f"  nodes {nodes:,}"
    print(f"{name:<10} n={n:>2}  ours {value}  published {published}  {verdict:<10} {seconds:9.2f} s{nodes_text}", flush=True)


def _progress_printer(name: str, n: int, every: float):
    """A progress callback printing at most one line every `every` seconds (0: none)."""
    started = time.perf_counter()
    last = [started]

    def show(report) -> None:
        now = time.perf_counter()
        if every <= 0 or now - last[0] < every:
            return
        last[0] = now
        nodes = report.stats.get("nodes")
        nodes_text = "" if nodes is None else f", {nodes / 1e9:.2f} billion nodes"
        print(f"  {name} n={n}: {report.message}{nodes_text}, best {report.best}, {now - started:.0f} s", flush=True)

    return show


def run_column(name: str, args) -> list[dict]:
    method, options, _, column = COLUMNS[name]
    if args.workers > 1:
        options = dict(options, workers=args.workers)
    table = published_table()
    stored = shipped_columns()["columns"][name] if (args.record or args.stored) else {}
    rows = []
    spent = 0.0
    for n in range(args.n_from, args.n_to + 1):
        if n in stored:
            row = stored[n]
            rows.append({"column": name, "n": n, "value": row["value"], "published": table[n][column], "equal": row["value"] == table[n][column],
                         "complete": True, "verified": True, "seconds": row["seconds"], "nodes": row.get("nodes"), "stored": True})
            _line(name, n, row["value"], table[n][column], "=" if rows[-1]["equal"] else "MISMATCH", row["seconds"], row.get("nodes"))
            continue
        if args.stored:
            continue
        left = args.column_budget - spent
        if left <= 0:
            print(f"{name}: column budget spent before n={n}", flush=True)
            break
        checkpoint = None
        if args.checkpoints and method == "greedy":
            checkpoint = os.path.join(args.checkpoints, f"matchsticks-greedy-n{n}.json")
            options = dict(options, checkpoint=checkpoint)
            if args.subtrees:
                options = dict(options, subtrees=args.subtrees)
        started = time.perf_counter()
        progress = _progress_printer(name, n, args.progress_seconds)
        result = PUZZLE.solve(Instance(n), method, budget=Budget(min(args.budget_per_n, left)), progress=progress, **options)
        seconds = time.perf_counter() - started
        spent += seconds
        complete = bool(result.stats.get("complete"))
        published = table[n][column]
        row = {"column": name, "n": n, "value": result.value, "published": published, "equal": result.value == published,
               "complete": complete, "verified": result.verified, "seconds": seconds, "nodes": result.stats.get("nodes")}
        rows.append(row)
        _line(name, n, result.value, published, "=" if row["equal"] and complete else ("MISMATCH" if complete else "incomplete"), seconds, row["nodes"])
        if complete and result.verified and args.record:
            extra = _resumed(checkpoint, result)
            record_row(data_file(), name, result, n, seconds, _provenance(args.workers), extra=extra)
            if checkpoint and os.path.exists(checkpoint):
                os.remove(checkpoint)
        if not complete:
            break
    done = [r for r in rows if r["complete"]]
    equal = sum(r["equal"] for r in done)
    total = sum(r["seconds"] for r in done)
    last = done[-1]["n"] if done else None
    print(f"{name}: {equal} of {len(done)} complete searches equal the published column (n = {args.n_from}..{last}), {total:.0f} s in all", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--columns", nargs="*", default=list(COLUMNS), choices=list(COLUMNS))
    parser.add_argument("--n-from", type=int, default=1)
    parser.add_argument("--n-to", type=int, default=63)
    parser.add_argument("--budget-per-n", type=float, default=600.0)
    parser.add_argument("--column-budget", type=float, default=3600.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--record", action="store_true", help="write complete verified results into the shipped file; skip those there")
    parser.add_argument("--stored", action="store_true", help="print the shipped results only")
    parser.add_argument("--checkpoints", default=None, help="folder for the greedy searches' checkpoints (resumable)")
    parser.add_argument("--subtrees", type=int, default=0, help="greedy with --checkpoints: cut each n into at least this many subtrees (0: the method's default)")
    parser.add_argument("--progress-seconds", type=float, default=60.0, help="print a progress line at most this often while an n runs (0: none)")
    parser.add_argument("--out", default="matchsticks_columns")
    args = parser.parse_args()
    rows = []
    for name in args.columns:
        rows += run_column(name, args)
    done = [r for r in rows if r["complete"]]
    print(
        f"all columns: {sum(r['equal'] for r in done)} of {len(done)} values equal the published ones "
        f"(of {3 * 63} for n = 1..63), {sum(r['seconds'] for r in done):.0f} s in all",
        flush=True,
    )
    write_json(args.out, {"benchmark": "matchsticks_columns", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
