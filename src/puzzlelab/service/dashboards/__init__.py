"""The records dashboards: for each puzzle, its published table (the puzzle's
`reference.py`) beside what this project found: `ours` is the best verified answer
known here (`service.answers`: what the package ships, checked, and this machine's
records store); `shipped` lists the package's own rows for the instance with the
outcome of checking each again (`service.shipped`: verified, failed with the reason,
or recorded), each with its provenance; `local` is the store's best, marked as this
machine's; `versus` says at a glance whether ours beats, ties or trails the published
figure. As plain data for the routes of `service.routes.dashboards` and the page's
Records view.

One module per puzzle, each with `build(store, ...) -> dict` matching its response
model in `service.dashboard_models`; what they share is here."""

from __future__ import annotations

from functools import partial
from typing import Any, Iterable

from puzzlelab.core.puzzle import Puzzle
from puzzlelab.core.records_check import checked_best
from puzzlelab.core.store import Store
from puzzlelab.service.answers import Known, instance_of
from puzzlelab.service.shipped import Shipped, common_provenance, shipped, unreadable

__all__ = ["ours", "is_proven", "local_answers", "versus", "views", "sources", "highlight", "numbers"]


def ours(answer: Known | None) -> dict[str, Any] | None:
    """A dashboard row's `ours`: the answer's figures without its solution."""
    return None if answer is None else answer.summary()


def is_proven(answer: Known | None) -> bool:
    return answer is not None and answer.status == "optimal"


def local_answers(store: Store, puzzle: Puzzle) -> dict[str, dict[str, Any]]:
    """Instance key -> this machine's best record that passes the checker again now
    (`core.records_check`), as a row's `local`."""
    checked = checked_best(store, {puzzle.name: puzzle}, puzzle.name, None, solutions=False, rebuild=partial(instance_of, store))
    return {r.instance: Known(r.instance, r.value, r.status, r.bound, r.method, r.seconds, None, "store", r.id, r.created).summary()
            for r in checked.records}


def versus(sense: str, value: Any, published: Any) -> str | None:
    """'beats', 'ties' or 'trails' (ours beside the published figure, as the puzzle's
    sense orders them); 'differs' for an exact figure such as a count; None when either
    is missing or not a number."""
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value, published)):
        return None
    if value == published:
        return "ties"
    if sense not in ("min", "max"):
        return "differs"
    return "beats" if (value < published if sense == "min" else value > published) else "trails"


def views(rows: Iterable[Shipped]) -> list[dict[str, Any]]:
    """The rows as a dashboard carries them: each one's provenance without what every
    row of its file shares (that is given once, in the dashboard's `sources`)."""
    found = []
    for row in rows:
        view = row.view()
        shared = common_provenance(row.puzzle).get(row.source, {})
        view["provenance"] = {k: v for k, v in row.provenance.items() if k not in shared}
        found.append(view)
    return found


def sources(name: str) -> dict[str, Any]:
    """`sources` and `unreadable` of a dashboard: for each shipped source, how many of
    its rows were verified, failed or recorded, the failed ones with the reason, and
    the provenance all its rows share."""
    counts: dict[str, dict[str, Any]] = {}
    common = common_provenance(name)
    for row in shipped(name):
        entry = counts.setdefault(row.source, {"source": row.source, "verified": 0, "failed": 0, "recorded": 0, "failures": [],
                                               "provenance": common.get(row.source, {})})
        entry[row.check] += 1
        if row.check == "failed":
            entry["failures"].append({"instance": row.instance, "label": row.label, "reason": row.reason})
    return {"sources": list(counts.values()), "unreadable": unreadable(name)}


def highlight(versus_word: str, text: str, instances: Iterable[str] = ()) -> dict[str, Any]:
    return {"versus": versus_word, "text": text, "instances": list(instances)}


def numbers(values: Iterable[int]) -> str:
    """'3..11, 14, 16..18': sorted integers as runs."""
    runs: list[list[int]] = []
    for v in sorted(set(values)):
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in runs)
