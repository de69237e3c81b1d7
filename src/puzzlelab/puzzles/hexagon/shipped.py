"""What this project computed for the hexagon puzzle and ships in `data/`, each row
checked when it is read:

- `best_grids.json`: for each order a grid of the published best raw score, found by
  the package's `sat` method (the command is in each row). Checked: the grid obeys the
  rule and scores its raw score (`verify.verify_grid`, which imports no solver).
- `proofs.json`: the records of the proofs that orders 3..12 are optimal ("no level-k
  grid has b or fewer penalty edges", by SAT, cubes or the row DP). A proof is a long
  run and is not repeated on load; what is checked is that the claim adds up: its
  optimum is edges - b - 1, it equals the published proven score, and the write-up's
  lowest level-k penalty is above b.
- `counts.json`: the solution counts of the write-up's table that the row DP
  (`hexagon count`) reproduced, as recorded (the DP gives no certificate to check).

A row that fails its check keeps its figures and gets a `problem` naming why, so a
page can show it as failed rather than drop it silently.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from puzzlelab.core.tables import read_data_text, write_shipped_json
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count
from puzzlelab.puzzles.hexagon.reference import count_table, level_table, published_table
from puzzlelab.puzzles.hexagon.verify import verify_grid

__all__ = [
    "DATA_NAME", "GridRow", "ProofRow", "CountRow", "data_file", "write_grids", "best_grids", "proof_records", "recorded_counts",
    "clear_cache",
]

PACKAGE = "puzzlelab.puzzles.hexagon"
DATA_NAME = "best_grids.json"
PROOFS_NAME = "proofs.json"
COUNTS_NAME = "counts.json"


@dataclass(frozen=True)
class GridRow:
    """A shipped grid of order n and its raw score; `problem` is None when it checks."""

    n: int
    raw: Any
    grid: Any
    status: str
    provenance: dict[str, Any]
    problem: str | None = None


@dataclass(frozen=True)
class ProofRow:
    """The record of a proof that `optimum` is the best raw score of order n: no
    level-`level` grid has `bound` or fewer penalty edges."""

    n: int
    optimum: Any
    level: Any
    bound: Any
    claim: str
    provenance: dict[str, Any]
    problem: str | None = None


@dataclass(frozen=True)
class CountRow:
    """The number of level-k grids of order n reaching the lowest level-k penalty."""

    n: int
    level: Any
    penalty: Any
    count: Any
    provenance: dict[str, Any]
    problem: str | None = None
    published: int | None = field(default=None)


def data_file(name: str = DATA_NAME) -> Path:
    """A shipped file in the source tree (where `write_grids` writes)."""
    return Path(str(resources.files(PACKAGE).joinpath("data", name)))


def _load(name: str) -> dict[str, Any]:
    """The file's JSON ({'rows': []} when it does not ship); ValueError when unreadable."""
    try:
        data = json.loads(read_data_text(PACKAGE, name))
    except FileNotFoundError:
        return {"rows": []}
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise ValueError(f"{name}: expected {{'provenance': ..., 'rows': [...]}}")
    return data


def _provenance(data: dict[str, Any], row: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The file's provenance with the row's own figures over it."""
    shared = data.get("provenance") if isinstance(data.get("provenance"), dict) else {}
    return {**shared, **{k: row[k] for k in keys if k in row}}


def _grid_problem(n: Any, raw: Any, grid: Any) -> str | None:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 200:
        return f"n: expected an order 1..200, got {n!r}"
    verdict = verify_grid(HexInstance(n), grid)
    if not verdict.ok:
        return f"the checker rejects the grid: {verdict.message}"
    if verdict.value != raw:
        return f"the grid scores raw {verdict.value}, not the {raw} it claims"
    return None


@lru_cache(maxsize=1)
def best_grids() -> dict[int, GridRow]:
    """n -> the shipped grid of order n, each checked (`problem` set where it fails)."""
    data = _load(DATA_NAME)
    keys = ("method", "options", "command", "cpu_seconds", "wall_seconds", "recorded", "commit", "machine")
    rows = {}
    for row in data["rows"]:
        n = row.get("n")
        rows[n] = GridRow(n, row.get("raw"), row.get("grid"), row.get("status", "feasible"), _provenance(data, row, keys),
                          _grid_problem(n, row.get("raw"), row.get("grid")))
    return rows


def _proof_problem(n: Any, optimum: Any, level: Any, bound: Any) -> str | None:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, optimum, level, bound)):
        return "n, optimum, level and bound must be integers"
    if optimum != edge_count(n) - bound - 1:
        return f"optimum {optimum} is not edges {edge_count(n)} - bound {bound} - 1 = {edge_count(n) - bound - 1}"
    published = published_table().get(n)
    if published is None or int(published["best_raw_score"]) != optimum:
        return f"optimum {optimum} is not the published best raw score of order {n}"
    levels = level_table().get(n)
    lowest = None if levels is None else levels[min(level, 4) - 1]
    if not 1 <= level <= 5 or (lowest is not None and lowest <= bound):
        return f"level {level} with bound {bound}: the write-up's lowest level-{level} penalty is {lowest}, not above the bound"
    return None


@lru_cache(maxsize=1)
def proof_records() -> dict[int, ProofRow]:
    """n -> the record of the proof that its published score is optimal, checked for
    consistency (`problem` set where it does not add up)."""
    data = _load(PROOFS_NAME)
    keys = ("method", "command", "cpu_seconds", "wall_seconds", "recorded", "commit", "machine", "record", "note")
    rows = {}
    for row in data["rows"]:
        n, optimum, level, bound = row.get("n"), row.get("optimum"), row.get("level"), row.get("bound")
        rows[n] = ProofRow(n, optimum, level, bound, str(row.get("claim", "")), _provenance(data, row, keys),
                           _proof_problem(n, optimum, level, bound))
    return rows


@lru_cache(maxsize=1)
def recorded_counts() -> list[CountRow]:
    """The counts the row DP reproduced, beside the write-up's figure (`published`)."""
    data = _load(COUNTS_NAME)
    published = count_table()
    keys = ("command", "seconds", "recorded", "recorded_in", "machine", "method")
    rows = []
    for row in data["rows"]:
        n, level, count = row.get("n"), row.get("level"), row.get("count")
        ok = all(isinstance(v, int) and not isinstance(v, bool) for v in (n, level, count)) and count > 0
        rows.append(CountRow(n, level, row.get("penalty"), count, _provenance(data, row, keys),
                             None if ok else "n, level and count must be positive integers",
                             published.get(n, {}).get(level) if ok else None))
    return rows


def clear_cache() -> None:
    """Read the files again on the next call (after a file was rewritten)."""
    for reader in (best_grids, proof_records, recorded_counts):
        reader.cache_clear()


def write_grids(path: str | os.PathLike, rows: list[dict[str, Any]]) -> None:
    """Write the grids file (whole, to a temporary file, then renamed); every grid is
    checked first (ValueError naming the order that fails)."""
    for row in rows:
        problem = _grid_problem(row["n"], row["raw"], row["grid"])
        if problem:
            raise ValueError(f"{DATA_NAME}: n={row['n']}: {problem}")
    provenance = {
        "how": "for each order a grid of the published best raw score, found by the package's sat method "
               "(benchmarks/ship_hexagon_grids.py; the row's command reproduces it) and checked by verify.py; "
               "every grid is checked again when the file is read (shipped.py)",
    }
    write_shipped_json(path, provenance, "rows", rows, "n")
