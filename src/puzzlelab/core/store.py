"""The records store: every verified result ever produced, in one SQLite file.

SQLite in WAL mode lets the service, its worker processes and command-line runs write
at the same time (one writer at a time, readers never blocked; writers wait up to
`timeout` seconds for the lock). The store refuses a Result whose verification did
not pass: nothing unverified can become a record.

Location: `PUZZLELAB_DB` if set, else `$XDG_DATA_HOME/puzzlelab/records.sqlite`
(`~/.local/share/puzzlelab/records.sqlite`).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

from puzzlelab.core.result import Result, Status, _json_default

__all__ = ["Store", "StoreError", "UnverifiedResult", "Record", "best_first", "natural_key", "default_path"]

SCHEMA_VERSION = 2  # 2: the column instance_json (the instance itself, so a record can be checked again)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    puzzle       TEXT NOT NULL,
    instance     TEXT NOT NULL,
    sense        TEXT NOT NULL CHECK (sense IN ('min', 'max', 'exact')),
    value        REAL,
    value_json   TEXT,
    status       TEXT NOT NULL,
    bound        TEXT,
    method       TEXT NOT NULL,
    solution     TEXT,
    stats        TEXT,
    verdict      TEXT NOT NULL,
    seconds      REAL,
    version      TEXT,
    host         TEXT,
    created      REAL NOT NULL,
    instance_json TEXT
);
CREATE INDEX IF NOT EXISTS results_by_instance ON results (puzzle, instance);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""


# The columns every records store has had (schema 1 on): a database without them is another program's.
_RECORD_COLUMNS = {"id", "puzzle", "instance", "sense", "value", "status", "method", "solution", "verdict", "created"}


class StoreError(RuntimeError):
    """The database cannot be used (corrupt, locked too long, unwritable): the message
    names the file and what to do."""


class UnverifiedResult(ValueError):
    """A result without a passing verification was offered to the store."""


@dataclass
class Record:
    """One stored result, as read back."""

    id: int
    puzzle: str
    instance: str
    sense: str
    value: Any
    status: str
    bound: Any
    method: str
    solution: Any
    stats: dict[str, Any]
    seconds: float | None
    version: str
    host: str
    created: float
    damaged: str = ""  # the fields whose stored text does not read (they are None), e.g. 'solution'

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "damaged"}


def default_path() -> Path:
    env = os.environ.get("PUZZLELAB_DB")
    if env:
        return Path(env).expanduser()
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "puzzlelab" / "records.sqlite"


def _version() -> str:
    from puzzlelab import __version__

    return __version__


class Store:
    """Records store. `Store()` opens the default file; `Store(path)` another one.

    Connections are opened per call, so one Store object may be shared by threads and
    each process simply opens its own.
    """

    def __init__(self, path: str | os.PathLike | None = None, timeout: float = 30.0):
        self.path = Path(path) if path is not None else default_path()
        self.timeout = timeout
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"records store {self.path}: cannot create its folder: {exc}") from exc
        self._refuse_foreign()
        with self.connect() as db:
            db.execute("PRAGMA journal_mode=WAL")  # persistent: stored in the file
            db.executescript(_SCHEMA)
            _add_instance_column(db)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def _refuse_foreign(self) -> None:
        """StoreError, with the file left untouched, when the file is an SQLite database
        of another program: its tables are read through a read-only connection before
        anything writes (switching to WAL writes the file's header)."""
        try:
            if not self.path.is_file() or self.path.stat().st_size == 0:
                return  # a new store
        except OSError:
            return  # the write connection says what is wrong
        uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
        db = None
        try:
            db = sqlite3.connect(uri, uri=True, timeout=self.timeout)
            tables = {name: {row[1] for row in db.execute(f"PRAGMA table_info({name!r})")} for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise StoreError(self._explain(exc)) from exc
        finally:
            if db is not None:
                db.close()
        if tables and not _RECORD_COLUMNS <= tables.get("results", set()):
            shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
            raise StoreError(
                f"records store {self.path}: an SQLite database of another program (tables: {shown}), not a records store; "
                "it was left untouched: set PUZZLELAB_DB to another file"
            )

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A connection in autocommit mode (WAL); database errors become StoreError.
        Other tables that live beside the records (the service's jobs) use this."""
        db = None
        try:
            db = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            db.execute("PRAGMA synchronous=NORMAL")
            yield db
        except sqlite3.DatabaseError as exc:
            raise StoreError(self._explain(exc)) from exc
        finally:
            if db is not None:
                db.close()

    def _explain(self, exc: sqlite3.DatabaseError) -> str:
        text = str(exc)
        if "locked" in text or "busy" in text:
            return (
                f"records store {self.path} stayed locked for {self.timeout:.0f} s ({text}); "
                "another process holds it: try again, or set PUZZLELAB_DB to another file"
            )
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return (
                f"records store {self.path} is damaged ({text}); nothing was written. "
                "Move the file aside (or set PUZZLELAB_DB to a new file) and run again"
            )
        return f"records store {self.path}: {text}"

    # ------------------------------------------------------------------ writing
    def add(self, puzzle: str, instance: str, result: Result, sense: str, *, instance_json: Any = None) -> int:
        """Store one verified result; returns its id. `sense` is 'min' or 'max' (which
        values are better) or 'exact' (a count: every verified run gives the same value).
        `instance_json` is the instance itself (`Puzzle.format_instance`), kept so that
        the record can be checked again where its key alone does not say the instance.
        Raises UnverifiedResult unless `result.verdict.ok`."""
        if not result.verified:
            why = "never verified" if result.verdict is None else f"verification failed: {result.verdict.message}"
            raise UnverifiedResult(f"refusing to store {puzzle} {instance}: result {why}")
        if sense not in ("min", "max", "exact"):
            raise ValueError(f"sense: expected 'min', 'max' or 'exact', got {sense!r}")
        numeric = result.value if isinstance(result.value, (int, float)) and not isinstance(result.value, bool) else None
        row = (
            puzzle,
            instance,
            sense,
            numeric,
            json.dumps(result.value, default=_json_default),
            result.status.value,
            json.dumps(result.bound, default=_json_default),
            result.method,
            json.dumps(result.solution, default=_json_default),
            json.dumps(result.stats, default=_json_default),
            json.dumps(result.verdict.to_dict(), default=_json_default),
            result.stats.get("seconds"),
            _version(),
            socket.gethostname(),
            time.time(),
            None if instance_json is None else json.dumps(instance_json, default=_json_default),
        )
        with self.connect() as db:
            cursor = db.execute(
                "INSERT INTO results (puzzle, instance, sense, value, value_json, status, bound, method,"
                " solution, stats, verdict, seconds, version, host, created, instance_json)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            return int(cursor.lastrowid)

    # ------------------------------------------------------------------ reading
    _COLUMNS = "id, puzzle, instance, sense, value_json, status, bound, method, solution, stats, seconds, version, host, created"

    @staticmethod
    def _record(row: tuple) -> Record:
        """A Record from a row; a field whose text does not read (a hand edit, a disk
        fault) becomes None and is named in `damaged`, so one bad row does not stop a
        listing (`core.records_check` passes it over and says why)."""
        (rid, puzzle, instance, sense, value, status, bound, method, solution, stats, seconds, version, host, created) = row
        damaged: list[str] = []

        def read(name: str, text: str | None, empty: Any = None) -> Any:
            if text is None or text == "":
                return empty
            try:
                return json.loads(text)
            except (ValueError, RecursionError):
                damaged.append(name)
                return empty

        value_read, bound_read, solution_read, stats_read = read("value", value), read("bound", bound), read("solution", solution), read("stats", stats, {})
        return Record(
            id=rid,
            puzzle=puzzle,
            instance=instance,
            sense=sense,
            value=value_read,
            status=status,
            bound=bound_read,
            method=method,
            solution=solution_read,
            stats=stats_read if isinstance(stats_read, dict) else {},
            seconds=seconds,
            version=version or "",
            host=host or "",
            created=created,
            damaged=", ".join(damaged),
        )

    def results(self, puzzle: str | None = None, instance: str | None = None, *, solutions: bool = True) -> list[Record]:
        """Every stored result, oldest first, optionally of one puzzle / instance.
        `solutions=False` reads no solution (each Record's is None): a listing of
        values need not parse thousands of move lists."""
        columns = self._COLUMNS if solutions else self._COLUMNS.replace("solution,", "NULL,")
        query, args = f"SELECT {columns} FROM results", []
        clauses = []
        if puzzle is not None:
            clauses.append("puzzle = ?")
            args.append(puzzle)
        if instance is not None:
            clauses.append("instance = ?")
            args.append(instance)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        with self.connect() as db:
            return [self._record(row) for row in db.execute(query + " ORDER BY id", args)]

    def best(self, puzzle: str | None = None, *, solutions: bool = True) -> list[Record]:
        """Best stored result per (puzzle, instance), as stored: the best value in the
        instance's sense; among equal values a proven (optimal) one, then the fastest,
        then the oldest. `solutions=False`: as in `results`. What is listed or served
        goes through `core.records_check.checked_best`, which checks each again."""
        best: dict[tuple[str, str], Record] = {}
        for record in self.results(puzzle, solutions=solutions):
            key = (record.puzzle, record.instance)
            if key not in best or _better(record, best[key]):
                best[key] = record
        return sorted(best.values(), key=lambda r: (r.puzzle, natural_key(r.instance)))

    def check_texts(self, record_ids: list[int]) -> dict[int, tuple[str, str | None, str | None]]:
        """Record id -> the stored text of its value, solution and instance, for
        checking the records again (`core.records_check`); ids not found are left out."""
        texts: dict[int, tuple[str, str | None, str | None]] = {}
        with self.connect() as db:
            for start in range(0, len(record_ids), 500):  # SQLite's limit on bound parameters
                chunk = record_ids[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                for rid, value, solution, instance in db.execute(
                    f"SELECT id, value_json, solution, instance_json FROM results WHERE id IN ({marks})", chunk
                ):
                    texts[int(rid)] = (value, solution, instance)
        return texts

    def count(self) -> int:
        with self.connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def _add_instance_column(db: sqlite3.Connection) -> None:
    """Schema 1 -> 2 in place: a store written before has no instance_json column
    (its records have none; they are checked again where their key says the instance)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(results)")}
    if "instance_json" not in columns:
        try:
            db.execute("ALTER TABLE results ADD COLUMN instance_json TEXT")
        except sqlite3.OperationalError as exc:
            if "duplicate column" not in str(exc):  # another process added it first
                raise


def best_first(records: list[Record]) -> list[Record]:
    """One instance's records, best first, in `Store.best`'s order (ties: oldest first)."""
    return sorted(records, key=_rank)


def _rank(record: Record) -> tuple:
    """Smaller is better: the value in the record's sense (a value that is not a number,
    such as a damaged one, after every number), then proven before not, then faster."""
    value = record.value
    number = isinstance(value, (int, float)) and not isinstance(value, bool) and value == value
    by_value = (0, value if record.sense == "min" else -value) if number and record.sense in ("min", "max") else (0 if record.sense == "exact" else 1, 0)
    return (*by_value, record.status != Status.OPTIMAL.value, record.seconds or 0.0)


def _better(a: Record, b: Record) -> bool:
    return _rank(a) < _rank(b)


def natural_key(text: str) -> list:
    """Sort 'contest_10' after 'contest_9' and '16' after '4'."""
    import re

    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]
