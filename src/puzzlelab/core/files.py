"""Writing files safely: the pictures, tables and lists a user asks for, and the
checkpoints of long runs. Every writer of the project comes through here.

- Atomic: the bytes go to a temporary file in the target's own folder, are flushed to
  the disk (fsync), and only then renamed over the target (os.replace). A run stopped
  half-way, or a disk that fills, leaves the previous file whole (a checkpoint still
  loads) and no temporary file behind.
- Space first: the folder's free space (shutil.disk_usage) is checked against what the
  write needs. A full disk is one line naming the file and the figures (`WriteFailed`),
  never a SIGBUS from a mapped file or a traceback.
- Output files replace nothing of value (`check_output_file`): never the records store,
  the instance or a checkpoint the run reads, even with --force; an existing file only
  when it is one of ours (it carries `MARKER`, or the caller's recogniser knows its
  format) or the user passes --force. A symbolic link is replaced as a link, its
  target left alone, and only with --force. '-' and /dev/stdout stream to standard
  output; other devices and pipes (/dev/null, /dev/full, a FIFO) are written as they
  are, and an error writing them is one line too.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO, Callable, Iterable

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.memory import format_bytes

__all__ = [
    "MARKER",
    "WriteFailed",
    "free_space",
    "require_space",
    "write_atomic",
    "write_atomic_with",
    "is_stream",
    "check_output_file",
    "check_output_folder",
    "write_output",
    "marked",
    "Protect",
]

MARKER = "written by puzzlelab"  # in a comment near the top of every SVG, HTML and table file we write
_SIGNS = (MARKER.encode(), b'"written_by": "puzzlelab"')  # the comment, and the key of a JSON answer
SPACE_MARGIN = 64 * 1024  # a write leaves at least this much free beyond what it needs
_HEAD_BYTES = 4096  # how much of an existing file is read to tell whether it is ours
STREAMS = ("-", "/dev/stdout")

Protect = Iterable[tuple[object, str]]  # (path, what it is: "the instance", "the checkpoint")


class WriteFailed(InvalidInstance):
    """A file could not be written: a disk that is full or too small, a folder that is
    read-only. The message names the file and the figures; the previous file, if any,
    is as it was."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message, field, 507)


def _reason(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "no space left on the disk"
    return exc.strerror or str(exc)


def _figures(exc: OSError, nbytes: int, folder: Path) -> str:
    """For a disk that filled during the write (the space check passed, then something
    else took the space): what the file needed and what is free now, so the message
    says how much to free."""
    if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
        return ""
    free = free_space(folder)
    return f" (it needs {format_bytes(nbytes)}; {folder} has {'an unknown amount' if free is None else format_bytes(free)} free now)"


# ------------------------------------------------------------------ space and atomic writes


def free_space(folder: str | os.PathLike) -> int | None:
    """Bytes free for this user in `folder` (None where the system does not say)."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def require_space(folder: str | os.PathLike, nbytes: int, what: str, field: str | None = None) -> None:
    """WriteFailed unless `folder` has room for `nbytes` more (and SPACE_MARGIN)."""
    free = free_space(folder)
    if free is not None and free < nbytes + SPACE_MARGIN:
        spare = f" (and {format_bytes(SPACE_MARGIN)} kept spare)" if free >= nbytes else ""
        raise WriteFailed(f"{what}: needs {format_bytes(nbytes)}{spare}, and {folder} has {format_bytes(free)} free; free some space or pick another folder", field)


def write_atomic_with(
    path: str | os.PathLike, fill: Callable[[IO[bytes]], None], nbytes: int, what: str, field: str | None = None, *, sync: bool = True
) -> None:
    """Write `path` through `fill(handle)` atomically (see the module docstring), after
    checking that its folder has room for `nbytes`. A new file gets the permissions a
    plain open() gives; a replaced one keeps its own. `sync=False` skips the flush to
    the disk, for scratch files that no later run reads."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    require_space(folder, nbytes, f"{what} {target}", field)
    try:
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise WriteFailed(f"{what} {target}: cannot be written ({_reason(exc)})", field) from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            fill(handle)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except OSError as exc:
        _remove(temporary)
        kept = "; the previous file is as it was" if target.exists() else ""
        raise WriteFailed(f"{what} {target}: cannot be written ({_reason(exc)}){kept}{_figures(exc, nbytes, folder)}", field) from None
    except BaseException:
        _remove(temporary)
        raise
    if sync:
        _sync_folder(folder)


def write_atomic(path: str | os.PathLike, data: bytes | str, what: str, field: str | None = None) -> None:
    """Write `data` (text is UTF-8) to `path` atomically; WriteFailed naming `what`."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    write_atomic_with(path, lambda handle: handle.write(payload), len(payload), what, field)


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(target.lstat().st_mode) if target.is_file() and not target.is_symlink() else _default_mode()
    except OSError:
        return _default_mode()


def _default_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to the disk (where the system allows it)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


# ------------------------------------------------------------------ output files


def is_stream(path: str | os.PathLike) -> bool:
    """'-' or /dev/stdout: the output goes to standard output."""
    return str(path) in STREAMS


def _is_device(path: Path) -> bool:
    """A character device or a pipe (followed through links): written as it is."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _same(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def _inside(path: Path, folder: Path) -> bool:
    try:
        return folder.is_dir() and Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except OSError:
        return False


def _store_paths() -> list[tuple[Path, str]]:
    from puzzlelab.core.store import default_path  # the store's own location rule

    store = default_path()
    return [(Path(str(store) + suffix), "the records store") for suffix in ("", "-wal", "-shm", "-journal")]


def _check_protected(target: Path, field: str, protect: Protect) -> None:
    for path, what in [*_store_paths(), *((Path(str(p)), w) for p, w in protect if p not in (None, ""))]:
        if _same(target, path) or _inside(target, path):
            raise InvalidInstance(f"{field} {target}: is {what}{'' if _same(target, path) else ' folder'}; an output never replaces it: give another file name", field)


def _is_ours(target: Path, recognise: Callable[[bytes], bool] | None) -> bool:
    try:
        with open(target, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return False
    return not head or any(sign in head for sign in _SIGNS) or (recognise is not None and recognise(head))


def check_output_file(
    path: str | os.PathLike, field: str, *, force: bool = False, protect: Protect = (), recognise: Callable[[bytes], bool] | None = None
) -> None:
    """Refuse, before any work (InvalidInstance naming `field`), an output file that
    must not be written: see the module docstring. `protect`: (path, what) pairs the run
    reads (the instance, a checkpoint); `recognise(head)` tells a file of ours by its
    first bytes where the format carries no marker (JSON lines, a table)."""
    if is_stream(path):
        return
    target = Path(path)
    if _is_device(target):
        return
    if target.is_symlink():
        if not force:
            raise InvalidInstance(f"{field} {target}: is a symbolic link; give --force to replace the link itself (its target is left alone), or another name", field)
    elif target.is_dir():
        raise InvalidInstance(f"{field} {target}: is a folder; expected a file name", field)
    elif target.exists() and not target.is_file():
        raise InvalidInstance(f"{field} {target}: is not a plain file; give another name", field)
    folder = target.parent if str(target.parent) else Path(".")
    if folder.exists() and not folder.is_dir():
        raise InvalidInstance(f"{field} {target}: cannot be written ({folder} is a file, not a folder)", field)
    if not folder.is_dir():
        raise InvalidInstance(f"{field} {target}: folder {folder} does not exist", field)
    if not os.access(folder, os.W_OK):
        raise InvalidInstance(f"{field} {target}: folder {folder} is not writable", field)
    _check_protected(target, field, protect)
    if target.is_file() and not target.is_symlink() and not force and not _is_ours(target, recognise):
        raise InvalidInstance(f"{field} {target}: a file that puzzlelab did not write is there; give --force to replace it, or another name", field)


def check_output_folder(path: str | os.PathLike, field: str, protect: Protect = ()) -> Path:
    """A folder the user named for a run's files (a workdir, a checkpoint folder): it may
    be made, but the folder it goes in must exist (no tree is made from the root up by
    a mistyped path); a file in its place is refused."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise InvalidInstance(f"{field} {folder}: is a file; expected a folder", field)
    parent = folder.parent if str(folder.parent) else Path(".")
    if not folder.exists() and parent.exists() and not parent.is_dir():
        raise InvalidInstance(f"{field} {folder}: cannot be made ({parent} is a file)", field)
    if not folder.exists() and not parent.is_dir():
        raise InvalidInstance(f"{field} {folder}: folder {parent} does not exist", field)
    _check_protected(folder, field, protect)
    return folder


def marked(text: str, kind: str) -> str:
    """`text` with our marker comment, where it keeps the file what it was: SVG right
    inside its root element (the file still starts `<svg`), HTML after its doctype,
    a table as a '#' line; other kinds are returned as they are."""
    if MARKER in text[:_HEAD_BYTES]:
        return text
    comment = f"<!-- {MARKER} -->"
    if kind in ("svg", "html"):
        opening = text.find("<svg") if kind == "svg" else (text.find("<!DOCTYPE") if text.lstrip().startswith("<!DOCTYPE") else -1)
        end = text.find(">", opening) + 1 if opening >= 0 else 0
        if end <= 0 or end > _HEAD_BYTES - len(comment) - 1:
            return comment + "\n" + text
        return text[:end] + ("\n" if kind == "html" else "") + comment + text[end:]
    if kind == "table":
        return f"# {MARKER}\n{text}"
    return text


def write_output(
    path: str | os.PathLike,
    text: str,
    field: str,
    *,
    force: bool = False,
    protect: Protect = (),
    recognise: Callable[[bytes], bool] | None = None,
    kind: str = "",
    append: bool = False,
) -> None:
    """Write an output file the user named: checked again as `check_output_file` (the
    run may have been long), marked as ours (`marked`), then streamed ('-',
    /dev/stdout), written to a device or pipe as it is, or replaced atomically. With
    `append` the text goes after what the file holds (rewritten whole, atomically)."""
    if is_stream(path):
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as exc:
            raise WriteFailed(f"{field} {path}: cannot be written ({_reason(exc)})", field) from None
        return
    target = Path(path)
    check_output_file(target, field, force=force, protect=protect, recognise=recognise)
    if _is_device(target):
        try:
            with open(target, "a" if append else "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            raise WriteFailed(f"{field} {target}: cannot be written ({_reason(exc)})", field) from None
        return
    before = ""
    if append and target.is_file() and not target.is_symlink():
        before = target.read_text(encoding="utf-8")
    body = before + text if before else marked(text, kind)
    write_atomic(target, body, field, field)
