"""A toy puzzle (coin change: fewest coins summing to a target) that exercises the core
contracts -- options, solve-then-verify, CLI verbs, the store -- without any real puzzle.
Its brute-force `dp` method is the oracle for the others."""

from __future__ import annotations

import time

from puzzlelab.core.puzzle import InvalidInstance, Method, Option, Puzzle
from puzzlelab.core.result import Result, Status, Verdict


def _dp(instance, *, budget, progress, seed, slow=0.0):
    coins, target = instance
    if slow:
        while not budget.expired():
            time.sleep(0.01)
    best = [0] + [None] * target
    choice = [0] * (target + 1)
    for t in range(1, target + 1):
        for c in coins:
            if c <= t and best[t - c] is not None and (best[t] is None or best[t - c] + 1 < best[t]):
                best[t], choice[t] = best[t - c] + 1, c
    if best[target] is None:
        return Result(None, None, Status.INFEASIBLE, "dp")
    used, t = [], target
    while t:
        used.append(choice[t])
        t -= choice[t]
    return Result(len(used), used, Status.OPTIMAL, "dp", bound=len(used))


def _greedy(instance, *, budget, progress, seed, largest_first=True):
    coins, target = instance
    used, t = [], target
    for c in sorted(coins, reverse=largest_first):
        while c <= t:
            used.append(c)
            t -= c
    if t:
        return Result(None, None, Status.UNKNOWN, "greedy")
    return Result(len(used), used, Status.FEASIBLE, "greedy")


def _sleepy(instance, *, budget, progress, seed, seconds=30.0):
    """Ignores its budget entirely: only the job runner's termination stops it."""
    time.sleep(seconds)
    return _dp(instance, budget=budget, progress=progress, seed=seed)


def _liar(instance, *, budget, progress, seed):
    coins, target = instance
    return Result(1, [coins[0]], Status.OPTIMAL, "liar")


class Toy(Puzzle):
    name = "toy"
    title = "Toy coin change"
    value_name = "coins"
    sense = "min"
    default_method = "dp"
    default_budget = 5.0
    tour_instance = "small"
    tour_budget = 2.0

    def __init__(self, with_liar: bool = False):
        super().__init__()
        self.add_method(Method("dp", "exact dynamic programme", _dp, (Option("slow", "float", 0.0, "wait until the budget ends"),), exact=True))
        self.add_method(Method("greedy", "largest coin first", _greedy, (Option("largest_first", "bool", True, "order"),)))
        self.add_method(Method("sleepy", "sleeps, deaf to its budget", _sleepy, (Option("seconds", "float", 30.0, "how long"),)))
        if with_liar:
            self.add_method(Method("liar", "a buggy method", _liar))

    def parse(self, obj):
        if isinstance(obj, str):
            parts = obj.replace(",", " ").split()
            try:
                numbers = [int(p) for p in parts]
            except ValueError:
                raise InvalidInstance("toy: expected integers 'target coin coin ...'", "instance") from None
            if len(numbers) < 2:
                raise InvalidInstance("toy: expected a target and at least one coin", "instance")
            obj = {"target": numbers[0], "coins": numbers[1:]}
        if not isinstance(obj, dict) or "coins" not in obj or "target" not in obj:
            raise InvalidInstance("toy: expected {'coins': [...], 'target': n}", "instance")
        return (tuple(obj["coins"]), int(obj["target"]))

    def format_instance(self, instance):
        return {"coins": list(instance[0]), "target": instance[1]}

    def instance_key(self, instance):
        return f"{instance[1]}:{','.join(map(str, instance[0]))}"

    def catalog(self):
        return {"small": "target 11 with coins 1 5 6 9"}

    def catalog_instance(self, name):
        return ((1, 5, 6, 9), 11)

    def verify(self, instance, solution):
        coins, target = instance
        if not isinstance(solution, list) or any(c not in coins for c in solution):
            return Verdict(False, None, "solution must be a list of the instance's coins")
        if sum(solution) != target:
            return Verdict(False, len(solution), f"coins sum to {sum(solution)}, not {target}")
        return Verdict(True, len(solution), "sums to the target")

    def render_svg(self, instance, result):
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"
