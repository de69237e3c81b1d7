"""Proofs on contest-size grids: `prove` beside CP-SAT alone, the same seconds per
puzzle (target: 90% of the 20..40 puzzles proven within 10 minutes
each).

The puzzles: the 90 of the field benchmark (`bench_tiling_field.py`) whose sides are
20..40 (60 at 5% blocked, 15 at 2%, 15 at 15%), in its order; `--every K` takes every
K-th of them (a sample), `--names` a list. Per puzzle, `prove` with `--limit` seconds
(its first search, `auto`, on the default workers for 10 s, then CP-SAT on `--threads`
threads), and CP-SAT alone on the set partition (one thread, no hint, the field
benchmark's peer, read from or added to its cache `data/tiling_peer_cache.json`):
CP-SAT counts as proving a puzzle within the limit when its cached run, at a limit at
least as long, ended optimal in at most that many seconds. Both answers are verified.

Printed per puzzle: each one's squares, bound, status and seconds, and how `prove` got
its proof; in all, how many each proves within the limit.

The full run is hours of CPU (up to 2 x 600 s a puzzle), so it is a campaign: each
puzzle's row is saved as it ends in `--record` (default `data/tiling_prove_rows.json`,
committed), keyed by puzzle, grid digest, limit and threads, with the commit that ran it
and `prove`'s tiling. A rerun skips the puzzles recorded (their tilings re-verified on
load; the proof itself is not redone) and prints the summary over every row asked for;
`--fresh` runs them again.

Run: nice -n 5 .venv/bin/python benchmarks/bench_tiling_prove.py [--limit 600] [--every 1]
     [--first 0] [--count 90] [--threads 1] [--names contest-0,sparse-3] [--no-peer]
     [--record FILE] [--fresh]
(`--no-peer`: CP-SAT alone is not run, nor read from the cache.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench_tiling_field import field, load_cache, peer
from common import git_commit, write_json

from puzzlelab.puzzles.tiling import PUZZLE

RECORD = Path(__file__).resolve().parent / "data" / "tiling_prove_rows.json"


def contest_size() -> list[tuple[str, object]]:
    return [(name, grid) for name, grid in field() if not name.startswith("large")]


def peer_within(entry: dict, limit: float) -> bool:
    """CP-SAT alone proved it within `limit` seconds (by its cached run)."""
    return entry["status"] == "optimal" and float(entry.get("seconds", entry["limit_s"])) <= limit


def row_key(name: str, grid, limit: float, threads: int) -> str:
    return f"{name}:{grid.digest()}:{limit:g}s:{threads}t"


def load_record(path: Path, grids: dict) -> dict:
    """The recorded rows, each one's tiling re-verified against its grid (a row whose
    tiling fails, or whose puzzle is not in the field, is dropped and runs again)."""
    if not path.exists():
        return {}
    kept = {}
    for key, row in json.loads(path.read_text()).items():
        grid = grids.get(row["puzzle"])
        if grid is None or not key.startswith(f"{row['puzzle']}:{grid.digest()}:"):
            continue
        verdict = PUZZLE.verify(grid, row["solution"])
        if verdict.ok and verdict.value == row["value"] and row["bound"] <= row["value"]:
            kept[key] = row
        else:
            print(f"{row['puzzle']}: recorded tiling refused ({verdict.message}); it runs again")
    return kept


def save_record(path: Path, record: dict) -> None:
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def print_row(row: dict, recorded: bool) -> None:
    print(f"{row['puzzle']:11s} {row['size']:>6s}  prove {row['value']} (bound {row['bound']}, {row['status']}, {row['seconds']:.1f} s; "
          f"{row['parts']} parts; {row['route']})   CP-SAT {row['peer']} (bound {row['peer_bound']}, {row['peer_status']}, "
          f"{row['peer_seconds']} s)" + (f"   [recorded, {row.get('commit') or '?'}]" if recorded else ""), flush=True)  # fmt: skip


def summary(rows: list[dict], limit: float) -> str:
    ours = [r for r in rows if r["status"] == "optimal"]
    theirs = sum(bool(r["peer_within"]) for r in rows)
    peer_runs = sum(r["peer_within"] is not None for r in rows)
    times = statistics.median(r["seconds"] for r in ours) if ours else float("nan")
    open_gap = [r["value"] - r["bound"] for r in rows if r["status"] != "optimal"]
    return (f"{len(rows)} puzzles, {limit:g} s each: prove proves {len(ours)} ({100 * len(ours) / max(1, len(rows)):.0f}%, "
            f"median {times:.1f} s), CP-SAT alone {theirs} of the {peer_runs} it ran ({100 * theirs / max(1, peer_runs):.0f}%); "
            f"gaps left by prove: {sorted(open_gap)}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=float, default=600.0)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=90)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--names", default="")
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--record", type=Path, default=RECORD, help="rows kept as they end; a rerun skips them")
    parser.add_argument("--fresh", action="store_true", help="run the recorded puzzles again")
    args = parser.parse_args()

    puzzles = contest_size()[:: max(1, args.every)][args.first : args.first + args.count]
    if args.names:
        wanted = set(args.names.split(","))
        puzzles = [(n, g) for n, g in contest_size() if n in wanted]
    cache = load_cache()
    record = {} if args.fresh else load_record(args.record, dict(contest_size()))
    head = git_commit()
    rows = []
    for name, grid in puzzles:
        key = row_key(name, grid, args.limit, args.threads)
        if key in record and (args.no_peer or record[key]["peer_within"] is not None):
            print_row(record[key], recorded=True)
            rows.append(record[key])
            continue
        none = {"value": None, "bound": None, "status": "not run", "seconds": None}
        theirs = none if args.no_peer else peer(name, grid, cache, args.limit, 1)
        started = time.perf_counter()
        ours = PUZZLE.solve(grid, "prove", budget=args.limit, threads=args.threads)  # verified by solve
        seconds = time.perf_counter() - started
        route = ours.stats.get("proof")
        route = route if isinstance(route, str) else (route[-1] if route else "")
        row = {"puzzle": name, "size": f"{grid.width}x{grid.height}", "value": ours.value, "bound": ours.bound,
               "status": ours.status.value, "seconds": round(seconds, 2), "parts": ours.stats.get("parts"), "route": route,
               "peer": theirs["value"], "peer_bound": theirs["bound"], "peer_status": theirs["status"],
               "peer_seconds": theirs.get("seconds"), "peer_within": None if args.no_peer else peer_within(theirs, args.limit),
               "commit": head, "solution": ours.solution}  # fmt: skip
        print_row(row, recorded=False)
        rows.append(row)
        record[key] = row
        save_record(args.record, record)
    if rows:
        print(summary(rows, args.limit))
        write_json(
            "tiling_prove",
            {
                "benchmark": "prove vs CP-SAT alone",
                "limit_s": args.limit,
                "rows": [{k: v for k, v in r.items() if k != "solution"} for r in rows],
                "summary": summary(rows, args.limit),
            },
        )


if __name__ == "__main__":
    main()
