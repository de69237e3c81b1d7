"""What the package ships that this project computed -- proofs, new records, restricted
optima, best grids, tilings, counts, tables -- as rows a dashboard and `puzzlelab
records` show beside the published figures and this machine's records store.

Every row is checked again here by its puzzle's independent checker
(`Puzzle.verify`) before it is shown, whatever its reader checked on load:
- `verified`: the checker passes its solution and recounts its value;
- `failed`: the reader or the checker rejects it; it is shown as failed, with the
  reason, and never as ours (nor served as an answer);
- `recorded`: there is nothing the checker can check in full (a count with no
  certificate, one too large to recount): shown as a recorded figure with its
  provenance, never as verified.
A claim of optimality is checked as far as a checker can: the solution reaches the
value; the proof itself (hours of search) is the recorded run its provenance names.

Modules, in the order data flows: `claims` (the Claim and Shipped types and the check),
then one module per puzzle turning its readers' rows into claims (`matchsticks`,
`hexagon`, `tiling`, `macmahon`, `coins`); `shipped(name)` here gives a puzzle's rows,
checked once and cached, and `register_shipped_sources` plugs the verified ones into
`service.answers` so that each can be opened, drawn and exported.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Iterable

from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.answers import SourcedAnswer, register_answer_source
from puzzlelab.service.shipped import coins, hexagon, macmahon, matchsticks, tiling
from puzzlelab.service.shipped.claims import Claim, Shipped, check_claim

__all__ = ["Shipped", "Claim", "shipped", "shipped_for", "unreadable", "common_provenance", "clear_shipped", "register_shipped_sources", "COLLECTORS"]

log = logging.getLogger("puzzlelab.service")

Part = tuple[str, Callable[[], Iterable[Claim]]]  # (the shipped file, its rows as claims)
COLLECTORS: dict[str, tuple[tuple[Part, ...], Callable[[], None]]] = {
    "matchsticks": (matchsticks.PARTS, matchsticks.clear),
    "hexagon": (hexagon.PARTS, hexagon.clear),
    "tiling": (tiling.PARTS, tiling.clear),
    "macmahon": (macmahon.PARTS, macmahon.clear),
    "coins": (coins.PARTS, coins.clear),
}
_CACHE: dict[str, tuple[Shipped, ...]] = {}
_UNREADABLE: dict[str, str] = {}  # puzzle -> why its shipped files could not be read
_COMMON: dict[str, tuple[tuple[Shipped, ...], dict[str, dict[str, Any]]]] = {}
_MISSING = object()
_LOCK = threading.RLock()


def shipped(name: str) -> tuple[Shipped, ...]:
    """The shipped rows of puzzle `name`, each checked (cached); () for a puzzle that
    ships none or is not registered. A file that cannot be read at all is named in
    `unreadable(name)` and the other files' rows are still shown."""
    with _LOCK:
        if name not in _CACHE:
            collect = COLLECTORS.get(name)
            puzzle = REGISTRY.get(name)
            rows: list[Shipped] = []
            problems = []
            catalog = puzzle.catalog() if collect is not None and puzzle is not None else {}
            for where, part in collect[0] if collect is not None and puzzle is not None else ():
                try:
                    rows += [check_claim(puzzle, c, catalog) for c in part()]
                except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:  # a damaged file: none of it is shown
                    problems.append(f"{name} {where} cannot be read: {type(exc).__name__}: {str(exc)[:200]}")
                    log.error("%s", problems[-1])
            if problems:
                _UNREADABLE[name] = "; ".join(problems)
            _CACHE[name] = tuple(rows)
        return _CACHE[name]


def common_provenance(name: str) -> dict[str, dict[str, Any]]:
    """source -> the provenance every row of that source shares (key and value), so a
    page can show it once per file and each row only what is its own."""
    with _LOCK:
        rows = shipped(name)
        cached = _COMMON.get(name)
        if cached is not None and cached[0] is rows:
            return cached[1]
        common: dict[str, dict[str, Any]] = {}
        for row in rows:
            held = common.get(row.source)
            common[row.source] = dict(row.provenance) if held is None else {k: v for k, v in held.items() if row.provenance.get(k, _MISSING) == v}
        _COMMON[name] = (rows, common)
        return common


def unreadable(name: str) -> str | None:
    """Why the shipped files of `name` could not be read at all (None: they could)."""
    shipped(name)
    return _UNREADABLE.get(name)


def shipped_for(name: str) -> dict[str, list[Shipped]]:
    """instance key -> the shipped rows of that instance (in the collectors' order)."""
    rows: dict[str, list[Shipped]] = {}
    for row in shipped(name):
        rows.setdefault(row.instance, []).append(row)
    return rows


def clear_shipped(name: str | None = None) -> None:
    """Read and check the shipped files again on next use (of one puzzle, or all); the
    answer sources are plugged in again, so they serve what the files now hold."""
    with _LOCK:
        for puzzle in [n for n in COLLECTORS if name in (None, n)]:
            _CACHE.pop(puzzle, None)
            _UNREADABLE.pop(puzzle, None)
            COLLECTORS[puzzle][1]()
    register_shipped_sources(name)


def _source(name: str, source: str) -> Callable[[], list[SourcedAnswer]]:
    """The verified rows of one source as answers: per instance the best one (fewest
    or most, as the puzzle counts; proven before found)."""

    def answers() -> list[SourcedAnswer]:
        puzzle = REGISTRY[name]
        best: dict[str, Shipped] = {}
        for row in shipped(name):
            if row.answers != source or row.check != "verified" or row.solution is None:
                continue
            held = best.get(row.instance)
            if held is None or _beats(puzzle.sense, row, held):
                best[row.instance] = row
        return [SourcedAnswer(r.load_as, r.value, r.solution, status=r.status, method=r.method) for r in best.values()]

    return answers


def _beats(sense: str, a: Shipped, b: Shipped) -> bool:
    if a.value != b.value and sense in ("min", "max"):
        return a.value < b.value if sense == "min" else a.value > b.value
    return a.status == "optimal" and b.status != "optimal"


def register_shipped_sources(name: str | None = None) -> None:
    """Plug each shipped source of answers into `service.answers` (once per source
    name; registering again replaces it). The rows are read and checked on first use."""
    for puzzle, source in _SOURCES:
        if name in (None, puzzle) and puzzle in REGISTRY:
            register_answer_source(puzzle, source, _source(puzzle, source))


_SOURCES = [
    ("coins", coins.TABLE),
    ("matchsticks", matchsticks.PROOFS),
    ("matchsticks", matchsticks.SHIPPED),
    ("hexagon", hexagon.GRIDS),
    ("tiling", tiling.CONTESTS),
    ("tiling", tiling.ROWS),
    ("macmahon", macmahon.COUNTS),
]
