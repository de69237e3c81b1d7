"""Reading the tab-separated tables shipped in a package's `data/` folder.

One loader for every published or computed table (OEIS columns, best-known scores,
sample optima): a header row names the columns, lines starting with `#` are comments
(provenance, attribution), and every row becomes a dict of column -> text. Each puzzle's
`reference.py` turns the text into numbers and caches the result."""

from __future__ import annotations

import csv
import json
import os
from importlib import resources
from typing import Any, Callable, Iterator

from puzzlelab.core.files import write_atomic

__all__ = ["read_tsv", "read_data_text", "shipped_rows", "write_shipped_json"]


def read_data_text(package: str, name: str) -> str:
    """The text of `data/<name>` shipped with `package` (e.g. 'puzzlelab.puzzles.hexagon')."""
    return resources.files(package).joinpath("data", name).read_text(encoding="utf-8")


def read_tsv(package: str, name: str) -> list[dict[str, str]]:
    """The rows of the tab-separated `data/<name>` of `package`, comments skipped."""
    lines = (line for line in read_data_text(package, name).splitlines() if line.strip() and not line.startswith("#"))
    return [dict(row) for row in csv.DictReader(lines, delimiter="\t")]


def shipped_rows(
    package: str, name: str, rows_key: str, row_keys: tuple[str, ...], read: Callable[[str, str], str] = read_data_text
) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Each row of the computed JSON table `data/<name>` (`{"provenance": {...},
    rows_key: [...]}`) with its provenance: the file's shared fields, overridden by the
    row's own `row_keys`. Nothing when the file does not ship. The caller checks every
    row with its puzzle's checker; `read` is the caller's own reader of the file."""
    try:
        data = json.loads(read(package, name))
    except FileNotFoundError:
        return
    shared = data.get("provenance") or {}
    for row in data.get(rows_key, []):
        yield row, {**shared, **{k: row[k] for k in row_keys if k in row}}


def write_shipped_json(path: str | os.PathLike, provenance: dict[str, Any], rows_key: str, rows: list[dict[str, Any]], first_key: str) -> None:
    """Write a computed JSON table whole and atomically (`core.files`), one row a line
    (each starting with its `first_key`) so a diff shows the rows that changed."""
    body = json.dumps({"provenance": provenance, rows_key: rows}, separators=(",", ":")).replace(f'{{"{first_key}":', f'\n{{"{first_key}":')
    write_atomic(path, body + "\n", str(path))
