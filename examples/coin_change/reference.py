"""The published (here: known) figures shipped in `data/known.tsv`, loaded once.

A real puzzle keeps its published tables here (OEIS columns, contest best scores) with
their attribution, and imports nothing of its own package but `puzzlelab.core`: the
solvers, the batch drivers and the Puzzle object all read it from below, so it must not
read them. `core.tables.read_tsv` does the reading (header row, `#` comments).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from puzzlelab.core.tables import read_tsv

__all__ = ["Known", "known_instances"]


@dataclass(frozen=True)
class Known:
    """One catalog entry: the instance, its known fewest coins (None: cannot be paid)."""

    name: str
    target: int
    coins: tuple[int, ...]
    fewest: int | None
    source: str
    description: str


@lru_cache(maxsize=1)
def known_instances() -> dict[str, Known]:
    """Catalog name -> Known, in the file's order."""
    table = {}
    for row in read_tsv("coin_change", "known.tsv"):
        fewest = None if row["fewest"] == "-" else int(row["fewest"])
        coins = tuple(int(c) for c in row["coins"].split())
        table[row["name"]] = Known(row["name"], int(row["target"]), coins, fewest, row["source"], row["description"])
    return table
