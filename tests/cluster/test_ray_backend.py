"""The Ray backend of core/parallel (ray_backend.py) on a real two-node cluster: same answers as the
local backend, first-wins cancellation, and a lost worker's task retried."""

import sys

import pytest
import ray_tasks

from puzzlelab.core import parallel
from puzzlelab.core.parallel import Task
from puzzlelab.core.result import Budget


def test_missing_ray_names_the_extra(monkeypatch):
    from puzzlelab.core.parallel import ray_backend

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RuntimeError, match=r"pip install 'puzzlelab\[cluster\]'"):
        ray_backend.require_ray()


def test_map_on_ray_equals_local(ray_cluster):
    local = parallel.map(ray_tasks.square, range(12), workers=2)
    remote = parallel.map(ray_tasks.square, range(12), backend="ray", address=ray_cluster)
    assert [o.value for o in remote] == [o.value for o in local] == [x * x for x in range(12)]
    assert all(o.ok for o in remote)


def test_tasks_spread_over_both_nodes(ray_cluster):
    import ray

    outcomes = parallel.map(ray_tasks.sleep_then, [(1.0, i) for i in range(4)], backend="ray", address=ray_cluster)
    assert [o.value for o in outcomes] == [0, 1, 2, 3]
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2


def test_portfolio_first_proven_answer_cancels_the_rest(ray_cluster):
    tasks = [Task(ray_tasks.sleep_then, (0.5, "proven")), Task(ray_tasks.spin_forever), Task(ray_tasks.spin_forever)]
    outcomes = parallel.portfolio(tasks, is_final=lambda v: v == "proven", backend="ray", address=ray_cluster, budget=Budget(120))
    assert outcomes[0].ok and outcomes[0].value == "proven"
    assert {o.error for o in outcomes[1:]} == {"cancelled"}


def test_deadline_stops_deaf_tasks(ray_cluster):
    outcomes = parallel.map(ray_tasks.spin_forever, [()], backend="ray", address=ray_cluster, budget=Budget(2))
    assert not outcomes[0].ok and outcomes[0].error == "deadline"


def test_a_killed_worker_is_retried_and_nothing_is_lost_or_doubled(ray_cluster, tmp_path):
    from puzzlelab.core.result import Result, Verdict
    from puzzlelab.core.store import Store

    store = Store(tmp_path / "r.sqlite")
    items = [(str(tmp_path / f"marker{i}"), i) if i % 3 == 0 else (str(tmp_path / "never"), i) for i in range(6)]
    for marker, _ in items:
        if marker.endswith("never"):
            open(marker, "w").close()

    def keep(outcome):
        assert outcome.ok, outcome.error
        result = Result(outcome.value, [outcome.value], "feasible", "test", verdict=Verdict(True, outcome.value))
        store.add("toy", f"task{outcome.index}", result, "min")

    parallel.map(ray_tasks.die_once_then, items, backend="ray", address=ray_cluster, retries=2, on_outcome=keep)
    stored = sorted((r.instance, r.value) for r in store.results())
    assert stored == [(f"task{i}", i) for i in range(6)]
    assert all((tmp_path / f"marker{i}").exists() for i in (0, 3))  # those really died once


def test_a_task_asks_the_cluster_for_its_memory(ray_cluster):
    """Task.memory reaches Ray as the `memory` resource: a task asking for more than any
    node has is never placed (it is still waiting when the deadline stops it), one
    asking for a little runs."""
    import ray

    node_memory = max(n["Resources"].get("memory", 0) for n in ray.nodes() if n["Alive"])
    small = list(parallel.run_tasks([Task(ray_tasks.square, (3,), memory=2**20)], backend="ray", address=ray_cluster))
    assert small[0].ok and small[0].value == 9
    too_big = Task(ray_tasks.square, (4,), memory=int(node_memory * 4) + 2**30)
    outcomes = list(parallel.run_tasks([too_big], backend="ray", address=ray_cluster, budget=Budget(5)))
    assert not outcomes[0].ok and outcomes[0].error == "deadline"


def test_coin_bfs_tasks_carry_their_array_memory():
    from puzzlelab.puzzles.coins.batch import _bfs_task_memory

    assert 18 * 10**9 < _bfs_task_memory("font5x9") < 19 * 10**9  # two bits a board of C(45,13) plus the allowance
    assert _bfs_task_memory("font5x7") < 10**9


def _closed_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again once the socket is


def test_an_address_where_nothing_answers_is_refused_before_ray_starts(monkeypatch):
    """ray.init on such an address retries for ever; connect() says so at once."""
    ray = pytest.importorskip("ray", reason="the Ray backend needs the 'cluster' extra")
    from puzzlelab.core.errors import InvalidInstance
    from puzzlelab.core.parallel import ray_backend

    def never(**_):
        raise AssertionError("ray.init called for an address where nothing answers")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # as in a fresh CLI run
    monkeypatch.setattr(ray, "init", never)
    address = f"127.0.0.1:{_closed_port()}"
    with pytest.raises(InvalidInstance, match=rf"no Ray cluster answers at {address} \(Connection refused\)") as caught:
        ray_backend.connect(address)
    assert caught.value.field == "address"


@pytest.mark.parametrize("address", ["head-without-port", "head:port", "head:0", "head:70000", ":6379"])
def test_an_address_that_is_not_host_and_port_is_refused(address):
    from puzzlelab.core.errors import InvalidInstance
    from puzzlelab.core.parallel.ray_backend import check_reachable

    with pytest.raises(InvalidInstance, match="expected HOST:PORT of a Ray head node"):
        check_reachable(address)


def test_a_listening_head_port_and_rays_own_addresses_pass():
    import socket

    from puzzlelab.core.parallel.ray_backend import check_reachable

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        check_reachable(f"127.0.0.1:{listening.getsockname()[1]}")
    for address in ("auto", "local", "ray://head.example:10001"):
        check_reachable(address)  # left to Ray: 'auto' finds a local cluster, ray:// is Ray Client
