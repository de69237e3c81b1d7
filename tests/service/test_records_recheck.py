"""The service lists and serves only records that pass the checker again
(`core.records_check`): a row forged into the store's file does not reach GET
/api/records, a dashboard or an answer, and the true record behind it does."""

from __future__ import annotations

import json
import sqlite3

from fastapi.testclient import TestClient

from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.service.app import create_app


def test_a_forged_record_is_not_listed_or_served(tmp_path, caplog):
    path = tmp_path / "records.sqlite"
    puzzle = get("matchsticks")
    instance = puzzle.load("5")
    result = puzzle.solve(instance, budget=60)
    puzzle.check(instance, result)
    true_id = Store(path).add(puzzle.name, "5", result, puzzle.sense, instance_json=puzzle.format_instance(instance))
    short = dict(result.solution, squares=result.solution["squares"][1:])
    db = sqlite3.connect(path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(results)") if row[1] not in ("id", "value", "value_json", "solution")]
    db.execute(
        f"INSERT INTO results ({', '.join(columns)}, value, value_json, solution)"
        f" SELECT {', '.join(columns)}, 30, '30', ? FROM results WHERE id = ?",
        (json.dumps(short), true_id),
    )
    db.commit()
    db.close()
    assert Store(path).best("matchsticks", solutions=False)[0].value == 30  # the raw store believes it
    with TestClient(create_app(workers=1, store_path=str(path), grace=1.0)) as client:
        listed = client.get("/api/records", params={"puzzle": "matchsticks"}).json()
        assert [(row["id"], row["value"], row["status"]) for row in listed] == [(true_id, 35, "optimal")]
        answer = client.get("/api/records/matchsticks/answer", params={"instance": "5"}).json()
        assert answer["value"] == 35 and answer["verified"]
        row = next(r for r in client.get("/api/records/matchsticks/dashboard").json()["rows"] if r["n"] == 5)
        assert row["ours"]["value"] == 35
    assert "not listed: the checker rejects it" in caplog.text
