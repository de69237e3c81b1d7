"""Matchsticks: the restricted searches against the published columns of A294249's
table (diagonal1, diagonal20, greedy: each the exact optimum of its search), n by n, as
far as the time allows.

Run: python benchmarks/bench_matchsticks_columns.py [--columns diagonal1 diagonal20 greedy]
     [--n-from 1] [--n-to 63] [--budget-per-n 600] [--column-budget 3600] [--workers 1]
A column stops at the first n whose search does not complete within --budget-per-n
(larger n only take longer) or when --column-budget is spent.
"""

from __future__ import annotations

import argparse
import time

from common import write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.reference import published_table

COLUMNS = {
    "diagonal1": ("diagonal", {"free_below": 1}, "diagonal1_best"),
    "diagonal20": ("diagonal", {"free_below": 20}, "diagonal20_best"),
    "greedy": ("greedy", {}, "greedy_best"),
}


def run_column(name: str, n_from: int, n_to: int, per_n: float, column_budget: float, workers: int) -> list[dict]:
    method, options, column = COLUMNS[name]
    if workers > 1 and method == "greedy":
        options = dict(options, workers=workers)
    table = published_table()
    rows = []
    spent = 0.0
    for n in range(n_from, n_to + 1):
        left = column_budget - spent
        if left <= 0:
            print(f"{name}: column budget spent before n={n}", flush=True)
            break
        started = time.perf_counter()
        result = PUZZLE.solve(Instance(n), method, budget=Budget(min(per_n, left)), **options)
        seconds = time.perf_counter() - started
        spent += seconds
        complete = bool(result.stats.get("complete"))
        published = table[n][column]
        row = {
            "column": name,
            "n": n,
            "value": result.value,
            "published": published,
            "equal": result.value == published,
            "complete": complete,
            "verified": result.verified,
            "seconds": seconds,
            "nodes": result.stats.get("nodes"),
        }
        rows.append(row)
        verdict = "=" if row["equal"] and complete else ("MISMATCH" if complete else "incomplete")
        print(f"{name:<10} n={n:>2}  ours {result.value}  published {published}  {verdict:<10} {seconds:9.2f} s  nodes {row['nodes']:,}", flush=True)
        if not complete:
            break
    done = [r for r in rows if r["complete"]]
    equal = sum(r["equal"] for r in done)
    last = done[-1]["n"] if done else None
    print(f"{name}: {equal} of {len(done)} complete searches equal the published column (n = {n_from}..{last}), {spent:.0f} s", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--columns", nargs="*", default=list(COLUMNS), choices=list(COLUMNS))
    parser.add_argument("--n-from", type=int, default=1)
    parser.add_argument("--n-to", type=int, default=63)
    parser.add_argument("--budget-per-n", type=float, default=600.0)
    parser.add_argument("--column-budget", type=float, default=3600.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default="matchsticks_columns")
    args = parser.parse_args()
    rows = []
    for name in args.columns:
        rows += run_column(name, args.n_from, args.n_to, args.budget_per_n, args.column_budget, args.workers)
    write_json(args.out, {"benchmark": "matchsticks_columns", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
