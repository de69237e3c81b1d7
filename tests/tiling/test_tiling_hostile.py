"""Hostile input for the tiling puzzle: whatever comes in as an instance or a
solution -- bytes, text, JSON, numbers of 5,000 digits, NaN, deep nesting, tilings
that are nearly right -- the answer is a one-line InvalidInstance or a Verdict, and a
Verdict that says valid is right by an oracle written here (the squares painted on the
grid one cell at a time). Regression tests for each case of the issue in this area:
the memory refusals (cpsat on 1000 x 1000 at once and without allocating), 413 for
oversized instances, output paths checked before the work."""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import typer
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
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
from support.text_strategies import text

runner = CliRunner()
COMMAND = typer.main.get_command(cli.app)  # built once: typer's runner rebuilds it per call (0.1 s)

# Built on demand: hypothesis cannot print a strategy holding an int of 5,000 digits.
HOSTILE_NUMBERS = {
    "10**5000": lambda: 10**5000,
    "-10**5000": lambda: -(10**5000),
    "10**40": lambda: 10**40,
    "2**63": lambda: 2**63,
    "-1": lambda: -1,
    "0": lambda: 0,
    "nan": lambda: math.nan,
    "inf": lambda: math.inf,
    "-inf": lambda: -math.inf,
    "1e300": lambda: 1e300,
    "3.0": lambda: 3.0,
}
hostile_numbers = st.sampled_from(sorted(HOSTILE_NUMBERS)).map(lambda name: HOSTILE_NUMBERS[name]())
KEYS = ["id", "width", "height", "puzzle", "squares", "X", "Y", "Size"]
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 1005)
    | hostile_numbers
    | st.floats(allow_nan=True, allow_infinity=True)
    | text(12)
    | st.sampled_from([".#", "..", "3x3", "1000x1000", "#", ""])
)
json_like = st.recursive(
    scalars, lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.sampled_from(KEYS) | text(6), kids, max_size=5), max_leaves=25
)
def json_text(obj) -> str:
    """JSON text of `obj`, its integers of thousands of digits written out (json.dumps,
    like str(), refuses them)."""

    def swap(value):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**4000:
            return "@HUGE-" if value < 0 else "@HUGE+"
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    digits = "1" + "0" * 5000
    return json.dumps(swap(obj)).replace('"@HUGE-"', "-" + digits).replace('"@HUGE+"', digits)


grid_text = st.text(alphabet=".#xX0123456789 \n\r\t-{}[]\",:", max_size=120) | text(120)


def assert_clear(exc: InvalidInstance) -> None:
    message = str(exc)
    assert message and "\n" not in message and len(message) < 600, message
    assert exc.status in (404, 413, 422), exc.status


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
    assert isinstance(verdict, Verdict) and verdict.message and "\n" not in verdict.message
    if verdict.ok:
        squares = as_triples(solution)
        assert squares is not None and painted_ok(grid, squares), (grid.rows, solution)
        assert verdict.value == len(squares)


# ----------------------------------------------------------------------------- fuzzing


@settings(deadline=None, max_examples=300)
@given(json_like)
def test_parse_anything_is_a_grid_or_a_clear_refusal(obj):
    try:
        grid = PUZZLE.parse(obj)
    except InvalidInstance as exc:
        assert_clear(exc)
        return
    assert isinstance(grid, Grid) and 1 <= grid.width <= 1000 and 1 <= grid.height <= 1000
    assert all(len(row) == grid.width and set(row) <= {".", "#"} for row in grid.rows)


@settings(deadline=None, max_examples=300)
@given(grid_text)
def test_load_any_text_is_a_grid_or_a_clear_refusal(spec):
    try:
        grid = PUZZLE.load(spec, local=False)
    except InvalidInstance as exc:
        assert_clear(exc)
        return
    assert isinstance(grid, Grid) and grid.width >= 1 and grid.height >= 1


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200) | st.sampled_from([b"\xff\xfe..", b"..\n\x00#", "٣x٣".encode(), b"\xef\xbb\xbf3x3"]))
def test_load_any_file_is_a_grid_or_a_clear_refusal(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "instance.txt"
        path.write_bytes(data)
        try:
            grid = PUZZLE.load(str(path))
        except InvalidInstance as exc:
            assert_clear(exc)
            return
    assert isinstance(grid, Grid)


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


def cli_output_is_clear(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    if result.exit_code == 2:
        errors = [line for line in result.output.splitlines() if line.startswith("error:")]
        assert len(errors) == 1, result.output


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=120) | grid_text.map(str.encode), st.binary(max_size=120) | json_like.map(lambda o: json_text(o).encode()))
def test_cli_verify_of_any_files_is_clear(instance, solution):
    with tempfile.TemporaryDirectory() as folder:
        instance_file, solution_file = Path(folder) / "p.txt", Path(folder) / "s.json"
        instance_file.write_bytes(instance)
        solution_file.write_bytes(solution)
        cli_output_is_clear(runner.invoke(COMMAND, ["tiling", "verify", str(instance_file), str(solution_file)]))


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(grid_text.filter(lambda s: not s.startswith("-")))
def test_cli_solve_of_any_text_is_clear(spec):
    result = runner.invoke(COMMAND, ["tiling", "solve", spec, "--method", "beam", "--budget", "0.5", "--no-store", "--quiet"])
    cli_output_is_clear(result)


# ----------------------------------------------------------------------------- regressions


@pytest.mark.parametrize(
    "spec",
    ["100000x100000", "1001x3", "3x1001", "1" + "0" * 5000 + "x3", "3x" + "9" * 40],
)
def test_oversized_text_instances_are_413_through_parse_and_load(spec):
    for read in (PUZZLE.parse, lambda s: PUZZLE.load(s, local=False), PUZZLE.load):
        with pytest.raises(InvalidInstance) as info:
            read(spec)
        assert info.value.status == 413
        assert_clear(info.value)


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
    assert_clear(info.value)


def test_deeply_nested_instance_and_solution():
    deep = [True]
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.parse({"puzzle": deep})
    assert_clear(info.value)
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.load("[" * 100_000 + "]" * 100_000, local=False)
    assert_clear(info.value)
    verdict = PUZZLE.verify(SMALL_GRIDS[0], {"squares": deep})
    assert not verdict.ok and "\n" not in verdict.message


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
    assert not verdict.ok and verdict.message and "\n" not in verdict.message


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
    assert result.exit_code == 2 and "candidate squares" in result.output
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


def test_svg_into_a_missing_folder_is_refused_before_solving(tmp_path):
    target = tmp_path / "missing" / "out.svg"
    result = runner.invoke(COMMAND, ["tiling", "solve", "contest_1", "--svg", str(target), "--no-store"])
    assert result.exit_code == 2 and "does not exist" in result.output and not target.parent.exists()


def test_contest_save_dir_is_checked_before_the_first_fetch(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = runner.invoke(
        COMMAND, ["tiling", "contest", "--server", "http://127.0.0.1:9", "--key", "k", "--save-dir", str(blocker)]
    )
    assert result.exit_code == 2 and "is a file" in result.output
    (tmp_path / "logs" / "contest-log.jsonl").mkdir(parents=True)
    result = runner.invoke(
        COMMAND, ["tiling", "contest", "--server", "http://127.0.0.1:9", "--key", "k", "--save-dir", str(tmp_path / "logs")]
    )
    assert result.exit_code == 2 and "is a folder" in result.output


@pytest.mark.parametrize("ident", ["../../etc/passwd", "/abs", ".hidden", "a/b", "", "x" * 300, "ok\x00"])
def test_a_server_never_chooses_the_saved_file(ident):
    grid = Grid(("..",), id=ident)
    name = saved_name(grid)
    assert os.sep not in name and not name.startswith(".") and name == f"{grid.digest()}.json"
    assert saved_name(Grid(("..",), id="puzzle-17.a")) == "puzzle-17.a.json"


def test_no_tiling_option_names_a_server_file_unmarked():
    for method in PUZZLE.methods.values():
        for option in method.options:
            if option.name in ("checkpoint", "backend", "address", "workdir", "path", "folder", "save_dir"):
                assert option.local_only, (method.name, option.name)


@pytest.mark.parametrize("args", [["--m", "1..10000000000"], ["--m", "1..1001", "--n", "3"], ["--n", "9" * 5000], ["--m", "0..2"]])
def test_table_ranges_are_checked_before_any_list_is_built(args):
    started = time.perf_counter()
    result = runner.invoke(COMMAND, ["tiling", "table", *args])
    assert result.exit_code == 2 and "values run 1..1000" in result.output and "Traceback" not in result.output
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize("seed", [-1, 2**31, 10**20, -(10**20)])
def test_a_seed_outside_the_shared_range_is_named_and_the_kernels_take_any(seed):
    """Every method of every puzzle takes seeds 0..2**31-1 (CP-SAT's is 32-bit; the REST
    model says the same); outside it a named error. The tiling kernels themselves fold
    any integer into their generator's range."""
    grid = PUZZLE.parse("....\n.#..\n....\n....\n")
    with pytest.raises(InvalidInstance, match="seed: expected"):
        PUZZLE.solve(grid, "cpsat", budget=5, seed=seed, threads=1)
    assert PUZZLE.solve(grid, "cpsat", budget=5, seed=seed % 2**31, threads=1).verified
    free = np.ones((12, 20), dtype=bool)
    squares, _ = improve_by_random_windows(free, greedy_tiling(free)[1], budget=Budget(0.2), seed=seed)
    assert painted_ok(Grid.from_array(free), squares)
