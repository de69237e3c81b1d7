"""What one client may take of a shared server (service.capacity): every option that
multiplies processes or memory, of every method of every puzzle, is capped by the
operator's capacity (422 naming the option and the cap above it; the cap itself passes),
a default above a cap becomes the cap, 0 ("as many as the machine allows") becomes the
processes cap, the budget is capped, and the listing offers the caps as maxima. The
processes cap reaches the worker, so a method that picks its own count keeps to it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from puzzlelab.core.parallel import default_workers
from puzzlelab.core.puzzle import InvalidInstance, Method
from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.app import create_app
from puzzlelab.service.capacity import Capacity, option_cap
from puzzlelab.service.intake import admit, client_options
from puzzlelab.service.models import JobRequest
from support.job_waiting import wait_for
from support.toy_puzzle import Toy, run_dp

CAPACITY = Capacity(job_processes=2, job_memory_bytes=600_000_000, max_budget=120.0)
REAL = [name for name in ("tiling", "matchsticks", "hexagon", "coins", "macmahon") if name in REGISTRY]


def capped_options():
    """(puzzle, method, option) for every client option declaring a resource."""
    for name in REAL:
        for method in REGISTRY[name].methods.values():
            for option in client_options(method):
                if option.resource:
                    yield pytest.param(name, method.name, option, id=f"{name}-{method.name}-{option.name}")


def door(puzzle: str, method: str | None = None, options: dict | None = None, budget: float | None = None, capacity=CAPACITY):
    instance = list(REGISTRY[puzzle].catalog())[1]
    request = JobRequest(puzzle=puzzle, instance=instance, method=method, options=options or {}, budget=budget)
    return admit(request, capacity=capacity)


def refusal(call) -> InvalidInstance:
    with pytest.raises(InvalidInstance) as caught:
        call()
    assert caught.value.status == 422 and "\n" not in str(caught.value)
    return caught.value


@pytest.mark.parametrize("puzzle,method,option", list(capped_options()))
def test_every_resource_option_is_capped(puzzle, method, option):
    cap = option_cap(option, CAPACITY)
    assert cap is not None
    if option.maximum is None or cap < option.maximum:
        above = cap + 1 if option.kind == "int" else cap * 1.01
        error = refusal(lambda: door(puzzle, method, {option.name: above}))
        shown = str(cap) if option.kind == "int" else f"{cap:g}"
        assert error.field == option.name and option.flag in str(error) and f"at most {shown} " in str(error), str(error)
    assert door(puzzle, method, {option.name: cap}).options[option.name] == cap
    admitted = door(puzzle, method)  # the default, within the cap
    value = admitted.options[option.name]
    assert value is None or value <= cap
    if option.resource == "processes" and option.default == 0:
        assert value == CAPACITY.job_processes  # "as many as allowed" is the server's many


def test_asking_for_many_processes_or_much_memory_is_refused_with_the_cap():
    error = refusal(lambda: door("matchsticks", "full", {"workers": 64}))
    assert error.field == "workers" and "at most 2" in str(error) and "--job-workers" in str(error)
    error = refusal(lambda: door("hexagon", "portfolio", {"workers": 100000}))
    assert error.field == "workers"
    error = refusal(lambda: door("coins", "bidir", {"memory_mb": 4096}))
    assert error.field == "memory_mb" and "572" in str(error)  # 600 MB in MiB
    assert door("matchsticks", "full", {"workers": 2}).options["workers"] == 2
    assert door("matchsticks", "full", {"workers": 1}).options["workers"] == 1  # less is fine


def test_memory_caps_follow_the_job_memory():
    small = Capacity(job_processes=2, job_memory_bytes=100_000_000)
    # a beam of 10^6 states holds at least 10^8 bytes: more than the job may
    error = refusal(lambda: door("hexagon", "beam", {"width": 1_000_001}, capacity=small))
    assert error.field == "width" and "100 MB" in str(error) and "--job-memory-mb" in str(error)
    assert door("hexagon", "beam", {"width": 1_000_000}, capacity=small).options["width"] == 1_000_000
    assert door("tiling", "dp", capacity=small).options["max_memory_mb"] == 100.0  # its default 2000 lowered
    unknown = Capacity(job_processes=2, job_memory_bytes=None)  # the machine's memory not known: no memory cap
    assert door("hexagon", "beam", {"width": 10_000_000}, capacity=unknown).options["width"] == 10_000_000


def test_the_budget_is_capped():
    error = refusal(lambda: door("tiling", budget=121))
    assert error.field == "budget" and "at most 120 s" in str(error) and "--max-budget" in str(error)
    assert door("tiling", budget=120).budget == 120
    assert door("hexagon").budget == 60  # the puzzle's default, within the cap
    assert door("hexagon", capacity=Capacity(max_budget=5)).budget == 5  # a default above the cap: the cap


def test_options_that_multiply_resources_declare_it():
    """Guard for new methods: an option named like a count of processes, a width or an
    amount of memory must say what it multiplies (or the service would not cap it)."""
    undeclared = []
    for name in REAL:
        for method in REGISTRY[name].methods.values():
            for option in client_options(method):
                multiplies = option.name in ("workers", "threads", "width", "subtrees") or "memory" in option.name
                if multiplies and not option.resource:
                    undeclared.append(f"{name} {method.name} {option.flag}")
    assert not undeclared, undeclared


def test_declared_unit_sizes_match_the_solvers():
    """The bytes per unit the caps use are the solvers' own figures (kept beside the
    declarations so loading the registry imports no numba)."""
    from puzzlelab.puzzles.hexagon.beam.search import beam_bytes
    from puzzlelab.puzzles.hexagon.methods import BEAM_STATE_BYTES as HEXAGON_STATE
    from puzzlelab.puzzles.tiling.methods import BEAM_STATE_BYTES as TILING_STATE
    from puzzlelab.puzzles.tiling.sweep import STATE_BYTES

    assert TILING_STATE == STATE_BYTES
    for cells, slots, top in ((7, 1, 1), (7, 6, 5), (1000, 60, 5)):  # the least a state holds, on any order and level
        per_state = beam_bytes(cells, slots, 2, top) - beam_bytes(cells, slots, 1, top)
        assert per_state >= HEXAGON_STATE


# ------------------------------------------------------------ through the service
def _report_workers(instance, *, budget, progress, seed, workers=0):
    """A method that picks its own worker count when given 0, as the portfolios do."""
    result = run_dp(instance, budget=budget, progress=progress, seed=seed)
    result.stats["workers_given"] = workers
    result.stats["workers_default"] = default_workers()
    return result


class Counted(Toy):
    name = "counted"

    def __init__(self):
        super().__init__()
        from puzzlelab.core.puzzle import Option

        self.add_method(Method("count", "reports its workers", _report_workers,
                               (Option("workers", "int", 0, "worker processes (0: as many as allowed)", minimum=0, resource="processes"),)))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    REGISTRY["counted"] = Counted()
    try:
        app = create_app(workers=1, store_path=str(tmp_path_factory.mktemp("capacity") / "records.sqlite"), start_method="fork",
                         job_processes=3, max_budget=30)
        with TestClient(app) as c:
            yield c
    finally:
        REGISTRY.pop("counted", None)


def test_the_processes_cap_reaches_the_worker(client):
    posted = client.post("/api/jobs", json={"puzzle": "counted", "instance": "small", "method": "count"})
    assert posted.status_code == 202, posted.text
    assert posted.json()["options"]["workers"] == 3
    job = wait_for(client, posted.json()["id"])
    assert job["state"] == "done" and job["result"]["verified"], job
    assert job["result"]["stats"]["workers_given"] == 3 and job["result"]["stats"]["workers_default"] == 3


def test_the_service_answers_422_naming_the_cap(client):
    for body, field in (
        ({"puzzle": "counted", "instance": "small", "method": "count", "options": {"workers": 4}}, "workers"),
        ({"puzzle": "matchsticks", "instance": "12", "method": "full", "options": {"workers": 64}}, "workers"),
        ({"puzzle": "counted", "instance": "small", "budget": 31}, "budget"),
    ):
        answer = client.post("/api/jobs", json=body)
        assert answer.status_code == 422 and answer.json()["field"] == field, answer.text
        assert "at most" in answer.json()["detail"]


def test_the_listing_and_health_show_the_caps(client):
    puzzles = {p["name"]: p for p in client.get("/api/puzzles").json()}
    full = {o["name"]: o for m in puzzles["matchsticks"]["methods"] if m["name"] == "full" for o in m["options"]}
    assert full["workers"]["maximum"] == 3 and full["workers"]["resource"] == "processes"
    health = client.get("/api/health").json()
    assert health["capacity"]["job_processes"] == 3 and health["capacity"]["max_budget"] == 30
    coins = {o["name"]: o for m in puzzles["coins"]["methods"] if m["name"] == "bidir" for o in m["options"]}
    assert coins["memory_mb"]["maximum"] == health["job_memory_bytes"] // 2**20  # the job memory in MiB
    assert coins["memory_mb"]["default"] <= coins["memory_mb"]["maximum"]
