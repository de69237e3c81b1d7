"""A bounded hypothesis run against the REST API, request by request over every route of
its OpenAPI description (strategies and judge: api_fuzz.py): no 5xx, every status and
body as documented, no false valid, no false refusal, every 4xx a one-line detail, no
hang. Short in the default suite; `pytest -m slow` runs a longer one.
`benchmarks/bench_fuzz_api.py` runs thousands and prints the counts per class."""

from __future__ import annotations

import pytest
from api_fuzz import DoorOnlyRunner, Judge, describe, requests
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

from puzzlelab.service.app import create_app
from puzzlelab.service.models import MAX_BUDGET_SECONDS

FUZZ_SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck), print_blob=True)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    """The real app (routes, handlers, door) with a runner that runs no job; a few
    jobs exist beforehand, so requests about known jobs are generated too."""
    app = create_app(workers=1, store_path=str(tmp_path_factory.mktemp("fuzz") / "records.sqlite"), start_method="fork",
                     max_budget=MAX_BUDGET_SECONDS)  # the bodies draw budgets up to the API's own limit
    app.state.runner = DoorOnlyRunner(app.state.store, 1, start_method="fork", memory_bytes=app.state.runner.memory_bytes,
                                      capacity=app.state.runner.capacity)
    with TestClient(app, raise_server_exceptions=False) as client:
        known = [client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()["id"] for _ in range(3)]
        yield client, Judge(client.get("/openapi.json").json()), known


def _check(fuzzed, request):
    client, judge, _ = fuzzed
    kind, what = judge.judge(client, request)
    assert kind in ("ok", "clear"), f"{kind}: {what}\n  request: {describe(request)}"


def _run(fuzzed, examples: int) -> None:
    @settings(max_examples=examples, **FUZZ_SETTINGS)
    @given(request=requests(fuzzed[2]))
    def one(request):
        _check(fuzzed, request)

    one()


def test_generated_requests_get_documented_clear_answers(fuzzed):
    _run(fuzzed, 150)


@pytest.mark.slow
def test_generated_requests_get_documented_clear_answers_long(fuzzed):
    _run(fuzzed, 3000)


def test_no_job_is_left_unwritten_or_unfinished(fuzzed):
    """After the run: every job the service knows is in the jobs table and finished
    (the door-only runner cancels each; a job known only in memory would be stuck)."""
    client, _, _ = fuzzed
    _run(fuzzed, 40)
    jobs = client.get("/api/jobs", params={"limit": 2000}).json()
    with client.app.state.store.connect() as db:
        written = {row[0] for row in db.execute("SELECT id FROM jobs")}
    assert {job["id"] for job in jobs} <= written
    assert all(job["state"] == "cancelled" for job in jobs)
