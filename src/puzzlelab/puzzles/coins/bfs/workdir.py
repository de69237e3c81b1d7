"""The work folder of a BFS run (the byte array's, bfs/byte_bfs.py, or the two-bit engine's,
bfs/two_bit_bfs.py): made if missing; refused, in one line, if it is a file, cannot be
made, or holds a `state.json` that is not a checkpoint of that kind of run, or one whose
fields are damaged -- never overwritten. And its lock: one run a folder at a time.

What the fields say is checked against the data by each engine on resume (the level
counts against the array or the level files; a claim that the search finished by expanding
the last level once more): a state.json is a summary, not a proof."""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO, Any

from puzzlelab.core.inputs import is_whole, parse_json, read_text_file
from puzzlelab.core.puzzle import InvalidInstance

__all__ = ["prepare_workdir", "damaged_fields", "confirm_finished", "lock_workdir", "unlock_workdir"]


def prepare_workdir(workdir: Path, state_format: int | str, holds: str, run: str) -> None:
    """`holds`: what the folder is for ("the level array"); `run`: the kind of run whose
    checkpoint its state.json must be ("coins bfs run")."""
    if workdir.exists() and not workdir.is_dir():
        raise InvalidInstance(f"workdir {workdir}: is a file; expected a folder for {holds}", "workdir")
    try:
        workdir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInstance(f"workdir {workdir}: cannot be created ({exc.strerror or exc})", "workdir") from None
    state = workdir / "state.json"
    if not state.exists():
        return
    try:
        data = parse_json(read_text_file(state, "workdir state.json"), f"workdir {state}")
    except InvalidInstance as exc:
        data = str(exc)
    if not (isinstance(data, dict) and data.get("format") == state_format and isinstance(data.get("counts"), list)):
        raise InvalidInstance(
            f"workdir {workdir}: its state.json is not a checkpoint of a {run}; "
            "give an empty folder or the folder of an earlier run (nothing was overwritten)",
            "workdir",
        )
    why = damaged_fields(data)
    if why:
        raise InvalidInstance(f"workdir {workdir}: its state.json is damaged ({why}); remove the folder to start afresh (nothing was overwritten)", "workdir")


def damaged_fields(state: dict[str, Any]) -> str:
    """What is wrong with the fields both engines share ('' when nothing): `counts`
    boards per level, from the start's 1 on, none empty (an empty level ends the search
    and is not kept); `finished` true or false; `history` one object per level grown."""
    counts = state.get("counts")
    if not isinstance(counts, list) or not counts or not all(is_whole(c) and c >= 1 for c in counts) or counts[0] != 1:
        return "counts: expected the boards of each level, 1 for the start and then whole numbers of at least 1"
    if not isinstance(state.get("finished", False), bool):
        return "finished: expected true or false"
    history = state.get("history", [])
    if not isinstance(history, list) or not all(isinstance(row, dict) for row in history):
        return "history: expected a list of one object per level"
    return ""


def confirm_finished(workdir: Path, last_level: int, boards_after: int) -> None:
    """A resumed state.json said the search ended after `last_level`; growing the level
    after it again gave `boards_after` boards, which must be none."""
    if boards_after:
        raise InvalidInstance(
            f"workdir {workdir}: its state.json is damaged (it says the search ended after level {last_level}, "
            f"but level {last_level + 1} holds {boards_after:,} boards); remove the folder to start afresh",
            "workdir",
        )


def lock_workdir(workdir: Path) -> IO:
    """Take the folder's lock file without waiting; a second run on the same folder is
    refused (409) instead of writing over the first one's array."""
    lock = open(workdir / "lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise InvalidInstance(f"workdir {workdir}: another bfs run is using it", "workdir", status=409) from None
    return lock


def unlock_workdir(lock: IO) -> None:
    fcntl.flock(lock, fcntl.LOCK_UN)
    lock.close()
