"""A cube-and-conquer proof's state on disk, so that a proof of hours survives a stop
and the same command resumes it (proof/cube_and_conquer.py).

The file (JSON) holds the question (n, level, bound, depth, symmetry and the formula's
digest), the cubes, the refuted cubes, the seconds spent in all, the screening passes
done and whether every cube is refuted. A checkpoint of another question is refused.
The format is the one `proofs/` holds: CHECKPOINT_VERSION changes with it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from puzzlelab.core.files import write_atomic
from puzzlelab.core.inputs import is_finite

__all__ = ["Checkpoint", "CHECKPOINT_VERSION"]

CHECKPOINT_VERSION = 1


class Checkpoint:
    """The proof's state: question, cubes, refuted cubes, time spent, and the screening
    passes done, as [level, conflicts per cube] (0: a MaxSAT pass, then its cap in
    seconds per cube if it had one); a resumed run skips a pass that an earlier one at
    the same level covers. `path` None keeps the state in memory only."""

    def __init__(self, path: str | os.PathLike | None, question: dict[str, Any]):
        self.path = None if path is None else Path(path)
        self.question = question
        self.cubes: list[str] | None = None
        self.refuted: set[str] = set()
        self.seconds = 0.0
        self.screened: list[list[float]] = []
        self.certificates: dict[str, list[float]] = {}  # certified: cube -> [solve s, proof bytes, check s]
        if self.path is not None and self.path.exists():
            self._load()

    def _load(self) -> None:
        """Read the file, refusing (ValueError, the file left as it is) one that is not
        a checkpoint of this question: not a file, not UTF-8 JSON (a binary file, JSON
        nested too deep, a 5,000-digit number), JSON of another kind, or malformed."""
        where = f"checkpoint {self.path}"
        try:
            data = json.loads(self.path.read_bytes().decode("utf-8"))
        except OSError as exc:
            raise ValueError(f"{where}: not a readable proof checkpoint ({exc.strerror or exc})") from None
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise ValueError(f"{where}: not a proof checkpoint (not JSON: {' '.join(str(exc).split())[:120]})") from None
        if not isinstance(data, dict) or "cubes" not in data:
            raise ValueError(f"{where}: not a proof checkpoint (JSON of another kind: {type(data).__name__} without 'cubes')")
        theirs = {k: data.get(k) for k in self.question}
        if bool(data.get("certified")) != bool(self.question.get("certified")):  # never mix trusted refutations into a certified proof
            kinds = ("uncertified", "certified")
            raise ValueError(f"{where}: it is a {kinds[bool(data.get('certified'))]} proof's checkpoint, and this run is {kinds[bool(self.question.get('certified'))]}")
        if data.get("version") != CHECKPOINT_VERSION or theirs != self.question:
            shown = {k: v if isinstance(v, (int, float, str, type(None))) and len(str(v)) <= 40 else "..." for k, v in theirs.items()}
            raise ValueError(f"{where}: it belongs to another question {shown}, not {self.question}")
        try:
            self.cubes, self.refuted, self.seconds, self.screened = _contents(data)
            self.certificates = _certificates(data)
        except (TypeError, ValueError, OverflowError, IndexError) as exc:
            raise ValueError(f"{where}: a malformed proof checkpoint ({' '.join(str(exc).split())[:120]})") from None

    def save(self, spent: float = 0.0) -> None:
        """Write the state; `spent` = seconds of the run in progress, added to the total."""
        if self.path is None:
            return
        data = dict(self.question, version=CHECKPOINT_VERSION, seconds=round(self.seconds + spent, 1))
        data.update(cubes=self.cubes, refuted=sorted(self.refuted), screened=self.screened, proven=self.proven)
        if self.certificates:
            data["certificates"] = {c: v for c, v in self.certificates.items() if c in self.refuted}
        write_atomic(self.path, json.dumps(data), "checkpoint", "checkpoint")

    def split(self, parent: str, children: list[str]) -> None:
        """Replace a cube by its extensions (which cover it), in place."""
        if self.cubes is None or parent not in self.cubes or parent in self.refuted:
            return
        at = self.cubes.index(parent)
        self.cubes[at : at + 1] = children

    def open_cubes(self) -> list[str]:
        """The cubes not refuted yet, in order."""
        return [c for c in self.cubes or () if c not in self.refuted]

    @property
    def proven(self) -> bool:
        return self.cubes is not None and len(self.refuted) == len(self.cubes)

    def screen_done(self, level: int, method: str, conflicts: int, seconds: float | None) -> bool:
        """Whether a recorded pass at `level` did at least what a pass by `method`
        ('sat': `conflicts` per cube; 'maxsat': capped at `seconds`, None for no cap)
        would: a CaDiCaL pass with as many conflicts or more, or a MaxSAT pass, which
        covers any CaDiCaL pass and a MaxSAT pass with no larger cap."""
        for entry in self.screened:
            if entry[0] != level:
                continue
            done_conflicts, cap = entry[1], (entry[2] if len(entry) > 2 else None)
            if done_conflicts != 0:
                if method == "sat" and done_conflicts >= conflicts:
                    return True
            elif cap is None or (method == "maxsat" and seconds is not None and cap >= seconds):
                return True
        return False

    def note_screen(self, level: int, method: str, conflicts: int, seconds: float | None) -> None:
        """Record a finished screening pass (see `screen_done`)."""
        if method == "sat":
            self.screened.append([level, conflicts])
        else:  # a capped MaxSAT pass notes its cap
            self.screened.append([level, 0] + ([] if seconds is None else [seconds]))


def _contents(data: dict[str, Any]) -> tuple[list[str], set[str], float, list[list[float]]]:
    """(cubes, refuted, seconds, screened) of a checkpoint's JSON, each checked for its
    type (TypeError or ValueError naming the first that is not)."""
    cubes, refuted, screened = data["cubes"], data.get("refuted", []), data.get("screened", [])
    if not isinstance(cubes, list) or not all(isinstance(c, str) for c in cubes):
        raise TypeError("cubes: expected a list of strings")
    if not isinstance(refuted, list) or not all(isinstance(c, str) for c in refuted):
        raise TypeError("refuted: expected a list of strings")
    seconds = data.get("seconds", 0.0)
    if not is_finite(seconds) or seconds < 0:
        raise ValueError("seconds: expected a number of seconds")
    if not isinstance(screened, list) or not all(isinstance(done, list) and len(done) >= 2 and all(is_finite(v) for v in done) for done in screened):
        raise TypeError("screened: expected a list of [level, conflicts, ...] numbers")
    return list(cubes), set(refuted) & set(cubes), float(seconds), [[int(done[0]), int(done[1]), *map(float, done[2:])] for done in screened]


def _certificates(data: dict[str, Any]) -> dict[str, list[float]]:
    """A certified checkpoint's figures per refuted cube: [solve seconds, proof bytes,
    check seconds] (TypeError when malformed)."""
    found = data.get("certificates", {})
    if not isinstance(found, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and len(v) == 3 and all(is_finite(x) for x in v)
        for k, v in found.items()
    ):
        raise TypeError("certificates: expected cube -> [solve seconds, proof bytes, check seconds]")
    return {k: [float(v[0]), int(v[1]), float(v[2])] for k, v in found.items()}
