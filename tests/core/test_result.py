"""Result JSON round trip, Budget semantics, and kernels polling a Budget."""

import json
import math
import pickle
import threading
import time

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.result import NODES, Budget, Progress, Result, Status, Verdict, should_stop, throttle
from support.text_strategies import text

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(deadline=None)  # a loaded machine stalls single examples; the property is what is tested
@given(
    value=st.integers(-1000, 10**9) | st.none(),
    solution=json_values,
    status=st.sampled_from(list(Status)),
    stats=st.dictionaries(text(max_size=8), json_values, max_size=4),
    ok=st.booleans(),
)
def test_result_json_round_trip(value, solution, status, stats, ok):
    result = Result(value, solution, status, "m", bound=value, stats=stats, verdict=Verdict(ok, value, "msg", {"a": 1}))
    again = Result.from_json(result.to_json())
    assert again == result
    assert again.verified == ok


@settings(deadline=None)
@given(ok=st.booleans(), value=st.integers(-1000, 10**9) | st.none(), unchecked=text(max_size=12), figures=st.dictionaries(text(max_size=5), json_values, max_size=3))
def test_verdict_says_valid_invalid_or_unchecked_and_round_trips(ok, value, unchecked, figures):
    verdict = Verdict(ok, value, "msg", figures, unchecked=unchecked)
    # ok only when nothing is left unchecked: a checker cannot call valid what it did not check
    assert verdict.ok == (ok and not unchecked)
    assert verdict.word == ("valid" if verdict.ok else ("UNCHECKED" if unchecked else "INVALID"))
    assert verdict.rejected == (not verdict.ok and not unchecked)
    again = Verdict.from_dict(json.loads(json.dumps(verdict.to_dict())))
    assert again == verdict and again.word == verdict.word
    result = Result(value, [1], "feasible", "m", verdict=verdict)
    assert Result.from_json(result.to_json()).verified == verdict.ok


def test_verdict_from_an_older_dict_without_unchecked():
    old = {"ok": True, "value": 3, "message": "fine", "figures": {}}
    assert Verdict.from_dict(old) == Verdict(True, 3, "fine") and Verdict.from_dict(old).word == "valid"
    assert Verdict.from_dict({"ok": True, "unchecked": "the total"}).word == "UNCHECKED"


def test_result_json_accepts_numpy_values():
    result = Result(np.int64(7), np.arange(3), "optimal", "m", stats={"x": np.float64(1.5)})
    again = Result.from_json(result.to_json())
    assert again.value == 7 and again.solution == [0, 1, 2] and again.stats["x"] == 1.5


def test_budget_deadline_cancel_and_sub():
    b = Budget(0.2)
    assert b.limited and not b.expired() and 0 < b.seconds_left() <= 0.2
    sub = b.sub(fraction=0.5)
    assert sub.seconds_left() <= 0.1 + 1e-3
    b.cancel()
    assert b.expired() and sub.expired() and sub.cancelled
    unlimited = Budget()
    assert not unlimited.limited and math.isinf(unlimited.seconds_left()) and not unlimited.expired()
    time.sleep(0.01)
    assert Budget(0.0).expired()


def test_budget_pickles_as_time_left():
    b = Budget(30)
    again = pickle.loads(pickle.dumps(b))
    assert 29 < again.seconds_left() <= 30
    b.cancel()
    assert pickle.loads(pickle.dumps(b)).cancelled
    assert not pickle.loads(pickle.dumps(Budget())).limited


@numba.njit(nogil=True, cache=True)
def _spin(control):
    n = 0
    while True:
        n += 1
        if n % 100_000 == 0:
            control[NODES] = n
            if should_stop(control):
                return n


def test_kernel_stops_at_deadline():
    b = Budget(60)
    _spin(Budget(0.0).control)  # compile first
    b = Budget(0.3)
    started = time.monotonic()
    nodes = _spin(b.control)
    elapsed = time.monotonic() - started
    assert 0.25 <= elapsed < 2.0
    assert nodes > 0 and b.nodes == nodes


def test_kernel_stops_when_cancelled_from_another_thread():
    _spin(Budget(0.0).control)
    b = Budget(60)
    threading.Timer(0.2, b.cancel).start()
    started = time.monotonic()
    _spin(b.control)
    assert time.monotonic() - started < 5.0


def test_progress_fraction_and_throttle():
    seen = []
    report = throttle(seen.append, every_seconds=10)
    for i in range(5):
        report(Progress(phase="p", done=i, total=4))
    assert len(seen) == 1
    assert Progress(done=2, total=4).fraction == 0.5 and Progress(done=9, total=4).fraction == 1.0
    assert Progress().fraction is None and Progress(done=1, total=4).to_dict()["fraction"] == 0.25
