"""`auto` at 10 s beside CP-SAT at 300 s on a field of 100 contest-style puzzles
(section 1).

The field: 100 puzzles drawn once by the practice server's generator
(`contest.random_puzzle`), kept in `benchmarks/data/tiling_field.json` (each puzzle's
size, blocked cells and id) so every run and the peer cache see the same grids, in four
groups: 60 contest puzzles (sides 20..40, 5% blocked), 15 sparse ones (2%), 15 dense
ones (15%), and 10 large ones (sides 60..100, 5%). The peer, CP-SAT's set
partition (`--peer-threads` threads, `--peer-limit` seconds, default 300), is computed
once per puzzle and kept in `benchmarks/data/tiling_peer_cache.json` (committed): a run
fills in the puzzles it lacks, saving after each one, so the cache fills over several
runs (`--peer-only` to fill it without running `auto`); an entry is reused when its
limit is at least the one asked or it is proven optimal. Both answers are verified.
Each entry keeps the machine's 1-minute load when it started (`load`): CP-SAT's limit is
wall time, so an unproven entry computed beside other work is weaker than it would be
alone (a proven one gives the same value, only its seconds grow).

Per puzzle: `auto`'s squares, bound (and which bound: the LP relaxation, the exact DP,
CP-SAT, or the row / column bands every grid gets) and status; the peer's squares,
bound and status. In all: how often `auto` equals, beats or trails the peer, the mean
gap (auto - peer, squares), how often each proves optimality.

Run: nice -n 5 .venv/bin/python benchmarks/bench_tiling_field.py [--first 0] [--count 100]
     [--names contest-0,contest-54] [--repeats 1] [--cpsat | --no-cpsat] [--budget 10] [--peer-limit 300] [--peer-threads 1] [--workers 0] [--peer-only]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np
from common import write_json

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling
from puzzlelab.puzzles.tiling.model import Grid, format_solution

CACHE = Path(__file__).resolve().parent / "data" / "tiling_peer_cache.json"
FIELD = CACHE.with_name("tiling_field.json")


def field() -> list[tuple[str, Grid]]:
    """The 100 puzzles, in the file's order: (name, grid)."""
    puzzles = []
    for name, entry in json.loads(FIELD.read_text()).items():
        free = np.ones(entry["height"] * entry["width"], dtype=bool)
        free[entry["blocked"]] = False
        puzzles.append((name, Grid.from_array(free.reshape(entry["height"], entry["width"]), id=entry["id"])))
    return puzzles


def load_cache() -> dict:
    return json.loads(CACHE.read_text()) if CACHE.exists() else {}


def save_cache(cache: dict) -> None:
    CACHE.parent.mkdir(exist_ok=True)
    CACHE.write_text(json.dumps(cache, indent=1, sort_keys=True) + "\n")


def peer(name: str, grid: Grid, cache: dict, limit: float, threads: int) -> dict:
    """CP-SAT's answer for the puzzle, from the cache or computed (and cached)."""
    key = f"{name}:{grid.digest()}"
    entry = cache.get(key)
    if entry and (entry["limit_s"] >= limit or entry["status"] == "optimal"):
        return entry
    started, load = time.perf_counter(), round(os.getloadavg()[0], 2)
    try:
        status, value, squares, bound, _ = cpsat_tiling(grid.free(), budget=Budget(limit), threads=threads)
    except InvalidInstance as exc:  # the model does not fit the memory allowed
        entry = {"status": "too large", "value": None, "bound": None, "limit_s": limit, "note": str(exc)}
    else:
        if squares:
            verdict = PUZZLE.verify(grid, format_solution(grid, squares))
            assert verdict.ok and verdict.value == value, verdict.message
        entry = {"status": status.value, "value": value, "bound": bound, "limit_s": limit, "threads": threads,
                 "seconds": round(time.perf_counter() - started, 2), "size": f"{grid.width}x{grid.height}", "load": load}  # fmt: skip
    cache[key] = entry
    save_cache(cache)
    return entry


def summary(rows: list[dict]) -> str:
    both = [r for r in rows if r["auto"] is not None and r["peer"] is not None]
    equal = sum(r["auto"] == r["peer"] for r in both)
    beats = sum(r["auto"] < r["peer"] for r in both)
    trails = sum(r["auto"] > r["peer"] for r in both)
    gap = statistics.mean(r["auto"] - r["peer"] for r in both) if both else float("nan")
    ours = sum(r["auto_status"] == "optimal" for r in rows)
    theirs = sum(r["peer_status"] == "optimal" for r in rows)
    return (f"{len(rows)} puzzles ({len(both)} with both answers): auto equals CP-SAT on {equal}, beats it on {beats}, "
            f"trails on {trails}; mean gap {gap:+.2f} squares; proven optimal: auto {ours}, CP-SAT {theirs}")  # fmt: skip


def auto_row(row: dict, line: str, grid: Grid, theirs: dict, args) -> dict:
    """One run of `auto` on the puzzle (verified by solve), printed beside the peer."""
    ours = PUZZLE.solve(grid, "auto", budget=args.budget, workers=args.workers, cpsat=args.cpsat)
    row.update(auto=ours.value, cpsat_member=ours.stats.get("cpsat_member"), auto_bound=ours.bound, auto_status=ours.status.value, auto_member=ours.stats.get("member"),
               bound_source=ours.stats.get("bound_source"), auto_s=ours.stats.get("seconds"))  # fmt: skip
    mark = "" if theirs["value"] is None else ("=" if ours.value == theirs["value"] else ("<" if ours.value < theirs["value"] else ">"))
    print(f"{line}   auto {ours.value} {mark} (bound {ours.bound} from {row['bound_source']}, {ours.status.value}, "
          f"{row['auto_s']:.1f} s, by {row['auto_member']})", flush=True)  # fmt: skip
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--names", default="", help="only these puzzles, comma-separated (contest-0,contest-54)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of auto per puzzle, one row each")
    parser.add_argument("--cpsat", action=argparse.BooleanOptionalAction, default=None,
                        help="auto with (--cpsat) or without (--no-cpsat) its CP-SAT member; unset: auto decides")  # fmt: skip
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--peer-limit", type=float, default=300.0)
    parser.add_argument("--peer-threads", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--peer-only", action="store_true")
    args = parser.parse_args()

    cache = load_cache()
    names = [n.strip() for n in args.names.split(",") if n.strip()]
    puzzles = field()
    if names:
        known = dict(puzzles)
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SystemExit(f"--names: unknown puzzle {unknown[0]!r}; expected names such as contest-0 or sparse-3")
        puzzles = [(n, known[n]) for n in names]
    else:
        puzzles = puzzles[args.first : args.first + args.count]
    rows = []
    for name, grid in puzzles:
        theirs = peer(name, grid, cache, args.peer_limit, args.peer_threads)
        row = {"puzzle": name, "size": f"{grid.width}x{grid.height}", "peer": theirs["value"],
               "peer_bound": theirs["bound"], "peer_status": theirs["status"], "peer_limit_s": theirs["limit_s"]}  # fmt: skip
        line = f"{name:11s} {grid.width:3d}x{grid.height:<3d} CP-SAT {theirs['value']} (bound {theirs['bound']}, {theirs['status']}, {theirs['limit_s']:g} s)"
        if args.peer_only:
            print(line, flush=True)
            continue
        rows.extend(auto_row(dict(row), line, grid, theirs, args) for _ in range(args.repeats))
    if rows:
        print(summary(rows))
        write_json("tiling_field", {"benchmark": "auto 10 s vs CP-SAT", "budget_s": args.budget, "cpsat_member": args.cpsat,
                                    "rows": rows, "summary": summary(rows)})  # fmt: skip


if __name__ == "__main__":
    main()
