"""The published A294249 table shipped in `data/` (see its attribution line)."""

from __future__ import annotations

import csv
from functools import lru_cache
from importlib import resources

__all__ = ["published_table", "PUBLISHED_COLUMNS"]

PUBLISHED_COLUMNS = ("best_known", "diagonal1_best", "diagonal20_best", "greedy_best")


@lru_cache(maxsize=1)
def published_table() -> dict[int, dict[str, object]]:
    """n -> {'best_known', 'proven', 'diagonal1_best', 'diagonal20_best', 'greedy_best'}."""
    text = resources.files("puzzlelab.puzzles.matchsticks").joinpath("data/a294249.tsv").read_text()
    rows = [line for line in text.splitlines() if line and not line.startswith("#")]
    table: dict[int, dict[str, object]] = {}
    for row in csv.DictReader(rows, delimiter="\t"):
        entry: dict[str, object] = {key: int(row[key]) for key in PUBLISHED_COLUMNS}
        entry["proven"] = row["status"] == "optimal"
        table[int(row["n"])] = entry
    return table
