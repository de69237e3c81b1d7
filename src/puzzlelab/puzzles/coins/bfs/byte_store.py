"""Where the bytes of a level array live, and how they reach their file.

- `ram` (the default): the working array is anonymous memory advised to use 2 MiB
  transparent huge pages; a checkpoint writes the 1 MiB chunks the kernels flagged as
  changed (`dirty`) into the file with pwrite. Random probes into 834 MB then miss the
  TLB far less often: measured here, expanding one level of the 5 x 7 BFS took 0.58x the
  CPU time of the same level on the memmap (bench_coins_bfs.py prints both).
- `memmap`: the file itself, mapped; a checkpoint is msync. Simplest, no copy in RAM
  beyond the page cache, but 4 KiB pages and a write fault per page per level.

Either way the file holds the array as of the last checkpoint, so a killed run loses
only the level in progress. A file-system write (no fsync) survives a killed process;
`sync=True` also survives a crash of the machine, at the price of waiting for the disk.

Checkpoints are written by a background thread while the next level is computed (the
kernels release the GIL): on a busy disk writing 455 MB took 50 s here, a third of the
level. Two sets of dirty flags alternate, so the kernels of level L + 2 flag chunks in
one set while the thread writes the chunks flagged in the other. The bytes written may
already hold some marks of level L + 2: each is a board's true level, so a resumed run
stays exact (bfs/byte_bfs.py recounts the two levels after a resume). The callback -- writing
`state.json` -- runs only once the chunks are written.
"""

from __future__ import annotations

import errno
import mmap
import os
import threading
from pathlib import Path
from typing import Callable

import numpy as np

from puzzlelab.core.files import WriteFailed
from puzzlelab.puzzles.coins.bfs.byte_kernels import DIRTY_SHIFT

__all__ = ["LevelStore", "STORAGES"]

STORAGES = ("ram", "memmap")
CHUNK = 1 << DIRTY_SHIFT


class LevelStore:
    """The array (`array`, uint8) of `nbytes` bytes backed by `path`. With `create` the
    file is made anew (a sparse file of zeros); otherwise it is loaded."""

    def __init__(self, path: str | os.PathLike, nbytes: int, storage: str = "ram", create: bool = False, sync: bool = False):
        if storage not in STORAGES:
            raise ValueError(f"storage: expected one of {STORAGES}, got {storage!r}")
        self.path = Path(path)
        self.nbytes = nbytes
        self.storage = storage
        self.sync = sync
        if create:
            with open(self.path, "wb") as fh:
                fh.truncate(nbytes)
        self._dirty_sets = [np.zeros(-(-nbytes // CHUNK), dtype=np.uint8) for _ in range(2)]
        self._active = 0
        self._writer: threading.Thread | None = None
        self._writer_error: BaseException | None = None
        self._fd = os.open(self.path, os.O_RDWR)
        if storage == "memmap":
            self._reserve(create)
            self._map = None
            self.array = np.memmap(self.path, dtype=np.uint8, mode="r+", shape=(nbytes,))
        else:
            self._map = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            if hasattr(mmap, "MADV_HUGEPAGE"):
                self._map.madvise(mmap.MADV_HUGEPAGE)
            self.array = np.frombuffer(self._map, dtype=np.uint8)
            if not create:
                self._load()

    def _reserve(self, created: bool) -> None:
        """Reserve the mapped file's blocks on the disk: a page written through the map
        that the disk cannot back would end the process with SIGBUS; a disk too small
        is refused here instead, in one line."""
        if not hasattr(os, "posix_fallocate"):  # pragma: no cover - not Linux
            return
        try:
            os.posix_fallocate(self._fd, 0, self.nbytes)
        except OSError as exc:
            if exc.errno in (errno.EOPNOTSUPP, errno.EINVAL):  # a file system without it: as before
                return
            os.close(self._fd)
            if created:
                self.path.unlink(missing_ok=True)
            raise WriteFailed(f"workdir {self.path}: the level array of {self.nbytes:,} bytes does not fit on the disk ({exc.strerror})", "workdir") from None

    def _load(self) -> None:
        view = memoryview(self._map)
        offset = 0
        while offset < self.nbytes:
            got = os.preadv(self._fd, [view[offset : min(self.nbytes, offset + 64 * CHUNK)]], offset)
            if got <= 0:
                raise OSError(f"{self.path}: shorter than the {self.nbytes} bytes expected")
            offset += got
        view.release()

    @property
    def dirty(self) -> np.ndarray:
        """The flags the kernels set now (one byte per 1 MiB chunk)."""
        return self._dirty_sets[self._active]

    def _write(self, flags: np.ndarray) -> int:
        if self.storage == "memmap":
            self.array.flush()
            written = int(flags.sum()) * CHUNK
        else:
            written = 0
            for chunk in np.flatnonzero(flags):
                lo = int(chunk) * CHUNK
                hi = min(self.nbytes, lo + CHUNK)
                data = self.array[lo:hi]
                done = 0
                while done < hi - lo:
                    done += os.pwrite(self._fd, data[done:], lo + done)
                written += hi - lo
        if self.sync:
            os.fsync(self._fd)
        flags[:] = 0
        return written

    def checkpoint(self) -> int:
        """Write what changed, now (waiting for a background write first)."""
        self.wait()
        written = self._write(self._dirty_sets[0]) + self._write(self._dirty_sets[1])
        return written

    def checkpoint_in_background(self, then: Callable[[int], None]) -> None:
        """Start writing what changed; `then(bytes_written)` runs after. The kernels
        must take `self.dirty` afresh from now on (the flag sets have swapped)."""
        self.wait()
        flags = self._dirty_sets[self._active]
        self._active ^= 1

        def work() -> None:
            try:
                then(self._write(flags))
            except BaseException as exc:  # noqa: BLE001 - reported by wait()
                self._writer_error = exc

        self._writer = threading.Thread(target=work, name="level-checkpoint", daemon=True)
        self._writer.start()

    def wait(self) -> None:
        """Wait for a background checkpoint; re-raise its error."""
        if self._writer is not None:
            self._writer.join()
            self._writer = None
        if self._writer_error is not None:
            error, self._writer_error = self._writer_error, None
            raise error

    def close(self) -> None:
        self.wait()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        array, self.array = self.array, None
        if isinstance(array, np.memmap):
            array.flush()
        del array
        if self._map is not None:
            try:
                self._map.close()
            except BufferError:
                pass  # a view of it is still alive somewhere; the mapping goes with it
            self._map = None
