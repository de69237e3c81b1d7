"""The toy puzzle of the tests: the template puzzle (examples/coin_change) with the knobs
the tests need, under the name "toy".

It exercises the core contracts -- options, solve-then-verify, CLI verbs, the store, the
service's job runner -- without any real puzzle, and since it is the template puzzle
underneath, the whole suite keeps the template honest. Its `dp` (the template's exact
method) is the oracle for the others. Test-only additions: `dp --slow` (wait until the
budget ends), `sleepy` (deaf to its budget: only the job runner's termination stops it)
and, with `with_liar`, `liar` (a buggy method whose answers the checker rejects).

The service tests register it with PUZZLELAB_PLUGINS=support.toy_puzzle:Toy, as a user would
register a puzzle of their own; the template is put on sys.path here so that worker
processes, which import this module afresh, find it too.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

from coin_change.dp import run_dp  # noqa: E402  (the template is on sys.path only now)
from coin_change.methods import METHODS  # noqa: E402
from coin_change.puzzle import CoinChange  # noqa: E402

from puzzlelab.core.puzzle import Method, Option  # noqa: E402
from puzzlelab.core.result import Progress, Result, Status  # noqa: E402

TEMPLATE_METHODS = {method.name: method for method in METHODS}


def _dp(instance, *, budget, progress, seed, slow=0.0):
    """The template's exact `dp`; with `slow`, first wait until the budget ends,
    reporting progress about every `slow` seconds (a long run's figures in small)."""
    if slow:
        started, ticks, reported = time.monotonic(), 0, 0.0
        while not budget.expired():
            time.sleep(0.01)
            elapsed = time.monotonic() - started
            if elapsed - reported >= slow:
                ticks, reported = ticks + 1, elapsed
                progress(Progress(phase=f"wait {ticks // 3}", done=ticks, best=100 - ticks, stats={"ticks": f"{ticks * 1000:,}", "note": "x"}))
    return run_dp(instance, budget=budget, progress=progress, seed=seed)


def _sleepy(instance, *, budget, progress, seed, seconds=30.0):
    """Ignores its budget entirely: only the job runner's termination stops it."""
    time.sleep(seconds)
    return run_dp(instance, budget=budget, progress=progress, seed=seed)


def _liar(instance, *, budget, progress, seed):
    coins, target = instance
    return Result(1, [coins[0]], Status.OPTIMAL, "liar")


class Toy(CoinChange):
    name = "toy"
    title = "Toy coin change"
    tour_instance = "small"
    tour_budget = 2.0

    def __init__(self, with_liar: bool = False):
        super().__init__()
        self.methods.clear()
        self.add_method(Method("dp", "exact dynamic programme", _dp, (Option("slow", "float", 0.0, "wait until the budget ends"),), exact=True))
        self.add_method(TEMPLATE_METHODS["greedy"])
        self.add_method(Method("sleepy", "sleeps, deaf to its budget", _sleepy, (Option("seconds", "float", 30.0, "how long"),)))
        if with_liar:
            self.add_method(Method("liar", "a buggy method", _liar))

    def catalog(self):
        return {"small": "target 11 with coins 1 5 6 9"}

    def catalog_instance(self, name):
        return self.parse({"coins": [1, 5, 6, 9], "target": 11})
