"""The records store: concurrent writers, refusal of unverified results, clear errors."""

import multiprocessing as mp
import sqlite3

import pytest

from puzzlelab.core.result import Result, Status, Verdict
from puzzlelab.core.store import Store, StoreError, UnverifiedResult


def _verified(value, status="feasible", method="m", seconds=1.0):
    return Result(value, {"v": value}, status, method, stats={"seconds": seconds}, verdict=Verdict(True, value, "ok"))


def _writer(path, worker, count):
    store = Store(path)
    for i in range(count):
        store.add("p", f"inst{i % 5}", _verified(worker * 1000 + i), "min")


def test_many_processes_write_at_once_and_nothing_is_lost(tmp_path):
    path = tmp_path / "r.sqlite"
    Store(path)
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(path, w, 40)) for w in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    values = sorted(r.value for r in Store(path).results())
    assert values == sorted(w * 1000 + i for w in range(6) for i in range(40))
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_unverified_results_are_refused(tmp_path):
    store = Store(tmp_path / "r.sqlite")
    with pytest.raises(UnverifiedResult, match="never verified"):
        store.add("p", "i", Result(3, [1], Status.FEASIBLE, "m"), "min")
    with pytest.raises(UnverifiedResult, match="verification failed: overlap"):
        store.add("p", "i", Result(3, [1], Status.FEASIBLE, "m", verdict=Verdict(False, 3, "overlap")), "min")
    assert store.count() == 0


def test_best_per_instance_respects_sense_and_proof(tmp_path):
    store = Store(tmp_path / "r.sqlite")
    store.add("tiling", "a", _verified(12), "min")
    store.add("tiling", "a", _verified(10, seconds=5), "min")
    store.add("tiling", "a", _verified(10, status="optimal", seconds=9), "min")
    store.add("hexagon", "8", _verified(300), "max")
    store.add("hexagon", "8", _verified(310), "max")
    best = {(r.puzzle, r.instance): r for r in store.best()}
    assert best["tiling", "a"].value == 10 and best["tiling", "a"].status == "optimal"
    assert best["hexagon", "8"].value == 310
    assert [r.puzzle for r in store.best("hexagon")] == ["hexagon"]
    record = store.results("tiling", "a")[0]
    assert record.solution == {"v": 12} and record.stats["seconds"] == 1.0 and record.version and record.host


def test_listings_without_solutions_read_the_same_records(tmp_path):
    """`solutions=False` (the service's dashboards): every field as read with them, the
    solution left unread."""
    store = Store(tmp_path / "r.sqlite")
    for value, status in ((5, "feasible"), (4, "feasible"), (4, "optimal"), (7, "optimal")):
        store.add("p", f"i{value % 2}", _verified(value, status), "min")
    for full, light in ((store.results("p"), store.results("p", solutions=False)), (store.best("p"), store.best("p", solutions=False))):
        assert [dict(r.to_dict(), solution=None) for r in full] == [r.to_dict() for r in light]
        assert all(r.solution is not None for r in full) and all(r.solution is None for r in light)


def test_corrupted_database_gives_clear_error(tmp_path):
    path = tmp_path / "bad.sqlite"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="damaged.*Move the file aside"):
        Store(path)
    assert path.read_bytes().startswith(b"this is not")  # nothing overwritten


def test_locked_database_gives_clear_error(tmp_path):
    path = tmp_path / "r.sqlite"
    store = Store(path, timeout=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked"):
            store.add("p", "i", _verified(1), "min")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    store.add("p", "i", _verified(1), "min")
    assert store.count() == 1


def test_env_var_picks_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELAB_DB", str(tmp_path / "sub" / "x.sqlite"))
    Store().add("p", "i", _verified(1), "min")
    assert (tmp_path / "sub" / "x.sqlite").exists()
