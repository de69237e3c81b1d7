"""`table`: the answer from the shipped table of optima (optimal_table.py), else `bidir`.

A font5x7 puzzle whose start the project's own BFS campaign has finished is answered at
once: its entry is replayed by the checker before it leaves the table, and its status is
`optimal` because that BFS visited every board reachable from the start (the target's
level is its distance). `stats` says so and carries the table's provenance. Any other
puzzle (another font, glyphs of one's own, a start not yet computed), or a table that
cannot be trusted, is solved by `bidir` with the same options, and `stats["table"]`
says why the table did not answer.
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.coins.model import Instance
from puzzlelab.puzzles.coins.optimal_table import TABLE_FILES, CorruptTable, OptimalTable, TableEntry, load_table

__all__ = ["run_table", "table_result"]


def run_table(instance: Instance, *, budget: Budget, progress, seed: int, memory_mb: int = 2048, dedup: str = "auto", threads: int = 1) -> Result:
    """The `table` method (methods.py); bidir's options go to bidir when it answers."""
    found, why = _from_table(instance)
    if found is not None:
        return table_result(*found)
    from puzzlelab.puzzles.coins.bidir.search import bidirectional

    result = bidirectional(instance, budget=budget, progress=progress, memory_mb=memory_mb, dedup=dedup, threads=threads)
    result.stats["table"] = f"{why}; solved by bidir"
    return result


def _from_table(instance: Instance) -> tuple[tuple[OptimalTable, TableEntry] | None, str]:
    """(table, entry) when the shipped table answers the instance, else (None, why not)."""
    fonts = [instance.font] if instance.font is not None else list(TABLE_FILES)
    name = instance.key
    for font in fonts:
        try:
            table = load_table(font)
        except InvalidInstance:
            return None, f"no optimal table ships for {font} (tables ship for {', '.join(TABLE_FILES)})"
        except CorruptTable as exc:
            return None, f"the shipped table was refused: {exc}"
        try:
            entry = table.lookup(instance)
        except CorruptTable as exc:
            return None, f"the table's entry was refused: {exc}"
        if entry is not None:
            return (table, entry), ""
        if instance.font is not None:
            return None, f"{name} is not in the shipped table yet (it holds {table.coverage()})"
    return None, f"{name} is not in a shipped table ({', '.join(TABLE_FILES)})"


def table_result(table: OptimalTable, entry: TableEntry) -> Result:
    """The Result for a replayed table entry: optimal, proven by the campaign's BFS."""
    facts = table.provenance
    start = facts.get("starts", {}).get(entry.start, {})
    stats: dict[str, Any] = {
        "source": f"the shipped table of {table.font} optima ({table.where}; {table.coverage()})",
        "proof": f"optimal: proven by this project's own exhaustive BFS from {entry.font}:{entry.start} over every reachable "
        f"board (the target's BFS level is {entry.moves}); the move list was replayed by the independent checker",
        "table_entry": entry.key,
        "provenance": {
            "command": facts.get("command"),
            "engine_commit": facts.get("engine_commit"),
            "first_recorded_in": start.get("first_recorded_in"),
            "start_bfs_wall_seconds": start.get("wall_seconds"),
            "start_bfs_cpu_seconds": start.get("cpu_seconds"),
            "start_bfs_peak_memory_bytes": start.get("peak_memory_bytes"),
            "shipped": facts.get("shipped"),
        },
    }
    return Result(entry.moves, [list(move) for move in entry.solution], Status.OPTIMAL, "table", bound=entry.moves, stats=stats)
