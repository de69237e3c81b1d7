"""A record is checked against its own instance. One grid sent by two users under two
contest ids has one instance key; each record keeps the instance it was found for, and
the answer routes check and export the best record with that one -- not with whichever
job happened to have the same key (which reported the better record as not verified:
'solution id ... is not the puzzle's id ...')."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from puzzlelab.core.store import Store
from puzzlelab.service.app import create_app
from support.job_waiting import wait_for

# An L-shaped grid: 5 x 4 with its top-left cell missing.
GRID = [[bool(x or y) for x in range(5)] for y in range(4)]


def test_the_best_record_of_a_shared_grid_is_verified_with_its_own_id(tmp_path):
    path = tmp_path / "records.sqlite"
    with TestClient(create_app(workers=1, store_path=str(path), grace=1.0)) as client:
        jobs = {}
        # The first user's run is a heuristic (not proven); the second's is proven
        # optimal, so the best record is the second user's, found after the first job.
        for who, method in (("first-user", "beam"), ("second-user", "auto")):
            body = {"puzzle": "tiling", "instance": {"id": who, "width": 5, "height": 4, "puzzle": GRID}, "method": method, "budget": 20}
            response = client.post("/api/jobs", json=body)
            assert response.status_code == 202, response.text
            jobs[who] = wait_for(client, response.json()["id"])
            assert jobs[who]["state"] == "done" and jobs[who]["result"]["verified"], jobs[who]
        key = jobs["first-user"]["instance"]
        assert jobs["second-user"]["instance"] == key  # one key for both ids

        best = [r for r in client.get("/api/records", params={"puzzle": "tiling"}).json() if r["instance"] == key]
        assert len(best) == 1
        with Store(path).connect() as db:
            (stored,) = db.execute("SELECT instance_json FROM results WHERE id = ?", (best[0]["id"],)).fetchone()
        assert json.loads(stored)["id"] == "second-user", "the oracle: the best record is the second user's"

        answer = client.get("/api/records/tiling/answer", params={"instance": key})
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert view["verified"] and view["verdict"]["ok"], view["verdict"]
        assert view["value"] == best[0]["value"]
        contest = client.get("/api/records/tiling/answer/export/contest", params={"instance": key})
        assert contest.status_code == 200 and json.loads(contest.text)["id"] == "second-user"
        assert client.get("/api/records/tiling/answer/svg", params={"instance": key}).status_code == 200
