"""The three restricted columns of A294249's table (diagonal1, diagonal20, greedy: each
value the exact optimum of its restricted search), computed here and shipped in
`data/restricted_columns.json` so that `puzzlelab matchsticks table --stored` shows them
without rerunning.

Provenance: every row was written by `benchmarks/bench_matchsticks_columns.py --record`
after its search ran to completion and its answer passed the checker; the file names the
command, the commit and the machine. On load each row is checked again: its squares
recount to its value (`verify.verify_solution`) and obey its restriction
(`verify.restriction_broken`: on the diagonal; greedy at every size). The value's
optimality within the restriction rests on the recorded complete search.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
import time
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.verify import restriction_broken, verify_solution

__all__ = ["COLUMNS", "DATA_NAME", "shipped_columns", "shipped_rows", "column_rows", "check_row", "record_row", "data_file"]

# column -> (method, options, restriction for the checker, published column)
COLUMNS: dict[str, tuple[str, dict[str, Any], dict[str, Any], str]] = {
    "diagonal1": ("diagonal", {"free_below": 1}, {"free_below": 1}, "diagonal1_best"),
    "diagonal20": ("diagonal", {"free_below": 20}, {"free_below": 20}, "diagonal20_best"),
    "greedy": ("greedy", {}, {"greedy": True}, "greedy_best"),
}
DATA_NAME = "restricted_columns.json"


def data_file() -> Path:
    """The shipped file in the source tree (where `record_row` writes)."""
    return Path(str(resources.files("puzzlelab.puzzles.matchsticks").joinpath("data", DATA_NAME)))


def check_row(column: str, row: dict[str, Any]) -> None:
    """ValueError unless the row's squares recount to its value and obey its column's
    restriction, and its search was complete."""
    if column not in COLUMNS:
        raise ValueError(f"{DATA_NAME}: unknown column {column!r}")
    n, value, squares = row.get("n"), row.get("value"), row.get("squares")
    if not isinstance(n, int) or not isinstance(value, int) or not isinstance(squares, list):
        raise ValueError(f"{DATA_NAME}: {column} row {n!r}: expected n, value and squares")
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": squares})
    if not verdict.ok or verdict.value != value:
        raise ValueError(f"{DATA_NAME}: {column} n={n}: the squares do not give {value} matches ({verdict.message})")
    broken = restriction_broken(squares, **COLUMNS[column][2])
    if broken:
        raise ValueError(f"{DATA_NAME}: {column} n={n}: {broken}")
    if row.get("complete") is not True:
        raise ValueError(f"{DATA_NAME}: {column} n={n}: its search did not complete")


@lru_cache(maxsize=1)
def _shipped_data() -> dict[str, Any] | None:
    """The shipped file as parsed, unchecked (None when it does not ship)."""
    try:
        text = resources.files("puzzlelab.puzzles.matchsticks").joinpath("data", DATA_NAME).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return json.loads(text)


@lru_cache(maxsize=1)
def shipped_columns() -> dict[str, Any]:
    """{'provenance': ..., 'columns': {column: {n: row}}}, every row checked
    (`check_row`); a row that fails makes the whole file fail (ValueError)."""
    data = _shipped_data()
    if data is None:
        return {"provenance": None, "columns": {c: {} for c in COLUMNS}}
    columns: dict[str, dict[int, dict[str, Any]]] = {c: {} for c in COLUMNS}
    for column, rows in data.get("columns", {}).items():
        for row in rows:
            check_row(column, row)
            columns[column][row["n"]] = row
    return {"provenance": data.get("provenance"), "columns": columns}


def column_rows() -> dict[str, Any]:
    """{'provenance': ..., 'rows': [(column, row, reason or None)]}: every shipped row
    with the reason it fails `check_row`, one by one (a page shows a failed row as
    failed; `shipped_columns` refuses the whole file)."""
    data = _shipped_data()
    if data is None:
        return {"provenance": None, "rows": []}
    rows = []
    for column, entries in (data.get("columns") or {}).items():
        for row in entries:
            try:
                check_row(column, row)
                rows.append((column, row, None))
            except ValueError as exc:
                rows.append((column, row, str(exc)))
    return {"provenance": data.get("provenance"), "rows": rows}


@lru_cache(maxsize=64)
def shipped_rows(n: int) -> dict[str, dict[str, Any]]:
    """{column: row} of the rows of n, each checked (`check_row`): what one n needs,
    without checking the whole file (about half a second)."""
    data = _shipped_data() or {}
    found: dict[str, dict[str, Any]] = {}
    for column, rows in data.get("columns", {}).items():
        for row in rows:
            if row.get("n") == n:
                check_row(column, row)
                found[column] = row
    return {column: found[column] for column in COLUMNS if column in found}  # in COLUMNS' order, as shipped_columns


def record_row(
    path: str | os.PathLike, column: str, result: Any, n: int, seconds: float, provenance: dict[str, Any], extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Add (or replace) one complete, verified result in the JSON file at `path`
    (written whole to a temporary file, then renamed); `extra` adds fields (a resumed
    search's figures). Returns the row."""
    row = {
        "n": n,
        "value": result.value,
        "squares": result.solution["squares"],
        "complete": bool(result.stats.get("complete")),
        "nodes": result.stats.get("nodes"),
        "seconds": round(seconds, 2),
        "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": provenance.get("commit"),
        **(extra or {}),
    }
    check_row(column, row)
    target = Path(path)
    with open(Path(tempfile.gettempdir()) / "puzzlelab-matchsticks-columns.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # campaigns of different columns share the file
        _write_row(target, column, n, row, provenance)
    return row


def _write_row(target: Path, column: str, n: int, row: dict[str, Any], provenance: dict[str, Any]) -> None:
    data = json.loads(target.read_text()) if target.exists() else {"columns": {}}
    rows = [r for r in data["columns"].get(column, []) if r["n"] != n] + [row]
    data["columns"][column] = sorted(rows, key=lambda r: r["n"])
    commands = sorted(set((data.get("provenance") or {}).get("commands", [])) | {provenance["command"]})
    merged = {k: v for k, v in provenance.items() if k != "command"} | {"commands": commands}
    data = {"provenance": merged, "columns": {c: data["columns"][c] for c in COLUMNS if c in data["columns"]}}
    text = json.dumps(data, indent=None, separators=(",", ":")).replace('{"n":', '\n{"n":')
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=".columns-")
    with os.fdopen(handle, "w") as out:
        out.write(text + "\n")
    os.replace(temp, target)
