"""A load test on loopback: 50 jobs posted at once to a real `puzzlelab serve`. Bounded
in count (50) and time (180 s); every job must end and be reported, no worker process
may outlive the service, and the median time to answer is printed. About 36 s (server
start included), so it is `slow`: `pytest -m slow tests/service/test_service_load.py`."""

import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

JOBS = 50


@pytest.mark.slow
def test_fifty_jobs_at_once(server, capsys):
    def post(i: int):
        started = time.monotonic()
        with httpx.Client(base_url=server, timeout=60) as http:
            response = http.post("/api/jobs", json={"puzzle": "toy", "instance": f"{20 + i} 1 5 6 9", "budget": 30})
            assert response.status_code == 202, response.text
            job_id = response.json()["id"]
            deadline = started + 180
            while time.monotonic() < deadline:
                job = http.get(f"/api/jobs/{job_id}").json()
                if job["state"] in ("done", "failed", "cancelled", "interrupted"):
                    return job, time.monotonic() - started
                time.sleep(0.5)  # fifty clients at 2 Hz; a real client would follow /events
        return job, None

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        results = list(pool.map(post, range(JOBS)))
    elapsed = time.monotonic() - started
    assert len(results) == JOBS
    unfinished = [job["id"] for job, seconds in results if seconds is None]
    assert not unfinished, f"jobs still not reported after the time bound: {unfinished}"
    assert all(job["state"] == "done" and job["result"]["verified"] for job, _ in results)
    pids = {job["worker_pid"] for job, _ in results}
    assert None not in pids and len(pids) <= 2  # two workers served all fifty
    latencies = [seconds for _, seconds in results]
    with capsys.disabled():
        print(f"\n  load: {JOBS} jobs in {elapsed:.1f} s; time to answer median {statistics.median(latencies):.2f} s, "
              f"max {max(latencies):.2f} s, with 2 workers")
    with httpx.Client(base_url=server, timeout=30) as http:
        records = http.get("/api/records", params={"puzzle": "toy"}).json()
    assert len(records) == JOBS

    # The workers belong to the service: stopping it must leave none behind.
    server.process.terminate()
    server.process.wait(30)
    deadline = time.monotonic() + 20
    alive = set(pids)
    while alive and time.monotonic() < deadline:
        for pid in list(alive):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                alive.discard(pid)
        time.sleep(0.2)
    assert not alive, f"worker processes left behind: {alive}"
