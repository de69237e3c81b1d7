"""Hostile input for the hexagon puzzle, beyond the rules every puzzle follows
(tests/test_contract_hostile.py): a grid given as an instance is kept exactly when it is
well formed, and a Verdict that says valid is confirmed by an oracle written here (its
own geometry, its own reading of the rule and the score), on any JSON or text and on
grids one edit away from valid; a cell past 7 is refused at once (a cell of 10^9 made
the rule check count to it); a beam that cannot fit in memory is refused with the
figure; the own verbs (score, count, table, batch, prove) answer clean errors; a
checkpoint that is not the proof's own is refused and left as it is."""

from __future__ import annotations

import json
import random
import re
import tempfile
import time
import tracemalloc
from pathlib import Path

import click.testing
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlelab import cli
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import decode_input
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon import PUZZLE
from puzzlelab.puzzles.hexagon.beam.search import beam_bytes, require_beam_memory
from puzzlelab.puzzles.hexagon.model import HexInstance
from puzzlelab.puzzles.hexagon.proof.cube_checkpoint import Checkpoint
from puzzlelab.puzzles.hexagon.verify import given_grid, rule_violation
from support.field_shapes import SOLUTION_TEXT
from support.hostile_strategies import deep_list, json_values
from support.rules import assert_clean_cli, assert_cli_refuses, assert_one_line_verdict, instance_or_refusal
from support.text_strategies import text

# The click command typer builds, built once (typer's runner rebuilds it every call).
COMMAND = typer.main.get_command(cli.app)
fast = click.testing.CliRunner()

# ------------------------------------------------------------------ the oracle


def oracle_neighbours(n: int) -> list[list[int]]:
    """Cells row by row (row r has n + min(r, 2n-2-r) cells) in cube coordinates
    (x, y, z), x + y + z = 0, |each| < n; two cells touch when they differ by 1 in two
    coordinates. Written here, sharing nothing with the model's geometry."""
    cells = []
    for y in range(n - 1, -n, -1):  # the top row first
        for x in range(-n + 1, n):
            z = -x - y
            if abs(z) < n:
                cells.append((x, y, z))
    at = {c: i for i, c in enumerate(cells)}
    steps = [(1, -1, 0), (-1, 1, 0), (1, 0, -1), (-1, 0, 1), (0, 1, -1), (0, -1, 1)]
    return [[at[(x + a, y + b, z + c)] for a, b, c in steps if (x + a, y + b, z + c) in at] for (x, y, z) in cells]


def oracle_score(n: int, rows) -> int | None:
    """The raw score (sum of the cells minus their count) when `rows` is a valid grid of
    order n, else None: 2n-1 rows of the right lengths, positive integers, and every
    cell holding k sees each of 1..k-1 beside it."""
    if not isinstance(rows, list) or len(rows) != 2 * n - 1:
        return None
    values = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n + min(r, 2 * n - 2 - r):
            return None
        for v in row:
            if type(v) is not int or v < 1:
                return None
            values.append(v)
    neighbours = oracle_neighbours(n)
    for cell, v in enumerate(values):
        around = {values[j] for j in neighbours[cell]}
        if v > 7 or not set(range(1, v)) <= around:
            return None
    return sum(values) - len(values)


def oracle_rows(text_: str):
    """Rows from submission text read plainly ('(a,b), (c,d,e), ...', exactly one grid
    between the semicolons that split grids), or None when it is not that shape."""
    bodies = [chunk.strip() for chunk in text_.split(";") if chunk.strip()]
    row = r"\(\s*\d+(?:\s*,\s*\d+)*\s*\)"
    if len(bodies) != 1 or not re.fullmatch(rf"{row}(?:\s*,\s*{row})*", bodies[0]):
        return None
    return [[int(v.lstrip("0") or "0") for v in re.findall(r"\d+", inner)] for inner in re.findall(r"\(([^)]*)\)", bodies[0])]


def oracle_solution(solution):
    """The rows a solution stands for (text, JSON text, rows, or {'grid': ...})."""
    if isinstance(solution, str) and solution.strip()[:1] in ("[", "{"):
        solution = json.loads(solution)
    if isinstance(solution, dict):
        solution = solution.get("grid")
    return oracle_rows(solution) if isinstance(solution, str) else solution


def _check_verdict(n: int, verdict, rows) -> None:
    """A Verdict, one line, and 'valid' exactly when the oracle says so, with its score."""
    assert_one_line_verdict(verdict)
    expected = oracle_score(n, rows)
    assert verdict.ok == (expected is not None), (verdict.message, rows)
    if verdict.ok:
        assert verdict.value == expected and verdict.figures["penalty"] + expected == 3 * (n - 1) * (3 * n - 2)


# ------------------------------------------------------------------ strategies

HUGE = ["9" * 5000, "1" + "0" * 9, "0" * 40 + "7", "0" * 5000 + "3", "8", "0", "-1", "1e3", "NaN", "²", "4.0", ""]


@st.composite
def grids(draw):
    """(n, rows of value tokens): a valid grid (random values lowered until the rule
    holds) of order 1..4, then maybe edits: a value one up or down, raised or made huge,
    negative, zero or not a number, a row too long or short, a row missing or added."""
    n = draw(st.integers(1, 4))
    rng = random.Random(draw(st.integers(0, 2**32)))
    neighbours = oracle_neighbours(n)
    values = [rng.randint(1, 7) for _ in neighbours]
    changed = True
    while changed:
        changed = False
        for c, around in enumerate(neighbours):
            seen = {values[j] for j in around}
            best = 1
            while best in seen:
                best += 1
            if values[c] > best:
                values[c], changed = best, True
    rows, at = [], 0
    for r in range(2 * n - 1):
        length = n + min(r, 2 * n - 2 - r)
        rows.append([str(v) for v in values[at : at + length]])
        at += length
    for _ in range(draw(st.integers(0, 2))):
        edit = draw(st.sampled_from(["none", "bump", "bump", "lower", "raise", "token", "long", "short", "drop", "add"]))
        r = draw(st.integers(0, len(rows) - 1)) if rows else 0
        if edit in ("bump", "lower") and rows and rows[r]:
            # one up: a cell missing exactly k-1; one down: a neighbour may lose its support
            c = draw(st.integers(0, len(rows[r]) - 1))
            if re.fullmatch("[0-9]{1,2}", rows[r][c]):
                rows[r][c] = str(max(1, int(rows[r][c]) + (1 if edit == "bump" else -1)))
        elif edit == "raise" and rows and rows[r]:
            c = draw(st.integers(0, len(rows[r]) - 1))
            rows[r][c] = str(draw(st.integers(1, 12)))
        elif edit == "token" and rows and rows[r]:
            rows[r][draw(st.integers(0, len(rows[r]) - 1))] = draw(st.sampled_from(HUGE))
        elif edit == "long" and rows:
            rows[r].append(draw(st.sampled_from(["1", "2", "9" * 50])))
        elif edit == "short" and rows and rows[r]:
            rows[r].pop()
        elif edit == "drop" and rows:
            rows.pop(r)
        elif edit == "add":
            rows.insert(r, ["1"] * draw(st.integers(0, 5)))
    return n, rows


def as_text(rows, spaces: str = "") -> str:
    return f",{spaces}".join("(" + f",{spaces}".join(row) + ")" for row in rows)


def as_numbers(rows):
    """Rows as the numbers JSON would give (a token that is no JSON number stays text)."""
    def number(token: str):
        match = re.fullmatch(r"(-?)0*([0-9]{1,30})", token)
        return int(match.group(1) + match.group(2)) if match else token

    return [[number(t) for t in row] for row in rows]


# ------------------------------------------------------------------ instances


@settings(max_examples=200, deadline=None)
@given(grids(), st.sampled_from(["", " ", "\n "]))
def test_a_grid_as_an_instance_is_kept_exactly_when_well_formed(grid, spaces):
    """Through every door an instance comes in by: the parser, the service's `load`,
    the CLI's decoding."""
    n, rows = grid
    spec = as_text(rows, spaces)
    numbers = as_numbers(rows)
    shaped = all(type(v) is int and 1 <= v <= 7 for row in numbers for v in row) and len(rows) % 2 == 1
    shaped = shaped and all(len(row) == (len(rows) + 1) // 2 + min(r, len(rows) - 1 - r) for r, row in enumerate(rows))
    for door in (lambda: PUZZLE.parse(spec), lambda: PUZZLE.load(spec, local=False), lambda: PUZZLE.parse(decode_input(spec, "instance"))):
        got = instance_or_refusal(door)
        assert isinstance(got, HexInstance) == shaped, (got, rows)
        if shaped:
            assert list(got.start) == [v for row in numbers for v in row]


# ------------------------------------------------------------------ solutions


@given(grids(), st.sampled_from(["text", "spaced", "rows", "object", "json-text"]))
@settings(max_examples=400, deadline=None)
def test_grids_good_and_bad_get_the_oracles_verdict(grid, form):
    n, rows = grid
    numbers = as_numbers(rows)
    solution = {
        "text": as_text(rows),
        "spaced": " \n" + as_text(rows, " \t") + " ;\n",
        "rows": numbers,
        "object": {"grid": as_text(rows)},
        "json-text": json.dumps(numbers),
    }[form]
    instance = PUZZLE.parse(str(n))
    _check_verdict(n, PUZZLE.verify(instance, solution), numbers)


@given(st.one_of(json_values(("n", "grid", "x")), text(80), st.binary(max_size=80).map(lambda b: b.decode("latin-1"))), st.integers(1, 4))
@settings(max_examples=300, deadline=None)
def test_arbitrary_json_or_text_as_a_solution(solution, n):
    verdict = PUZZLE.verify(PUZZLE.parse(str(n)), solution)
    assert_one_line_verdict(verdict)
    if verdict.ok:  # then it must be a grid the oracle accepts
        assert oracle_score(n, oracle_solution(solution)) == verdict.value


@given(SOLUTION_TEXT["hexagon"], st.integers(1, 3))
@settings(max_examples=300, deadline=None)
def test_near_submission_text_as_a_solution(solution, n):
    verdict = PUZZLE.verify(PUZZLE.parse(str(n)), solution)
    assert_one_line_verdict(verdict)
    assert verdict.ok == (oracle_score(n, oracle_rows(solution)) is not None), (solution, verdict.message)
    if verdict.ok:
        assert oracle_score(n, oracle_rows(solution)) == verdict.value


# ------------------------------------------------------------------ regressions: values


def _fast_and_small(thunk, seconds: float = 1.0, peak_bytes: int = 5_000_000):
    """The refusal costs little: CPU seconds of this process (wall time on a shared
    machine measures the other jobs) and peak traced memory."""
    tracemalloc.start()
    started = time.process_time()
    try:
        return instance_or_refusal(thunk)
    finally:
        elapsed = time.process_time() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert elapsed < seconds, elapsed
        assert peak < peak_bytes, peak


BILLION = "(1,1), (1,1000000000,1), (1,1)"


def test_a_cell_of_a_billion_is_refused_at_once_without_allocating():
    PUZZLE.parse("2")  # the geometry of order 2, cached, outside the measurement
    got = _fast_and_small(lambda: PUZZLE.load(BILLION))
    assert isinstance(got, InvalidInstance) and "row 2, cell 2: 1000000000 is not a possible value" in str(got) and "1..7" in str(got)
    verdict = _fast_and_small(lambda: PUZZLE.verify(PUZZLE.parse("2"), BILLION))
    assert not verdict.ok and not verdict.unchecked and "row 2, cell 2" in verdict.message
    verdict = _fast_and_small(lambda: PUZZLE.verify(PUZZLE.parse("2"), [[1, 1], [1, 10**9, 1], [1, 1]]))
    assert not verdict.ok and "1000000000 is not a possible value" in verdict.message
    # A grid built in Python, past the parser: the rule check stops at 7 all the same.
    big = HexInstance(2, (1, 1, 1, 10**9, 1, 1, 1))
    assert "holds 1000000000 but no neighbour holds 2" in _fast_and_small(lambda: rule_violation(2, big.start))
    got = _fast_and_small(lambda: given_grid(big, "to improve"))
    assert isinstance(got, InvalidInstance) and "row 2, cell 2" in str(got)
    assert "over 12 digits" in _fast_and_small(lambda: rule_violation(2, (1, 1, 1, 10**5000, 1, 1, 1)))


@pytest.mark.parametrize(
    "spec, words",
    [
        ("(1,1), (1," + "9" * 5000 + ",1), (1,1)", "a number of 5000 digits is not a possible value"),
        ("(1,1), (1,8,1), (1,1)", "8 is not a possible value"),
        ("(1,1), (1,-1,1), (1,1)", "row 2, cell 2: expected a positive integer"),
        ("(1,1), (1,0,1), (1,1)", "row 2, cell 2: expected a positive integer, got 0"),
        ("(1,1), (1,1), (1,1)", "row 2: expected 3 cells, got 2"),
        ("(1,1), (1,2,3)", "an odd number"),
        ("[[1,1],[1,NaN,1],[1,1]]", "NaN"),
        ("[[1,1],[1,1e400,1],[1,1]]", "too large for a number"),
        ("[[1,1],[1," + "9" * 40 + ",1],[1,1]]", "40 digits"),
        ("[[1,1],[1,2.5,1],[1,1]]", "got 2.5"),
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ("9" * 5000, "5000 digits"),
        ("(1)," * 500 + "(1)", "more than 399 rows"),
        ("(" + "1," * 500 + "1)", "more than 399 cells"),
        ("(1);" * 1001, "1001 grids separated by ';'; at most 1000"),
        ('{"grid": {"grid": {"grid": 1}}}', "grid: expected submission text"),
        ('{"n": 1e300}', "larger than the maximum 200"),
        ('{"n": "' + "9" * 5000 + '"}', "5000 digits"),
        ('{"n": 2.5}', "whole number"),
    ],
)
def test_hostile_instances_are_one_line_errors(spec, words):
    got = _fast_and_small(lambda: PUZZLE.load(spec), seconds=2.0, peak_bytes=50_000_000)
    assert isinstance(got, InvalidInstance) and words in str(got), got


def test_an_inline_grid_longer_than_a_file_name_is_read_as_a_grid():
    """`Puzzle.load` asked the file system about it first: over 255 characters,
    ENAMETOOLONG was an internal error (an inline grid of order 8 is 380)."""
    ones = ", ".join("(" + ",".join(["1"] * (8 + min(r, 14 - r))) + ")" for r in range(15))
    assert len(ones) > 255 and PUZZLE.load(ones).start == (1,) * 169
    result = fast.invoke(COMMAND, ["hexagon", "solve", ones.replace("1", "9", 1), "--no-store"])
    assert_cli_refuses(result, "row 1, cell 1: 9 is not a possible value")


def test_python_objects_that_json_cannot_make_are_one_line_errors():
    deep = deep_list()
    for rows in ([[1], deep, [1]], [[1, 1], [1, float("nan"), 1], [1, 1]], [[1, 1], [1, 10**5000, 1], [1, 1]], [[1, 1], [1, True, 1], [1, 1]]):
        got = instance_or_refusal(lambda: PUZZLE.parse(rows))
        assert isinstance(got, InvalidInstance), got
        verdict = PUZZLE.verify(PUZZLE.parse("2"), rows)
        assert_one_line_verdict(verdict)
        assert not verdict.ok
    assert isinstance(instance_or_refusal(lambda: PUZZLE.parse({"grid": deep})), InvalidInstance)
    assert isinstance(instance_or_refusal(lambda: PUZZLE.parse(10**5000)), InvalidInstance)
    assert isinstance(instance_or_refusal(lambda: PUZZLE.parse(float("inf"))), InvalidInstance)


# ------------------------------------------------------------------ regressions: memory


def test_the_documented_largest_beam_is_refused_with_the_figure():
    assert beam_bytes(2107, 65, 10_000_000, 5, "history") > 10**11  # the reference kernel: 5 bytes a cell a state
    assert 10**10 < beam_bytes(2107, 65, 10_000_000, 5) < 2 * 10**10  # packed: 12 bytes per 21 cells
    started = time.perf_counter()
    for method in ("beam", "levels"):
        with pytest.raises(InvalidInstance, match=r"beam width 10000000 on order 27: needs 1\d\.\d GB, more than the 4.0 GB allowed") as caught:
            PUZZLE.solve(PUZZLE.parse("27"), method, budget=Budget(5, memory_bytes=4e9), width=10_000_000)
        assert caught.value.status == 413 and caught.value.field == "width"
    assert time.perf_counter() - started < 10


def test_a_budgets_memory_bound_refuses_a_beam_that_would_fit_the_machine():
    budget = Budget(5)
    budget.memory_bytes = 100_000_000  # the service's per-job bound (core.result.Budget.memory_bytes)
    with pytest.raises(InvalidInstance, match=r"needs .* more than the 100 MB allowed"):
        PUZZLE.solve(PUZZLE.parse("8"), "beam", budget=budget, width=1_000_000)
    require_beam_memory(8, 2000, 5, budget)  # the default width fits


# ------------------------------------------------------------------ the command line


@given(st.binary(max_size=120))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cli_score_of_any_file_is_clean(solution_bytes):
    with tempfile.TemporaryDirectory() as folder:
        sol = Path(folder) / "s.txt"
        sol.write_bytes(solution_bytes)
        assert_clean_cli(fast.invoke(COMMAND, ["hexagon", "score", str(sol)]))


@given(grids())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cli_verify_agrees_with_the_oracle(grid):
    n, rows = grid
    with tempfile.TemporaryDirectory() as folder:
        sol = Path(folder) / "s.txt"
        sol.write_text(as_text(rows))
        result = fast.invoke(COMMAND, ["hexagon", "verify", str(n), str(sol), "--json"])
        assert_clean_cli(result)
        expected = oracle_score(n, as_numbers(rows))
        assert result.exit_code == (0 if expected is not None else 1), result.output
        if expected is not None:
            assert json.loads(result.stdout)["value"] == expected


@pytest.mark.parametrize(
    "args, words",
    [
        (["hexagon", "verify", "2", "{billion}"], None),  # INVALID, exit 1: checked below
        (["hexagon", "solve", "{billion}", "--method", "improve", "--budget", "5"], "1000000000 is not a possible value"),
        (["hexagon", "solve", "{billion}", "--method", "sat", "--budget", "5"], "1000000000 is not a possible value"),
        (["hexagon", "solve", "{huge}", "--method", "sat", "--budget", "5"], "5000 digits is not a possible value"),
        (["hexagon", "score", "{billion}"], "1000000000 is not a possible value"),
        (["hexagon", "score", "{bin}"], "not UTF-8"),
        (["hexagon", "verify", "3", "{bin}"], "not UTF-8"),
        (["hexagon", "verify", "{bin}", "{billion}"], "not UTF-8"),
        (["hexagon", "verify", "3", "{deep}"], "nested"),
        (["hexagon", "solve", "27", "--method", "beam", "--width", "10000000"], "more than the"),
        (["hexagon", "solve", "3", "--method", "improve", "--seed", "-1"], "seed: expected at least 0"),
        (["hexagon", "solve", "3", "--method", "beam", "--seed", "2147483648"], "seed: expected at most 2147483647"),
        (["hexagon", "count", "3", "--levels", "1..100000000000"], "levels: expected levels between 1 and 6"),
        (["hexagon", "count", "3", "--budget", "nan"], "budget: expected"),
        (["hexagon", "table", "--orders", "3..999999999999"], "orders: expected orders between 1 and 200"),
        (["hexagon", "batch", "--orders", "3..99999999999"], "orders: expected orders between 1 and 200"),
        (["hexagon", "batch", "--budget", "nan"], "budget: expected"),
        (["hexagon", "prove", "3", "--raw", "10", "--budget", "nan"], "budget: expected"),
        (["hexagon", "prove", "3", "--raw", "10", "--grid-budget", "nan"], "grid-budget: expected"),
        (["hexagon", "prove", "3", "--raw", "10", "--method", "cubes", "--checkpoint", "{folder}"], "is a folder"),
        (["hexagon", "prove", "3", "--raw", "10", "--method", "dp", "--checkpoint", "{billion}"], "keeps its checkpoint in a folder, and this is a file"),
        (["hexagon", "prove", "3", "--raw", "10", "--checkpoint", "{bin}/x.json"], "cannot be made"),
    ],
)
def test_cli_regressions_are_clear_errors(tmp_path, monkeypatch, args, words):
    # the packed beam at width 10^7 on order 27 needs about 17 GB: refused the same on
    # any machine, not started where that much happens to be free
    monkeypatch.setattr("puzzlelab.core.memory.machine_available", lambda: 8 * 10**9)
    (tmp_path / "bin.dat").write_bytes(b"\xff\xfe\x00\x80binary")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "billion.txt").write_text(BILLION)
    (tmp_path / "huge.txt").write_text("(1,1), (1," + "9" * 5000 + ",1), (1,1)")
    files = {name: tmp_path / f"{name}.{ext}" for name, ext in (("bin", "dat"), ("deep", "json"), ("billion", "txt"), ("huge", "txt"))}
    args = [a.format(folder=tmp_path, **files) for a in args]
    started = time.perf_counter()
    result = fast.invoke(COMMAND, [*args, *(["--no-store"] if args[1] == "solve" else [])])
    if words is None:
        assert_clean_cli(result)
        assert result.exit_code == 1 and "INVALID" in result.output and "row 2, cell 2" in result.output
        assert time.perf_counter() - started < 20
    else:
        assert_cli_refuses(result, words, started=started, seconds=20)


@pytest.mark.parametrize(
    "contents",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00binary",  # a binary file
        b'{"kind": "count", "total": 5}',  # JSON of another kind
        b"[1, 2, 3]",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"cubes": [' + b"9" * 5000 + b"]}",
    ],
)
def test_prove_refuses_a_checkpoint_that_is_not_its_own_and_leaves_it(tmp_path, contents):
    path = tmp_path / "not-mine.json"
    path.write_bytes(contents)
    result = fast.invoke(COMMAND, ["hexagon", "prove", "3", "--method", "cubes", "--raw", "10", "--depth", "3", "--workers", "1", "--checkpoint", str(path)])
    assert_cli_refuses(result, "not a proof checkpoint")
    assert "error: checkpoint" in result.output, result.output
    assert path.read_bytes() == contents


def test_a_checkpoint_of_the_right_question_but_malformed_contents_is_refused(tmp_path):
    question = {"n": 3, "level": 3, "bound": 5, "depth": 3, "symmetry": "lex", "digest": "d"}
    for cubes, refuted, screened in (("abc", [], []), (["a"], [1], []), (["a"], [], [[1]]), (["a"], [], [["x", 2]])):
        path = tmp_path / "c.json"
        text_ = json.dumps(dict(question, version=1, cubes=cubes, refuted=refuted, screened=screened, seconds=1.0))
        path.write_text(text_)
        with pytest.raises(ValueError, match="malformed proof checkpoint"):
            Checkpoint(path, question)
        assert path.read_text() == text_


def test_a_zero_budget_table_answers_at_once_without_building_models():
    """Found by the CLI fuzzing: `table --orders 3..27 --budget 0` spent over 20 s
    building SAT models it had no time to solve."""
    started = time.perf_counter()
    result = fast.invoke(COMMAND, ["hexagon", "table", "--orders", "20..27", "--budget", "0", "--json"])
    assert_clean_cli(result)
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [row["n"] for row in rows] == list(range(20, 28))
    assert all(row[c] is None for row in rows for c in ("level1", "level2", "level3", "level4_5_6"))
    assert time.perf_counter() - started < 5


def test_improve_finds_a_start_where_the_spiral_beam_dies():
    """On n = 5 the width-200 spiral beam dies; improve used to give up with no grid."""
    result = PUZZLE.solve(PUZZLE.load("5"), "improve", budget=6)  # the beam gets 30%: room on a loaded machine
    assert result.verdict is not None and result.verdict.ok
    assert result.value is not None and result.value >= 130
