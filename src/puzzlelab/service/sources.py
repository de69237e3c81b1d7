"""The answer sources the service plugs in at start-up (`answers.register_answer_source`):
the shipped table of font5x7 coin optima, each proven by this project's own
full BFS; and the shipped matchsticks answers: for each n the best of the
restricted columns' complete searches and of the new records below the published
values (not proofs: served as feasible). `answers` replays every entry with the checker on first use, as
it does for any source; a table that cannot be read is logged and yields nothing, so the
dashboards and the search methods go on without it."""

from __future__ import annotations

import logging
from typing import Iterator

from puzzlelab.puzzles.coins.optimal_table import CorruptTable, load_table
from puzzlelab.puzzles.matchsticks.columns import COLUMNS
from puzzlelab.puzzles.matchsticks.model import MAX_N
from puzzlelab.puzzles.matchsticks.records import best_shipped
from puzzlelab.service.answers import SourcedAnswer, register_answer_source

__all__ = ["COINS_TABLE", "MATCHSTICKS_SHIPPED", "coins_table_answers", "matchsticks_shipped_answers", "register_shipped_sources"]

COINS_TABLE = "font5x7 optimal table (full BFS)"
MATCHSTICKS_SHIPPED = "matchsticks shipped answers (restricted columns, new records)"
log = logging.getLogger("puzzlelab.service")


def coins_table_answers() -> Iterator[SourcedAnswer]:
    """Every entry of the shipped font5x7 table as a stored answer would look."""
    try:
        table = load_table("font5x7")
        for entry in table.entries():
            yield SourcedAnswer(entry.key, entry.moves, entry.solution, method="bfs")
    except CorruptTable as exc:
        log.error("the shipped coins table is not served: %s", exc)


def matchsticks_shipped_answers() -> Iterator[SourcedAnswer]:
    """For each n, the fewest matches among the shipped new records and restricted
    columns (`records.best_shipped`; each file re-checked when it loads, and the
    service's checker replays them)."""
    try:
        best = {n: best_shipped(n) for n in range(MAX_N + 1)}
    except ValueError as exc:
        log.error("the shipped matchsticks answers are not served: %s", exc)
        return
    for n, found in best.items():
        if found is not None:
            name, value, squares = found
            method = "band search (new record)" if name == "new record" else f"{COLUMNS[name][0]} ({name})"
            yield SourcedAnswer(str(n), value, {"roam": 0, "squares": squares}, status="feasible", method=method)


def register_shipped_sources() -> None:
    register_answer_source("coins", COINS_TABLE, coins_table_answers)
    register_answer_source("matchsticks", MATCHSTICKS_SHIPPED, matchsticks_shipped_answers)
