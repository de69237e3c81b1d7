"""New upper bounds for A294249: answers found here with fewer matches than the published
best known value, shipped in `data/new_records.json`.

Provenance: every row was written by `benchmarks/bench_matchsticks_moonshot.py --record`
after the band search (`band.py`) found it and the checker confirmed its count; the row
names the command, the answer it started from, the date and the commit. On load each row
is checked again (`check_record`): one square of each size 1..n inside the largest, its
squares recount to its value (`verify.verify_solution`, which shares no code with the
searches), and that value is strictly below the published `best_known`. A row that fails
makes the whole file fail: a record is never shown unchecked.

A record here is an upper bound, not a proof of optimality.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from puzzlelab.core.inputs import is_whole
from puzzlelab.puzzles.matchsticks.columns import shipped_rows
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.verify import verify_solution

__all__ = ["DATA_NAME", "records_file", "check_record", "shipped_records", "record_rows", "record_improvement", "best_shipped"]

DATA_NAME = "new_records.json"
_FIELDS = ("n", "value", "published", "squares", "found_by", "started_from", "recorded", "commit")


def records_file() -> Path:
    """The shipped file in the source tree (where `record_improvement` writes)."""
    return Path(str(resources.files("puzzlelab.puzzles.matchsticks").joinpath("data", DATA_NAME)))


def check_record(row: Any) -> None:
    """ValueError unless the row is a verified answer below the published best value."""
    if not isinstance(row, dict):
        raise ValueError(f"{DATA_NAME}: expected an object per record, got {type(row).__name__}")
    missing = [key for key in _FIELDS if key not in row]
    if missing:
        raise ValueError(f"{DATA_NAME}: record {row.get('n')!r}: missing fields {', '.join(missing)}")
    n, value, squares = row["n"], row["value"], row["squares"]
    if not is_whole(n) or not is_whole(value):
        raise ValueError(f"{DATA_NAME}: record {n!r}: n and value must be integers")
    table = published_table()
    if n not in table:
        raise ValueError(f"{DATA_NAME}: record n={n}: no published value to compare with (n = {min(table)}..{max(table)})")
    best = table[n]["best_known"]
    if row["published"] != best:
        raise ValueError(f"{DATA_NAME}: record n={n}: says the published value is {row['published']}, the shipped table has {best}")
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": squares})
    if not verdict.ok:
        raise ValueError(f"{DATA_NAME}: record n={n}: the checker rejects its squares ({verdict.message})")
    if verdict.value != value:
        raise ValueError(f"{DATA_NAME}: record n={n}: its squares give {verdict.value} matches, not the {value} it claims")
    if value >= best:
        raise ValueError(f"{DATA_NAME}: record n={n}: {value} matches is not below the published {best}")


@lru_cache(maxsize=1)
def shipped_records() -> dict[int, dict[str, Any]]:
    """n -> record, every one re-checked (`check_record`); empty when none ship."""
    try:
        text = resources.files("puzzlelab.puzzles.matchsticks").joinpath("data", DATA_NAME).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return _parse(text)


def record_rows() -> dict[str, Any]:
    """{'provenance': ..., 'rows': [(row, reason or None)]}: every shipped row with the
    reason it fails `check_record` (None: it holds), one by one, so that a page can show
    a failed row as failed (`shipped_records` refuses the whole file)."""
    try:
        data = json.loads(resources.files("puzzlelab.puzzles.matchsticks").joinpath("data", DATA_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"provenance": None, "rows": []}
    rows = data.get("records") if isinstance(data, dict) else None
    checked = []
    for row in rows if isinstance(rows, list) else []:
        try:
            check_record(row)
            checked.append((row, None))
        except ValueError as exc:
            checked.append((row if isinstance(row, dict) else {}, str(exc)))
    return {"provenance": data.get("provenance") if isinstance(data, dict) else None, "rows": checked}


def _parse(text: str) -> dict[int, dict[str, Any]]:
    data = json.loads(text)
    rows = data.get("records") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise ValueError(f"{DATA_NAME}: expected {{'provenance': ..., 'records': [...]}}")
    found: dict[int, dict[str, Any]] = {}
    for row in rows:
        check_record(row)
        if row["n"] in found:
            raise ValueError(f"{DATA_NAME}: record n={row['n']} appears twice")
        found[row["n"]] = row
    return found


def best_shipped(n: int, column: str | None = None, records: bool = True) -> tuple[str, int, list[list[int]]] | None:
    """(where from, value, squares) of the fewest-matches answer of n that ships: a new
    record (unless `records` is False), else the best restricted column's (or only
    `column`'s); None when none ships. Ties go to the record, then diagonal1,
    diagonal20, greedy."""
    found = []
    if records and n in shipped_records():
        row = shipped_records()[n]
        found.append((row["value"], "new record", row["squares"]))
    for name, row in shipped_rows(n).items():  # n's rows only, each checked
        if column is None or name == column:
            found.append((row["value"], name, row["squares"]))
    if not found:
        return None
    value, name, squares = min(found, key=lambda f: f[0])
    return name, value, squares


def record_improvement(path: str | os.PathLike, n: int, squares: list[list[int]], found_by: str, started_from: str, commit: str | None) -> dict[str, Any] | None:
    """Add the answer to the file at `path` when it beats both the published value and
    the record held there for n (written whole to a temporary file, then renamed).
    Returns the new row, or None when it beats nothing held. ValueError when the
    checker does not confirm it."""
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": squares})
    if not verdict.ok:
        raise ValueError(f"record n={n}: the checker rejects the answer ({verdict.message})")
    row = {
        "n": n,
        "value": verdict.value,
        "published": published_table()[n]["best_known"],
        "squares": [list(map(int, s)) for s in squares],
        "found_by": found_by,
        "started_from": started_from,
        "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": commit,
    }
    if row["value"] >= row["published"]:
        return None
    target = Path(path)
    held = _parse(target.read_text(encoding="utf-8")) if target.exists() else {}
    if n in held and held[n]["value"] <= row["value"]:
        return None
    check_record(row)
    held[n] = row
    provenance = (
        "Answers below the published best known value of A294249 (Chaffin's table, 2019), found by the exact band search "
        "(puzzlelab.puzzles.matchsticks.band; benchmarks/bench_matchsticks_moonshot.py --record) and confirmed by the independent "
        "checker (verify.py); each row is re-checked on load (records.py). Upper bounds, not proofs."
    )
    body = json.dumps({"provenance": provenance, "records": [held[k] for k in sorted(held)]}, separators=(",", ":"))
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=".records-")
    with os.fdopen(handle, "w") as out:
        out.write(body.replace('{"n":', '\n{"n":') + "\n")
    os.replace(temp, target)
    return row
