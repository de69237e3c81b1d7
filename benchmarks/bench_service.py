"""The workbench's overhead: time to answer a small job through `puzzlelab serve`
(HTTP, queue, worker process, re-verification, records store) beside solving the same
instance in-process, as a ratio; then 50 jobs posted at once.

Run: python benchmarks/bench_service.py   (uses the toy puzzle of tests/ as plugin)
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from common import write_json

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answer(http: httpx.Client, instance: str) -> float:
    started = time.monotonic()
    job = http.post("/api/jobs", json={"puzzle": "toy", "instance": instance}).json()
    with http.stream("GET", f"/api/jobs/{job['id']}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: done"):
                break
    return time.monotonic() - started


def main() -> None:
    from support.toy_puzzle import Toy

    toy = Toy()
    direct = []
    for i in range(20):
        started = time.monotonic()
        toy.solve(toy.load(f"{30 + i} 1 5 6 9"))
        direct.append(time.monotonic() - started)

    port = free_port()
    env = dict(os.environ, PUZZLELAB_PLUGINS="support.toy_puzzle:Toy", PYTHONPATH=str(ROOT / "tests"),
               PUZZLELAB_DB=str(Path(tempfile.mkdtemp()) / "bench.sqlite"))
    server = subprocess.Popen([sys.executable, "-m", "puzzlelab.cli", "serve", "--port", str(port), "--workers", "2"], env=env)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
            for _ in range(600):
                try:
                    http.get("/api/health")
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            answer(http, "11 1 5 6 9")  # warm the workers
            sequential = [answer(http, f"{30 + i} 1 5 6 9") for i in range(20)]

            def one(i: int) -> float:
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=180) as h:
                    return answer(h, f"{100 + i} 1 5 6 9")

            started = time.monotonic()
            with ThreadPoolExecutor(50) as pool:
                burst = list(pool.map(one, range(50)))
            burst_total = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(30)

    row = {
        "direct_median_s": statistics.median(direct),
        "service_median_s": statistics.median(sequential),
        "overhead_ratio": statistics.median(sequential) / statistics.median(direct),
        "burst50_median_s": statistics.median(burst),
        "burst50_total_s": burst_total,
    }
    print(f"small job: in-process {row['direct_median_s'] * 1e3:.2f} ms, through the service {row['service_median_s'] * 1e3:.1f} ms "
          f"(median of 20; ratio {row['overhead_ratio']:.0f}x)")
    print(f"50 jobs at once on 2 workers: all answered in {burst_total:.2f} s, median time to answer {row['burst50_median_s']:.2f} s")
    write_json("service", {"benchmark": "service", **row})


if __name__ == "__main__":
    main()
