"""Reading the tab-separated tables shipped in a package's `data/` folder.

One loader for every published or computed table (OEIS columns, best-known scores,
sample optima): a header row names the columns, lines starting with `#` are comments
(provenance, attribution), and every row becomes a dict of column -> text. Each puzzle's
`reference.py` turns the text into numbers and caches the result."""

from __future__ import annotations

import csv
from importlib import resources

__all__ = ["read_tsv", "read_data_text"]


def read_data_text(package: str, name: str) -> str:
    """The text of `data/<name>` shipped with `package` (e.g. 'puzzlelab.puzzles.hexagon')."""
    return resources.files(package).joinpath("data", name).read_text(encoding="utf-8")


def read_tsv(package: str, name: str) -> list[dict[str, str]]:
    """The rows of the tab-separated `data/<name>` of `package`, comments skipped."""
    lines = (line for line in read_data_text(package, name).splitlines() if line.strip() and not line.startswith("#"))
    return [dict(row) for row in csv.DictReader(lines, delimiter="\t")]
