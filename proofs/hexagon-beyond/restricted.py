"""Hexagon orders past the proofs: the write-up's restricted SAT searches run to the end.

The published grids for n >= 17 came from SAT runs restricted to grids whose penalty edges
lie near the perimeter (`--ring d`: edge distance below d; `--inner x`: up to x beyond it)
and stopped once a good score was found. `sat` tightens the bound until the restricted
search is UNSAT, so a run that ends says "no grid within this restriction scores more",
and a run that goes past the published score has beaten it. This walks each order up a
ladder of ever wider restrictions (each contains the one before it), a run per rung with
`--seconds` of budget, and keeps every run's outcome in `restricted.json` (whole, then
renamed, so a killed run loses one rung and the same command resumes). Without `--break`
the symmetry breaking is the sound lex-leader one, so an ended run's claim holds for the
whole restricted space.

    python proofs/hexagon-beyond/restricted.py run --orders 17..27 --seconds 240
    python proofs/hexagon-beyond/restricted.py table

A grid that scores more than the campaign's best for its order (`state.json`), checked by
the independent checker, becomes that order's best and current grid there, so the walks
go on from it and `campaign.py ship` ships it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import campaign  # noqa: E402

from puzzlelab.core.files import write_atomic  # noqa: E402
from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.puzzles.hexagon.model import HexInstance  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import published_raw  # noqa: E402
from puzzlelab.puzzles.hexagon.verify import read_solution  # noqa: E402

RESULTS = campaign.HERE / "restricted.json"
LADDER = (  # each rung contains the one before it
    {"ring": 4, "inner": 0},
    {"ring": 4, "inner": 1},
    {"ring": 4, "inner": 2},
    {"ring": 5, "inner": 0},
    {"ring": 5, "inner": 1},
    {"ring": 4, "inner": 3},
)


def rung_name(options: dict[str, int]) -> str:
    """The restriction as `sat` options, ring first (the file keeps its keys sorted)."""
    order = ("ring", "inner", "break")
    return " ".join(f"--{key} {options[key]}" for key in sorted(options, key=lambda k: order.index(k) if k in order else len(order)))


def load_results(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.exists() else {"runs": {}}


def run_rung(n: int, options: dict[str, int], seconds: float) -> dict[str, Any]:
    """One restricted SAT run of order n; its outcome, the grid checked by verify.py."""
    from puzzlelab.puzzles.hexagon import PUZZLE

    started, cpu = time.perf_counter(), campaign.cpu_seconds()
    result = PUZZLE.solve(HexInstance(n), "sat", budget=seconds, **options)
    row: dict[str, Any] = {
        "n": n,
        "options": options,
        "command": f"puzzlelab hexagon solve {n} --method sat {rung_name(options)} --json",
        "published": published_raw(n),
        "raw": None,
        "ended": False,
        "seconds": round(time.perf_counter() - started, 1),
        "cpu_seconds": round(campaign.cpu_seconds() - cpu, 1),
        "recorded": campaign._now(),
        "commit": campaign._commit(),
    }
    if result.solution is not None and result.verified:
        grid = list(read_solution(n, result.solution))
        row["raw"] = campaign.checked_raw(n, grid)
        row["grid"] = campaign.digits(grid)
        row["ended"] = str(result.stats.get("proven", "")).startswith("best within")
    return row


def adopt(state: dict[str, Any], row: dict[str, Any]) -> bool:
    """Make the run's grid its order's best and current grid in the walk's state where it
    scores more than the best there; True when it did."""
    order = state["orders"].get(str(row["n"]))
    if row["raw"] is None or order is None or row["raw"] <= order["best"]["raw"]:
        return False
    grid = [int(c) for c in row["grid"]]
    best = {"raw": campaign.checked_raw(row["n"], grid), "grid": row["grid"]}
    order["best"] = {**best, "recorded": row["recorded"], "commit": row["commit"], "command": row["command"]}
    order["current"] = best
    return True


def table_lines(results: dict[str, Any]) -> list[str]:
    lines = ["n   published  restriction          raw    ended  seconds"]
    for key in sorted(results["runs"], key=lambda k: (int(k.split()[0]), k)):
        r = results["runs"][key]
        mark = "" if r["raw"] is None else ("  BEATS" if r["raw"] > r["published"] else ("" if r["raw"] < r["published"] else "  ties"))
        lines.append(
            f"{r['n']:<3} {r['published']:>9}  {rung_name(r['options']):<20} {r['raw']!s:>5}  {'best' if r['ended'] else 'open':>5}  {r['seconds']:>7.0f}{mark}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("run", "table"))
    parser.add_argument("--orders", default="17..27", help="orders, e.g. 17..27 or 19,23")
    parser.add_argument("--seconds", type=float, default=240.0, help="budget of one run")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the runs' file")
    parser.add_argument("--state", type=Path, default=campaign.STATE, help="the walks' state file")
    args = parser.parse_args(argv)
    results = load_results(args.results)
    if args.action == "table":
        print("\n".join(table_lines(results)))
        return 0
    for options in LADDER:
        for n in parse_range(args.orders):
            key = f"{n} {rung_name(options)}"
            if key in results["runs"]:
                continue
            row = run_rung(n, options, args.seconds)
            results["runs"][key] = row
            write_atomic(args.results, json.dumps(results, indent=1, sort_keys=True) + "\n", "restricted runs", "results")
            state = campaign.load_state(args.state)
            if adopt(state, row):
                campaign.save_state(args.state, state)
            print("\n".join(table_lines({"runs": {key: row}})[1:]), flush=True)
    print("\n".join(table_lines(results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
