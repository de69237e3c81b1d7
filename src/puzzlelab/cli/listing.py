"""What `puzzlelab records` prints of the results the package ships (`service.shipped`:
proofs, new records, tables this project computed, each checked again by its puzzle's
checker): a table beside the published figure, with what beats or ties it first, and a
file with many rows summed up in one line unless every row is asked for."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.shipped import Shipped, shipped, unreadable

__all__ = ["shipped_rows", "shipped_tables", "beats_and_ties", "MANY"]

MANY = 24  # a file with more rows than this is one summary line unless --all
CHECK_WORDS = ("verified", "failed", "recorded")


def shipped_rows(puzzle: str | None) -> list[tuple[Shipped, dict[str, Any] | None]]:
    """Every shipped row (of one puzzle, or all) with the published figure of its instance."""
    rows = []
    for name in REGISTRY:
        if puzzle in (None, name):
            rows += [(row, _published(row)) for row in shipped(name)]
    return rows


def _published(row: Shipped) -> dict[str, Any] | None:
    """The published figure the row compares with: its own (a count of a table that
    is published beside other figures), else the puzzle's for its instance."""
    if "published" in row.figures:
        return None if row.figures["published"] is None else {"value": row.figures["published"]}
    return REGISTRY[row.puzzle].published(row.instance) if row.kind in ("answer", "record", "proof", "count") else None


def _versus(row: Shipped, published: dict[str, Any] | None) -> str:
    if published is None or row.check == "failed" or not isinstance(row.value, (int, float)):
        return ""
    value, sense = published.get("value"), REGISTRY[row.puzzle].sense
    if not isinstance(value, (int, float)):
        return ""
    if row.value == value:
        return "ties"
    return "BEATS" if (row.value < value if sense == "min" else row.value > value) else ""


def beats_and_ties(rows: list[tuple[Shipped, dict[str, Any] | None]]) -> list[str]:
    """One line per shipped row that beats its published figure (the new records)."""
    return [f"{row.puzzle} {row.instance}: {row.value:,} beats the published {published['value']:,} ({row.claim}; {row.check})"
            for row, published in rows if _versus(row, published) == "BEATS"]


def _line(row: Shipped, published: dict[str, Any] | None) -> tuple[str, ...]:
    check = "FAILED: " + row.reason if row.check == "failed" else row.check
    figure = "" if published is None else f"{published['value']:,}" if isinstance(published.get("value"), int) else str(published.get("value"))
    value = f"{row.value:,}" if isinstance(row.value, int) else str(row.value)
    return (row.label, value, figure, _versus(row, published), check, row.claim)


def shipped_tables(rows: list[tuple[Shipped, dict[str, Any] | None]], every: bool, puzzle: str | None = None) -> list[Table]:
    """One table per puzzle; a file of more than MANY rows (and no failure) is one line
    saying how many of its rows were checked, unless `every`."""
    tables = []
    for name in REGISTRY:
        mine = [(r, p) for r, p in rows if r.puzzle == name]
        why = unreadable(name) if puzzle in (None, name) else None
        if not mine and not why:
            continue
        table = Table("shipped", "value", "published", "vs", "check", "claim", title=f"{name}: shipped with the package, each checked now",
                      caption="files: " + "; ".join(dict.fromkeys(r.source for r, _ in mine)) if mine else None)
        by_source: dict[str, list[tuple[Shipped, dict[str, Any] | None]]] = {}
        for row, published in mine:
            by_source.setdefault(row.source, []).append((row, published))
        for group in by_source.values():
            _add_group(table, group, every)
        if why:
            table.add_row("(a file)", "", "", "", f"FAILED: {why}", "")
        tables.append(table)
    return tables


def _add_group(table: Table, group: list[tuple[Shipped, dict[str, Any] | None]], every: bool) -> None:
    if every or len(group) <= MANY:
        for row, published in group:
            table.add_row(*_line(row, published))
        return
    checks = ", ".join(f"{n:,} {word}" for word in CHECK_WORDS if (n := sum(r.check == word for r, _ in group)))
    ties = sum(_versus(r, p) == "ties" for r, p in group)
    table.add_row(f"{len(group):,} rows (--all lists them)", "", "", f"{ties:,} ties" if ties else "", checks, group[0][0].claim)
    for row, published in group:
        if row.check == "failed":
            table.add_row(*_line(row, published))
