"""The records store's best results, each checked again by its puzzle's checker before
it is listed or served.

`Store.add` takes only verified results, but the store is a file: a row edited by hand,
or one written by a version whose checker had a bug (a forged certificate, say), would be listed as a record and hide every true one behind it. So every listing of
records -- `puzzlelab records`, GET /api/records, the dashboards and the answer routes
-- walks each instance's records best first and shows the first that passes now: its
instance rebuilt (from the instance stored with it, else from its key), its solution
checked, and the checker's value equal to the stored one. The records passed over are
named in `Checked.rejected`, with the reason.

A record claiming "optimal" where a proven published value is better keeps its
solution but loses the claim: it is shown as "feasible", and the note says why. (The
checker checks solutions; an optimality claim it can only compare with what is known.)

Verdicts are remembered per record and its stored text: a service checks each record
once while it runs, and a row edited in place is checked again.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import check_text
from puzzlelab.core.puzzle import Puzzle
from puzzlelab.core.result import Status
from puzzlelab.core.store import Record, Store, best_first, natural_key

__all__ = ["Rejected", "Checked", "checked_best"]

Rebuild = Callable[[Puzzle, str], Any]  # (puzzle, key) -> the instance, or None

_VERDICTS: dict[tuple[str, int, str], str | None] = {}  # (store, id, digest of the texts) -> reason, None: passed
_VERDICTS_KEPT = 200_000
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Rejected:
    """A record passed over (`listed` False), or listed without its claim of
    optimality (`listed` True), and why."""

    record: Record
    reason: str
    listed: bool = False

    def line(self) -> str:
        r = self.record
        what = "listed as feasible, not optimal" if self.listed else "not listed"
        return f"record {r.id} ({r.puzzle} {r.instance}, value {r.value}) {what}: {self.reason}"


@dataclass(frozen=True)
class Checked:
    """The best record of each instance that passes the checker now, and the rest."""

    records: list[Record]
    rejected: list[Rejected]


def checked_best(
    store: Store,
    puzzles: Mapping[str, Puzzle],
    puzzle: str | None = None,
    instance: str | None = None,
    *,
    solutions: bool = True,
    rebuild: Rebuild | None = None,
) -> Checked:
    """The best checked record per (puzzle, instance), of one puzzle and / or instance
    or all, sorted as `Store.best` sorts. `solutions=False` leaves each record's
    solution out of what is returned (it is still read and checked). `rebuild(puzzle,
    key)` finds the instance of a record stored without one (default:
    `Puzzle.instance_from_key`)."""
    groups: dict[tuple[str, str], list[Record]] = {}
    for record in store.results(puzzle, instance, solutions=False):
        groups.setdefault((record.puzzle, record.instance), []).append(record)
    queues = {key: best_first(records) for key, records in groups.items()}
    kept: dict[tuple[str, str], Record] = {}
    rejected: list[Rejected] = []
    while queues:  # one round reads the text of every instance's next candidate at once
        texts = store.check_texts([queue[0].id for queue in queues.values()])
        for key in list(queues):
            record = queues[key].pop(0)
            text = texts.get(record.id)
            reason = "it was removed while being read" if text is None else _reason(store, puzzles, record, text, rebuild)
            if reason is None:
                kept[key] = _with_claim_checked(puzzles[record.puzzle], record, text, solutions, rejected)
                del queues[key]
                continue
            rejected.append(Rejected(record, reason))
            if not queues[key]:
                del queues[key]
    order = sorted(kept, key=lambda k: (k[0], natural_key(k[1])))
    return Checked([kept[key] for key in order], rejected)


def _reason(store: Store, puzzles: Mapping[str, Puzzle], record: Record, text: tuple, rebuild: Rebuild | None) -> str | None:
    """Why the record fails its check now (None: it passes), remembered per text."""
    tag = (str(store.path), record.id, hashlib.sha1("\x00".join(t or "" for t in text).encode()).hexdigest())
    with _LOCK:
        if tag in _VERDICTS:
            return _VERDICTS[tag]
    reason = _check(puzzles, record, text, rebuild)
    with _LOCK:
        if len(_VERDICTS) >= _VERDICTS_KEPT:
            _VERDICTS.clear()
        _VERDICTS[tag] = reason
    return reason


def _check(puzzles: Mapping[str, Puzzle], record: Record, text: tuple, rebuild: Rebuild | None) -> str | None:
    value_text, solution_text, instance_text = text
    owner = puzzles.get(record.puzzle)
    if owner is None:
        return f"no puzzle named {record.puzzle!r} is installed to check it"
    if record.damaged:
        return f"its stored {record.damaged} {'do' if ',' in record.damaged else 'does'} not read"
    try:
        value = json.loads(value_text)
        solution = None if solution_text is None else json.loads(solution_text)
        stored = None if instance_text is None else json.loads(instance_text)
    except (ValueError, TypeError, RecursionError, ArithmeticError) as exc:
        return f"its stored text does not read ({_short(exc)})"
    try:  # written before the service refused such text: a NUL or a lone surrogate cannot be served
        check_text({"instance": stored, "solution": solution}, "record")
    except InvalidInstance as exc:
        return f"its stored text cannot be served ({_short(exc)})"
    try:
        instance = owner.parse(stored) if instance_text is not None else (rebuild or _from_key)(owner, record.instance)
    except (InvalidInstance, ValueError, TypeError, RecursionError, ArithmeticError) as exc:
        return f"its stored text does not read ({_short(exc)})"
    if instance is None:
        return "its instance is not stored with it and its key does not say it (solve it again to list it)"
    if owner.instance_key(instance) != record.instance:
        return f"its stored instance has the key {owner.instance_key(instance)!r}, not {record.instance!r}"
    if solution is None:
        return "it has no solution to check"
    try:
        verdict = owner.verify(instance, solution)
    except (InvalidInstance, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, ArithmeticError) as exc:
        return f"the checker cannot read its solution ({_short(exc)})"
    if not verdict.ok:
        return f"the checker rejects it: {verdict.message}"
    if verdict.value != value:
        return f"the checker counts {verdict.value}, the record says {value}"
    return None


def _with_claim_checked(owner: Puzzle, record: Record, text: tuple, solutions: bool, rejected: list[Rejected]) -> Record:
    """The record to list: its solution filled in (or not), and its claim of
    optimality dropped where a proven published value is better."""
    record = replace(record, solution=json.loads(text[1]) if solutions else None)
    published = owner.published(record.instance) if record.status == Status.OPTIMAL.value else None
    if published and published.get("proven") and _beats(owner.sense, published.get("value"), record.value):
        rejected.append(Rejected(record, f"{published.get('value')} is proven ({published.get('source') or 'published'})", listed=True))
        record = replace(record, status=Status.FEASIBLE.value)
    return record


def _beats(sense: str, a: Any, b: Any) -> bool:
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    return numbers and ((sense == "min" and a < b) or (sense == "max" and a > b))


def _from_key(owner: Puzzle, key: str) -> Any:
    return owner.instance_from_key(key)


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:160]}"
