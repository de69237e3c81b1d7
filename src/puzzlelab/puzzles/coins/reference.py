"""The published optimal move counts shipped in `data/` (attribution in data/README.md).

`optimal_lengths_sample.tsv` holds 210 of the 2,664 font puzzles (150 of font5x7, 60
of font5x9) with the optimal lengths the coin-sliding puzzle site (Erik Demaine) found
by exhaustive search: the oracle the tests and `Puzzle.published` compare against."""

from __future__ import annotations

from functools import lru_cache

from puzzlelab.core.tables import read_tsv

__all__ = ["published_lengths", "SOURCE"]

SOURCE = "coin-sliding puzzle site (Erik Demaine), optimal lengths by exhaustive search"


@lru_cache(maxsize=1)
def published_lengths() -> dict[str, int]:
    """Puzzle name ('font5x7:A-B') -> published optimal number of moves."""
    rows = read_tsv("puzzlelab.puzzles.coins", "optimal_lengths_sample.tsv")
    return {f"{row['family']}:{row['start']}-{row['target']}": int(row["optimal_moves"]) for row in rows}
