"""The published A294249 table shipped in `data/` (see its attribution line). Imports
nothing of the package but `puzzlelab.core`."""

from __future__ import annotations

from functools import lru_cache

from puzzlelab.core.tables import read_tsv

__all__ = ["published_table", "PUBLISHED_COLUMNS"]

PUBLISHED_COLUMNS = ("best_known", "diagonal1_best", "diagonal20_best", "greedy_best")


@lru_cache(maxsize=1)
def published_table() -> dict[int, dict[str, object]]:
    """n -> {'best_known', 'proven', 'diagonal1_best', 'diagonal20_best', 'greedy_best'}."""
    table: dict[int, dict[str, object]] = {}
    for row in read_tsv("puzzlelab.puzzles.matchsticks", "a294249.tsv"):
        entry: dict[str, object] = {key: int(row[key]) for key in PUBLISHED_COLUMNS}
        entry["proven"] = row["status"] == "optimal"
        table[int(row["n"])] = entry
    return table
