"""The Puzzle contract (docs/architecture.md, "Contracts"), checked on every registered puzzle and
on the template puzzle of `examples/coin_change`, through the public API only (the
`Puzzle` object, `Method`, `Result`), so it holds whatever the modules behind it are
called.

For each puzzle: it is registered; its methods resolve and describe themselves; bad
input is refused with `InvalidInstance`; every catalog name loads and survives the JSON
round trip (`format_instance` -> JSON -> `parse` gives the same `instance_key`, and the
key loads again); and on the smallest catalog instance and the tour instance, every
cheap method answers within a short budget, the independent checker agrees with the
value it claims, methods and published figures do not contradict one another, the
Result survives JSON, and the picture is an SVG document.

"Cheap" is every method except those listed in NOT_CHEAP (tests/support/registry.py)
with the reason: a method
that cannot answer a small instance within a couple of seconds, or that ignores its
budget, has to say so here. A cheap method may return no answer within the budget, as
long as its status says so (`unknown`, or `infeasible` when proven).
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Result, Status
from puzzlelab.puzzles import REGISTRY
from support.registry import BUILT_IN, EXAMPLES, NOT_CHEAP, PUZZLES, ROOT, TEMPLATE, cheap_methods, contract_instances, spread
from support.rules import assert_one_line_refusal, assert_one_line_verdict

BUDGET = 2.0  # seconds per (instance, method)

# Inputs no puzzle accepts as an instance, in every shape `Puzzle.load` passes on.
NOT_INSTANCES = ("", "certainly not an instance", {}, {"unknown field": 1}, [], [[]], -1, 10**9, 2.5)
# ... and as a solution, in every shape the CLI's `verify` passes on (JSON or text).
NOT_SOLUTIONS = (None, "not a solution", {}, [], [[1, 2]], 5)

SVG = "{http://www.w3.org/2000/svg}svg"


CASES = [
    pytest.param(name, instance, method, id=f"{name}-{instance}-{method}")
    for name, puzzle in PUZZLES.items()
    for instance in contract_instances(puzzle)
    for method in cheap_methods(puzzle)
]


@functools.cache
def solved(name: str, instance_name: str, method: str) -> Result:
    """One solve per (puzzle, instance, method), shared by the tests that look at it."""
    puzzle = PUZZLES[name]
    return puzzle.solve(puzzle.load(instance_name), method, budget=BUDGET)


# --------------------------------------------------------------------- registration


def test_the_five_puzzles_are_registered():
    """The registry skips a puzzle package that is absent from the checkout: make sure
    none is missing."""
    missing = [name for name in BUILT_IN if name not in REGISTRY]
    assert not missing, f"not registered: {missing}"


def test_not_cheap_lists_only_real_methods():
    """A NOT_CHEAP entry whose method was renamed or removed would excuse nothing."""
    for puzzle_name, method in NOT_CHEAP:
        if puzzle_name in PUZZLES:
            assert method in PUZZLES[puzzle_name].methods, (puzzle_name, method)


def test_the_template_registers_through_puzzlelab_plugins(tmp_path):
    """As a user registers a puzzle of their own: PUZZLELAB_PLUGINS=module:attribute,
    then the CLI's contract verbs answer for it (a fresh process, as a user runs it)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(EXAMPLES), str(ROOT / "src"), env.get("PYTHONPATH", "")]))
    env["PUZZLELAB_PLUGINS"] = "coin_change:PUZZLE"
    env["PUZZLELAB_DB"] = str(tmp_path / "records.sqlite")
    command = [sys.executable, "-c", "from puzzlelab.cli import main; main()", "coin_change", "solve", "small", "--method", "search", "--json"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    answer = (report["puzzle"], report["instance"], report["value"], report["status"], report["verified"])
    assert answer == ("coin_change", "11:1,5,6,9", 2, "optimal", True)


# --------------------------------------------------------------------- per puzzle


@pytest.mark.parametrize("name", list(PUZZLES))
def test_methods_resolve_and_describe_themselves(name):
    puzzle = PUZZLES[name]
    assert puzzle.name == name and puzzle.title and puzzle.value_name
    assert puzzle.sense in ("min", "max", "exact")
    assert puzzle.methods and puzzle.default_method in puzzle.methods
    for method_name, method in puzzle.methods.items():
        assert method.name == method_name and method.summary, method_name
        assert callable(method.function), method_name
        assert method.parse_options({}) == {o.name: o.default for o in method.options}, method_name
    description = json.loads(json.dumps(puzzle.describe()))
    assert [m["name"] for m in description["methods"]] == list(puzzle.methods)


@pytest.mark.parametrize("name", [n for n in PUZZLES if n in BUILT_IN or n == TEMPLATE.name])
def test_methods_are_declared_lazily(name):
    """One way to declare a method (`<puzzle>/methods.py`): the run function as a
    "module:function" reference, so loading the registry imports no solver."""
    eager = [m.name for m in PUZZLES[name].methods.values() if not isinstance(m.run, str)]
    assert not eager, f"{name}: methods given as functions, not 'module:function' references: {eager}"


@pytest.mark.parametrize("name", list(PUZZLES))
def test_bad_input_is_refused_with_a_message(name):
    puzzle = PUZZLES[name]
    for obj in NOT_INSTANCES:
        with pytest.raises(InvalidInstance) as refused:
            puzzle.parse(obj)
        assert_one_line_refusal(refused.value)
    with pytest.raises(InvalidInstance, match="not a catalog name") as refused:
        puzzle.load("certainly not an instance")
    assert_one_line_refusal(refused.value)
    instance = puzzle.load(puzzle.tour_instance)
    for obj in NOT_SOLUTIONS:
        verdict = puzzle.verify(instance, obj)  # a checker answers with a Verdict, never raises
        assert_one_line_verdict(verdict)
        assert not verdict.ok, (name, obj, verdict)


@pytest.mark.parametrize("name", list(PUZZLES))
def test_catalog_loads_and_round_trips_through_json(name):
    puzzle = PUZZLES[name]
    catalog = puzzle.catalog()
    assert catalog and puzzle.tour_instance in catalog
    keys: dict[str, str] = {}
    for entry, description in catalog.items():
        assert isinstance(description, str) and description, entry
        instance = puzzle.catalog_instance(entry)
        key = puzzle.instance_key(instance)
        assert isinstance(key, str) and key, entry
        assert keys.setdefault(key, entry) == entry, f"{entry} and {keys[key]} have the same key {key!r}"
        wire = json.loads(json.dumps(puzzle.format_instance(instance)))
        again = puzzle.parse(wire)
        assert puzzle.instance_key(again) == key, entry
        assert puzzle.format_instance(again) == wire, entry
    # The way users name instances (`load`: what the CLI and the service call), on a
    # spread of the catalog (`load` looks the name up in the whole catalog each time).
    for entry in spread(list(catalog), 40):
        key = puzzle.instance_key(puzzle.load(entry))
        assert keys[key] == entry
        assert puzzle.instance_key(puzzle.load(key)) == key, f"{entry}: its key {key!r} does not load again"


# --------------------------------------------------------------------- solving


@pytest.mark.parametrize(("name", "instance_name", "method"), CASES)
def test_cheap_method_answers_and_the_checker_agrees(name, instance_name, method):
    puzzle = PUZZLES[name]
    instance = puzzle.load(instance_name)
    result = solved(name, instance_name, method)
    assert isinstance(result, Result) and isinstance(result.status, Status)
    if result.solution is None:
        # No answer within the budget is allowed, if the status says so.
        assert result.status in (Status.UNKNOWN, Status.INFEASIBLE), result
        assert not result.verified
    else:
        assert result.status in (Status.OPTIMAL, Status.FEASIBLE), result.status
        assert result.verified and result.verdict.value == result.value, result.verdict
        # The checker again, on the solution as it travels (JSON), as the store and the
        # service see it: same verdict, same value.
        travelled = json.loads(json.dumps(result.solution))
        verdict = puzzle.verify(instance, travelled)
        assert verdict.ok and verdict.value == result.value, verdict
    if result.status is Status.OPTIMAL and result.bound is not None:
        assert result.bound == result.value, result
    if result.status is Status.FEASIBLE and result.bound is not None and puzzle.sense != "exact":
        assert (result.bound <= result.value) if puzzle.sense == "min" else (result.bound >= result.value), result


@pytest.mark.parametrize(("name", "instance_name", "method"), CASES)
def test_result_round_trips_through_json_and_draws(name, instance_name, method):
    puzzle = PUZZLES[name]
    instance = puzzle.load(instance_name)
    result = solved(name, instance_name, method)
    text = result.to_json()
    back = Result.from_json(text)
    assert back.to_dict() == json.loads(text)
    assert (back.value, back.status, back.method, back.verified) == (result.value, result.status, result.method, result.verified)
    report = json.loads(json.dumps(puzzle.report(instance, result), default=str))
    for field in ("puzzle", "instance", "value", "status", "bound", "method", "solution", "stats", "verified"):
        assert field in report, field
    assert report["instance"] == puzzle.instance_key(instance) and "seconds" in report["stats"]
    for drawn in (result, None):
        svg = puzzle.render_svg(instance, drawn)
        assert isinstance(svg, str) and svg.lstrip().startswith("<svg"), svg[:80]
        assert ElementTree.fromstring(svg).tag == SVG


@pytest.mark.parametrize("name", list(PUZZLES))
def test_methods_and_published_figures_agree(name):
    """Every proven value on an instance is the same, no answer beats a proven one, and
    none contradicts the published figure."""
    puzzle = PUZZLES[name]
    better = {"min": lambda a, b: a < b, "max": lambda a, b: a > b}.get(puzzle.sense)
    for instance_name in contract_instances(puzzle):
        key = puzzle.instance_key(puzzle.load(instance_name))
        results = {method: solved(name, instance_name, method) for method in cheap_methods(puzzle)}
        published = puzzle.published(key)
        proven = {m: r.value for m, r in results.items() if r.status is Status.OPTIMAL}
        if published is not None and published.get("proven"):
            proven["published"] = published["value"]
        assert len(set(proven.values())) <= 1, f"{name} {instance_name}: proven values differ: {proven}"
        if 0 < len(proven) and better is not None:
            optimum = next(iter(proven.values()))
            for method, result in results.items():
                if result.value is not None:
                    assert not better(result.value, optimum), f"{name} {instance_name}: {method} beats the optimum {optimum}"
        infeasible = [m for m, r in results.items() if r.status is Status.INFEASIBLE]
        assert not (infeasible and proven), f"{name} {instance_name}: {infeasible} say infeasible, {proven} say otherwise"


# --------------------------------------------------------------------- the template


def test_template_catalog_figures_hold():
    """data/known.tsv's optima, checked by the exact methods (and greedy never beats them)."""
    for entry in TEMPLATE.catalog():
        instance = TEMPLATE.load(entry)
        published = TEMPLATE.published(TEMPLATE.instance_key(instance))
        for method in ("dp", "search"):
            result = TEMPLATE.solve(instance, method, budget=BUDGET)
            if published is None:
                assert result.status is Status.INFEASIBLE, (entry, method, result)
            else:
                assert (result.value, result.status) == (published["value"], Status.OPTIMAL), (entry, method)
        greedy = TEMPLATE.solve(instance, "greedy")
        assert greedy.value is None or published is None or greedy.value >= published["value"], entry


def test_template_methods_agree_with_the_oracle():
    """`search` (the numba kernel) and `greedy` against `dp` on 300 random instances."""
    rng = random.Random(21)
    for _ in range(300):
        coins = sorted(set(rng.sample(range(1, 30), rng.randint(1, 4))))
        instance = TEMPLATE.parse({"coins": coins, "target": rng.randint(0, 120)})
        exact = TEMPLATE.solve(instance, "dp")
        search = TEMPLATE.solve(instance, "search", from_greedy=rng.random() < 0.5)
        assert (search.value, search.status) == (exact.value, exact.status), instance
        greedy = TEMPLATE.solve(instance, "greedy")
        assert greedy.value is None or (exact.value is not None and greedy.value >= exact.value), instance
