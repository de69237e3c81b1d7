"""The published tables shipped in `data/` (provenance in `data/SOURCES.md`): the ten
Cimpress Tech Challenge 2 puzzles and their optima, and OEIS A219158 for m <= 10,
n <= 60. Loaded once; imports nothing of the package but `puzzlelab.core`."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from puzzlelab.core.tables import read_data_text, read_tsv

__all__ = ["CONTEST_OPTIMA", "contest_json", "contest_ids", "a219158_table"]

PACKAGE = "puzzlelab.puzzles.tiling"

# Optima of the ten contest puzzles, proven with CP-SAT for this project (their tilings: contest_tilings.py).
CONTEST_OPTIMA = {1: 90, 2: 64, 3: 103, 4: 100, 5: 97, 6: 119, 7: 63, 8: 96, 9: 60, 10: 65}


@lru_cache(maxsize=None)
def contest_json(number: int) -> dict[str, Any]:
    """Contest puzzle `number` (1..10) in the contest's JSON form."""
    return json.loads(read_data_text(PACKAGE, f"contest_{number}.json"))


@lru_cache(maxsize=None)
def contest_ids() -> dict[str, int]:
    """The contest's puzzle id -> its number 1..10."""
    return {contest_json(n)["id"]: n for n in CONTEST_OPTIMA}


@lru_cache(maxsize=None)
def a219158_table() -> dict[tuple[int, int], int]:
    """The shipped part of OEIS A219158: (m, n) -> fewest squares, m <= 10, n <= 60."""
    return {(int(row["m"]), int(row["n"])): int(row["min_squares"]) for row in read_tsv(PACKAGE, "A219158_m10_n60.tsv")}
