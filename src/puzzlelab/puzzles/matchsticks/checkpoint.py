"""The checkpoint of a split search: its finished subtrees in a JSON file, rewritten
atomically (at most every two seconds, and at the start and end), so that an
interrupted proof resumes where it stopped (`search.run_search`)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from puzzlelab.puzzles.matchsticks.tables import space_key

__all__ = ["Checkpoint"]


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

    def load(self) -> bool:
        if self.path is None or not self.path.is_file():
            return False
        data = json.loads(self.path.read_text())
        if data.get("version") != 1 or data.get("search") != self.key:
            raise ValueError(f"checkpoint {self.path} belongs to another search ({data.get('search')}), not {self.key}")
        digest = _digest(data["prefixes"])
        if data.get("digest") != digest:
            raise ValueError(f"checkpoint {self.path}: subtree list does not match its digest (damaged file?)")
        self.data = data
        self.loaded = True
        return True

    def start(self, prefixes: list[list[list[int]]], bound: int | None, solution: Any) -> None:
        self.data.update(prefixes=prefixes, digest=_digest(prefixes), bound=bound, solution=solution)
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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.data))
        os.replace(tmp, self.path)


def _digest(prefixes: Any) -> str:
    return hashlib.sha256(json.dumps(prefixes).encode()).hexdigest()[:16]
