"""The queue and the jobs in memory are bounded (service.capacity, service.job_window):
past `max_queued` waiting jobs a new one gets 503 with Retry-After and nothing is
written; `/api/health` shows the depth and the bound. Memory keeps only the most recent
finished jobs; every route still answers for an older one, from the store, its result
checked again."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from puzzlelab.service.app import create_app
from puzzlelab.service.job_rows import Job
from puzzlelab.service.job_window import RETRY_AFTER_SECONDS, finished_to_forget, retry_after
from support.job_waiting import wait_for


def test_a_full_queue_answers_503_with_retry_after(tmp_path):
    app = create_app(workers=1, store_path=str(tmp_path / "records.sqlite"), start_method="fork", max_queued=3)
    app.state.runner.open_jobs()  # the jobs table, without starting workers: jobs stay queued
    client = TestClient(app)  # no lifespan: no runner thread takes the queue
    for _ in range(3):
        assert client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).status_code == 202
    refused = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"})
    assert refused.status_code == 503, refused.text
    body = refused.json()
    assert body["field"] == "queue" and "--max-queued" in body["detail"] and "\n" not in body["detail"]
    low, high = RETRY_AFTER_SECONDS
    assert low <= int(refused.headers["Retry-After"]) <= high
    health = client.get("/api/health").json()
    assert health["queued"] == 3 and health["max_queued"] == 3 and health["capacity"]["max_queued"] == 3
    with app.state.store.connect() as db:
        assert db.execute("SELECT COUNT(*) FROM jobs").fetchone()[0] == 3  # the refused job left no row
    assert "503" in json.dumps(client.get("/openapi.json").json()["paths"]["/api/jobs"]["post"]["responses"])


def test_retry_after_follows_the_running_jobs():
    running = Job("a", "toy", "k", {}, "dp", {}, budget=20.0, seed=0, state="running", started=100.0)
    assert retry_after([running], now=105.0) == 15
    assert retry_after([running], now=500.0) == RETRY_AFTER_SECONDS[0]
    assert retry_after([], now=0.0) == 5


def test_only_written_finished_jobs_leave_memory():
    jobs = {f"j{i}": Job(f"j{i}", "toy", "k", {}, "dp", {}, 1.0, 0, state="done", created=float(i)) for i in range(6)}
    jobs["q"] = Job("q", "toy", "k", {}, "dp", {}, 1.0, 0, state="queued", created=0.5)
    assert finished_to_forget(jobs, 3, unwritten={"j1"}) == ["j2", "j0"]  # the oldest past 3; j1 not yet written; q waits


@pytest.fixture(scope="module")
def small_window(tmp_path_factory):
    app = create_app(workers=1, store_path=str(tmp_path_factory.mktemp("window") / "records.sqlite"), start_method="fork",
                     grace=1.0, finished_kept=3)
    with TestClient(app) as client:
        ids = []
        for target in range(20, 27):  # seven jobs, one after another
            posted = client.post("/api/jobs", json={"puzzle": "toy", "instance": f"{target} 1 5 6 9"})
            assert posted.status_code == 202, posted.text
            ids.append(posted.json()["id"])
            assert wait_for(client, ids[-1])["state"] == "done"
        yield client, ids


def test_memory_keeps_only_the_recent_finished_jobs(small_window):
    client, ids = small_window
    runner = client.app.state.runner
    deadline = time.monotonic() + 10  # the runner forgets them once their last state is written (its next loop)
    while client.get("/api/health").json()["jobs_in_memory"] > 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get("/api/health").json()["jobs_in_memory"] == 3
    assert ids[0] not in runner._jobs and ids[-1] in runner._jobs


def test_every_route_answers_for_a_job_only_the_store_has(small_window):
    client, ids = small_window
    old = ids[0]
    job = client.get(f"/api/jobs/{old}").json()
    assert job["state"] == "done" and job["result"]["verified"] and job["result"]["value"] == 3  # 20 = 9 + 6 + 5
    assert client.get(f"/api/jobs/{old}/svg").text.startswith("<svg")
    answer = client.get(f"/api/jobs/{old}/answer").json()
    assert answer["value"] == 3
    exported = client.get(f"/api/jobs/{old}/export/json")
    assert exported.status_code == 200 and json.loads(exported.text)["value"] == 3
    assert client.get(f"/api/jobs/{old}/progress").status_code == 200
    events = client.get(f"/api/jobs/{old}/events").text
    assert "event: done" in events and old in events
    assert client.delete(f"/api/jobs/{old}").json()["state"] == "done"  # nothing to cancel
    assert client.get("/api/jobs/nosuchjob").status_code == 404


def test_the_listing_reaches_past_memory_newest_first(small_window):
    client, ids = small_window
    listed = [job["id"] for job in client.get("/api/jobs", params={"limit": 50}).json()]
    assert listed == ids[::-1]
    assert [job["id"] for job in client.get("/api/jobs", params={"limit": 2}).json()] == ids[:-3:-1]
    assert all(job["result"]["verified"] for job in client.get("/api/jobs", params={"limit": 7}).json())
