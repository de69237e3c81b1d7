"""What checking the records again costs a listing: `core.records_check.checked_best`
(each instance's best record read with its solution and checked by the puzzle, the
verdict then remembered) against the store's raw `Store.best` (values only, nothing
checked), side by side on one store; the ratios are the figures.

The store holds every answer of the shipped font5x7 optimal-coins table, one record
each (as `coins batch` writes them), plus matchsticks n = 1..40 from the shipped
restricted columns. Medians of `--repeats` runs; "first" is a fresh process's first
listing (every record checked), "again" a service's later ones (verdicts remembered).

    nice -n 10 python benchmarks/bench_records_check.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from puzzlelab.core import records_check
from puzzlelab.core.records_check import checked_best
from puzzlelab.core.result import Result, Status
from puzzlelab.core.store import Store
from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.puzzles.coins.optimal_table import load_table
from puzzlelab.puzzles.matchsticks.columns import shipped_columns
from puzzlelab.puzzles.matchsticks.model import Instance


def fill(store: Store) -> int:
    coins = get("coins")
    for entry in load_table("font5x7").entries():
        instance = coins.load(entry.key, local=False)
        verdict = coins.verify(instance, entry.solution)
        store.add("coins", entry.key, Result(entry.moves, entry.solution, Status.OPTIMAL, "table", verdict=verdict), "min",
                  instance_json=coins.format_instance(instance))
    matchsticks = get("matchsticks")
    for n, row in sorted(shipped_columns()["columns"]["greedy"].items()):
        if n > 40:
            break
        solution = {"roam": 0, "squares": row["squares"]}
        verdict = matchsticks.verify(Instance(n), solution)
        store.add("matchsticks", str(n), Result(row["value"], solution, Status.FEASIBLE, "greedy", verdict=verdict), "min")
    return store.count()


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    store = Store(Path(tempfile.mkdtemp(prefix="records-check-")) / "records.sqlite")
    records = fill(store)
    listed = checked_best(store, REGISTRY)
    assert not listed.rejected and len(listed.records) == len(store.best()), "every record should pass"
    raw, first, again = [], [], []
    for _ in range(args.repeats):
        raw.append(timed(lambda: store.best(solutions=False)))
        records_check._VERDICTS.clear()
        first.append(timed(lambda: checked_best(store, REGISTRY, solutions=False)))
        again.append(timed(lambda: checked_best(store, REGISTRY, solutions=False)))
    r, f, a = (statistics.median(x) for x in (raw, first, again))
    print(f"{records} records, {len(listed.records)} instances; medians of {args.repeats}")
    print(f"  Store.best (raw, nothing checked): {r * 1000:8.1f} ms")
    print(f"  checked_best, first listing:        {f * 1000:8.1f} ms  ({f / r:.1f}x the raw listing)")
    print(f"  checked_best, verdicts remembered:  {a * 1000:8.1f} ms  ({a / r:.1f}x the raw listing)")


if __name__ == "__main__":
    main()
