"""Hostile input for the matchsticks puzzle, beyond the rules every puzzle follows
(tests/test_contract_hostile.py): a Verdict that says valid is right by an oracle
written here (one square of each size, all within the area, the matchsticks counted as
pairs of end points), on any JSON or text, on `(size, x, y)` answers that are nearly
right and on mutated ASCII drawings; 422 for a bad n that is not too large; the
checkpoint that is not a checkpoint (binary, JSON of another kind) refused and never
overwritten; --subtrees and the search plan bounded in memory and time."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab import cli
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Budget, Verdict
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks import plan as plan_module
from puzzlelab.puzzles.matchsticks import search as search_module
from puzzlelab.puzzles.matchsticks.drawing import parse_any_solution
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.render import draw_ascii
from puzzlelab.puzzles.matchsticks.search import make_descriptor, plan_subtrees
from support.field_shapes import SHAPE_STRINGS, SOLUTION_TEXT
from support.hostile_strategies import HOSTILE_NUMBERS, json_values
from support.rules import assert_cli_refuses, assert_one_line_refusal, assert_one_line_verdict
from support.text_strategies import text

runner = CliRunner()
COMMAND = typer.main.get_command(cli.app)  # built once: typer's runner rebuilds it per call

json_like = json_values(keys=("n", "squares", "roam", "size", "x", "y"), strings=SHAPE_STRINGS["matchsticks"])
solution_text = SOLUTION_TEXT["matchsticks"] | text(120)


def matchsticks_of(squares) -> set:
    """The oracle's count: each unit match as the pair of its end points."""
    sticks = set()
    for size, x, y in squares:
        for i in range(size):
            sticks.add(((x + i, y), (x + i + 1, y)))
            sticks.add(((x + i, y + size), (x + i + 1, y + size)))
            sticks.add(((x, y + i), (x, y + i + 1)))
            sticks.add(((x + size, y + i), (x + size, y + i + 1)))
    return sticks


def oracle(n: int, squares, roam: int) -> int | None:
    """The number of matchsticks when `squares` ((size, x, y) each) is an admissible
    answer for n, else None."""
    if sorted(s for s, _, _ in squares) != list(range(1, n + 1)):
        return None
    if n == 0:
        return 0
    _, bx, by = next(q for q in squares if q[0] == n)
    for size, x, y in squares:
        if x < bx - roam or y < by - roam or x + size > bx + n + roam or y + size > by + n + roam:
            return None
    return len(matchsticks_of(squares))


def as_squares(solution):
    """(squares, roam) of a solution in JSON form the oracle can read, else None."""
    roam = 0
    if isinstance(solution, dict):
        roam = solution.get("roam", 0)
        solution = solution.get("squares")
        if isinstance(roam, bool) or not isinstance(roam, int):
            return None
    if not isinstance(solution, list):
        return None
    out = []
    for item in solution:
        values = [item.get("size"), item.get("x"), item.get("y")] if isinstance(item, dict) else item
        if not isinstance(values, (list, tuple)) or len(values) != 3:
            return None
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            return None
        out.append(tuple(values))
    return out, roam


def check_verdict(instance: Instance, solution, verdict: Verdict) -> None:
    assert_one_line_verdict(verdict)
    if not verdict.ok:
        return
    if isinstance(solution, str):  # text or a drawing: the checker's own reading, checked again
        parsed = parse_any_solution(solution)
        squares, roam = [s.as_list() for s in parsed.squares], parsed.roam
    else:
        read = as_squares(solution)
        assert read is not None, solution
        squares, roam = read
    assert oracle(instance.n, squares, roam) == verdict.value, (instance, solution, verdict)


# ----------------------------------------------------------------------------- fuzzing


@settings(deadline=None, max_examples=300)
@given(st.sampled_from([0, 1, 3]), json_like | solution_text)
def test_verify_anything_is_a_correct_verdict(n, solution):
    instance = Instance(n)
    check_verdict(instance, solution, PUZZLE.verify(instance, solution))


@st.composite
def near_solutions(draw):
    """n <= 6 and one square of each size placed at random (often inside the largest),
    perhaps broken: a size dropped, repeated or wrong, a square moved out, the roam
    changed. In JSON or `(size, x, y)` text."""
    n = draw(st.integers(1, 6))
    roam = draw(st.integers(0, 2))
    squares = [[n, 0, 0]] + [[s, draw(st.integers(-roam, n - s + roam)), draw(st.integers(-roam, n - s + roam))] for s in range(1, n)]
    change = draw(st.sampled_from(["none", "none", "drop", "repeat", "resize", "move", "roam"]))
    i = draw(st.integers(0, n - 1))
    if change == "drop":
        squares.pop(i)
    elif change == "repeat":
        squares.append(list(squares[i]))
    elif change == "resize":
        squares[i][0] += draw(st.sampled_from([-1, 1]))
    elif change == "move":
        squares[i][draw(st.sampled_from([1, 2]))] += draw(st.sampled_from([-3, -1, 1, 3]))
    elif change == "roam":
        roam = max(0, roam + draw(st.sampled_from([-1, 1])))
    form = draw(st.sampled_from(["json", "bare", "text"]))
    if form == "json":
        return n, {"roam": roam, "squares": squares}, squares, roam
    if form == "bare":
        return n, squares, squares, 0
    return n, " ".join(f"({s}, {x}, {y})" for s, x, y in squares), squares, 0


@settings(deadline=None, max_examples=400)
@given(near_solutions())
def test_verify_near_solutions_agrees_with_the_oracle(case):
    n, solution, squares, roam = case
    verdict = PUZZLE.verify(Instance(n), solution)
    check_verdict(Instance(n), solution, verdict)
    expected = oracle(n, [tuple(s) for s in squares], roam)
    assert verdict.ok == (expected is not None) and (not verdict.ok or verdict.value == expected)


@st.composite
def mutated_drawings(draw):
    """The drawing of an admissible answer (n <= 6), with one or two characters
    replaced (box pieces, digits, dots, spaces, odd characters)."""
    n = draw(st.integers(1, 6))
    squares = [[n, 0, 0]] + [[s, draw(st.integers(0, n - s)), draw(st.integers(0, n - s))] for s in range(1, n)]
    lines = draw_ascii({"roam": 0, "squares": squares}).split("\n")
    for _ in range(draw(st.integers(0, 2))):
        y = draw(st.integers(0, len(lines) - 1))
        if lines[y]:
            x = draw(st.integers(0, len(lines[y]) - 1))
            ch = draw(st.sampled_from(list("┌┐└┘├┤┬┴┼─│ .0123456789²x")))
            lines[y] = lines[y][:x] + ch + lines[y][x + 1 :]
    return n, "\n".join(lines)


def _normal(drawing: str) -> list[str]:
    return [line.replace(".", " ").rstrip() for line in drawing.split("\n") if line.strip()]


@settings(deadline=None, max_examples=300)
@given(mutated_drawings())
def test_a_drawing_said_valid_is_exactly_the_drawing_of_its_squares(case):
    n, drawing = case
    verdict = PUZZLE.verify(Instance(n), drawing)
    check_verdict(Instance(n), drawing, verdict)
    if verdict.ok:
        assert _normal(draw_ascii(parse_any_solution(drawing))) == _normal(drawing), drawing


# ----------------------------------------------------------------------------- regressions


@pytest.mark.parametrize("obj", ["-10**5000", -1, math.nan, math.inf, 1e400, "3.5", "٣", "n=²", [3], {"n": None}, True])
def test_other_bad_n_are_422(obj):
    obj = HOSTILE_NUMBERS[obj]() if isinstance(obj, str) and obj in HOSTILE_NUMBERS else obj
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse(obj)
    assert info.value.status == 422
    assert_one_line_refusal(info.value)


@pytest.mark.parametrize(
    "solution",
    [
        "(1" + "0" * 5000 + ",0,0)",
        {"squares": [[10**5000, 0, 0]]},
        {"squares": [[3, 0, 0], [2, 0, 0], [1, 0, 0]], "roam": 10**5000},
        {"squares": [[3, 10**40, 0], [2, 0, 0], [1, 0, 0]]},
        "[" * 100_000 + "]" * 100_000,
        '{"squares": [[NaN, 0, 0]]}',
        "[[1e400, 0, 0]]",
        "1" + "9" * 5000 + "─┐\n│ │\n└─┘",
        "²─┐\n│ │\n└─┘",
        "0─┐\n│ │\n└─┘",
        "\n".join(["│" * 600] * 3),
        "\n".join(["┌─┐"] * 600),
    ],
)
def test_hostile_solutions_are_refused_verdicts(solution):
    verdict = PUZZLE.verify(Instance(3), solution)
    assert_one_line_verdict(verdict)
    assert not verdict.ok


def test_a_big_wrong_solution_is_checked_in_linear_time():
    squares = [[1 + size % 9_999, 0, 0] for size in range(200_000)]
    started = time.perf_counter()
    verdict = PUZZLE.verify(Instance(5), {"squares": squares})
    assert not verdict.ok and "repeated sizes" in verdict.message and "above n = 5" in verdict.message
    assert len(verdict.message) < 400
    assert time.perf_counter() - started < 5


def test_unlabelled_squares_are_found_at_labelled_corners():
    # n = 3: the 1x1 square's four corners are all labelled by larger squares, so it
    # carries no label; reading the drawing still finds it.
    solution = {"roam": 0, "squares": [[3, 0, 0], [2, 1, 1], [1, 0, 0]]}
    drawing = draw_ascii(solution)
    verdict = PUZZLE.verify(Instance(3), drawing)
    assert verdict.ok and verdict.value == oracle(3, [(3, 0, 0), (2, 1, 1), (1, 0, 0)], 0)


def full_solve(checkpoint: Path, n: int = 12, method: str = "full", **options):
    return PUZZLE.solve(PUZZLE.parse(n), method, budget=10, checkpoint=str(checkpoint), count_solutions=True, **options)


@pytest.mark.parametrize(
    "content",
    [
        bytes(range(256)) * 8,
        b'{"id": "contest_1", "squares": [{"X": 0, "Y": 0, "Size": 2}]}',
        b"[1, 2, 3]",
        b'{"version": 1, "search": {"n": 99}, "prefixes": [], "digest": "x", "done": {}}',
        b"not json at all",
        b"",
        b"[" * 100_000,
    ],
)
@pytest.mark.parametrize("method", ["full", "greedy"])
def test_a_file_that_is_not_this_search_checkpoint_is_refused_and_kept(tmp_path, content, method):
    path = tmp_path / "mine.json"
    path.write_bytes(content)
    started = time.perf_counter()
    with pytest.raises(InvalidInstance) as info:
        full_solve(path, method=method)
    assert info.value.field == "checkpoint"
    assert_one_line_refusal(info.value)
    assert path.read_bytes() == content
    assert time.perf_counter() - started < 5  # refused before the bound searches


@pytest.mark.parametrize("method", ["full", "greedy"])
def test_a_forged_or_damaged_checkpoint_is_refused(tmp_path, method):
    path = tmp_path / "ck.json"
    good = full_solve(path, method=method)
    assert good.verified and path.is_file()
    data = json.loads(path.read_text())
    for forge in (
        {"done": []},
        {"done": {"0": "finished"}},
        {"done": {"99999": {"found": False, "count": 0, "nodes": 0, "complete": True}}},
        {"done": {"²": {"found": False, "count": 0, "nodes": 0, "complete": True}}},
        {"done": {"0": {"found": True, "best": None, "count": 1, "nodes": 1, "complete": True, "solution": None}}},
        {"bound": "low"},
        {"prefixes": [[["a"]]]},
        {"recuts": -1},
        {"recuts": "two"},
        {"recuts": True},
    ):
        path.write_text(json.dumps({**data, **forge}))
        with pytest.raises(InvalidInstance) as info:
            full_solve(path, method=method)
        assert info.value.field == "checkpoint", forge


def test_a_folder_as_checkpoint_is_refused(tmp_path):
    with pytest.raises(InvalidInstance, match="not a file"):
        full_solve(tmp_path)


def test_cli_checkpoint_refusal_is_one_line_exit_2(tmp_path):
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)))
    result = runner.invoke(COMMAND, ["matchsticks", "solve", "12", "--method", "full", "--checkpoint", str(binary), "--no-store"])
    assert_cli_refuses(result, "checkpoint")
    assert binary.read_bytes().startswith(b"\xff\xd8")


@pytest.mark.parametrize("method", ["full", "greedy"])
def test_subtrees_that_cannot_fit_are_refused_up_front(monkeypatch, method):
    monkeypatch.setattr(plan_module, "memory_allowed", lambda budget=None: 10_000_000)
    started = time.perf_counter()
    with pytest.raises(InvalidInstance, match="--subtrees: 10000000 subtrees need") as info:
        PUZZLE.solve(PUZZLE.parse(30), method, budget=20, subtrees=10_000_000)
    assert info.value.status == 413 and time.perf_counter() - started < 3


def test_the_memory_figure_follows_the_budget_when_it_states_one():
    plan_module.check_search_plan(make_descriptor(30), None, 100_000, Budget(10))  # fits half this machine
    with pytest.raises(InvalidInstance, match="more than the 1.0 MB allowed"):
        plan_module.check_search_plan(make_descriptor(30), None, 100_000, SimpleNamespace(memory_bytes=1_000_000))


def test_planning_stops_at_the_budget_and_at_the_memory_allowed(monkeypatch):
    base = make_descriptor(30)
    plan_subtrees(base, 2, Budget(10))  # compile or load the kernel outside the clock
    started = time.perf_counter()
    planned = plan_subtrees(base, 10_000_000, Budget(1.0))
    assert time.perf_counter() - started < 4 and (planned is None or len(planned) < 10_000_000)
    monkeypatch.setattr(search_module, "memory_allowed", lambda budget=None: 300_000)
    planned = plan_subtrees(base, 10_000_000, Budget(30))
    assert planned is not None and 0 < len(planned) * search_module.prefix_bytes(3) <= 2 * 300_000


@pytest.mark.parametrize("n", ["1..10000000000", "60..64", "9" * 5000, "-1..3"])
def test_table_ranges_are_checked_before_any_list_is_built(n):
    started = time.perf_counter()
    result = runner.invoke(COMMAND, ["matchsticks", "table", "--n", n, "--no-store"])
    assert_cli_refuses(result, "values run 0..63", started=started, seconds=2)


@pytest.mark.parametrize("method", ["full", "diagonal", "greedy"])
def test_a_bound_past_every_answer_is_no_bound(method):
    # The kernel's bound is an int64: 10**20 was a numba TypingError (exit 5).
    result = PUZZLE.solve(PUZZLE.parse(6), method, budget=10, bound=10**20)
    assert result.verified and result.value == PUZZLE.solve(PUZZLE.parse(6), method, budget=10).value
