"""The records store's best results are checked again before they are listed
(`core.records_check`): a row forged into the file, or one whose value its solution does
not give, is passed over for the best true one, and says why; a claim of optimality
that a proven published value contradicts is dropped; a store of schema 1 is read."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from puzzlelab.cli.app import app
from puzzlelab.core.records_check import checked_best
from puzzlelab.core.result import Result, Status
from puzzlelab.core.store import Store
from puzzlelab.puzzles import REGISTRY, get


def _solved(puzzle_name: str, spec: str):
    puzzle = get(puzzle_name)
    instance = puzzle.load(spec)
    result = puzzle.solve(instance, budget=60)
    puzzle.check(instance, result)
    assert result.verified
    return puzzle, instance, result


def _forge(path, record_id: int, **columns) -> int:
    """A copy of row `record_id` with some columns replaced, written past the store's
    checks (as a hand edit or an older version would); returns the new row's id."""
    db = sqlite3.connect(path)
    names = [row[1] for row in db.execute("PRAGMA table_info(results)") if row[1] != "id"]
    row = dict(zip(names, db.execute(f"SELECT {', '.join(names)} FROM results WHERE id = ?", (record_id,)).fetchone()))
    row.update(columns)
    cursor = db.execute(f"INSERT INTO results ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
    db.commit()
    db.close()
    return int(cursor.lastrowid)


@pytest.fixture
def matchsticks_store(tmp_path):
    """A store holding one true matchsticks n = 5 answer (35 matches, optimal)."""
    store = Store(tmp_path / "records.sqlite")
    puzzle, instance, result = _solved("matchsticks", "5")
    true_id = store.add(puzzle.name, puzzle.instance_key(instance), result, puzzle.sense, instance_json=puzzle.format_instance(instance))
    return store, true_id, result


def test_forged_rows_are_passed_over_for_the_true_record(matchsticks_store):
    store, true_id, result = matchsticks_store
    squares = result.solution["squares"]
    short = dict(result.solution, squares=squares[1:])  # the size-5 square left out
    forged = {
        _forge(store.path, true_id, value_json="30", solution=json.dumps(short)): "the checker rejects it",
        _forge(store.path, true_id, value_json="31"): "the checker counts 35, the record says 31",
        _forge(store.path, true_id, value_json="32", solution="{not json"): "its stored text does not read",
        _forge(store.path, true_id, value_json="33", solution=json.dumps({"squares": "x"})): "the checker",
        _forge(store.path, true_id, value_json="34", instance_json=json.dumps(6)): "its stored instance has the key '6', not '5'",
    }
    # The store itself takes the forgeries at their word: the best value is a forged 30.
    assert store.best("matchsticks", solutions=False)[0].value == 30
    checked = checked_best(store, REGISTRY, "matchsticks")
    assert [(r.id, r.value, r.status) for r in checked.records] == [(true_id, 35, "optimal")]
    assert checked.records[0].solution == result.solution
    reasons = {item.record.id: item.line() for item in checked.rejected}
    assert set(reasons) == set(forged)
    for record_id, reason in forged.items():
        assert reason in reasons[record_id] and f"record {record_id} (matchsticks 5" in reasons[record_id]
    # solutions=False lists the same records without their solutions
    assert [(r.id, r.solution) for r in checked_best(store, REGISTRY, "matchsticks", solutions=False).records] == [(true_id, None)]


def test_only_forgeries_means_nothing_is_listed(matchsticks_store):
    store, true_id, _ = matchsticks_store
    damaged = _forge(store.path, true_id, value_json="{29", stats="[", bound="35")
    db = sqlite3.connect(store.path)
    db.execute("UPDATE results SET value_json = '20' WHERE id = ?", (true_id,))
    db.commit()
    # A damaged row reads (its unreadable fields None) instead of stopping the listing...
    assert {r.id: r.damaged for r in store.results()} == {true_id: "", damaged: "value, stats"}
    checked = checked_best(store, REGISTRY)
    assert checked.records == []
    # ... and comes after every row with a number, whose value is checked first.
    assert [(item.record.id, item.reason) for item in checked.rejected] == [
        (true_id, "the checker counts 35, the record says 20"),
        (damaged, "its stored value, stats do not read"),
    ]


def test_a_row_edited_in_place_is_checked_again(matchsticks_store):
    store, true_id, result = matchsticks_store
    assert [r.id for r in checked_best(store, REGISTRY).records] == [true_id]  # its verdict is now remembered
    short = dict(result.solution, squares=result.solution["squares"][1:])
    db = sqlite3.connect(store.path)
    db.execute("UPDATE results SET solution = ? WHERE id = ?", (json.dumps(short), true_id))
    db.commit()
    checked = checked_best(store, REGISTRY)
    assert checked.records == [] and checked.rejected[0].record.id == true_id


def test_an_optimal_claim_below_a_proven_value_is_listed_as_feasible(tmp_path):
    store = Store(tmp_path / "records.sqlite")
    puzzle = get("tiling")
    grid = puzzle.load("3x5")
    key = puzzle.instance_key(grid)
    ones = {"id": "", "squares": [{"X": x, "Y": y, "Size": 1} for x in range(grid.width) for y in range(grid.height)]}
    verdict = puzzle.verify(grid, ones)
    assert verdict.ok and verdict.value == 15 and puzzle.published(key) == {"value": 4, "proven": True, "source": "OEIS A219158"}
    store.add("tiling", key, Result(15, ones, Status.OPTIMAL, "hand", verdict=verdict), "min")
    checked = checked_best(store, REGISTRY)
    assert [(r.value, r.status) for r in checked.records] == [(15, "feasible")]
    assert checked.rejected[0].listed and "listed as feasible, not optimal: 4 is proven (OEIS A219158)" in checked.rejected[0].line()


def test_an_instance_the_key_does_not_say_is_checked_from_the_stored_instance(tmp_path):
    store = Store(tmp_path / "records.sqlite")
    puzzle, grid, result = _solved("tiling", "...#\n....\n#...\n....")
    key = puzzle.instance_key(grid)
    assert puzzle.instance_from_key(key) is None  # 'WxH:<digest>'
    bare = store.add("tiling", key, result, "min")
    kept = store.add("tiling", key, result, "min", instance_json=puzzle.format_instance(grid))
    checked = checked_best(store, REGISTRY)
    assert [r.id for r in checked.records] == [kept]
    assert [(item.record.id, "not stored with it" in item.reason) for item in checked.rejected] == [(bare, True)]


def test_a_store_of_schema_1_gains_the_instance_column_and_its_records_are_checked(tmp_path):
    path = tmp_path / "old.sqlite"
    puzzle, instance, result = _solved("matchsticks", "5")
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE results (id INTEGER PRIMARY KEY AUTOINCREMENT, puzzle TEXT NOT NULL, instance TEXT NOT NULL,"
        " sense TEXT NOT NULL, value REAL, value_json TEXT, status TEXT NOT NULL, bound TEXT, method TEXT NOT NULL,"
        " solution TEXT, stats TEXT, verdict TEXT NOT NULL, seconds REAL, version TEXT, host TEXT, created REAL NOT NULL);"
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema', '1');"
    )
    db.execute(
        "INSERT INTO results (puzzle, instance, sense, value, value_json, status, method, solution, verdict, created)"
        " VALUES ('matchsticks', '5', 'min', 35, '35', 'optimal', 'full', ?, '{}', 1.0)",
        (json.dumps(result.solution),),
    )
    db.commit()
    db.close()
    store = Store(path)
    assert "instance_json" in {row[1] for row in sqlite3.connect(path).execute("PRAGMA table_info(results)")}
    assert sqlite3.connect(path).execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "2"
    assert [(r.instance, r.value) for r in checked_best(store, REGISTRY).records] == [("5", 35)]
    Store(path)  # opening it again changes nothing


def test_the_records_command_lists_only_checked_records_and_names_the_rest(matchsticks_store, monkeypatch):
    store, true_id, _ = matchsticks_store
    forged = _forge(store.path, true_id, value_json="31")
    monkeypatch.setenv("PUZZLELAB_DB", str(store.path))
    listing = CliRunner().invoke(app, ["records", "--json"])
    assert listing.exit_code == 0, listing.output
    rows = json.loads(listing.stdout)
    assert [(row["id"], row["value"]) for row in rows] == [(true_id, 35)]
    assert f"record {forged} (matchsticks 5, value 31) not listed: the checker counts 35" in listing.stderr


def _mutate(rng, value):
    """One random change to a JSON value (the kinds a hand edit or a bad disk makes)."""
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        choice = rng.random()
        if choice < 0.2:
            return {k: v for k, v in value.items() if k != key}
        return dict(value, **{key: _mutate(rng, value[key])})
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        choice = rng.random()
        if choice < 0.25:
            return value[:i] + value[i + 1 :]
        if choice < 0.4:
            return value + [value[i]]
        return value[:i] + [_mutate(rng, value[i])] + value[i + 1 :]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value, 0, 10**30, str(value), None, 1.5])
    if isinstance(value, str):
        return rng.choice([value[:-1], value + "x", "", 7, None])
    return rng.choice([None, 0, "", [], {}])


def test_random_forgeries_never_reach_the_listing(tmp_path):
    """Fuzz: a true optimal record of each puzzle and 60 random mutations of it (value,
    solution, or the instance kept with it), each ranked before it (a better value or
    a faster run); `checked_best` never raises and every
    record it lists passes its checker with its value -- the true one or an equal one."""
    import random

    rng = random.Random(24)
    store = Store(tmp_path / "records.sqlite")
    truths = {}
    for name, spec in (("matchsticks", "5"), ("tiling", "3x5"), ("hexagon", "3"), ("coins", "font5x7:O-C"), ("macmahon", "2x3/free")):
        puzzle, instance, result = _solved(name, spec)
        assert result.status == Status.OPTIMAL
        key = puzzle.instance_key(instance)
        true_id = store.add(name, key, result, puzzle.sense, instance_json=puzzle.format_instance(instance))
        truths[name] = (key, result.value, instance)
        for _ in range(60):
            part = rng.choice(["value_json", "solution", "solution", "instance_json"])
            original = {"value_json": result.value, "solution": result.solution, "instance_json": puzzle.format_instance(instance)}[part]
            text = json.dumps(_mutate(rng, original)) if rng.random() < 0.9 else json.dumps(original)[: rng.randrange(1, 12)]
            better = result.value + rng.choice([0, -1 if puzzle.sense == "min" else 1])  # ranked before the true record
            _forge(store.path, true_id, seconds=0.0, **{part: text, "value_json": text if part == "value_json" else json.dumps(better)})
    checked = checked_best(store, REGISTRY)
    assert sorted(r.puzzle for r in checked.records) == sorted(truths)
    for record in checked.records:
        key, value, instance = truths[record.puzzle]
        verdict = get(record.puzzle).verify(instance, record.solution)
        assert record.instance == key and record.value == value and verdict.ok and verdict.value == value, record
    assert len(checked.rejected) > 0 and all(not item.listed for item in checked.rejected)
