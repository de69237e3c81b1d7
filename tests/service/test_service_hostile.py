"""The REST API against the hostile inputs, one regression test per case:
NaN / Infinity / huge / boolean budgets and seeds answered 422 (and never a job left
queued), every exception of a puzzle's parser a 4xx, grids that break the rule refused
at the door, oversized instances 413, options naming server files or machines refused
(and nothing written), the OpenAPI documenting all of it, and each job's memory
bounded: a job asking for far too much ends `failed: out of memory` and the service
answers the next one.

The service here forks its workers from this process (start method "fork"), so the
test-only puzzles registered below (`hog`, `broken`) exist in them too."""

from __future__ import annotations

import json
import mmap
import multiprocessing as mp
import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from puzzlelab.core.puzzle import InvalidInstance, Method, Option
from puzzlelab.core.result import Budget
from puzzlelab.core.store import StoreError
from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.app import create_app, default_job_memory
from puzzlelab.service.intake import DOOR_CHECK_SECONDS, check_given_grid
from puzzlelab.service.models import MAX_SEED
from support.job_waiting import wait_for as _wait_for
from support.toy_puzzle import Toy, run_dp

FINAL = ("done", "failed", "cancelled", "interrupted")


def _vm_data() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmData:"):
            return int(line.split()[1]) * 1024
    return 200 * 1024**2


# Each job's memory limit here: what this process holds plus 1 GB. Its workers are
# forks of it, and start with what it holds when they fork, the stacks of its threads
# included (the service's forkserver workers start from a lean process instead). The
# `client` fixture takes it again when it starts the service: the test process grows as
# the suite runs, and a figure taken at import would leave its workers no room.
LIMIT = _vm_data() + 1024**3


# ------------------------------------------------------------ test-only puzzles
def _hold(nbytes: int) -> None:
    """Hold `nbytes` of shared anonymous memory, touched (resident). RLIMIT_DATA counts
    only private memory, so no child can fail to allocate, however much the worker it
    forked from holds already: only the watcher of the process group can stop them."""
    block = mmap.mmap(-1, nbytes)  # MAP_SHARED | MAP_ANONYMOUS: counted as Pss_Shmem
    for offset in range(0, nbytes, mmap.PAGESIZE):
        block[offset] = 1
    time.sleep(60)
    block.close()


def _hog(instance, *, budget, progress, seed, gigabytes=64.0, processes=0, upfront=False):
    """Asks for far too much: in one allocation, up front through the Budget, or in
    `processes` child processes that each stay under the limit but pass it together."""

    if upfront:
        budget.require_memory(gigabytes * 1e9, "hog")
    if processes:
        ctx = mp.get_context("fork")
        # 0.35 each: together (with the worker itself) over the limit; each child holds
        # shared memory, which its own RLIMIT_DATA does not count (`_hold`)
        children = [ctx.Process(target=_hold, args=(int(budget.memory_bytes * 0.35),)) for _ in range(processes)]
        for child in children:
            child.start()
        for child in children:
            child.join()
    else:
        np.ones(int(gigabytes * 1e9 / 8))
    return run_dp(instance, budget=budget, progress=progress, seed=seed)


def _threads(instance, *, budget, progress, seed, count=32):
    """Many threads at once (RLIMIT_AS at a job's limit refuses their stacks)."""

    workers = [threading.Thread(target=time.sleep, args=(0.2,)) for _ in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return run_dp(instance, budget=budget, progress=progress, seed=seed)


class Hog(Toy):
    name = "hog"

    def __init__(self):
        super().__init__()
        options = (Option("gigabytes", "float", 64.0), Option("processes", "int", 0), Option("upfront", "bool", False))
        self.add_method(Method("hog", "asks for far too much memory", _hog, options))
        self.add_method(Method("threads", "starts many threads", _threads, (Option("count", "int", 32),)))


class Broken(Toy):
    """A puzzle whose parser has bugs (exceptions other than InvalidInstance), and
    whose instances may carry a grid its checker takes too long or too much memory to
    check."""

    name = "broken"

    def verify(self, instance, solution):
        if solution == "too big":
            np.ones(int(64e9 / 8))
        if solution == "too slow":
            time.sleep(60)
        return super().verify(instance, solution)

    def parse(self, obj):
        if obj == "boom":
            raise KeyError("boom")
        if obj == "deep":
            raise RecursionError("maximum recursion depth exceeded")
        if obj == "huge":
            raise MemoryError()
        if obj == "big":
            raise InvalidInstance("target: too large for this toy", "target", 413)
        if isinstance(obj, dict):  # a grid it carries is for `verify`
            obj = {k: v for k, v in obj.items() if k != "grid"}
        return super().parse(obj)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    global LIMIT
    LIMIT = _vm_data() + 1024**3
    added = {"hog": Hog(), "broken": Broken()}
    REGISTRY.update(added)
    path = tmp_path_factory.mktemp("hostile") / "records.sqlite"
    try:
        app = create_app(workers=1, store_path=str(path), grace=1.0, start_method="fork", job_memory_bytes=LIMIT)
        with TestClient(app, raise_server_exceptions=False) as c:
            yield c
    finally:
        for name in added:
            REGISTRY.pop(name, None)


def post(client, body=None, raw=None):
    if raw is not None:
        return client.post("/api/jobs", content=raw, headers={"content-type": "application/json"})
    return client.post("/api/jobs", json=body)


def wait_for(client, job_id, timeout=90):
    return _wait_for(client, job_id, FINAL, timeout=timeout)


def refused(response, status=422, field=None, words=""):
    """The response is a clear error: the status, a one-line detail, the field."""
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body["detail"], str) and "\n" not in body["detail"] and words in body["detail"], body
    if field is not None:
        assert body.get("field") == field, body
    return body


def job_ids(client):
    return {job["id"] for job in client.get("/api/jobs", params={"limit": 2000}).json()}


# ------------------------------------------------------------ budgets and seeds
@pytest.mark.parametrize(
    "raw,field",
    [
        ('{"puzzle": "toy", "instance": "small", "budget": NaN}', "body"),
        ('{"puzzle": "toy", "instance": "small", "budget": Infinity}', "body"),
        ('{"puzzle": "toy", "instance": "small", "budget": -Infinity}', "body"),
        ('{"puzzle": "toy", "instance": "small", "budget": 1e400}', "body"),  # refused by the JSON reader itself: no float holds it
        ('{"puzzle": "toy", "instance": "small", "budget": "NaN"}', "budget"),
        ('{"puzzle": "toy", "instance": "small", "budget": "1e400"}', "budget"),
        ('{"puzzle": "toy", "instance": "small", "budget": true}', "budget"),
        ('{"puzzle": "toy", "instance": "small", "budget": false}', "budget"),
        ('{"puzzle": "toy", "instance": "small", "budget": 0}', "budget"),
        ('{"puzzle": "toy", "instance": "small", "budget": 86401}', "budget"),
        ('{"puzzle": "toy", "instance": "small", "budget": [1]}', "budget"),
        ('{"puzzle": "toy", "instance": "small", "seed": 9223372036854775808}', "seed"),
        ('{"puzzle": "toy", "instance": "small", "seed": 18446744073709551616}', "seed"),
        (f'{{"puzzle": "toy", "instance": "small", "seed": {MAX_SEED + 1}}}', "seed"),
        ('{"puzzle": "toy", "instance": "small", "seed": -1}', "seed"),
        ('{"puzzle": "toy", "instance": "small", "seed": true}', "seed"),
        ('{"puzzle": "toy", "instance": "small", "seed": 1.5}', "seed"),
        ('{"puzzle": "toy", "instance": "small", "seed": null}', "seed"),
        ('{"puzzle": "toy", "instance": "small", "seed": ' + "9" * 5000 + "}", "body"),
    ],
)
def test_bad_budgets_and_seeds_are_422_and_leave_no_job(client, raw, field):
    before = job_ids(client)
    body = refused(post(client, raw=raw), 422, field)
    assert "errors" not in body or all("input" not in e for e in body["errors"])  # the refused value is not echoed
    assert job_ids(client) == before


def test_the_largest_seed_runs_and_every_job_is_written(client):
    job = post(client, {"puzzle": "toy", "instance": "small", "seed": MAX_SEED}).json()
    assert wait_for(client, job["id"])["state"] == "done"
    with client.app.state.store.connect() as db:
        written = {row[0] for row in db.execute("SELECT id FROM jobs")}
    assert job_ids(client) <= written  # no job known in memory only


def test_a_job_that_cannot_be_written_is_refused_not_kept(client, monkeypatch):
    runner = client.app.state.runner
    before = job_ids(client)

    def broken_store():
        raise StoreError("records store: disk full (test)")

    monkeypatch.setattr(runner.store, "connect", broken_store)
    refused(post(client, {"puzzle": "toy", "instance": "small"}), 503, words="disk full")
    monkeypatch.undo()
    assert job_ids(client) == before


# ------------------------------------------------------------ instances
@pytest.mark.parametrize(
    "instance,status,words",
    [
        ("boom", 422, "KeyError"),
        ("deep", 422, "RecursionError"),
        ("huge", 422, "MemoryError"),
        ("big", 413, "too large"),
    ],
)
def test_every_parser_exception_is_a_4xx_and_logged(client, caplog, instance, status, words):
    body = refused(post(client, {"puzzle": "broken", "instance": instance}), status, "instance" if status == 422 else None, words)
    if status == 422:
        assert "bug: broken's parse raised" in caplog.text, body


@pytest.mark.parametrize(
    "body",
    [
        {"puzzle": "hexagon", "instance": "(" + "9" * 5000 + ")"},
        {"puzzle": "hexagon", "instance": "(1,1),(1," + "9" * 5000 + ",1),(1,1)"},
        {"puzzle": "macmahon", "instance": "WWWR*²"},
        {"puzzle": "macmahon", "instance": "4x6/WWWR*²"},
        {"puzzle": "tiling", "instance": "\x00\x01\x02"},
        {"puzzle": "coins", "instance": "font5x7:\u2603-\U0001f600"},
        {"puzzle": "matchsticks", "instance": [[[[]]]]},
    ],
)
def test_odd_instances_of_real_puzzles_are_4xx(client, body):
    response = post(client, body)
    assert 400 <= response.status_code < 500, response.text
    refused(response, response.status_code)


def test_huge_numbers_inside_an_instance_are_4xx(client):
    refused(post(client, raw='{"puzzle": "hexagon", "instance": {"n": 1e400}}'), 422)
    refused(post(client, raw='{"puzzle": "hexagon", "instance": {"n": ' + "9" * 400 + "}}"), 422, "body", "digits")


@pytest.mark.parametrize(
    "body,status,field",
    [
        ({"puzzle": "tiling", "instance": "100000x100000"}, 413, "instance"),
        ({"puzzle": "hexagon", "instance": "1000000000"}, 413, "instance"),
        ({"puzzle": "hexagon", "instance": {"n": 100000}}, 413, "n"),
        ({"puzzle": "toy", "instance": {"coins": [1] * 1_500_000, "target": 11}}, 413, "instance"),
    ],
)
def test_oversized_instances_are_413(client, body, status, field):
    refused(post(client, body), status, field)


def test_bodies_over_the_limit_are_413_with_or_without_a_length(client):
    big = b'{"puzzle": "toy", "instance": "' + b"x" * 9_000_000 + b'"}'
    refused(post(client, raw=big), 413, "body")

    def chunks():
        for start in range(0, len(big), 1_000_000):
            yield big[start : start + 1_000_000]

    response = client.post("/api/jobs", content=chunks(), headers={"content-type": "application/json"})
    refused(response, 413, "body")


@pytest.mark.parametrize(
    "raw,status",
    [
        (b"\xff\xfe{}", 400),
        (b'{"puzzle": "toy", "instance": "sm\xc3', 400),
        (b"[" * 100_000, 422),
        (b'{"puzzle": "toy", "instance": ' + b"[" * 5000 + b"]" * 5000 + b"}", 422),
        (b'{"puzzle": "toy", "instance": "small"', 422),
        (b"NaN", 422),
    ],
)
def test_bodies_that_are_not_acceptable_json(client, raw, status):
    refused(post(client, raw=raw), status, "body")


def test_grids_that_break_the_rule_are_refused_at_the_door(client):
    # order 2: rows of 2, 3 and 2 cells; a 9 can have no neighbours 1..8 (six at most):
    # the parser refuses the value itself, before any rule check
    refused(post(client, {"puzzle": "hexagon", "instance": "(1,1),(1,9,1),(1,1)"}), 422, "instance", "9 is not a possible value")
    refused(post(client, {"puzzle": "hexagon", "instance": {"n": 2, "grid": "(1,1),(1,3,1),(1,1)"}}), 422, "grid", "breaks the rule")
    refused(post(client, {"puzzle": "hexagon", "instance": [[2, 2], [2, 3, 2], [2, 2]]}), 422, "grid", "breaks the rule")
    accepted = post(client, {"puzzle": "hexagon", "instance": "(1,1),(1,2,1),(1,1)", "method": "improve", "budget": 5})
    assert accepted.status_code == 202, accepted.text
    client.delete(f"/api/jobs/{accepted.json()['id']}")
    assert wait_for(client, accepted.json()["id"])["state"] in FINAL


def test_checking_a_carried_grid_is_bounded_in_time_and_memory(client):
    """The door checks a grid in a child process: a checker that would take too much
    memory or time costs the service neither (and says so in one line)."""
    broken = REGISTRY["broken"]
    instance = {"coins": [1, 5, 6, 9], "target": 11}
    check_given_grid(broken, dict(instance, grid=[5, 6]), start_method="fork", memory_bytes=LIMIT)
    with pytest.raises(InvalidInstance, match="needs more memory than a job may hold"):
        check_given_grid(broken, dict(instance, grid="too big"), start_method="fork", memory_bytes=LIMIT)
    started = time.monotonic()
    with pytest.raises(InvalidInstance, match="could not be checked within 1 s"):
        check_given_grid(broken, dict(instance, grid="too slow"), start_method="fork", memory_bytes=LIMIT, seconds=1)
    assert time.monotonic() - started < 10
    with pytest.raises(InvalidInstance, match="breaks the rule of broken"):
        check_given_grid(broken, dict(instance, grid=[9, 9]), start_method="fork", memory_bytes=LIMIT)


@pytest.mark.slow
def test_a_grid_with_a_huge_cell_is_refused_in_bounded_time(client):
    """A hexagon cell of 10^9 made the rule check allocate gigabytes. At the
    door it is a 422 within DOOR_CHECK_SECONDS whatever the checker does with it."""
    started = time.monotonic()
    refused(post(client, {"puzzle": "hexagon", "instance": "(1,1),(1,1000000000,1),(1,1)"}), 422, "grid")
    assert time.monotonic() - started < DOOR_CHECK_SECONDS + 20
    assert client.get("/api/health").json()["ok"]


# ------------------------------------------------------------ options naming server files
@pytest.mark.parametrize(
    "method,options",
    [
        ("full", {"checkpoint": "{tmp}/some/path.json"}),
        ("full", {"checkpoint": "{tmp}/../escape/path.json"}),
        ("full", {"--checkpoint": "{tmp}/flag/path.json"}),
        ("full", {"CHECKPOINT": "{tmp}/upper/path.json"}),
        ("full", {"backend": "ray"}),
        ("full", {"address": "10.0.0.1:6379"}),
        ("full", {"out_file": "{tmp}/out.json"}),
        ("full", {"work-dir": "{tmp}/work"}),
    ],
)
def test_options_naming_server_files_or_machines_are_refused(client, tmp_path, method, options):
    options = {k: v.replace("{tmp}", str(tmp_path)) for k, v in options.items()}
    before = job_ids(client)
    body = refused(post(client, {"puzzle": "matchsticks", "instance": 26, "method": method, "options": options}), 422)
    assert body["field"]
    assert job_ids(client) == before
    assert not any(tmp_path.iterdir()) and not (tmp_path.parent / "escape").exists()  # nothing written


def test_a_server_path_in_the_options_writes_nothing(client):
    body = {"puzzle": "matchsticks", "instance": 26, "method": "full", "options": {"checkpoint": "/some/path.json"}}
    refused(post(client, body), 422, "checkpoint", "server")
    assert not Path("/some/path.json").exists() and not Path("/some").exists()
    for puzzle, method, name in (("macmahon", "enumerate", "checkpoint"), ("coins", "bfs", "workdir"), ("macmahon", "enumerate", "address")):
        instance = REGISTRY[puzzle].tour_instance
        refused(post(client, {"puzzle": puzzle, "instance": instance, "method": method, "options": {name: "/tmp/x"}}), 422, name)


@pytest.mark.parametrize(("group", "symmetry", "words"), [("rot90", True, "rot90"), ("rot180,nope", True, "nope"), ("rot180", False, "symmetry")])
def test_a_group_the_instance_lacks_is_refused_at_the_door(client, group, symmetry, words):
    """2 x 3 has no quarter turn: the job is refused before it is queued, naming the element."""
    before = job_ids(client)
    body = {"puzzle": "macmahon", "instance": "2x3/free", "method": "enumerate", "options": {"group": group, "symmetry": symmetry}}
    refused(post(client, body), 422, "group", words)
    assert job_ids(client) == before
    job = post(client, {**body, "options": {"group": "rot180"}}).json()  # a symmetry it has runs
    assert wait_for(client, job["id"])["state"] == "done"


def test_the_listing_offers_no_server_option(client):
    for puzzle in client.get("/api/puzzles").json():
        for method in puzzle["methods"]:
            names = {o["name"] for o in method["options"]}
            assert not names & {"checkpoint", "workdir", "backend", "address"}, (puzzle["name"], method["name"])
            assert not any(o.get("local_only") for o in method["options"])


# ------------------------------------------------------------ other routes
@pytest.mark.parametrize("limit", ["0", "-5", "1e400", "NaN", "9" * 40, "true", ""])
def test_job_list_limit_is_checked(client, limit):
    refused(client.get("/api/jobs", params={"limit": limit}), 422, "limit")


def test_openapi_documents_the_errors_and_content_types(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    error = {"$ref": "#/components/schemas/ErrorBody"}
    post_responses = paths["/api/jobs"]["post"]["responses"]
    for status in ("400", "404", "413", "422", "503"):
        assert post_responses[status]["content"]["application/json"]["schema"] == error, status
    for path, verbs in paths.items():
        for verb, operation in verbs.items():
            if operation.get("parameters") or operation.get("requestBody"):
                assert operation["responses"]["422"]["content"]["application/json"]["schema"] == error, (verb, path)
    for path in ("/api/jobs/{job_id}", "/api/jobs/{job_id}/svg", "/api/jobs/{job_id}/events", "/api/puzzles/{name}/catalog"):
        get = paths[path]["get"]["responses"]
        assert get["404"]["content"]["application/json"]["schema"] == error, path
    assert "image/svg+xml" in paths["/api/jobs/{job_id}/svg"]["get"]["responses"]["200"]["content"]
    assert "text/event-stream" in paths["/api/jobs/{job_id}/events"]["get"]["responses"]["200"]["content"]
    assert "HTTPValidationError" not in json.dumps(paths)  # every 422 is the ErrorBody the handler writes
    budget = spec["components"]["schemas"]["JobRequest"]["properties"]["seed"]
    assert budget["maximum"] == MAX_SEED


# ------------------------------------------------------------ memory
def test_health_reports_the_job_memory_limit(client):
    assert client.get("/api/health").json()["job_memory_bytes"] == LIMIT
    assert default_job_memory(2) >= 512_000_000


def _run(client, body):
    response = post(client, body)
    assert response.status_code == 202, response.text
    return wait_for(client, response.json()["id"])


def test_a_job_asking_for_far_too_much_fails_out_of_memory_and_the_service_goes_on(client):
    job = _run(client, {"puzzle": "hog", "instance": "small", "method": "hog", "options": {"gigabytes": 64}, "budget": 30})
    assert job["state"] == "failed" and job["error"].startswith("out of memory"), job
    refused_up_front = _run(client, {"puzzle": "hog", "instance": "small", "method": "hog", "options": {"upfront": True}, "budget": 30})
    assert refused_up_front["state"] == "failed", refused_up_front
    assert "needs 64.0 GB, more than the" in refused_up_front["error"] and "allowed" in refused_up_front["error"]
    assert client.get("/api/health").json()["ok"]
    after = _run(client, {"puzzle": "toy", "instance": "small"})
    assert after["state"] == "done" and after["result"]["verified"]


def test_processes_of_a_job_are_bounded_together(client):
    job = _run(client, {"puzzle": "hog", "instance": "small", "method": "hog", "options": {"processes": 3}, "budget": 60})
    assert job["state"] == "failed" and job["error"].startswith("out of memory: the job's processes"), job
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the worker's whole group was stopped (and reaped)
        try:
            os.killpg(job["worker_pid"], 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"processes of group {job['worker_pid']} outlived their job")
    assert _run(client, {"puzzle": "toy", "instance": "small"})["state"] == "done"


def test_many_threads_run_under_the_limit(client):
    job = _run(client, {"puzzle": "hog", "instance": "small", "method": "threads", "budget": 30})
    assert job["state"] == "done", job["error"]


def test_budget_carries_the_memory_bound():
    budget = Budget(10, memory_bytes=2e9)
    budget.require_memory(1.5e9, "small")
    with pytest.raises(InvalidInstance) as caught:
        budget.sub(fraction=0.5).require_memory(6.1e9, "tiling 1000x1000 by cpsat")
    assert caught.value.status == 413 and str(caught.value) == "tiling 1000x1000 by cpsat: needs 6.1 GB, more than the 2.0 GB allowed"
    Budget(10).require_memory(1e15, "anything")  # no bound stated: nothing refused


@pytest.mark.slow
def test_real_solvers_under_the_limit_in_forkserver_workers(tmp_path):
    """As `puzzlelab serve` runs them (forkserver workers, 1.5 GB each): CP-SAT with 8
    threads solves (the job may start 8); two memory hogs (a 1000x1000
    tiling by CP-SAT, a beam of width 10^7, which the door lets through: at least 100
    bytes a state fit 1.5 GB) end `out of memory`; the service answers the next job."""
    app = create_app(workers=1, store_path=str(tmp_path / "records.sqlite"), job_memory_bytes=int(1.5e9), job_processes=8)
    with TestClient(app) as real:
        solved = _run(real, {"puzzle": "tiling", "instance": "contest_1", "method": "cpsat", "options": {"threads": 8}, "budget": 5})
        assert solved["state"] == "done" and solved["result"]["verified"], solved["error"]
        for body in (
            {"puzzle": "tiling", "instance": "1000x1000", "method": "cpsat", "budget": 20},
            {"puzzle": "hexagon", "instance": "27", "method": "beam", "options": {"width": 10_000_000}, "budget": 20},
        ):
            hog = _run(real, body)
            assert hog["state"] == "failed" and ("out of memory" in hog["error"] or "more than the" in hog["error"]), hog["error"]
        assert _run(real, {"puzzle": "hexagon", "instance": "5", "method": "sat", "budget": 20})["state"] == "done"
