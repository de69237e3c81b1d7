"""Matchsticks, the search for new bounds: is there a better ladder than greedy's two?

The records a(54) <= 1153 and a(56) <= 1216 come from the two shapes of greedy's large
squares (`ladder.SHAPES`: triples, pairs). This benchmark tries, for each n, every shape
near them and near the diagonal answers' (`ladder.shape_family()`: 3,645 shapes, group
sizes 1..8, blocks of 4..24 sizes, the offsets and the step moved by a size or two, row
by row or transposed), and greedy's two shapes with blocks moved off the diagonal to the
left side or the top (`sides`, as greedy's n = 57 answer has them): each with sizes
`--tail`..1 placed exactly (`ladder_answer`); then, for the `--keep` best, sizes
`--exact`..1 placed exactly and bands of 15 swept (`lns.sweep_bands`). It prints,
beside the published value and the best answer we ship, the best shape raw and after
the bands; every answer is recounted by the checker. A shape below both the published
value and our records would be a new record (printed so; `--record` writes it to
`data/new_records.json`).

Run: python benchmarks/bench_matchsticks_ladders.py [--n 47 63] [--tail 12] [--exact 15] [--keep 8] [--record]
"""

from __future__ import annotations

import argparse
import itertools
import time

from common import git_commit, write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.band import improve_sizes
from puzzlelab.puzzles.matchsticks.ladder import SHAPES, ladder_answer, shape_family
from puzzlelab.puzzles.matchsticks.lns import sweep_bands
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.records import best_shipped, record_improvement, records_file
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.verify import count_matches, verify_solution


def shape_name(shape: tuple, sides: str = "") -> str:
    """greedy's name for one of its shapes, "diagonal, groups of g" for the diagonal
    answers' shape, else group / first offsets / step; with the blocks' sides if any
    leaves the diagonal."""
    where = f", sides {sides}" if set(sides) - {"d"} else ""
    for name, known in SHAPES.items():
        if known == shape:
            return name + where
    group, offsets, step = shape
    if offsets == ((0, 0),) and step == group:
        return f"diagonal, groups of {group}{where}"
    return f"group {group}, offsets {list(offsets[:3])}{'...' if len(offsets) > 3 else ''}, step {step}{where}"


def candidates(n: int, tail: int) -> list[tuple[tuple, str]]:
    """Every shape of the family on the diagonal, and greedy's two shapes with each of
    their first five blocks on the diagonal, the left side or the top (the first always
    on the diagonal; `ladder_squares`'s `sides`)."""
    found = [(shape, "") for shape in shape_family()]
    for shape in SHAPES.values():
        group, offsets, _ = shape
        blocks = min(5, -(-(n - tail) // (group * len(offsets))))
        for rest in itertools.product("dlt", repeat=blocks - 1):
            if set(rest) - {"d"}:
                found.append((shape, "d" + "".join(rest)))
    return found


def best_ladder(n: int, tail: int, exact: int, keep: int, seconds_per_band: float) -> dict:
    """Every candidate for n with sizes tail..1 exact; for the `keep` best, sizes
    exact..1 exact, then bands of 15 swept."""
    raw = []
    for shape, sides in candidates(n, tail):
        squares, _ = ladder_answer(n, tail, shape, Budget(2), sides)
        raw.append((count_matches(squares), shape, sides, squares))
    raw.sort(key=lambda r: r[0])
    swept = []
    for _, shape, sides, squares in raw[:keep]:
        placed = improve_sizes(squares, n, range(1, exact + 1), Budget(60)).squares or squares
        outcome = sweep_bands(n, placed, 15, seconds_per_band)
        swept.append((outcome.value, shape, sides, outcome.squares))
    value, shape, sides, squares = min(swept, key=lambda r: r[0])
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": squares})
    if not verdict.ok or verdict.value != value:
        raise SystemExit(f"n={n}: the checker disagrees with the sweep ({verdict.reason})")
    return {
        "n": n,
        "shapes": len(raw),
        "raw_value": raw[0][0],
        "raw_shape": shape_name(raw[0][1], raw[0][2]),
        "value": value,
        "shape": shape_name(shape, sides),
        "squares": squares,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs=2, default=[47, 63], metavar=("FROM", "TO"))
    parser.add_argument("--tail", type=int, default=12, help="sizes tail..1 placed exactly given the shape, for every shape")
    parser.add_argument("--exact", type=int, default=15, help="sizes exact..1 placed exactly for the --keep best, before the bands")
    parser.add_argument("--keep", type=int, default=8, help="bands of 15 over this many of the best shapes")
    parser.add_argument("--budget-per-band", type=float, default=30.0)
    parser.add_argument("--record", action="store_true", help="write every new record (verified) to the shipped data/new_records.json")
    parser.add_argument("--out", default="matchsticks_ladders")
    args = parser.parse_args()
    table = published_table()
    rows = []
    for n in range(args.n[0], args.n[1] + 1):
        started = time.perf_counter()
        row = best_ladder(n, args.tail, args.exact, args.keep, args.budget_per_band)
        row["seconds"] = round(time.perf_counter() - started, 1)
        published = table[n]["best_known"]
        shipped = best_shipped(n)
        ours = shipped[1] if shipped else published
        row.update(published=published, shipped=ours)
        rows.append(row)
        if row["value"] < min(published, ours):
            mark = "NEW RECORD"
        elif row["value"] == ours < published:
            mark = "= our record"
        else:
            mark = "= published" if row["value"] == published else f"{row['value'] - published:+d} from published"
        print(
            f"n={n:>2} published {published} shipped {ours}  best of {row['shapes']} shapes: raw {row['raw_value']} ({row['raw_shape']}), "
            f"after bands of 15 {row['value']} ({row['shape']}) {mark}  {row['seconds']} s",
            flush=True,
        )
        if args.record and row["value"] < min(published, ours):
            how = f"python benchmarks/bench_matchsticks_ladders.py --n {n} {n} --tail {args.tail} --exact {args.exact} --keep {args.keep}"
            kept = record_improvement(records_file(), n, row["squares"], how, f"ladder {row['shape']}", git_commit())
            print(f"n={n:>2} {'recorded in ' + str(records_file()) if kept else 'not recorded'}", flush=True)
    write_json(args.out, {"benchmark": "matchsticks_ladders", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
