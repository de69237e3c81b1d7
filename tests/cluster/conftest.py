"""Ray clusters for the Ray backend tests.

`ray_cluster`: a real two-node Ray cluster on loopback, a head and a second node, each
started with `ray start` (one CPU each), bounded in time, torn down as soon as no test
left in the run asks for it (a cluster left up costs the rest of the suite a good share
of a 2-core machine).

`two_hosts`: two nodes as two hosts, in network namespaces of their own with no shared
files (two_hosts.py), for the batch commands end to end."""

import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from support.ports import free_port

TESTS = Path(__file__).resolve().parents[1]


def _ray(args, env, timeout):
    ray = Path(sys.executable).with_name("ray")
    return subprocess.run([str(ray), *args], env=env, capture_output=True, text=True, timeout=timeout)


def _start(args, env, attempts=3):
    """`ray start ARGS`, tried again when it times out: the raylet gives its dashboard
    agent a fixed 15 s to write its port files (ray-project/ray#65983), which a loaded
    2-core machine can miss; a head that failed is stopped before the next try."""
    failure = ""
    for _ in range(attempts):
        done = _ray(["start", *args], env, 300)
        if done.returncode == 0:
            return done
        failure = done.stdout[-2000:] + done.stderr[-2000:]
        if "--head" in args:
            _ray(["stop", "--force"], env, 120)
    raise RuntimeError(f"ray start {' '.join(args[:2])} failed {attempts} times:\n{failure}")


_STOPS = []  # how to stop the running cluster, at most one entry
_STOPPING = []  # the background `ray stop` of a cluster stopped earlier


def _stop_cluster() -> None:
    while _STOPS:
        _STOPS.pop()()


def _wait_until_stopped() -> None:
    """Wait for the background `ray stop --force`: it ends every Ray process on the
    machine, so nothing Ray may start before it is done."""
    while _STOPPING:
        try:
            _STOPPING[-1].wait(timeout=120)
        except subprocess.TimeoutExpired:
            _STOPPING[-1].kill()
        _STOPPING.pop()


def pytest_runtest_teardown(item, nextitem):
    """Stop the loopback cluster once no test left in the run asks for it."""
    if not _STOPS:
        return
    items = item.session.items
    rest = items[items.index(item) + 1:] if item in items else []
    if not any("ray_cluster" in getattr(later, "fixturenames", ()) for later in rest):
        _stop_cluster()


@pytest.fixture(scope="session")
def ray_cluster():
    """Address of a running two-node cluster (skips only where Ray is not installed)."""
    pytest.importorskip("ray", reason="the Ray backend needs the 'cluster' extra")
    port = free_port()
    temp = tempfile.mkdtemp(prefix="pl-ray-")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS / "cluster"), str(TESTS), env.get("PYTHONPATH", "")])
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    # A loopback test cluster needs no token: with a token left in ~/.ray by an earlier
    # local Ray, the head would demand one that the second node and driver lack.
    env["RAY_AUTH_MODE"] = "disabled"
    os.environ["RAY_AUTH_MODE"] = "disabled"
    common = ["--num-cpus", "1", "--disable-usage-stats", "--node-ip-address", "127.0.0.1"]
    _start(["--head", "--port", str(port), "--include-dashboard=false", "--temp-dir", temp, *common], env)
    address = f"127.0.0.1:{port}"
    try:
        _start(["--address", address, *common], env)
        import ray

        ray.init(address=address, log_to_driver=False, configure_logging=False)
        deadline = time.monotonic() + 120
        while len([n for n in ray.nodes() if n["Alive"]]) < 2:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(ray.nodes())} Ray node(s) came up")
            time.sleep(1)
    except BaseException:
        _teardown(env, temp)
        raise
    _STOPS.append(lambda: _teardown(env, temp))
    yield address
    _stop_cluster()


def _teardown(env, temp) -> None:
    try:
        import ray

        ray.shutdown()
    except Exception:
        pass
    # Stopping takes `ray stop` 15-25 s here (it imports Ray, then waits on each
    # process); nothing after this folder uses Ray, so it runs on in the background.
    ray = Path(sys.executable).with_name("ray")
    _STOPPING.append(subprocess.Popen(
        f"{shlex.quote(str(ray))} stop --force; rm -rf {shlex.quote(temp)}",
        shell=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    ))


@pytest.fixture(scope="module")
def two_hosts():
    """Two Ray nodes in network namespaces of their own, each with its own files
    (two_hosts.py); skipped where `ip netns` cannot be used (not root, no iproute2)."""
    pytest.importorskip("ray", reason="the Ray backend needs the 'cluster' extra")
    import two_hosts as hosts

    reason = hosts.unusable()
    if reason:
        pytest.skip(f"two-host cluster: {reason}")
    _stop_cluster()  # the loopback cluster, if this run started one: two would share 2 cores
    _wait_until_stopped()
    hosts.clear_stale()
    cluster = hosts.start(hosts.base_env())
    try:
        yield cluster
    finally:
        hosts.stop(cluster)
