"""Tilings of the ten Cimpress contest puzzles with their proven optima, computed here
and shipped in `data/contest_tilings.json`: each found and proven optimal by the
package's `prove` method (the row names the command, the date, the CPU seconds and the
commit; `benchmarks/ship_tiling_contests.py` writes the file).

On load each tiling is checked by the independent checker (`verify.verify_tiling`,
which recounts the cover of every cell) against its contest puzzle, and its count must
equal the proven optimum of `reference.CONTEST_OPTIMA`. That no tiling has fewer squares
rests on the recorded proof. A row that fails keeps its figures with a `problem`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from puzzlelab.core.tables import read_data_text, shipped_rows, write_shipped_json
from puzzlelab.puzzles.tiling.model import format_solution, parse_grid
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA, contest_json
from puzzlelab.puzzles.tiling.verify import verify_tiling

__all__ = ["DATA_NAME", "ContestTiling", "data_file", "contest_tilings", "write_tilings", "tiling_problem"]

PACKAGE = "puzzlelab.puzzles.tiling"
DATA_NAME = "contest_tilings.json"
_ROW_KEYS = ("method", "proof", "command", "cpu_seconds", "wall_seconds", "recorded", "commit", "machine")


@dataclass(frozen=True)
class ContestTiling:
    """Contest puzzle `number`'s shipped tiling (the contest's solution form)."""

    number: int
    value: Any
    solution: dict[str, Any]
    provenance: dict[str, Any]
    problem: str | None = None


def data_file() -> Path:
    return Path(str(resources.files(PACKAGE).joinpath("data", DATA_NAME)))


def tiling_problem(number: Any, value: Any, squares: Any) -> str | None:
    """None when the squares tile contest puzzle `number` with its proven optimum."""
    if number not in CONTEST_OPTIMA:
        return f"number: expected a contest puzzle 1..10, got {number!r}"
    grid = parse_grid(contest_json(number))
    try:
        solution = format_solution(grid, [tuple(s) for s in squares])
    except (TypeError, ValueError) as exc:
        return f"squares: expected [x, y, size] triples ({exc})"
    verdict = verify_tiling(grid, solution)
    if not verdict.ok:
        return f"the checker rejects the tiling: {verdict.message}"
    if verdict.value != value:
        return f"the tiling has {verdict.value} squares, not the {value} it claims"
    if value != CONTEST_OPTIMA[number]:
        return f"{value} squares is not the proven optimum {CONTEST_OPTIMA[number]}"
    return None


@lru_cache(maxsize=1)
def contest_tilings() -> dict[int, ContestTiling]:
    """number -> its shipped tiling, each checked ({} when the file does not ship)."""
    found = {}
    for row, provenance in shipped_rows(PACKAGE, DATA_NAME, "rows", _ROW_KEYS, read=read_data_text):
        number, value, squares = row.get("number"), row.get("value"), row.get("squares") or []
        problem = tiling_problem(number, value, squares)
        solution = {"squares": squares} if problem else format_solution(parse_grid(contest_json(number)), [tuple(s) for s in squares])
        found[number] = ContestTiling(number, value, solution, provenance, problem)
    return found


def write_tilings(path: str | os.PathLike, rows: list[dict[str, Any]]) -> None:
    """Write the file whole (temporary file, then renamed), every tiling checked first."""
    for row in rows:
        problem = tiling_problem(row["number"], row["value"], row["squares"])
        if problem:
            raise ValueError(f"{DATA_NAME}: contest {row['number']}: {problem}")
    provenance = {
        "how": "each contest puzzle solved and proven optimal by the prove method (auto's tiling, then the exact DP or "
               "CP-SAT with its LP bound on each group; benchmarks/ship_tiling_contests.py), the tiling checked by verify.py; "
               "checked again when the file is read (contest_tilings.py)",
    }
    write_shipped_json(path, provenance, "rows", rows, "number")
