"""The answer sources the service plugs in at start-up (`answers.register_answer_source`):
today the shipped table of font5x7 coin optima (issue 23), each proven by this
project's own full BFS. `answers` replays every entry with the checker on first use, as
it does for any source; a table that cannot be read is logged and yields nothing, so the
dashboards and the search methods go on without it."""

from __future__ import annotations

import logging
from typing import Iterator

from puzzlelab.puzzles.coins.optimal_table import CorruptTable, load_table
from puzzlelab.service.answers import SourcedAnswer, register_answer_source

__all__ = ["COINS_TABLE", "coins_table_answers", "register_shipped_sources"]

COINS_TABLE = "font5x7 optimal table (full BFS)"
log = logging.getLogger("puzzlelab.service")


def coins_table_answers() -> Iterator[SourcedAnswer]:
    """Every entry of the shipped font5x7 table as a stored answer would look."""
    try:
        table = load_table("font5x7")
        for entry in table.entries():
            yield SourcedAnswer(entry.key, entry.moves, entry.solution, method="bfs")
    except CorruptTable as exc:
        log.error("the shipped coins table is not served: %s", exc)


def register_shipped_sources() -> None:
    register_answer_source("coins", COINS_TABLE, coins_table_answers)
