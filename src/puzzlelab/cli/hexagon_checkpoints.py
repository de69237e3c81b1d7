"""Where `hexagon prove` and `hexagon count` keep their checkpoints, checked before any
work: the cube proof's JSON file, the row DP's folder of tables. A path the user names
must lie in a folder that exists (nothing is made from the root up); the defaults under
puzzlelab-out/ are made as needed."""

from __future__ import annotations

from pathlib import Path

from puzzlelab.core.files import check_output_folder
from puzzlelab.core.inputs import check_output_path
from puzzlelab.core.puzzle import InvalidInstance

__all__ = ["checkpoint_folder", "dp_checkpoint_folder"]


def checkpoint_folder(path: str, given: bool) -> None:
    """Check that the checkpoint file can be written, before any work: a folder, or a
    folder that does not exist, is a clear --checkpoint error (the default's folders are
    made); a file that is not this proof's checkpoint is refused when the proof reads it."""
    folder = Path(path).parent
    if not given:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidInstance(f"--checkpoint {path}: its folder cannot be made ({exc.strerror or exc})", "checkpoint") from None
    elif folder.exists() and not folder.is_dir():
        raise InvalidInstance(f"--checkpoint {path}: its folder cannot be made ({folder} is a file)", "checkpoint")
    check_output_path(path, "--checkpoint")


def dp_checkpoint_folder(path: str, given: bool = True) -> None:
    """The row DP keeps its checkpoint in a folder (its tables are files): make it, or
    say clearly why not. A folder the user named is made only inside one that exists
    (a mistyped path makes no tree from the root); the default's folders are made."""
    if Path(path).exists() and not Path(path).is_dir():
        raise InvalidInstance(f"--checkpoint {path}: the row DP keeps its checkpoint in a folder, and this is a file", "checkpoint")
    if given:
        check_output_folder(path, "--checkpoint")
    try:
        Path(path).mkdir(parents=not given, exist_ok=True)
    except OSError as exc:
        raise InvalidInstance(f"--checkpoint {path}: the folder cannot be made ({exc.strerror or exc})", "checkpoint") from None
