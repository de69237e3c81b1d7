"""The one batch driver (core/parallel/driver.py) on the toy puzzle: answers verified on
the calling side against the brute-force oracle and stored, a worker's lie caught even
with a forged verdict, failures reported, a Collector's merge and early stop; and the
dispatch by backend name."""

import subprocess
import sys
import time

import pytest

from puzzlelab.core import parallel
from puzzlelab.core.parallel import Answer, Collector, Task, accept, result_per_task, solve_instance, solve_many
from puzzlelab.core.puzzle import WrongAnswer
from puzzlelab.core.result import Budget, Result, Status, Verdict
from puzzlelab.core.store import Store
from support.toy_puzzle import Toy

TOY = Toy()
INSTANCES = [TOY.parse(text) for text in ("11 1 5 6 9", "6 1 3 4", "7 2 4", "13 1 5 6 9")]


def oracle(instance):
    """Fewest coins by brute force over multisets (the dp method's own oracle)."""
    coins, target = instance
    best = [0] + [None] * target
    for t in range(1, target + 1):
        options = [best[t - c] + 1 for c in coins if c <= t and best[t - c] is not None]
        best[t] = min(options) if options else None
    return best[target]


def solve_toy(instance_json, method):
    """A worker entry point: the driver's worker side on the toy puzzle."""
    return solve_instance(Toy(), instance_json, method, {}, budget=Budget(30))


def lie(instance_json):
    """A worker whose answer is wrong and whose verdict says it is right."""
    coins, target = Toy().parse(instance_json)
    verdict = Verdict(ok=True, value=1, message="trust me").to_dict()
    return dict(Result(1, [coins[0]], Status.OPTIMAL, "liar").to_dict(), verdict=verdict)


def boom(_):
    raise ValueError("no coins today")


def sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def tasks_for(fn, instances, *extra):
    return [Task(fn, (TOY.format_instance(inst), *extra), name=str(i)) for i, inst in enumerate(instances)]


def test_answers_are_verified_here_match_the_oracle_and_are_stored():
    store = Store()
    seen = []
    run = solve_many(TOY, tasks_for(solve_toy, INSTANCES, "dp"), result_per_task(TOY, INSTANCES), store=store, workers=2, on_result=seen.append)
    assert sorted(a.task for a in run.answers) == [0, 1, 2, 3] and not run.failures
    for answer in run.answers:
        instance = INSTANCES[answer.task]
        expected = oracle(instance)
        assert answer.result.value == expected
        if expected is None:  # 7 from coins 2 and 4: proven impossible, nothing to verify or store
            assert answer.result.status is Status.INFEASIBLE and not answer.result.verified
        else:
            assert answer.result.verified and answer.result.verdict.message != "trust me"
    assert seen == run.answers
    stored = {r.instance: r.value for r in store.best("toy")}
    assert stored == {TOY.instance_key(i): oracle(i) for i in INSTANCES if oracle(i) is not None}


def test_a_lying_worker_is_caught_despite_its_verdict_and_nothing_is_stored():
    store = Store()
    with pytest.raises(WrongAnswer, match="rejected"):
        solve_many(TOY, tasks_for(lie, INSTANCES[:1]), result_per_task(TOY, INSTANCES[:1]), store=store, workers=1)
    assert store.best("toy") == []


def test_accept_stores_only_what_the_checker_accepts():
    store = Store()
    instance = INSTANCES[2]
    unsolved = accept(TOY, Answer("7:2,4", instance, Result(None, None, Status.INFEASIBLE, "dp")), store)
    assert not unsolved.verified and unsolved.verdict.message == "no solution to check"
    good = accept(TOY, Answer("6:1,3,4", INSTANCES[1], Result(2, [3, 3], Status.OPTIMAL, "dp", bound=2)), store)
    assert good.verified and [(r.instance, r.value) for r in store.best("toy")] == [("6:1,3,4", 2)]


def test_failures_say_why_and_whether_the_budget_stopped_them():
    failures = []
    tasks = [Task(boom, (1,), name="boom"), Task(sleep_then, (30, None), name="slow")]
    run = solve_many(TOY, tasks, lambda task, value: [], workers=2, budget=Budget(1.0), grace=0.5, on_failure=failures.append)
    by_name = {f.name: f for f in failures}
    assert run.failures == failures and set(by_name) == {"boom", "slow"}
    assert by_name["boom"].reason == "ValueError: no coins today" and not by_name["boom"].stopped
    assert by_name["slow"].stopped and by_name["slow"].reason == "deadline"
    assert run.seconds < 20


class FirstAnswerWins(Collector):
    """Merges over tasks: keeps the first answer, then settles (the rest are stopped);
    at the end, owes an answer for the instance no task answered."""

    def __init__(self):
        self.answered = []

    def finished(self, task, value):
        if value is None or self.answered:
            return []
        self.answered.append(task)
        return [Answer(TOY.instance_key(INSTANCES[1]), INSTANCES[1], Result.from_dict(value), task)]

    def settled(self):
        return bool(self.answered)

    def leftover(self):
        return [Answer("7:2,4", INSTANCES[2], Result(None, None, Status.INFEASIBLE, "dp"))]


def test_a_collector_merges_settles_early_and_pays_what_it_owes():
    tasks = [Task(solve_toy, (TOY.format_instance(INSTANCES[1]), "dp"), name="quick"), Task(sleep_then, (60, None), name="slow")]
    started = time.monotonic()
    run = solve_many(TOY, tasks, FirstAnswerWins(), workers=2)
    assert time.monotonic() - started < 30
    assert [a.result.value for a in run.answers] == [2, None]
    assert run.answers[0].result.verified
    assert [(f.name, f.error) for f in run.failures] == [("slow", "cancelled")]


def test_dispatch_by_backend_name():
    with pytest.raises(ValueError, match="backend: expected one of local, ray, got 'mpi'"):
        parallel.run_tasks([Task(sleep_then, (0, 1))], backend="mpi")
    assert parallel.BACKENDS == ("local", "ray")


def test_missing_ray_names_the_cluster_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RuntimeError, match=r"'cluster' extra: pip install 'puzzlelab\[cluster\]'"):
        parallel.map(sleep_then, [(0, 1)], backend="ray")


def test_importing_the_package_imports_no_ray():
    code = "import sys, puzzlelab.core.parallel as p; p.run_tasks; print('ray' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
