"""The work folder of a BFS run (the byte array's, bfs.py, or the two-bit engine's,
two_bit_disk.py): made if missing; refused, in one line, if it is a file, cannot be
made, or holds a `state.json` that is not a checkpoint of that kind of run -- never
overwritten. And its lock: one run a folder at a time."""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO

from puzzlelab.core.inputs import parse_json, read_text_file
from puzzlelab.core.puzzle import InvalidInstance

__all__ = ["prepare_workdir", "lock_workdir", "unlock_workdir"]


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
