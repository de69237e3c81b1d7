"""Hostile input for the tiling puzzle, beyond the rules every puzzle follows
(tests/test_contract_hostile.py): a Verdict that says valid is right by an oracle
written here (the squares painted on the grid one cell at a time), on any JSON and on
tilings that are nearly right; hostile numbers in the contest JSON and in solutions;
the memory refusals (cpsat on 1000 x 1000 at once and without allocating); folders
and files checked before the work."""

from __future__ import annotations

import json
import math
import os
import time
import tracemalloc
from types import SimpleNamespace

import numpy as np
import pytest
import typer
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab import cli
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Budget, Verdict
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling import dp as dp_module
from puzzlelab.puzzles.tiling.beam import greedy_tiling
from puzzlelab.puzzles.tiling.bounds import lp_lower_bound
from puzzlelab.puzzles.tiling.contest_client import saved_name
from puzzlelab.puzzles.tiling.cpsat import candidate_squares
from puzzlelab.puzzles.tiling.dp import ColumnDP, DPStopped
from puzzlelab.puzzles.tiling.kernels import max_square_table
from puzzlelab.puzzles.tiling.limits import largest_squares, model_size, require_model_fits
from puzzlelab.puzzles.tiling.lns import improve_by_random_windows
from puzzlelab.puzzles.tiling.model import Grid
from support.field_shapes import SHAPE_STRINGS
from support.hostile_strategies import json_values
from support.rules import assert_cli_refuses, assert_one_line_refusal, assert_one_line_verdict

runner = CliRunner()
COMMAND = typer.main.get_command(cli.app)  # built once: typer's runner rebuilds it per call (0.1 s)

# JSON under the names the checker reads (the Cimpress instance and solution fields)
json_like = json_values(keys=("id", "width", "height", "puzzle", "squares", "X", "Y", "Size"), strings=SHAPE_STRINGS["tiling"])


def painted_ok(grid: Grid, squares: list) -> bool:
    """The oracle: every square inside the grid on free cells only, each free cell
    painted exactly once (one cell at a time, no difference arrays)."""
    free = grid.free()
    height, width = free.shape
    paint = np.zeros((height, width), dtype=np.int64)
    for x, y, size in squares:
        if size < 1 or x < 0 or y < 0 or x + size > width or y + size > height:
            return False
        for r in range(y, y + size):
            for c in range(x, x + size):
                paint[r, c] += 1
    return bool(((paint == 1) == free).all() and (paint <= 1).all())


def as_triples(solution) -> list | None:
    """The (x, y, size) triples of a well-formed solution, else None."""
    items = solution.get("squares") if isinstance(solution, dict) else solution
    if not isinstance(items, list):
        return None
    out = []
    for item in items:
        values = (item.get("X"), item.get("Y"), item.get("Size")) if isinstance(item, dict) else item
        if not isinstance(values, (list, tuple)) or len(values) != 3:
            return None
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            return None
        out.append(tuple(values))
    return out


def check_verdict(grid: Grid, solution, verdict: Verdict) -> None:
    assert_one_line_verdict(verdict)
    if verdict.ok:
        squares = as_triples(solution)
        assert squares is not None and painted_ok(grid, squares), (grid.rows, solution)
        assert verdict.value == len(squares)


# ----------------------------------------------------------------------------- fuzzing


SMALL_GRIDS = [
    Grid(("....", ".#..", "....")),
    Grid(("..", "..")),
    Grid(("#.#", "...", "#..")),
    Grid(("...",), id="row"),
]


@settings(deadline=None, max_examples=300)
@given(st.sampled_from(SMALL_GRIDS), json_like)
def test_verify_anything_is_a_correct_verdict(grid, solution):
    check_verdict(grid, solution, PUZZLE.verify(grid, solution))


@st.composite
def grid_and_near_tiling(draw):
    """A small grid with blocked cells and a tiling of it (largest square first at the
    first open cell), then perhaps broken: a square dropped, added, moved, resized or
    duplicated. Valid and invalid answers both come up often."""
    height, width = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    free = np.array(draw(st.lists(st.booleans(), min_size=height * width, max_size=height * width)), dtype=bool).reshape(height, width)
    free |= ~free.any()  # at least one free cell
    grid = Grid.from_array(free)
    covered = ~free
    squares = []
    for y in range(height):
        for x in range(width):
            if not covered[y, x]:
                size = draw(st.integers(1, 3))
                while size > 1 and (y + size > height or x + size > width or covered[y : y + size, x : x + size].any()):
                    size -= 1
                covered[y : y + size, x : x + size] = True
                squares.append([x, y, size])
    change = draw(st.sampled_from(["none", "drop", "add", "move", "resize", "twice"]))
    if squares and change != "none":
        i = draw(st.integers(0, len(squares) - 1))
        if change == "drop":
            squares.pop(i)
        elif change == "add":
            squares.append([draw(st.integers(-1, width)), draw(st.integers(-1, height)), draw(st.integers(0, 3))])
        elif change == "move":
            squares[i] = [squares[i][0] + draw(st.sampled_from([-1, 1])), squares[i][1], squares[i][2]]
        elif change == "resize":
            squares[i] = [squares[i][0], squares[i][1], squares[i][2] + draw(st.sampled_from([-1, 1]))]
        else:
            squares.append(list(squares[i]))
    form = draw(st.sampled_from(["contest", "bare"]))
    solution = {"id": "", "squares": [{"X": x, "Y": y, "Size": s} for x, y, s in squares]} if form == "contest" else squares
    return grid, solution


@settings(deadline=None, max_examples=400)
@given(grid_and_near_tiling())
def test_verify_near_tilings_agrees_with_painting(case):
    grid, solution = case
    verdict = PUZZLE.verify(grid, solution)
    check_verdict(grid, solution, verdict)
    assert verdict.ok == painted_ok(grid, as_triples(solution))


# ----------------------------------------------------------------------------- regressions


@pytest.mark.parametrize(
    "obj",
    [
        {"width": 10**5000, "height": 1, "puzzle": [[True]]},
        {"width": 1e400, "height": 1, "puzzle": [[True]]},
        {"width": 1e300, "height": 1, "puzzle": [[True]]},
        {"id": 10**5000, "puzzle": [[True]]},
        {"puzzle": [[10**5000]]},
        {"puzzle": [[math.nan]]},
        {"width": math.nan, "puzzle": [[True]]},
        {"width": -3, "puzzle": [[True]]},
        {"width": 0, "puzzle": [[True]]},
        {"width": "3", "puzzle": [[True]]},
        {"puzzle": [[True] * 1001]},
    ],
)
def test_hostile_numbers_in_contest_json_are_clear(obj):
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse(obj)
    assert_one_line_refusal(info.value)


@pytest.mark.parametrize(
    "solution",
    [
        {"squares": [{"X": 10**5000, "Y": 0, "Size": 1}]},
        {"squares": [[0, 0, -(10**5000)]]},
        {"squares": [[0, 0, 10**40]]},
        {"squares": [[0, 0, 2]], "id": 10**5000},
        {"squares": [[0, 0, math.nan]]},
        {"squares": [[0, 0, 1e400]]},
        {"squares": [[0, 0, 0]]},
        {"squares": [[0, 0, -1]]},
        {"squares": [[0, 0, True]]},
        {"squares": [["0", "0", "2"]]},
    ],
)
def test_hostile_numbers_in_solutions_are_refused_verdicts(solution):
    verdict = PUZZLE.verify(Grid(("..", ".."), id="p"), solution)
    assert_one_line_verdict(verdict)
    assert not verdict.ok


def test_contest_json_of_the_largest_grid_loads(tmp_path):
    rng = np.random.default_rng(5)
    data = {"id": "big", "width": 1000, "height": 1000, "puzzle": (rng.random((1000, 1000)) > 0.02).tolist()}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    assert path.stat().st_size > 4_000_000
    grid = PUZZLE.load(str(path))
    assert (grid.width, grid.height) == (1000, 1000)


def test_cpsat_on_1000x1000_is_refused_at_once_without_allocating():
    grid = PUZZLE.parse("1000x1000")
    PUZZLE.method("cpsat").function  # import the method's module outside the clock
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(InvalidInstance) as info:
            PUZZLE.solve(grid, "cpsat", budget=5)
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert info.value.status == 413 and "\n" not in message
    assert "334 million candidate squares" in message and "allowed" in message and "--method auto" in message
    assert seconds < 2.0, seconds
    assert peak < 100_000_000, peak


def test_auto_with_cpsat_on_1000x1000_is_refused_and_auto_alone_is_not_refused_up_front():
    grid = PUZZLE.parse("1000x1000")
    with pytest.raises(InvalidInstance, match="leave out --cpsat") as info:
        PUZZLE.solve(grid, "auto", budget=5, cpsat=True)
    assert info.value.status == 413


def test_cli_cpsat_refusal_is_one_line_exit_2():
    started = time.perf_counter()
    result = runner.invoke(COMMAND, ["tiling", "solve", "1000x1000", "--method", "cpsat", "--budget", "5", "--no-store"])
    assert_cli_refuses(result, "candidate squares")
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1
    assert time.perf_counter() - started < 5


def test_model_size_comes_from_the_grid_alone():
    rng = np.random.default_rng(3)
    for _ in range(60):
        height, width = rng.integers(1, 25, size=2)
        free = rng.random((height, width)) > rng.random() * 0.6
        assert (largest_squares(free) == max_square_table(free.astype(np.uint8))).all()
        xs, _, sizes = candidate_squares(free)
        size = model_size(free)
        assert size.squares == len(xs) and size.terms == int((sizes.astype(np.int64) ** 2).sum())


def test_the_memory_figure_follows_the_budget_when_it_states_one():
    free = np.ones((20, 20), dtype=bool)
    require_model_fits(free, "cpsat")  # fits half this machine
    with pytest.raises(InvalidInstance, match="more than the 1.0 MB allowed") as info:
        require_model_fits(free, "cpsat", SimpleNamespace(memory_bytes=1_000_000))
    assert info.value.status == 413


def test_lp_bound_of_a_grid_too_large_is_zero_at_once():
    started = time.perf_counter()
    assert lp_lower_bound(np.ones((1000, 1000), dtype=bool), time_limit=5) == 0
    assert time.perf_counter() - started < 2


def test_column_dp_counts_its_column_buffers_before_allocating():
    # A full 40-row grid: the exact DP's first column has far more states than fit
    # in 30 MB; it must stop there, not grow its hash table without limit.
    tracemalloc.start()
    try:
        with pytest.raises(DPStopped) as info:
            ColumnDP(np.ones((40, 40), dtype=bool), max_memory_mb=30).run(Budget(30))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert info.value.reason == "memory" and info.value.column == 0
    assert peak < 60_000_000, peak


def test_dp_memory_option_is_capped_by_the_memory_allowed(monkeypatch):
    monkeypatch.setattr(dp_module, "memory_allowed", lambda budget=None: 5_000_000)
    result = PUZZLE.solve(PUZZLE.parse("40x41"), "dp", budget=10, max_memory_mb=10**6)
    assert result.verified and result.stats.get("stopped") == "memory"


def test_contest_save_dir_is_checked_before_the_first_fetch(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = runner.invoke(
        COMMAND, ["tiling", "contest", "--server", "http://127.0.0.1:9", "--key", "k", "--save-dir", str(blocker)]
    )
    assert_cli_refuses(result, "is a file")
    (tmp_path / "logs" / "contest-log.jsonl").mkdir(parents=True)
    result = runner.invoke(
        COMMAND, ["tiling", "contest", "--server", "http://127.0.0.1:9", "--key", "k", "--save-dir", str(tmp_path / "logs")]
    )
    assert_cli_refuses(result, "is a folder")


@pytest.mark.parametrize("ident", ["../../etc/passwd", "/abs", ".hidden", "a/b", "", "x" * 300, "ok\x00"])
def test_a_server_never_chooses_the_saved_file(ident):
    grid = Grid(("..",), id=ident)
    name = saved_name(grid)
    assert os.sep not in name and not name.startswith(".") and name == f"{grid.digest()}.json"
    assert saved_name(Grid(("..",), id="puzzle-17.a")) == "puzzle-17.a.json"


@pytest.mark.parametrize("args", [["--m", "1..10000000000"], ["--m", "1..1001", "--n", "3"], ["--n", "9" * 5000], ["--m", "0..2"]])
def test_table_ranges_are_checked_before_any_list_is_built(args):
    started = time.perf_counter()
    assert_cli_refuses(runner.invoke(COMMAND, ["tiling", "table", *args]), "values run 1..1000", started=started, seconds=2)


@pytest.mark.parametrize("seed", [-1, 2**31, 10**20, -(10**20)])
def test_a_seed_outside_the_shared_range_is_named_and_the_kernels_take_any(seed):
    """CP-SAT's seed is 32-bit: outside 0..2**31-1 a named error (as for every method,
    tests/test_contract_hostile.py), inside it an answer. The tiling kernels themselves
    fold any integer into their generator's range."""
    grid = PUZZLE.parse("....\n.#..\n....\n....\n")
    with pytest.raises(InvalidInstance, match="seed: expected"):
        PUZZLE.solve(grid, "cpsat", budget=5, seed=seed, threads=1)
    assert PUZZLE.solve(grid, "cpsat", budget=5, seed=seed % 2**31, threads=1).verified
    free = np.ones((12, 20), dtype=bool)
    squares, _ = improve_by_random_windows(free, greedy_tiling(free)[1], budget=Budget(0.2), seed=seed)
    assert painted_ok(Grid.from_array(free), squares)
