"""The shipped table of font5x7 optima: what reading and trusting it costs,
and answering from it against recomputing with `bidir`.

1. Reading `data/font5x7_optimal.json` (JSON, shape checks, digest), fresh each repeat.
2. Replaying every entry with the independent checker, fresh each repeat: the time per
   entry, and the projection for all 1,332 puzzles.
3. `solve` with `table` against `bidir` on --puzzles entries that are also in the
   published sample (a spread of lengths up to --max-moves), each answer verified:
   median seconds of each and their ratio. `table` is timed cold (the file read again,
   as a fresh process does: what `puzzlelab coins solve` pays) and warm (read once, as
   the service's workers keep it).

Run: nice -n 10 python benchmarks/bench_coins_table.py [--puzzles 5] [--max-moves 18]
"""

from __future__ import annotations

import argparse
import statistics
import time
from importlib import resources

from common import median_seconds, write_json

from puzzlelab.puzzles.coins import PUZZLE, optimal_table, reference
from puzzlelab.puzzles.coins.optimal_table import load_table

SHIPPED = resources.files("puzzlelab.puzzles.coins").joinpath("data", "font5x7_optimal.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=5)
    parser.add_argument("--max-moves", type=int, default=18)
    parser.add_argument("--budget", type=float, default=300.0)
    args = parser.parse_args()

    read_s, table = median_seconds(lambda: load_table(path=SHIPPED), repeats=7)
    replay_s, replayed = median_seconds(lambda: sum(1 for _ in load_table(path=SHIPPED).entries()), repeats=7)
    per_entry = (replay_s - read_s) / replayed
    print(f"read {read_s * 1e3:.1f} ms ({table.coverage()}); read and replay all {replay_s * 1e3:.1f} ms: "
          f"{per_entry * 1e6:.0f} us an entry, {per_entry * 1332:.2f} s projected for 1,332")

    published = reference.published_lengths()
    chosen = sorted((published[key], key) for key in published if key.startswith("font5x7:")
                    and tuple(key.split(":")[1].split("-")) in table and published[key] <= args.max_moves)
    chosen = [chosen[i * (len(chosen) - 1) // max(1, args.puzzles - 1)] for i in range(min(args.puzzles, len(chosen)))]
    rows = []
    for length, key in chosen:
        instance = PUZZLE.load(key)

        def cold():
            optimal_table._shipped.cache_clear()
            return PUZZLE.solve(instance, "table")

        cold_s, _ = median_seconds(cold, repeats=5)
        table_s, by_table = median_seconds(lambda: PUZZLE.solve(instance, "table"), repeats=5)
        started = time.perf_counter()
        by_bidir = PUZZLE.solve(instance, "bidir", budget=args.budget)
        bidir_s = time.perf_counter() - started
        assert by_table.verified and by_table.value == length and (by_bidir.value in (None, length))
        rows.append({"puzzle": key, "moves": length, "table_cold_seconds": cold_s, "table_seconds": table_s,
                     "bidir_seconds": bidir_s, "bidir_value": by_bidir.value})
        print(f"{key}: {length} moves; table cold {cold_s * 1e3:.1f} ms, warm {table_s * 1e3:.2f} ms; bidir {bidir_s:.2f} s ({by_bidir.status.value})")
    if rows:
        c, t = statistics.median(r["table_cold_seconds"] for r in rows), statistics.median(r["table_seconds"] for r in rows)
        b = statistics.median(r["bidir_seconds"] for r in rows)
        print(f"median over {len(rows)} puzzles: table cold {c * 1e3:.1f} ms, warm {t * 1e3:.2f} ms; bidir {b:.2f} s; "
              f"bidir / table cold = {b / c:,.0f}x")
    write_json("coins_table", {"read_seconds": read_s, "read_and_replay_seconds": replay_s, "entries": replayed,
                               "replay_seconds_per_entry": per_entry, "solve": rows})


if __name__ == "__main__":
    main()
