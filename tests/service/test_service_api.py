"""The REST API end to end on the toy puzzle: jobs, verification, errors, cancel, the
budget enforced by the runner, crashes, restarts."""

import json
import os
import signal
import time

import pytest
from fastapi.testclient import TestClient

from puzzlelab.core.store import Store
from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.app import create_app
from puzzlelab.service.jobs import JobRunner
from support.job_waiting import wait_for


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One service for the module (starting one costs seconds on a busy machine)."""
    assert "toy" in REGISTRY, "the toy plugin should be registered"
    path = tmp_path_factory.mktemp("service") / "records.sqlite"
    with TestClient(create_app(workers=2, store_path=str(path), grace=1.0)) as c:
        yield c


def test_puzzles_and_catalog_are_described(client):
    puzzles = {p["name"]: p for p in client.get("/api/puzzles").json()}
    toy = puzzles["toy"]
    assert toy["value_name"] == "coins" and toy["default_method"] == "dp"
    dp = next(m for m in toy["methods"] if m["name"] == "dp")
    assert dp["exact"] and dp["options"][0]["flag"] == "--slow"
    assert client.get("/api/puzzles/toy/catalog").json() == [{"name": "small", "description": "target 11 with coins 1 5 6 9"}]
    assert client.get("/openapi.json").json()["info"]["title"] == "puzzlelab"


def test_openapi_documents_every_route_and_its_responses(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert set(paths) == {
        "/api/puzzles", "/api/puzzles/{name}/catalog", "/api/jobs", "/api/jobs/{job_id}",
        "/api/jobs/{job_id}/svg", "/api/jobs/{job_id}/events", "/api/records", "/api/health",
        # previews, answers and exports, the records dashboards
        "/api/preview", "/api/jobs/{job_id}/answer", "/api/jobs/{job_id}/export/{format}", "/api/jobs/{job_id}/progress",
        "/api/records/{puzzle}/answer", "/api/records/{puzzle}/answer/svg", "/api/records/{puzzle}/answer/export/{format}",
        "/api/records/dashboards", "/api/records/{puzzle}/dashboard", "/api/records/matchsticks/dashboard",
        "/api/records/hexagon/dashboard", "/api/records/coins/dashboard", "/api/records/tiling/dashboard",
        "/api/records/macmahon/dashboard",
    }

    def body(path, verb, status, media="application/json"):
        return paths[path][verb]["responses"][status]["content"][media].get("schema", {})

    assert body("/api/jobs", "post", "202") == {"$ref": "#/components/schemas/JobView"}
    assert body("/api/jobs/{job_id}", "delete", "202") == {"$ref": "#/components/schemas/JobView"}
    assert body("/api/jobs", "get", "200")["items"] == {"$ref": "#/components/schemas/JobView"}
    assert body("/api/puzzles", "get", "200")["items"] == {"$ref": "#/components/schemas/PuzzleView"}
    assert body("/api/records", "get", "200")["items"] == {"$ref": "#/components/schemas/RecordView"}
    assert body("/api/health", "get", "200") == {"$ref": "#/components/schemas/Health"}
    assert body("/api/preview", "post", "200") == {"$ref": "#/components/schemas/PreviewView"}
    assert body("/api/records/{puzzle}/answer", "get", "200") == {"$ref": "#/components/schemas/AnswerView"}
    assert body("/api/jobs/{job_id}/answer", "get", "200") == {"$ref": "#/components/schemas/AnswerView"}
    assert body("/api/jobs/{job_id}/progress", "get", "200") == {"$ref": "#/components/schemas/ProgressSeries"}
    for name, model in (("matchsticks", "Matchsticks"), ("hexagon", "Hexagon"), ("coins", "Coins"), ("tiling", "Tiling"),
                        ("macmahon", "MacMahon")):
        assert body(f"/api/records/{name}/dashboard", "get", "200") == {"$ref": f"#/components/schemas/{model}Dashboard"}
    assert "image/svg+xml" in paths["/api/records/{puzzle}/answer/svg"]["get"]["responses"]["200"]["content"]
    assert {"application/json", "text/plain", "text/html"} <= set(paths["/api/jobs/{job_id}/export/{format}"]["get"]["responses"]["200"]["content"])
    assert body("/api/jobs/{job_id}", "get", "404") == {"$ref": "#/components/schemas/ErrorBody"}
    assert body("/api/jobs", "post", "422") == {"$ref": "#/components/schemas/ErrorBody"}
    assert "image/svg+xml" in paths["/api/jobs/{job_id}/svg"]["get"]["responses"]["200"]["content"]
    assert "text/event-stream" in paths["/api/jobs/{job_id}/events"]["get"]["responses"]["200"]["content"]
    schemas = spec["components"]["schemas"]
    assert {"id", "state", "progress", "result", "error", "worker_pid", "svg"} <= set(schemas["JobView"]["properties"])
    assert {"value", "status", "bound", "solution", "stats", "verified", "verdict"} <= set(schemas["SolveReport"]["properties"])


def test_job_runs_verified_and_stored(client):
    response = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"})
    assert response.status_code == 202
    job = wait_for(client, response.json()["id"])
    assert job["state"] == "done", job
    result = job["result"]
    assert result["value"] == 2 and result["verified"] and result["status"] == "optimal"
    assert sorted(result["solution"]) == [5, 6]
    svg = client.get(job["svg"])
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    records = {(r["puzzle"], r["instance"]): r for r in client.get("/api/records").json()}
    assert records["toy", "11:1,5,6,9"]["value"] == 2 and records["toy", "11:1,5,6,9"]["status"] == "optimal"
    stored = client.app.state.store.results("toy", "11:1,5,6,9")
    assert any(r.solution == result["solution"] for r in stored)


def test_instance_as_json_and_text(client):
    by_json = client.post("/api/jobs", json={"puzzle": "toy", "instance": {"coins": [1, 3, 4], "target": 6}, "method": "greedy"})
    by_text = client.post("/api/jobs", json={"puzzle": "toy", "instance": "6 1 3 4", "method": "dp"})
    assert wait_for(client, by_json.json()["id"])["result"]["value"] == 3  # greedy: 4+1+1
    assert wait_for(client, by_text.json()["id"])["result"]["value"] == 2  # exact: 3+3


@pytest.mark.parametrize(
    "body,status,field,words",
    [
        ({"puzzle": "nope", "instance": "small"}, 404, "puzzle", "expected one of"),
        ({"puzzle": "toy", "instance": "small", "method": "nope"}, 404, "method", "expected one of dp"),
        ({"puzzle": "toy", "instance": "small", "options": {"ring": 3}}, 422, "ring", "has no such option"),
        ({"puzzle": "toy", "instance": "small", "options": {"slow": "fast"}}, 422, "slow", "expected a number"),
        ({"puzzle": "toy", "instance": "small", "budget": -1}, 422, "budget", "greater than 0"),
        ({"puzzle": "toy"}, 422, "instance", "Field required"),
        ({"puzzle": "toy", "instance": "banana"}, 422, "instance", "not a catalog name"),
        ({"puzzle": "toy", "instance": "x" * 4_000_001}, 413, "instance", "larger than"),
        ({"puzzle": "toy", "instance": "/etc/passwd"}, 422, "instance", "not a catalog name"),
    ],
)
def test_bad_requests_name_the_field(client, body, status, field, words):
    response = client.post("/api/jobs", json=body)
    assert response.status_code == status, response.text
    data = response.json()
    assert data["field"] == field and words in data["detail"], data


def test_unknown_job_is_404(client):
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.delete("/api/jobs/nope").status_code == 404


def test_cancel_terminates_the_worker(client):
    job = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small", "method": "sleepy", "budget": 60}).json()
    running = wait_for(client, job["id"], states=("running",))
    deadline = time.monotonic() + 10
    while running["worker_pid"] is None and time.monotonic() < deadline:
        running = client.get(f"/api/jobs/{job['id']}").json()
    pid = running["worker_pid"]
    started = time.monotonic()
    assert client.delete(f"/api/jobs/{job['id']}").status_code == 202
    done = wait_for(client, job["id"])
    assert done["state"] == "cancelled" and time.monotonic() - started < 10
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_budget_is_enforced_by_the_runner(client):
    job = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small", "method": "sleepy", "budget": 0.5}).json()
    started = time.monotonic()
    done = wait_for(client, job["id"])
    assert done["state"] == "failed" and "did not return within its budget" in done["error"]
    assert time.monotonic() - started < 15


def test_a_killed_worker_fails_its_job_and_the_service_goes_on(client):
    victim = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small", "method": "sleepy", "budget": 60}).json()
    job = wait_for(client, victim["id"], states=("running",))
    deadline = time.monotonic() + 10
    while job["worker_pid"] is None and time.monotonic() < deadline:
        job = client.get(f"/api/jobs/{victim['id']}").json()
    os.kill(job["worker_pid"], signal.SIGKILL)
    failed = wait_for(client, victim["id"])
    assert failed["state"] == "failed" and "died" in failed["error"]
    after = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()
    assert wait_for(client, after["id"])["state"] == "done"


def test_events_stream_reports_progress_to_the_end(client):
    job = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()
    kinds, last = [], None
    with client.stream("GET", f"/api/jobs/{job['id']}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kinds.append(line[7:])
            elif line.startswith("data: "):
                last = json.loads(line[6:])
    assert kinds[0] == "state" and kinds[-1] == "done"
    assert last["job"]["state"] == "done" and last["job"]["result"]["verified"]


def test_jobs_running_at_a_crash_are_reported_interrupted(store_path):
    store = Store(store_path)
    first = JobRunner(store, workers=1, start_method="fork")
    first.start()
    job = first.submit("toy", "11:1,5,6,9", {"coins": [1, 5, 6, 9], "target": 11}, "sleepy", {"seconds": 30.0}, 60, 0)
    queued = first.submit("toy", "11:1,5,6,9", {"coins": [1, 5, 6, 9], "target": 11}, "dp", {"slow": 0.0}, 60, 0)
    deadline = time.monotonic() + 20
    while first.get(job.id).state != "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert first.get(job.id).state == "running"
    first._stopping.set()  # the service dies: no clean shutdown, nothing marked
    first._thread.join(5)
    first._pool.close()
    second = JobRunner(store, workers=1, start_method="fork")
    second.start()
    try:
        for job_id, was in ((job.id, "running"), (queued.id, "queued")):
            again = second.get(job_id)
            assert again.state == "interrupted" and again.error.endswith(was)
    finally:
        second.stop()


def test_a_bounded_search_run_to_the_end_says_why_it_has_no_answer(client):
    from puzzlelab.puzzles.matchsticks.reference import published_table

    below = published_table()[12]["best_known"] - 1  # a(12) is proven: nothing of at most this exists
    body = {"puzzle": "matchsticks", "instance": "12", "method": "full", "options": {"bound": below}, "budget": 60}
    job = wait_for(client, client.post("/api/jobs", json=body).json()["id"])
    result = job["result"]
    assert job["state"] == "done" and result["solution"] is None and result["status"] == "unknown", job
    assert result["stats"]["no_answer"].startswith(f"the search is complete: no answer of at most {below} matches exists where")


def test_a_restored_job_is_checked_again_before_it_is_served(store_path):
    """The jobs table is a file too: after a restart a job's stored result is checked
    again before it is served, and a row that does not read fails that job, not the
    service's start."""
    from puzzlelab.service.jobs import plain

    store = Store(store_path)
    JobRunner(store, workers=1).open_jobs()  # the tables
    toy = REGISTRY["toy"]
    instance = {"coins": [1, 5, 6, 9], "target": 11}
    true = toy.solve(toy.parse(instance), "dp")
    report = plain(toy.report(toy.parse(instance), true))
    assert report["verified"] and report["value"] == 2
    forged = dict(report, value=1, solution=[11])
    rows = {"true": json.dumps(report), "forged": json.dumps(forged), "damaged": '{"value": 1, "solu'}
    with store.connect() as db:
        for job_id, text in rows.items():
            db.execute(
                "INSERT INTO jobs (id, puzzle, instance_key, instance, method, options, budget, seed, state, created, result)"
                " VALUES (?, 'toy', '11:1,5,6,9', ?, 'dp', '{}', 10, 0, 'done', ?, ?)",
                (job_id, json.dumps(instance), time.time(), text),
            )
        db.execute(
            "INSERT INTO jobs (id, puzzle, instance_key, instance, method, options, budget, seed, state, created)"
            " VALUES ('bad-instance', 'toy', 'k', '[1,', 'dp', '{}', 10, 0, 'done', 0)"
        )
    runner = JobRunner(store, workers=1)
    runner.open_jobs()  # does not raise
    assert runner.get("true").state == "done" and runner.get("true").result["value"] == 2 and runner.get("true").result["verified"]
    for job_id in ("forged", "damaged", "bad-instance"):
        job = runner.get(job_id)
        assert job.state == "failed" and job.result is None, (job_id, job.to_dict())
    assert "rejected" in runner.get("forged").error and "does not read" in runner.get("damaged").error
    assert "does not read" in runner.get("bad-instance").error
    listed = {j.id: j.to_dict() for j in runner.jobs(10)}
    assert listed["forged"]["result"] is None and listed["true"]["result"]["value"] == 2
    events, _ = runner.events_since("forged", 0)
    assert all((e["job"]["result"] is None) for e in events)
