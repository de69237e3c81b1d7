"""The checkpoint of a split search: its finished subtrees in a JSON file, rewritten
atomically (at most every two seconds, and at the start and end), so that an
interrupted proof resumes where it stopped (`search.run_search`).

A file given as the checkpoint is read only when it is one: text that is not UTF-8
(a binary file), JSON of another kind, a checkpoint of another search or one whose
subtree list does not match its digest is refused with a message saying so (ValueError,
which the `full` method reports as a bad `--checkpoint`), and is never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.files import WriteFailed, write_atomic
from puzzlelab.core.inputs import is_whole, parse_json, read_text_file
from puzzlelab.puzzles.matchsticks.tables import space_key

__all__ = ["Checkpoint", "MAX_CHECKPOINT_BYTES", "subtree_seconds"]

MAX_CHECKPOINT_BYTES = 2_000_000_000  # ten million subtrees of a deep plan
_RESULT_KEYS = {"found": bool, "count": int, "nodes": int, "complete": bool}


class Checkpoint:
    """Finished subtrees of one search, in a JSON file rewritten atomically.

    The file names the search (its space key and the list of subtree prefixes, hashed),
    so a checkpoint of another search is refused rather than mixed in."""

    def __init__(self, path: str | os.PathLike | None, base: dict[str, Any]):
        self.path = None if path is None else Path(path)
        self.key = space_key(base)
        self.data: dict[str, Any] = {"version": 1, "search": self.key, "prefixes": None, "done": {}}
        self.last_write = 0.0
        self.loaded = False  # resumed from the file

    def check(self) -> None:
        """Before any work: a file there must be a checkpoint of this search (ValueError
        otherwise); with none there, its folder must exist and be writable."""
        if self.path is None:
            return
        if self.path.exists():
            self._read()
            return
        folder = self.path.parent if str(self.path.parent) else Path(".")
        if not folder.is_dir():
            raise ValueError(f"checkpoint {self.path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise ValueError(f"checkpoint {self.path}: cannot be written (folder {folder} is not writable)")

    def load(self) -> bool:
        if self.path is None or not self.path.exists():
            return False
        self.data = self._read()
        self.loaded = True
        return True

    def _read(self) -> dict[str, Any]:
        """The file's checkpoint data, checked: ValueError naming what is wrong."""
        where = f"checkpoint {self.path}"
        if not self.path.is_file():
            raise ValueError(f"{where}: not a file")
        try:
            data = parse_json(read_text_file(self.path, "checkpoint", MAX_CHECKPOINT_BYTES), where, limit=MAX_CHECKPOINT_BYTES)
        except InvalidInstance as exc:
            raise ValueError(f"{exc}; not a checkpoint of this program (a file of another kind is never overwritten)") from None
        if not isinstance(data, dict) or "search" not in data or "prefixes" not in data:
            raise ValueError(f"{where}: JSON of another kind, not a matchsticks checkpoint (it is never overwritten)")
        if data.get("version") != 1 or data.get("search") != self.key:
            raise ValueError(f"{where} belongs to another search ({_short(data.get('search'))}), not {self.key}")
        if data.get("digest") != _digest(data["prefixes"]):
            raise ValueError(f"{where}: subtree list does not match its digest (damaged file?)")
        _check_contents(data, where)
        return data

    def start(self, prefixes: list[list[list[int]]], bound: int | None, solution: Any) -> None:
        self.data.update(prefixes=prefixes, digest=_digest(prefixes), bound=bound, solution=solution)
        self.write(force=True)

    def recut(self, pending: list[list[list[int]]]) -> None:
        """Replace the unfinished subtrees by `pending` (the same nodes, cut finer): the
        finished ones keep their results and come first, renumbered in their order."""
        prefixes, done = self.data["prefixes"], self.data["done"]
        finished = sorted(int(index) for index in done)
        prefixes = [prefixes[i] for i in finished] + pending
        self.data.update(prefixes=prefixes, digest=_digest(prefixes), done={str(j): done[str(i)] for j, i in enumerate(finished)})
        self.data["recuts"] = self.data.get("recuts", 0) + 1
        self.write(force=True)

    def finish(self, index: int, result: dict[str, Any]) -> None:
        self.data["done"][str(index)] = result
        self.write()

    def write(self, force: bool = False) -> None:
        if self.path is None:
            return
        now = time.monotonic()
        if not force and now - self.last_write < 2.0:
            return
        self.last_write = now
        try:
            write_atomic(self.path, json.dumps(self.data), "checkpoint")
        except WriteFailed as exc:
            raise ValueError(str(exc)) from None


def _check_contents(data: dict[str, Any], where: str) -> None:
    """The shapes the search reads back: prefixes a list of squares, `done` subtree
    results by index, `bound` a number or null, `recuts` (when there) a count."""
    prefixes = data["prefixes"]
    if not isinstance(prefixes, list) or not all(_is_squares(p) for p in prefixes):
        raise ValueError(f"{where}: 'prefixes' is not a list of squares")
    bound = data.get("bound")
    if bound is not None and not is_whole(bound):
        raise ValueError(f"{where}: 'bound' is not a number")
    recuts = data.get("recuts", 0)
    if not is_whole(recuts) or recuts < 0:
        raise ValueError(f"{where}: 'recuts' is not a count of re-cuts (a whole number, 0 or more)")
    if data.get("solution") is not None and not _is_squares(data["solution"]):
        raise ValueError(f"{where}: 'solution' is not a list of squares")
    done = data.setdefault("done", {})
    if not isinstance(done, dict):
        raise ValueError(f"{where}: 'done' is not an object of finished subtrees")
    for index, result in done.items():
        if not (index.isascii() and index.isdigit() and int(index) < len(prefixes)) or not _is_result(result):
            raise ValueError(f"{where}: finished subtree {_short(index)} is not a subtree result of this search")


def _is_squares(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(s, list) and len(s) == 3 and all(is_whole(v) for v in s) for s in value)


def _is_result(result: Any) -> bool:
    if not isinstance(result, dict):
        return False
    for key, kind in _RESULT_KEYS.items():
        value = result.get(key)
        if not (is_whole(value) if kind is int else isinstance(value, kind)):
            return False
    best, solution = result.get("best"), result.get("solution")
    if result["found"]:
        return is_whole(best) and _is_squares(solution)
    return True


def _short(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, (dict, list, str, int, float, bool, type(None))) else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _digest(prefixes: Any) -> str:
    return hashlib.sha256(json.dumps(prefixes).encode()).hexdigest()[:16]


def subtree_seconds(path: str | os.PathLike | None) -> float | None:
    """The kernel seconds of every finished subtree in the checkpoint at `path`, resumed
    ones included (None when there is none): a search spread over several runs has
    no single wall time, this is its cost."""
    if not path or not os.path.exists(path):
        return None
    with open(path) as handle:
        done = json.load(handle).get("done", {})
    return round(sum(float(v.get("seconds", 0.0)) for v in done.values()), 1)
