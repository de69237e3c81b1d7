"""A bounded flood of a `puzzlelab serve` on loopback: how it answers when clients ask
for more than it takes. A server on 127.0.0.1 with a temporary store and a short queue
(`--max-queued`); a few threads send a bounded number of mixed requests: health, the
jobs list, the page and a script of it, and small job submits, far more of them than
the queue takes. Prints the requests, the error rate (without the 503s a full queue
answers, counted apart), p50/p99 latency per kind, and the server's memory (RSS)
before, after the flood, and once the queue has drained.

Run: python benchmarks/bench_service_flood.py [--requests 3000] [--threads 8]
(uses the toy puzzle of tests/ as plugin; only loopback addresses)
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from common import write_json

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
KINDS = {"health": 0.3, "list": 0.25, "submit": 0.3, "page": 0.15}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    """Resident memory of one process, in kB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def one_request(http: httpx.Client, kind: str, rng: random.Random) -> int:
    if kind == "health":
        return http.get("/api/health").status_code
    if kind == "list":
        return http.get("/api/jobs", params={"limit": 50}).status_code
    if kind == "page":
        return http.get(rng.choice(["/", "/static/app.js"])).status_code
    body = {"puzzle": "toy", "instance": f"{rng.randint(20, 400)} 1 5 6 9", "method": "dp", "options": {"slow": 0.1}, "budget": 0.3}
    return http.post("/api/jobs", json=body).status_code


def flood(base: str, requests: int, threads: int, seed: int) -> list[tuple[str, int, float]]:
    """(kind, status or 0 for a transport error, seconds) of each request."""
    shares = [requests // threads + (i < requests % threads) for i in range(threads)]
    done: list[tuple[str, int, float]] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        rng = random.Random(seed + index)
        kinds, weights = zip(*KINDS.items())
        with httpx.Client(base_url=base, timeout=30) as http:
            for _ in range(shares[index]):
                kind = rng.choices(kinds, weights)[0]
                started = time.perf_counter()
                try:
                    status = one_request(http, kind, rng)
                except httpx.HTTPError:
                    status = 0
                with lock:
                    done.append((kind, status, time.perf_counter() - started))

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(worker, range(threads)))
    return done


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def wait_until_up(http: httpx.Client, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and server.poll() is None:
        try:
            http.get("/api/health")
            return
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def drain(http: httpx.Client, seconds: float = 300) -> dict:
    deadline = time.monotonic() + seconds
    health = http.get("/api/health").json()
    while (health["queued"] or health["running"]) and time.monotonic() < deadline:
        time.sleep(0.5)
        health = http.get("/api/health").json()
    return health


def summary(done: list[tuple[str, int, float]]) -> dict:
    statuses = Counter(status for _, status, _ in done)
    full = sum(1 for kind, status, _ in done if kind == "submit" and status == 503)
    errors = sum(1 for kind, status, _ in done if not (200 <= status < 300) and not (kind == "submit" and status == 503))
    latency = defaultdict(list)
    for kind, _, seconds in done:
        latency[kind].append(seconds)
        latency["all"].append(seconds)
    return {
        "requests": len(done),
        "statuses": dict(sorted(statuses.items())),
        "queue_full_503": full,
        "accepted_jobs": sum(1 for kind, status, _ in done if kind == "submit" and status == 202),
        "errors": errors,
        "error_rate": errors / max(1, len(done)),
        "latency_ms": {k: {"p50": 1000 * percentile(v, 0.5), "p99": 1000 * percentile(v, 0.99), "n": len(v)} for k, v in latency.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000, help="requests in all (bounded)")
    parser.add_argument("--threads", type=int, default=8, help="client threads")
    parser.add_argument("--workers", type=int, default=2, help="the server's --workers")
    parser.add_argument("--max-queued", type=int, default=16, help="the server's --max-queued")
    parser.add_argument("--finished-kept", type=int, default=100, help="the server's --finished-kept")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 1 <= args.requests <= 100_000 or not 1 <= args.threads <= 64:
        raise SystemExit("--requests: 1..100000, --threads: 1..64")

    port = free_port()
    base = f"http://{HOST}:{port}"
    env = dict(os.environ, PUZZLELAB_PLUGINS="support.toy_puzzle:Toy", PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), str(ROOT / "src")]),
               PUZZLELAB_DB=str(Path(tempfile.mkdtemp(prefix="flood-")) / "flood.sqlite"))
    command = [sys.executable, "-m", "puzzlelab.cli", "serve", "--host", HOST, "--port", str(port), "--workers", str(args.workers),
               "--max-queued", str(args.max_queued), "--finished-kept", str(args.finished_kept)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            wait_until_up(http, server)
            flood(base, 200, 2, args.seed + 1000)  # warm-up: workers started, every route imported once
            drain(http)
            before = rss_kb(server.pid)
            started = time.monotonic()
            done = flood(base, args.requests, args.threads, args.seed)
            seconds = time.monotonic() - started
            after = rss_kb(server.pid)
            health = drain(http)
            drained = rss_kb(server.pid)
    finally:
        server.terminate()
        server.wait(30)

    row = summary(done)
    row.update(seconds=round(seconds, 2), rss_kb={"before": before, "after_flood": after, "after_drain": drained},
               jobs_in_memory=health["jobs_in_memory"], server=" ".join(command[3:]), threads=args.threads)
    print(f"flood of {base}: {row['requests']} requests from {args.threads} threads in {seconds:.1f} s "
          f"(server: {' '.join(command[3:])})")
    print(f"  statuses {row['statuses']}")
    print(f"  queue full (503 + Retry-After, expected): {row['queue_full_503']}; jobs accepted: {row['accepted_jobs']}")
    print(f"  errors (other than those 503s): {row['errors']} = {100 * row['error_rate']:.2f} %")
    for kind, figures in row["latency_ms"].items():
        print(f"  {kind:<7} n={figures['n']:<5} p50 {figures['p50']:7.1f} ms   p99 {figures['p99']:7.1f} ms")
    print(f"  server RSS: {before / 1024:.1f} MB before, {after / 1024:.1f} MB after the flood, {drained / 1024:.1f} MB drained "
          f"({health['jobs_in_memory']} jobs in memory)")
    write_json("service_flood", row)


if __name__ == "__main__":
    main()
