"""Where the row DP keeps its tables: in memory, spilled to memory-mapped files past a
size, or in a checkpoint folder that a later run resumes from. Each file is written
whole and atomically before it is mapped (`core.files`): a disk too small for a table
is one line naming it, and the manifest still names the last table written.

A long DP proof (n = 11 at level 2 ran 40 minutes of wall time; n = 12 at level 3 runs
for hours) must survive a stopped run, as the cube proofs' JSON checkpoints do. The
DP's state between steps is exactly its tables, so the checkpoint is the tables
themselves, one `.npy` file per table (`i.npy`, compact) or per array (`i-j.npy`,
wide), plus `manifest.json`: the question (order, bound), the tables' form,
a digest of each level's frontier layout (a run whose layout differs is refused, not
mixed), how far each level's passes got and the lowest penalty of every finished step.
Only two levels' tables are ever needed (the level in progress and the finished one
below that guides it), so a level's tables are dropped once the level above is
finished (and, for counts, once its count is recorded); a level is marked
finished only after its tables hold the least penalty still to come, and that fill is
redone whole if it was interrupted (it rewrites every value from the next table, so
redoing it is harmless). When a question is settled with no state left, the tables go
and the manifest keeps the answer.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import weakref
from pathlib import Path

import numpy as np

from puzzlelab.core.files import write_atomic, write_atomic_with
from puzzlelab.core.inputs import is_whole

__all__ = ["Tables", "CompactTable", "DPCheckpoint", "CheckpointMismatch", "SPILL_BYTES", "table_kind"]

SPILL_BYTES = 2 * 2**30  # a pass's tables past this many bytes in all go to disk, memory-mapped
FORMAT = 2  # 2: the manifest names its tables' form ("compact" or "wide"); 1: wide tables, still read
KINDS = ("compact", "wide")


class CheckpointMismatch(ValueError):
    """The checkpoint folder belongs to another question or another frontier layout."""


def table_kind(wanted: str, bound: int) -> str:
    """The form a pass under `bound` keeps its min tables in: compact when asked and the
    bound fits a byte (rowdp/compact.py), else wide."""
    from puzzlelab.puzzles.hexagon.rowdp.compact import MAX_BOUND

    if wanted not in KINDS:
        raise ValueError(f"tables: expected compact or wide, got {wanted!r}")
    return "compact" if wanted == "compact" and 0 <= bound <= MAX_BOUND else "wide"


class CompactTable:
    """One compact min table (rowdp/compact.py): its byte buffer (in memory or
    memory-mapped from its file) and the views the kernels read."""

    __slots__ = ("buffer", "heads", "starts", "pens", "futures", "xors", "mapped", "block")

    def __init__(self, buffer: np.ndarray, mapped: bool = False):
        from puzzlelab.puzzles.hexagon.rowdp.compact import block_of, views

        self.buffer, self.mapped, self.block = buffer, mapped, block_of(buffer)
        self.heads, self.starts, self.pens, self.futures, self.xors = views(buffer)

    @property
    def states(self) -> int:
        return self.pens.shape[0]


class Tables(list):
    """The tables of one pass, one per step: a wide (keys, penalties, values) triple of
    a hash table, or a CompactTable (`compact`). Past `spill_bytes` in all, each new
    table is written to a file and kept memory-mapped, so that the page cache, not the
    process, holds what fits: a pass of n = 11 keeps hundreds of tables of millions of
    states (over 14 GB at step 128 of 331 when they all stayed in memory, in the wide
    form). With a `folder` every table goes there at once and stays (a checkpoint);
    without one, spilled tables go to a temporary folder that goes with the list. The
    kernels read and update them in place alike."""

    def __init__(self, folder: Path | None = None, spill_bytes: int | None = None, compact: bool = False):
        super().__init__()
        self.bytes = 0
        self.compact = compact
        self.persistent = folder is not None
        self.folder: str | None = str(folder) if folder is not None else None
        self.spill_bytes = 0 if folder is not None else (SPILL_BYTES if spill_bytes is None else spill_bytes)
        if self.persistent:
            Path(self.folder).mkdir(parents=True, exist_ok=True)

    def keep(self, table) -> None:
        """Keep the next step's table: a wide triple, or a compact table's buffer."""
        if self.compact:
            self.bytes += table.nbytes
            spill = self.bytes > self.spill_bytes
            self.append(CompactTable(self._write(f"{len(self)}.npy", table) if spill else table, spill))
            return
        self.bytes += sum(a.nbytes for a in table)
        if self.bytes > self.spill_bytes:
            table = tuple(self._write(f"{len(self)}-{j}.npy", array) for j, array in enumerate(table))
        self.append(table)

    def replace(self, index: int, buffer: np.ndarray) -> None:
        """A compact table in place of table `index` (its file rewritten atomically
        when it has one: a stop leaves the old table or the new one, whole)."""
        old = self[index]
        self.bytes += buffer.nbytes - old.buffer.nbytes
        self[index] = CompactTable(self._write(f"{index}.npy", buffer) if old.mapped else buffer, old.mapped)

    def _write(self, name: str, array: np.ndarray) -> np.ndarray:
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="puzzlelab-rowdp-")
            weakref.finalize(self, shutil.rmtree, self.folder, True)
        # Written whole (write(), then renamed), and only then mapped: a page of a
        # mapped file that the disk cannot back ends the process with SIGBUS, where
        # a write that does not fit is an error naming the file.
        path = os.path.join(self.folder, name)
        contiguous = np.ascontiguousarray(array)
        write_atomic_with(path, lambda handle: np.lib.format.write_array(handle, contiguous), contiguous.nbytes + 4096,
                          "row DP table", "checkpoint", sync=self.persistent)  # fmt: skip
        return np.asarray(np.load(path, mmap_mode="r+"))  # a plain ndarray view of the mapping, for numba

    @classmethod
    def load(cls, folder: Path, count: int, compact: bool = False) -> "Tables":
        """The first `count` tables kept in `folder`, memory-mapped for reading and
        writing (the fill of the least penalty still to come writes in place)."""
        tables = cls(folder, compact=compact)
        for i in range(count):
            try:
                if compact:
                    table = CompactTable(np.asarray(np.load(os.path.join(folder, f"{i}.npy"), mmap_mode="r+")), True)
                    tables.bytes += table.buffer.nbytes
                else:
                    table = tuple(np.asarray(np.load(os.path.join(folder, f"{i}-{j}.npy"), mmap_mode="r+")) for j in range(3))
                    tables.bytes += sum(a.nbytes for a in table)
            except (OSError, ValueError) as exc:
                raise CheckpointMismatch(f"checkpoint {folder}: table {i} cannot be read ({exc}); use another folder") from None
            tables.append(table)
        return tables


def _damaged(manifest: dict) -> str:
    """What is wrong with a manifest's fields ('' when nothing): the types each reader
    of it relies on, so a damaged or edited file gets one line, not a traceback."""
    levels, settled = manifest.get("levels"), manifest.get("settled")
    if manifest.get("format") == FORMAT and manifest.get("tables") not in KINDS:
        return "tables: expected compact or wide"
    if manifest.get("tables") == "compact" and table_kind("compact", manifest.get("bound")) != "compact":
        return "tables: compact tables hold bounds of 0..254 only"
    if not isinstance(levels, dict):
        return "levels: expected an object of levels"
    for key, entry in levels.items():
        if not (key.isascii() and key.isdigit() and int(key) >= 1) or not isinstance(entry, dict):
            return f"levels: {key[:20]!r} is not a level's entry"
        lowest, count = entry.get("lowest", []), entry.get("count")
        steps = entry.get("steps_done", 0)
        if not (isinstance(entry.get("layout"), str) and is_whole(steps) and steps >= 0):
            return f"level {key}: expected its layout and steps done"
        if not (isinstance(lowest, list) and all(is_whole(x) for x in lowest) and steps == len(lowest)):
            return f"level {key}: expected the lowest penalty of each step done"
        if any(not isinstance(entry.get(flag, False), bool) for flag in ("filled", "dropped")):
            return f"level {key}: filled and dropped are true or false"
        if count is not None and not (
            isinstance(count, dict)
            and isinstance(count.get("histogram"), dict)
            and all(p.isascii() and p.isdigit() and is_whole(c) and c >= 0 for p, c in count["histogram"].items())
            and (count.get("sample") is None or (isinstance(count["sample"], list) and all(is_whole(v) for v in count["sample"])))
        ):
            return f"level {key}: expected a count of grids per penalty and a sample grid"
    level, step = (settled.get("level"), settled.get("step")) if isinstance(settled, dict) else (None, None)
    if settled is not None and not (is_whole(level) and level >= 1 and is_whole(step) and step >= 0):
        return "settled: expected null or the level and step where a pass ran dry"
    return ""


def layout_digest(arrays) -> str:
    """A digest of the arrays that fix a level's frontier layout and transitions."""
    digest = hashlib.sha256()
    for array in arrays:
        if isinstance(array, np.ndarray):
            digest.update(str(array.dtype).encode())
            digest.update(np.ascontiguousarray(array).tobytes())
        else:
            digest.update(repr(array).encode())
    return digest.hexdigest()[:16]


class DPCheckpoint:
    """The checkpoint folder of one question: order n and penalty bound (the min
    passes of levels 1, 2, ... under one bound; a target level only says how many
    levels to run, so one folder serves every target level)."""

    def __init__(self, folder: str | Path, n: int, bound: int, tables: str | None = None):
        """`tables`: the form a new folder keeps its tables in (default: compact where
        the bound fits a byte); a folder already made keeps its own (`self.tables`;
        format 1, of an earlier version, holds wide ones)."""
        tables = tables or table_kind("compact", bound)
        self.folder = Path(folder)
        self.path = self.folder / "manifest.json"
        self.n, self.bound = n, bound
        if self.path.exists():
            try:
                self.manifest = json.loads(self.path.read_text())
            except (OSError, ValueError) as exc:
                raise CheckpointMismatch(f"checkpoint {self.folder}: its manifest.json cannot be read ({exc})") from None
            if not isinstance(self.manifest, dict):
                raise CheckpointMismatch(f"checkpoint {self.folder}: its manifest.json is not a row DP manifest; use another folder")
            if self.manifest.get("format") not in (1, FORMAT):
                raise CheckpointMismatch(f"checkpoint {self.folder}: format {str(self.manifest.get('format'))[:20]}, expected 1 or {FORMAT}; use another folder")
            wanted = {"n": n, "bound": bound}
            found = {key: self.manifest.get(key) for key in wanted}
            if found != wanted:
                raise CheckpointMismatch(f"checkpoint {self.folder}: it holds the row DP of {found}, not {wanted}; use another folder")
            why = _damaged(self.manifest)
            if why:
                raise CheckpointMismatch(f"checkpoint {self.folder}: its manifest.json is damaged ({why}); use another folder")
        else:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.manifest = {"format": FORMAT, "n": n, "bound": bound, "tables": tables, "levels": {}, "settled": None}
            self._write()
        self.tables = self.manifest.get("tables", "wide")

    # -- what the folder says
    def level(self, level: int) -> dict:
        return self.manifest["levels"].get(str(level), {})

    @property
    def settled(self) -> dict | None:
        """{"level": L, "step": i} once a min pass ended with no state left."""
        return self.manifest.get("settled")

    @property
    def compact(self) -> bool:
        return self.tables == "compact"

    def tables_folder(self, level: int) -> Path:
        return self.folder / f"level-{level}"

    # -- a level's min pass
    def start_level(self, level: int, digest: str) -> tuple[Tables, list[int]]:
        """The tables and lowest penalties this level's pass already has (none for a
        level not started); a level laid out differently is refused."""
        entry = self.level(level)
        if entry and entry["layout"] != digest:
            raise CheckpointMismatch(
                f"checkpoint {self.folder}: level {level} was computed with another frontier layout "
                f"({entry['layout']}, now {digest}): the code changed; use another folder"
            )
        if not entry:
            shutil.rmtree(self.tables_folder(level), ignore_errors=True)
            self.manifest["levels"][str(level)] = {"layout": digest, "steps_done": 0, "lowest": [], "filled": False}
            self._write()
            return Tables(self.tables_folder(level), compact=self.compact), []
        return Tables.load(self.tables_folder(level), entry["steps_done"], self.compact), list(entry["lowest"])

    def step_done(self, level: int, lowest: list[int]) -> None:
        """A step's table is on disk (flushed by Tables): record it."""
        entry = self.level(level)
        entry["steps_done"] = len(lowest)
        entry["lowest"] = [int(x) for x in lowest]
        self._write()

    def level_filled(self, level: int) -> None:
        """The level's tables now hold the least penalty still to come."""
        self.level(level)["filled"] = True
        self._write()

    def usable(self, level: int) -> bool:
        """The level is filled and its tables are still in the folder."""
        entry = self.level(level)
        return bool(entry.get("filled")) and not entry.get("dropped")

    def drop(self, level: int) -> None:
        """The level's tables are no longer needed (the level above is filled and every
        count asked of this one is recorded): free the disk."""
        entry = self.level(level)
        if entry and not entry.get("dropped"):
            entry["dropped"] = True
            self._write()
            shutil.rmtree(self.tables_folder(level), ignore_errors=True)

    def record_count(self, level: int, histogram: dict[int, int], sample: list[int] | None) -> None:
        self.level(level)["count"] = {"histogram": {str(p): int(c) for p, c in histogram.items()}, "sample": sample}
        self._write()

    def count(self, level: int) -> tuple[dict[int, int], list[int] | None] | None:
        """A counting pass's result recorded earlier (the caller checks the sample grid)."""
        kept = self.level(level).get("count")
        if kept is None:
            return None
        return {int(p): int(c) for p, c in kept["histogram"].items()}, kept["sample"]

    def settle(self, level: int, step: int) -> None:
        """A min pass ended with no state left: no level grid is within the bound."""
        self.manifest["settled"] = {"level": level, "step": step}
        for key, entry in self.manifest["levels"].items():
            entry["dropped"] = True
            shutil.rmtree(self.tables_folder(int(key)), ignore_errors=True)
        self._write()

    def settles(self, k: int) -> bool:
        """Whether the folder already says that no level-k grid is within the bound."""
        return self.settled is not None and self.settled["level"] <= k

    def _write(self) -> None:
        write_atomic(self.path, json.dumps(self.manifest, indent=1), "checkpoint", "checkpoint")
