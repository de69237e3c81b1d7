"""Waiting for a service job in the tests: poll `GET /api/jobs/{id}` until its state is
one of `states` (by default a final one), or fail naming the state it is stuck in."""

from __future__ import annotations

import time

FINAL_STATES = ("done", "failed", "cancelled", "interrupted")


def wait_for(client, job_id, states=FINAL_STATES, timeout=60):
    deadline = time.monotonic() + timeout
    job = {"state": "unknown"}
    while time.monotonic() < deadline:
        job = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] in states:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} still {job['state']} after {timeout} s")
