"""Several thousand generated requests against the REST API, in process through
FastAPI's TestClient: the real app -- routes, error handlers, the door's checks -- with
a runner that checks and writes each job but runs none (tests/service/api_fuzz.py has
the strategies and the judge). Prints one line per class of answer; the target is zero
in every failure class:

    tried                     requests sent
    clear errors (4xx)        refused with a documented body and a one-line detail
    accepted (2xx)            answered as documented
    5xx                       a server error
    schema mismatches         a status, content type or body the OpenAPI does not document
    false valid               2xx for a request that must be refused
    false refusals            4xx for a request that must be accepted
    unclear 4xx               a 4xx whose detail is not one line of text
    over the memory bound     requests after which this process held more than --memory-mb
    hangs                     answers slower than api_fuzz.HANG_SECONDS

Run: python benchmarks/bench_fuzz_api.py [--requests 5000] [--memory-mb 1024]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from common import write_json

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "service")]
os.environ.setdefault("PUZZLELAB_PLUGINS", "support.toy_puzzle:Toy")

LINES = [
    ("tried", "tried"),
    ("clear", "clear errors (4xx)"),
    ("ok", "accepted (2xx)"),
    ("5xx", "5xx"),
    ("schema", "schema mismatches"),
    ("false_valid", "false valid"),
    ("false_refusal", "false refusals"),
    ("unclear", "unclear 4xx"),
    ("memory", "over the memory bound"),
    ("hang", "hangs"),
]
FAILURES = ("5xx", "schema", "false_valid", "false_refusal", "unclear", "memory", "hang")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000, help="how many requests to generate")
    parser.add_argument("--memory-mb", type=float, default=1024, help="the most this process may hold (peak RSS)")
    args = parser.parse_args()

    from api_fuzz import DoorOnlyRunner, Judge, describe, requests
    from fastapi.testclient import TestClient
    from hypothesis import HealthCheck, Phase, given, settings

    from puzzlelab.service.app import create_app
    from puzzlelab.service.models import MAX_BUDGET_SECONDS

    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    slowest = [0.0, ""]
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(workers=1, store_path=str(Path(folder) / "records.sqlite"), start_method="fork",
                     max_budget=MAX_BUDGET_SECONDS)  # the bodies draw budgets up to the API's own limit
        app.state.runner = DoorOnlyRunner(app.state.store, 1, start_method="fork", memory_bytes=app.state.runner.memory_bytes,
                                      capacity=app.state.runner.capacity)
        with TestClient(app, raise_server_exceptions=False) as client:
            known = [client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()["id"] for _ in range(3)]
            judge = Judge(client.get("/openapi.json").json())

            @settings(max_examples=args.requests, database=None, deadline=None, phases=[Phase.generate],
                      suppress_health_check=list(HealthCheck))
            @given(request=requests(known))
            def one(request):
                started = time.monotonic()
                kind, what = judge.judge(client, request)
                seconds = time.monotonic() - started
                if seconds > slowest[0]:
                    slowest[:] = [seconds, describe(request)]
                counts["tried"] += 1
                counts[kind] += 1
                if peak_mb() > args.memory_mb:
                    counts["memory"] += 1
                    kind, what = "memory", f"peak {peak_mb():.0f} MB"
                if kind in FAILURES and len(examples.setdefault(kind, [])) < 3:
                    examples[kind].append(f"{what}\n      {describe(request)}")

            started = time.monotonic()
            one()
            elapsed = time.monotonic() - started

    width = max(len(label) for _, label in LINES)
    for key, label in LINES:
        print(f"{label:<{width}}  {counts[key]}")
    print(f"({elapsed:.0f} s, slowest answer {slowest[0]:.2f} s, peak {peak_mb():.0f} MB)")
    for kind, shown in examples.items():
        for example in shown:
            print(f"  {kind}: {example}")
    write_json("fuzz_api", {"benchmark": "fuzz_api", "counts": {key: counts[key] for key, _ in LINES}, "seconds": elapsed,
                            "slowest_seconds": slowest[0], "slowest_request": slowest[1], "examples": examples})
    if any(counts[kind] for kind in FAILURES):
        sys.exit(1)


if __name__ == "__main__":
    main()
