"""The verified answers the workbench knows for each instance: the records store's best
result per instance, and any further source of solved instances plugged in with
`register_answer_source` (a shipped table of optimal coin solutions is the
first such source; this module has to know nothing of it).

A plugged-in source's answers pass the puzzle's independent checker once, on first
use, before any is shown or served (docs/architecture.md, "Data flow": every answer is verified before it is
printed, stored or served): an entry the checker rejects, or whose value differs from
the checker's count, is dropped and logged. The store's records were verified on their
way in (the store refuses anything else), and are checked again before they are used
(`core.records_check`): the store is a file, and a row edited by hand or written by an
older checker must not become an answer.

The dashboards (`service.dashboards`) and the answer routes read the same `known`
mapping, so a figure on a dashboard and the answer behind its link agree.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterable

from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.records_check import checked_best
from puzzlelab.core.result import Result, Status, Verdict
from puzzlelab.core.store import Record, Store, StoreError

__all__ = [
    "SourcedAnswer", "Known", "register_answer_source", "clear_answer_sources", "answer_sources", "known", "answer_of",
    "instance_of", "answer_instance", "checked_result",
]

log = logging.getLogger("puzzlelab.service")


@dataclass(frozen=True)
class SourcedAnswer:
    """One solved instance from a plugged-in source: the instance key the store would
    use ('font5x7:A-B'), the value the field quotes, the solution in the puzzle's JSON
    form, and how it was found."""

    instance: str
    value: Any
    solution: Any
    status: str = Status.OPTIMAL.value
    method: str = ""
    seconds: float | None = None


AnswerSource = Callable[[], Iterable[SourcedAnswer]]


@dataclass(frozen=True)
class Known:
    """The best verified answer known for one instance, and where it comes from:
    'store' (`record_id` set) or the name of a plugged-in source."""

    instance: str
    value: Any
    status: str
    bound: Any
    method: str
    seconds: float | None
    solution: Any
    source: str
    record_id: int | None = None
    created: float | None = None

    def summary(self) -> dict[str, Any]:
        """The answer without its solution (what a dashboard row carries)."""
        return {
            "instance": self.instance, "value": self.value, "status": self.status, "bound": self.bound, "method": self.method,
            "seconds": self.seconds, "source": self.source, "record_id": self.record_id, "created": self.created,
        }

    def result(self, verdict: Verdict | None = None) -> Result:
        """As a Result (for the puzzle's renderers and exports)."""
        return Result(self.value, self.solution, Status(self.status), self.method, self.bound, {"seconds": self.seconds}, verdict)


_SOURCES: dict[str, list[tuple[str, AnswerSource]]] = {}
_CHECKED: dict[tuple[str, str], dict[str, Known]] = {}
_VERDICTS: OrderedDict[tuple, Verdict] = OrderedDict()  # (puzzle, instance, source, record id) -> verdict
VERDICTS_KEPT = 512
_LOCK = threading.Lock()


def register_answer_source(puzzle: str, name: str, source: AnswerSource) -> None:
    """Plug in a further source of solved instances of `puzzle`: `source()` yields
    SourcedAnswer items; it is called once, on first use, and each answer is checked.
    Registering a name again replaces that source."""
    with _LOCK:
        entries = [(n, s) for n, s in _SOURCES.get(puzzle, []) if n != name]
        _SOURCES[puzzle] = entries + [(name, source)]
        _CHECKED.pop((puzzle, name), None)
        _VERDICTS.clear()


def clear_answer_sources(puzzle: str | None = None) -> None:
    """Forget the plugged-in sources (of one puzzle, or all)."""
    with _LOCK:
        for key in [k for k in _SOURCES if puzzle is None or k == puzzle]:
            for name, _ in _SOURCES.pop(key):
                _CHECKED.pop((key, name), None)
        _VERDICTS.clear()


def answer_sources(puzzle: str) -> list[str]:
    """The names of the sources plugged in for `puzzle`, in the order registered."""
    with _LOCK:
        return [name for name, _ in _SOURCES.get(puzzle, [])]


def _checked(puzzle: Puzzle, name: str, source: AnswerSource) -> dict[str, Known]:
    """The answers of one source that pass the checker, by instance key (cached)."""
    cached = _CHECKED.get((puzzle.name, name))
    if cached is not None:
        return cached
    good: dict[str, Known] = {}
    for item in source():
        try:
            instance = puzzle.load(item.instance, local=False)
            verdict = puzzle.verify(instance, item.solution)
        except InvalidInstance as exc:
            log.error("answer source %r: %s %s dropped: %s", name, puzzle.name, item.instance, exc)
            continue
        if not verdict.ok or verdict.value != item.value:
            log.error("answer source %r: %s %s dropped: the checker says %s (value %s, claimed %s)",
                      name, puzzle.name, item.instance, verdict.message, verdict.value, item.value)
            continue
        key = puzzle.instance_key(instance)
        good[key] = Known(key, item.value, item.status, item.value if item.status == Status.OPTIMAL.value else None,
                          item.method or name, item.seconds, item.solution, name)
    _CHECKED[(puzzle.name, name)] = good
    return good


def _from_record(record: Record) -> Known:
    return Known(record.instance, record.value, record.status, record.bound, record.method, record.seconds,
                 record.solution, "store", record.id, record.created)


def _better(puzzle: Puzzle, a: Known, b: Known) -> bool:
    """Whether `a` beats `b`: a better value in the puzzle's sense, then proven over
    not proven; otherwise `b` stays (the store's record comes first)."""
    numbers = all(isinstance(k.value, (int, float)) and not isinstance(k.value, bool) for k in (a, b))
    if numbers and puzzle.sense in ("min", "max") and a.value != b.value:
        return a.value < b.value if puzzle.sense == "min" else a.value > b.value
    a_proven, b_proven = a.status == Status.OPTIMAL.value, b.status == Status.OPTIMAL.value
    if a_proven != b_proven:
        return a_proven
    # Two records of the store: the faster, as `Store.best` picks, so both agree.
    return a.source == b.source == "store" and (a.seconds or 0.0) < (b.seconds or 0.0)


def known(store: Store, puzzle: Puzzle, instance: str | None = None, *, solutions: bool = True) -> dict[str, Known]:
    """Instance key -> the best verified answer (of every instance, or of `instance`
    only): the store's best record that passes the checker again now
    (`core.records_check`; the records passed over are logged), then each plugged-in
    source's answer where it is better or the store has none. `solutions=False` leaves
    the store's solutions out (a dashboard needs the values only)."""
    checked = checked_best(store, {puzzle.name: puzzle}, puzzle.name, instance, solutions=solutions, rebuild=partial(instance_of, store))
    for passed_over in checked.rejected:
        log.warning("records store %s: %s", store.path, passed_over.line())
    best = {record.instance: _from_record(record) for record in checked.records}
    with _LOCK:
        sources = list(_SOURCES.get(puzzle.name, []))
    for name, source in sources:
        with _LOCK:
            answers = _checked(puzzle, name, source)
        for key, answer in answers.items():
            if (instance is None or key == instance) and (key not in best or _better(puzzle, answer, best[key])):
                best[key] = answer
    return best


def answer_of(store: Store, puzzle: Puzzle, instance: str) -> Known | None:
    """The best verified answer for one instance key, or None."""
    return known(store, puzzle, instance).get(instance)


def instance_of(store: Store, puzzle: Puzzle, key: str) -> Any | None:
    """The instance an answer's key names: parsed from the key (a catalog name, 'rect_5x3'
    as '5x3', n), else the instance of a job of the service that had this key (a grid
    stored by its digest); None where neither gives it."""
    instance = puzzle.instance_from_key(key)
    if instance is not None:
        return instance
    try:
        with store.connect() as db:
            row = db.execute("SELECT instance FROM jobs WHERE puzzle = ? AND instance_key = ? LIMIT 1", (puzzle.name, key)).fetchone()
    except StoreError:
        return None  # no jobs table: a store written by the command line only
    if row is None:
        return None
    try:
        return puzzle.parse(json.loads(row[0]))
    except (InvalidInstance, ValueError):
        return None


def answer_instance(store: Store, puzzle: Puzzle, answer: Known) -> Any | None:
    """The instance an answer belongs to: a store record's own instance, as stored with
    it (several instances share one key -- the same grid under two contest ids -- and a
    record checked against another's instance would be shown as not verified), else
    the instance its key names (`instance_of`)."""
    if answer.source == "store" and answer.record_id is not None:
        text = store.check_texts([answer.record_id]).get(answer.record_id)
        if text is not None and text[2] is not None:
            try:
                instance = puzzle.parse(json.loads(text[2]))
            except (InvalidInstance, ValueError, TypeError, RecursionError):
                instance = None  # checked_best read it a moment ago; a row changed since
            if instance is not None and puzzle.instance_key(instance) == answer.instance:
                return instance
    return instance_of(store, puzzle, answer.instance)


def checked_result(puzzle: Puzzle, instance: Any, answer: Known) -> Result:
    """The answer as a Result with the checker's verdict, checked again now (once per
    answer while the service runs) before it is served."""
    tag = (puzzle.name, answer.instance, answer.source, answer.record_id)
    with _LOCK:
        verdict = _VERDICTS.get(tag)
    if verdict is None:
        verdict = puzzle.verify(instance, answer.solution)
        with _LOCK:
            _VERDICTS[tag] = verdict
            while len(_VERDICTS) > VERDICTS_KEPT:
                _VERDICTS.popitem(last=False)
    return answer.result(verdict)
