"""Matchsticks, the search for new bounds: a try at beating the published upper bounds of
A294249 for n = 47..63 (they have stood since 2018) by re-placing bands of sizes of the
best answers in hand, exactly.

The method: a large-neighbourhood search (Shaw, CP 1998) with an exact neighbourhood
(`band.improve_band`). Start from an answer of n (the best of our restricted columns,
which equal the published bounds where they are shipped, `columns.py`); for every band
of `--width` consecutive sizes, from the largest down, hold every other square where it
is and search every placement of the band's sizes for strictly fewer matches. An
improvement is kept (and the bands are swept again); a sweep where every band is
searched to completion without one shows that no single band move improves the answer.
Anything better than the published bound is verified by the checker and printed as a
new record; with `--record` it is also written to the shipped
`data/new_records.json` (`records.py`, re-checked on load). A record already shipped is
the start for its n (so wider bands continue from it).

With `--related K`, the neighbourhood is related removal instead (`lns.py`): each of
`--moves` moves re-places a random square and the K - 1 squares nearest it, exactly;
seeded (`--seed`), so a run repeats. With `--ladder T` the start is the ladder shape
of greedy's n = 55, 56 answers with sizes T..1 placed exactly (`ladder.py`) instead of a
shipped answer.

Run: python benchmarks/bench_matchsticks_moonshot.py [--n 47 63] [--width 3]
     [--related 14 --moves 20000 --seed 1]
     [--budget-per-band 20] [--column greedy] [--greedy-seconds 60]
     [--checkpoints proofs] [--record]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from common import git_commit, write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.ladder import ladder_answer
from puzzlelab.puzzles.matchsticks.lns import related_search, sweep_bands
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.records import best_shipped, record_improvement, records_file
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.verify import verify_solution


def best_answer(n: int, column: str | None, checkpoints: Path | None = None, records: bool = True) -> tuple[str, int, list[list[int]]] | None:
    """The lowest-valued shipped answer of n (`records.best_shipped`); with
    `checkpoints`, also the best answer so far of a greedy campaign still running there
    (its search is incomplete, its answer is recounted before use)."""
    found = []
    shipped = best_shipped(n, column, records)
    if shipped is not None:
        found.append((shipped[1], shipped[0], shipped[2]))
    held = checkpoints / f"matchsticks-greedy-n{n}.json" if checkpoints else None
    if held is not None and held.exists() and column in (None, "greedy"):
        squares = json.loads(held.read_text()).get("solution")
        verdict = verify_solution(Instance(n), {"roam": 0, "squares": squares}) if squares else None
        if verdict is not None and verdict.ok:
            found.append((verdict.value, "greedy (checkpoint, incomplete)", squares))
    if not found:
        return None
    value, name, squares = min(found, key=lambda f: f[0])
    return name, value, squares


def sweep(n: int, squares: list[list[int]], width: int, seconds: float) -> dict:
    """Bands of `width` sizes from n down, improvements kept, until a sweep finds none
    (`lns.sweep_bands`); the answer verified by the checker."""
    started = time.perf_counter()
    outcome = sweep_bands(n, squares, width, seconds)
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": outcome.squares})
    if not verdict.ok or verdict.value != outcome.value:
        raise SystemExit(f"n={n}: the band search returned an answer the checker does not confirm ({verdict.message})")
    return {"n": n, "width": width, "value": outcome.value, "squares": outcome.squares, "bands": outcome.bands, "complete_bands": outcome.complete_bands,
            "improvements": outcome.improvements, "nodes": outcome.nodes, "seconds": round(time.perf_counter() - started, 1)}


def related(n: int, squares: list[list[int]], k: int, moves: int, seed: int, seconds: float) -> dict:
    """`moves` related re-placements of k sizes (`lns.related_search`), the answer
    verified by the checker."""
    started = time.perf_counter()
    outcome = related_search(n, squares, k, moves, seed=seed, seconds_per_move=seconds)
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": outcome.squares})
    if not verdict.ok or verdict.value != outcome.value:
        raise SystemExit(f"n={n}: the related search returned an answer the checker does not confirm ({verdict.message})")
    return {"n": n, "related": k, "seed": seed, "value": outcome.value, "squares": outcome.squares, "moves": outcome.moves,
            "improvements": outcome.improvements, "incomplete_moves": outcome.incomplete_moves, "nodes": outcome.nodes,
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs=2, default=[47, 63], metavar=("FROM", "TO"))
    parser.add_argument("--greedy-seconds", type=float, default=0.0, help="also start from greedy's best answer within this many seconds, when better")
    parser.add_argument("--width", type=int, default=3, help="sizes re-placed together")
    parser.add_argument("--budget-per-band", type=float, default=20.0)
    parser.add_argument("--ladder", type=int, default=None, metavar="T", help="start from the ladder shape with sizes T..1 placed exactly (ladder.py)")
    parser.add_argument("--ladder-shape", default="triples", help="--ladder: triples (greedy's shape at n = 55, 56) or pairs (at n = 53)")
    parser.add_argument("--related", type=int, default=0, help="related removal of this many sizes a move (lns.py) in place of the band sweeps")
    parser.add_argument("--moves", type=int, default=20000, help="--related: moves per n")
    parser.add_argument("--seed", type=int, default=1, help="--related: random seed")
    parser.add_argument("--column", default=None, help="take the answer of this column only (diagonal1, diagonal20, greedy)")
    parser.add_argument("--checkpoints", type=Path, default=None, help="also start from the answers in the greedy campaign's checkpoints in this folder")
    parser.add_argument("--no-records", action="store_true", help="start from the restricted columns even where a new record ships (to repeat how it was found)")
    parser.add_argument("--record", action="store_true", help="write every new record (verified) to the shipped data/new_records.json")
    parser.add_argument("--out", default="matchsticks_moonshot")
    args = parser.parse_args()
    table = published_table()
    rows = []
    for n in range(args.n[0], args.n[1] + 1):
        start = best_answer(n, args.column, args.checkpoints, records=not args.no_records)
        if args.ladder is not None:
            squares, complete = ladder_answer(n, args.ladder, args.ladder_shape)
            start = (f"ladder of {args.ladder_shape} (tail {args.ladder}{'' if complete else ', stopped'})", verify_solution(Instance(n), {"roam": 0, "squares": squares}).value, squares)
        if args.greedy_seconds > 0:
            # the ladder-type answers come from greedy; its search is hours long past n = 45,
            # but its first answers come at once (a stopped run keeps its best, verified)
            run = PUZZLE.solve(Instance(n), "greedy", budget=Budget(args.greedy_seconds), workers=1)
            if run.verified and run.value is not None and (start is None or run.value < start[1]):
                start = ("greedy (stopped)" if not run.stats.get("complete") else "greedy", run.value, run.solution["squares"])
        if start is None:
            print(f"n={n}: no shipped answer to start from", flush=True)
            continue
        name, value, squares = start
        record = table[n]["best_known"]
        if args.related:
            row = related(n, squares, args.related, args.moves, args.seed, args.budget_per_band)
            work = f"{row['moves']:,} moves of {args.related} related sizes ({row['incomplete_moves']} stopped by --budget-per-band)"
        else:
            row = sweep(n, squares, args.width, args.budget_per_band)
            work = f"{row['complete_bands']} of {row['bands']} bands of {args.width} searched to the end"
        row.update(start_column=name, start_value=value, record=record)
        rows.append(row)
        verdict = "NEW RECORD (verified)" if row["value"] < record else ("equals the record" if row["value"] == record else "above the record")
        print(f"n={n:>2} record {record}  start {name} {value} -> {row['value']} ({verdict}); {row['improvements']} improvements, "
              f"{work}, {row['nodes']:,} nodes, {row['seconds']} s", flush=True)
        if args.record and row["value"] < record:
            how = f"python benchmarks/bench_matchsticks_moonshot.py --n {n} {n} --budget-per-band {args.budget_per_band:g}"
            how += f" --related {args.related} --moves {args.moves} --seed {args.seed}" if args.related else f" --width {args.width}"
            how += f" --ladder {args.ladder} --ladder-shape {args.ladder_shape}" if args.ladder is not None else (f" --column {args.column}" if args.column else "") + (" --no-records" if name != "new record" else "")
            how += f" --checkpoints {args.checkpoints}" if name.endswith("incomplete)") else ""
            kept = record_improvement(records_file(), n, row["squares"], how, f"{name} ({value} matches)", git_commit())
            print(f"n={n:>2} {'recorded in ' + str(records_file()) if kept else 'not recorded: a shipped record is as good'}", flush=True)
    write_json(args.out, {"benchmark": "matchsticks_moonshot", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
