"""The coins rows the package ships: the optimal move list of every puzzle of each
font's table (every font5x7 puzzle; the font5x9 starts computed so far), each length
proven by a full BFS (`puzzles.coins.optimal_table`). An entry whose moves fail the
replay is a failed row; a table that cannot be read at all yields none (and says why in
the log)."""

from __future__ import annotations

import logging
from typing import Any, Iterator

from puzzlelab.puzzles.coins.optimal_table import TABLE_FILES, CorruptTable, load_table
from puzzlelab.service.shipped.claims import Claim

__all__ = ["PARTS", "TABLE", "claims", "clear", "table_provenance"]

TABLE = "coins optimal tables (full BFS)"
PROVENANCE_KEYS = ("command", "method", "results", "engine_commit", "shipped", "wall_seconds_total", "cpu_seconds_total", "cpu_note")
log = logging.getLogger("puzzlelab.service")


def table_provenance(provenance: dict[str, Any]) -> dict[str, Any]:
    """The table's provenance without the per-start figures (those go on each row)."""
    return {k: provenance[k] for k in PROVENANCE_KEYS if k in provenance}


def claims(font: str = "font5x7") -> Iterator[Claim]:
    try:
        table = load_table(font)
    except CorruptTable as exc:
        log.error("the shipped coins table of %s is not shown: %s", font, exc)
        return
    shared = table_provenance(table.provenance)
    starts = table.provenance.get("starts") or {}
    for start, target, moves, solution in table.unreplayed():  # check_claim replays each with the checker
        key = f"{table.font}:{start}-{target}"
        provenance = {**shared, "start": start, **(starts.get(start) or {})}
        yield Claim(key, key, moves, "optimal", "optimal (full BFS)", f"{font} optimal table (full BFS)", "bfs", provenance, solution, None, {}, "answer", TABLE)


# one part per shipped file: a file that cannot be read leaves the others shown
PARTS = tuple((f"data/{name}", lambda font=font: claims(font)) for font, name in TABLE_FILES.items())


def clear() -> None:
    """Nothing to forget here: the table is read once per process (`load_table`), and
    each entry's replay is what is checked again."""
