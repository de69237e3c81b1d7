"""The rules every puzzle follows on hostile input, written once and checked on every
registered puzzle and the template (tests/support/registry.py), at the strictest level
any puzzle's own tests held them to (the assertions are in tests/support/rules.py):

- whatever comes in as an instance -- any JSON-like value, any text through every door
  (`parse`, `load` as the service calls it, the CLI's decoding), any file's bytes,
  nesting 100,000 deep -- comes out as a sound instance (of the puzzle's type, within
  its limits, surviving the JSON round trip) or as a one-line refusal, and an instance
  past the limits is refused as too large (413) through every door;
- whatever comes in as a solution gets a one-line Verdict, never an exception;
- the CLI's output is clean on any files and any text, an SVG that cannot be written is
  refused before the search, standard input that is not text is named, and a budget of
  1e300 is no deadline;
- an option that names a file, folder or machine is `local_only`: taken from the
  command line, refused from a client unless at its default; a seed outside 0..2**31-1
  is refused by every method before it runs.

The rules' assertions are checked too, on output they must call unclean (the last
section). What each puzzle's rules need is drawn from its `Puzzle` object (its catalog, its JSON
forms, its methods and their options), plus the shapes of its field's text formats
(tests/support/field_shapes.py). Each puzzle's own hostile-input tests (oracles, its
own verbs, its regressions) stay in tests/<puzzle>/.
"""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from types import SimpleNamespace

import click.testing
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlelab import cli
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import MAX_SEED, decode_input
from puzzlelab.core.puzzle import Option
from puzzlelab.core.result import Verdict
from support.field_shapes import OVERSIZED, SHAPE_STRINGS, SOLUTION_TEXT, SOUND_INSTANCE, instance_fields, instance_text, seeds
from support.hostile_strategies import ODD_FILES, deep_list, json_text, json_values
from support.registry import NOT_CHEAP, PUZZLES, contract_instances, smallest_instance
from support.rules import assert_clean_cli, assert_cli_refuses, assert_one_line_refusal, assert_one_line_verdict, instance_or_refusal
from support.text_strategies import text

NAMES = list(PUZZLES)
COMMAND = typer.main.get_command(cli.build_app(PUZZLES))  # built once: typer's runner rebuilds it per call
runner = click.testing.CliRunner()
SLOW_OK = [HealthCheck.too_slow, HealthCheck.filter_too_much]

# Words in an option's name that say it names a file, a folder or a machine.
PATH_WORDS = ("checkpoint", "path", "file", "dir", "folder", "backend", "address", "host", "workdir", "output", "save")
# Solutions no puzzle takes, in every shape the CLI's `verify` passes on (JSON or text).
NOT_SOLUTIONS = (None, "not a solution", {}, [], [[1, 2]], 5, "", "[" * 100_000 + "]" * 100_000)


@functools.cache
def instance_values(name: str) -> st.SearchStrategy:
    puzzle = PUZZLES[name]
    strings = tuple(seeds(puzzle)[:40]) + SHAPE_STRINGS.get(name, ())
    return json_values(instance_fields(puzzle), strings)


@functools.cache
def instance_texts(name: str) -> st.SearchStrategy[str]:
    return instance_text(PUZZLES[name])


@functools.cache
def instance_type(name: str) -> type:
    puzzle = PUZZLES[name]
    return type(puzzle.load(smallest_instance(puzzle)))


def assert_sound(name: str, got) -> None:
    """A refusal already checked, or an instance of the puzzle's type, within its
    limits, that survives the JSON round trip with its key."""
    if isinstance(got, InvalidInstance):
        return
    puzzle = PUZZLES[name]
    assert isinstance(got, instance_type(name)), got
    assert SOUND_INSTANCE.get(name, lambda _: True)(got), got
    wire = json.loads(json.dumps(puzzle.format_instance(got)))
    assert puzzle.instance_key(puzzle.parse(wire)) == puzzle.instance_key(got), (got, wire)


# --------------------------------------------------------------------- instances


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=300, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_value_parses_as_a_sound_instance_or_a_one_line_refusal(name, data):
    value = data.draw(instance_values(name))
    assert_sound(name, instance_or_refusal(lambda: PUZZLES[name].parse(value)))


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=300, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_text_through_every_door_is_a_sound_instance_or_a_one_line_refusal(name, data):
    puzzle, spec = PUZZLES[name], data.draw(instance_texts(name))
    for door in (lambda: puzzle.parse(decode_input(spec, "instance")), lambda: puzzle.load(spec, local=False), lambda: puzzle.parse(spec)):
        assert_sound(name, instance_or_refusal(door))


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=150, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_file_loads_as_a_sound_instance_or_a_one_line_refusal(name, data):
    content = data.draw(st.binary(max_size=300) | st.sampled_from(ODD_FILES) | instance_texts(name).map(str.encode))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "instance.txt"
        path.write_bytes(content)
        assert_sound(name, instance_or_refusal(lambda: PUZZLES[name].load(str(path))))


OVERSIZED_CASES = [pytest.param(name, spec, id=f"{name}-{i}") for name in NAMES for i, spec in enumerate(OVERSIZED.get(name, ()))]


@pytest.mark.parametrize(("name", "spec"), OVERSIZED_CASES)
def test_an_instance_past_the_limits_is_too_large_through_every_door(name, spec):
    puzzle = PUZZLES[name]
    for door in (puzzle.parse, lambda s: puzzle.load(s, local=False), puzzle.load):
        with pytest.raises(InvalidInstance) as refused:
            door(spec)
        assert refused.value.status == 413, str(refused.value)
        assert_one_line_refusal(refused.value)


@pytest.mark.parametrize("name", NAMES)
def test_deep_nesting_is_a_one_line_refusal_or_verdict(name):
    puzzle = PUZZLES[name]
    deep, brackets = deep_list(), "[" * 100_000 + "]" * 100_000
    instance = puzzle.load(smallest_instance(puzzle))
    for value in [deep, brackets, *({field: deep} for field in instance_fields(puzzle))]:
        with pytest.raises(InvalidInstance) as refused:
            puzzle.parse(value)
        assert_one_line_refusal(refused.value)
        verdict = puzzle.verify(instance, value)
        assert_one_line_verdict(verdict)
        assert not verdict.ok
    for spec in (brackets, "{" * 100_000):
        with pytest.raises(InvalidInstance) as refused:
            puzzle.load(spec, local=False)
        assert_one_line_refusal(refused.value)


# --------------------------------------------------------------------- solutions


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=100, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_solution_gets_a_one_line_verdict(name, data):
    puzzle = PUZZLES[name]
    anything = st.sampled_from(NOT_SOLUTIONS) | json_values() | text(80) | st.binary(max_size=80).map(lambda b: b.decode("latin-1"))
    solution = data.draw(anything | SOLUTION_TEXT[name] if name in SOLUTION_TEXT else anything)
    for instance_name in contract_instances(puzzle):
        instance = puzzle.load(instance_name)
        verdict = puzzle.verify(instance, solution)
        assert_one_line_verdict(verdict)
        if verdict.ok:  # the same again, as the answer travels (JSON), when it can travel
            travelled = json.loads(json_text(solution))
            again = puzzle.verify(instance, travelled)
            assert again.ok and again.value == verdict.value, (solution, again)


# --------------------------------------------------------------------- the command line


def solution_bytes(name: str) -> st.SearchStrategy[bytes]:
    shaped = json_values().map(lambda value: json_text(value).encode()) | text(120).map(str.encode)
    if name in SOLUTION_TEXT:
        shaped = shaped | SOLUTION_TEXT[name].map(str.encode)
    return st.binary(max_size=120) | shaped


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=40, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_cli_verify_of_any_files_is_clean(name, data):
    """The instance as a file, as inline text and as a catalog name; the solution a file."""
    instance = data.draw(st.binary(max_size=120) | instance_texts(name).map(str.encode))
    oversized = [spec for spec in OVERSIZED.get(name, ()) if isinstance(spec, str)]
    inline = data.draw((instance_texts(name) | st.sampled_from(oversized or ["x"])).filter(lambda s: "\x00" not in s))
    solution = data.draw(solution_bytes(name))
    with tempfile.TemporaryDirectory() as folder:
        instance_file, solution_file = Path(folder) / "instance.txt", Path(folder) / "solution.json"
        instance_file.write_bytes(instance)
        solution_file.write_bytes(solution)
        for given_instance in (str(instance_file), inline, smallest_instance(PUZZLES[name])):
            assert_clean_cli(runner.invoke(COMMAND, [name, "verify", "--", given_instance, str(solution_file)]))


@pytest.mark.parametrize("name", NAMES)
@settings(deadline=None, max_examples=40, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_cli_solve_of_any_text_is_clean(name, data):
    """Any text as the instance, with any method a small instance is answered by
    within a couple of seconds (tests/support/registry.py, NOT_CHEAP)."""
    puzzle = PUZZLES[name]
    spec = data.draw(instance_texts(name).filter(lambda s: "\x00" not in s and s.strip() and not s.startswith("-")))
    method = data.draw(st.sampled_from([m for m in puzzle.methods if (name, m) not in NOT_CHEAP]))
    result = runner.invoke(COMMAND, [name, "solve", spec, "--method", method, "--budget", "0.5", "--no-store", "--quiet"])
    assert_clean_cli(result)


@pytest.mark.parametrize("name", NAMES)
def test_an_instance_too_long_for_a_file_name_is_refused_in_one_line(name):
    """Text of over 255 characters cannot name a file (the system says ENAMETOOLONG when
    asked); it is read as an inline instance and refused or answered, never an internal
    error. Digits too: a puzzle that reads a bare number itself asks the same question."""
    for spec in ("9" * 256, "x" * 300, "1" * 5000):
        assert_clean_cli(runner.invoke(COMMAND, [name, "solve", spec, "--budget", "0.5", "--no-store", "--quiet"]))


@pytest.mark.parametrize("name", NAMES)
def test_an_svg_that_cannot_be_written_is_refused_before_solving(name, tmp_path):
    instance = smallest_instance(PUZZLES[name])
    missing = tmp_path / "missing" / "out.svg"
    assert_cli_refuses(runner.invoke(COMMAND, [name, "solve", instance, "--svg", str(missing), "--no-store"]), "does not exist")
    assert not missing.parent.exists()
    assert_cli_refuses(runner.invoke(COMMAND, [name, "solve", instance, "--svg", str(tmp_path), "--no-store"]), "is a folder")


@pytest.mark.parametrize("name", NAMES)
def test_standard_input_that_is_not_text_is_named(name):
    for data in (b"\xff\xfe\x00", b"ok\x00"):
        assert_cli_refuses(runner.invoke(COMMAND, [name, "solve", "-", "--no-store"], input=data), "standard input")


@pytest.mark.parametrize("name", NAMES)
def test_a_huge_budget_is_no_deadline(name):
    """On the smallest instance, which the default method settles well within the
    default budget: --budget 1e300 gives the same answer."""
    puzzle = PUZZLES[name]
    instance = smallest_instance(puzzle)
    expected = puzzle.solve(puzzle.load(instance), budget=puzzle.default_budget)
    assert expected.status.value in ("optimal", "infeasible"), f"{name} {instance}: pick an instance the default method settles"
    published = puzzle.published(puzzle.instance_key(puzzle.load(instance)))
    if published is not None and published.get("proven"):
        assert expected.value == published["value"], (expected, published)
    result = runner.invoke(COMMAND, [name, "solve", instance, "--budget", "1e300", "--no-store", "--json", "--quiet"])
    assert_clean_cli(result)
    report = json.loads(result.stdout)
    assert (result.exit_code, report["status"], report["value"]) == (0 if expected.verified else 1, expected.status.value, expected.value)


# --------------------------------------------------------------------- options


def other_value(option: Option):
    """A valid value of `option` other than its default."""
    if option.choices:
        return next(c for c in option.choices if c != option.default)
    if option.kind == "bool":
        return not option.default
    low = option.minimum if option.minimum is not None else 0
    if option.kind in ("int", "float"):
        value = (option.default if option.default is not None else low) + 1
        return value if option.maximum is None or value <= option.maximum else option.maximum
    if option.kind == "ints":
        return (int(low) + 1, int(low) + 2)
    return "/tmp/elsewhere/x.json"


def all_options(name: str):
    return [(method, option) for method in PUZZLES[name].methods.values() for option in method.options]


@pytest.mark.parametrize("name", NAMES)
def test_options_naming_a_file_folder_or_machine_are_local_only(name):
    for method, option in all_options(name):
        if any(word in option.name for word in PATH_WORDS):
            assert option.local_only, f"{name} {method.name} --{option.name} names a file or machine: mark it local_only"


@pytest.mark.parametrize("name", NAMES)
def test_local_only_options_are_taken_locally_and_refused_from_a_client(name):
    for method, option in all_options(name):
        if not option.local_only:
            continue
        value = other_value(option)
        assert method.parse_options({option.name: value})[option.name] == option.coerce(value), (method.name, option.name)
        with pytest.raises(InvalidInstance, match="names a file or machine on the server") as refused:
            method.parse_options({option.name: value}, remote=True)
        assert refused.value.field == option.name
        assert_one_line_refusal(refused.value)
        # The page sends every option with its default (backend 'local'): that names
        # nothing the operator did not choose.
        assert method.parse_options({option.name: option.default}, remote=True)[option.name] == option.default


@pytest.mark.parametrize("name", NAMES)
def test_other_options_are_taken_from_a_client_and_unknown_ones_refused(name):
    for method, option in all_options(name):
        if not option.local_only:
            value = other_value(option)
            assert method.parse_options({option.name: value}, remote=True)[option.name] == option.coerce(value), (method.name, option.name)
    for method in PUZZLES[name].methods.values():
        for word in PATH_WORDS:
            if word not in {option.name for option in method.options}:
                with pytest.raises(InvalidInstance, match="no such option") as refused:
                    method.parse_options({word: "/tmp/anywhere.json"}, remote=True)
                assert_one_line_refusal(refused.value)


@pytest.mark.parametrize("name", NAMES)
def test_a_seed_outside_the_shared_range_is_refused_by_every_method(name):
    """Seeds go to numpy's and Python's generators and to CP-SAT's 32-bit one: every
    method takes 0..2**31-1 and refuses the rest, naming the seed, before it runs."""
    puzzle = PUZZLES[name]
    instance = puzzle.load(smallest_instance(puzzle))
    for method in puzzle.methods:
        for seed in (-1, MAX_SEED + 1, 10**20, -(10**20), 10**5000, True, 2.5, None):
            with pytest.raises(InvalidInstance, match="seed: expected") as refused:
                puzzle.solve(instance, method, budget=0.1, seed=seed)
            assert_one_line_refusal(refused.value)


# --------------------------------------------------------------------- the rules themselves


def cli_result(exit_code: int, stdout: str = "", stderr: str = "", exception: BaseException | None = None) -> SimpleNamespace:
    return SimpleNamespace(exit_code=exit_code, output=stdout + stderr, stdout=stdout, stderr=stderr, exception=exception)


@pytest.mark.parametrize(
    "result",
    [
        cli_result(5, stderr="internal error (please report): KeyError: 'x'\n"),
        cli_result(3, stderr="internal error (please report): rejected\n"),
        cli_result(2, stderr="error: one\nerror: two\n"),
        cli_result(2, stderr="error: row 1\n  more of it\n"),
        cli_result(2, stderr="error: " + "9" * 5000 + "\n"),
        cli_result(2, stderr="Usage: puzzlelab coins bfs [OPTIONS] START\nError: No such option: -0\n"),
        cli_result(2, stdout="nothing said\n"),
        cli_result(1, stdout="Traceback (most recent call last):\n"),
        cli_result(0, stderr="error: but exit 0\n"),
        cli_result(1, exception=KeyError("x")),
    ],
)
def test_the_clean_cli_rule_fails_on_unclean_output(result):
    with pytest.raises(AssertionError):
        assert_clean_cli(result)


def test_the_one_line_rules_fail_on_long_or_broken_lines_and_odd_statuses():
    for refusal in (InvalidInstance("a\nb"), InvalidInstance(""), InvalidInstance("x" * 401), InvalidInstance("fine", status=500)):
        with pytest.raises(AssertionError):
            assert_one_line_refusal(refusal)
    for verdict in (Verdict(False, None, "a\nb"), Verdict(False, None, ""), Verdict(True, 1, "x" * 401), "valid"):
        with pytest.raises(AssertionError):
            assert_one_line_verdict(verdict)
    assert_clean_cli(cli_result(2, stderr="Usage: puzzlelab coins bfs [OPTIONS] START\nError: No such option: -0\n"), usage_mistake_ok=True)
