"""Hostile input for the MacMahon puzzle, beyond the rules every puzzle follows
(tests/test_contract_hostile.py): a grid the checker calls valid is confirmed by an
edge check written here (sharing no code with the checker), on grids one hostile edit
away from a solution, on lists of them and on any JSON or text; the own verb `count`
answers clean errors on any instance; a --checkpoint file that is not the count's own
is refused and left as it is; what cannot fit is refused up front with the figure;
messages stay short whatever the size of the value they quote.

Count certificates ({"kind": "count", ...}) are left out here: their checker is tested
on its own (tests/macmahon/verify/test_macmahon_verify.py)."""

from __future__ import annotations

import json

import click.testing
import pytest
import typer
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.macmahon import PUZZLE, enumerator
from puzzlelab.puzzles.macmahon.enumerator import codes_to_grid, list_solutions, split_units
from puzzlelab.puzzles.macmahon.model import Instance
from support.field_shapes import TEXT_SHAPES
from support.hostile_strategies import json_values
from support.rules import assert_clean_cli, assert_cli_refuses, assert_one_line_refusal, assert_one_line_verdict
from support.text_strategies import text

runner = CliRunner()
COMMAND = typer.main.get_command(cli.app)  # built once for the fuzz tests (see tests/coins)
fast = click.testing.CliRunner()

# Board specs as the CLI takes them, and any text.
instance_text = text(40) | TEXT_SHAPES["macmahon"]


# ------------------------------------------------------------------ grids


def edges_ok(inst: Instance, grid) -> bool:
    """A rectangle grid checked plainly: rows x cols entries [piece, rotation], each
    piece as often as the instance has it, the colour on side s of a cell turned r
    steps is edges[(s - r) % 4] (top, right, bottom, left), neighbours agree, the
    border (unless free) has the border colour."""
    rows, cols = (int(v) for v in inst.board_name.split("x"))
    if isinstance(grid, dict):
        grid = grid.get("grid")
    if not isinstance(grid, list) or len(grid) != rows or not all(isinstance(row, list) and len(row) == cols for row in grid):
        return False
    side = {}
    used = [0] * len(inst.tiles)
    for i, row in enumerate(grid):
        for j, entry in enumerate(row):
            if not isinstance(entry, list) or len(entry) != 2 or not all(type(v) is int for v in entry):
                return False
            piece, turn = entry
            if not (0 <= piece < len(inst.tiles) and 0 <= turn < 4):
                return False
            used[piece] += 1
            for s in range(4):
                side[i, j, s] = inst.tiles[piece][(s - turn) % 4]
    if used != list(inst.counts):
        return False
    for i in range(rows):
        for j in range(cols):
            if j + 1 < cols and side[i, j, 1] != side[i, j + 1, 3]:
                return False
            if i + 1 < rows and side[i, j, 2] != side[i + 1, j, 0]:
                return False
            on_border = [s for s, out in ((0, i == 0), (1, j == cols - 1), (2, i == rows - 1), (3, j == 0)) if out]
            if inst.border is not None and any(side[i, j, s] != inst.border for s in on_border):
                return False
    return True


def by_index(inst: Instance, grid):
    """The grid with piece names (which the checker takes too) as indices, for edges_ok."""
    names = inst.tile_names()
    grid = json.loads(json.dumps(grid))
    for row in grid.get("grid", []) if isinstance(grid, dict) else grid if isinstance(grid, list) else []:
        for entry in row if isinstance(row, list) else []:
            if isinstance(entry, list) and entry and isinstance(entry[0], str) and entry[0].upper() in names:
                entry[0] = names.index(entry[0].upper())
    return grid


SMALL = [PUZZLE.parse(name) for name in ("2x3/free", "2x3/c2", "2x2/c2/free/tiles=WWWR,WWRR,WRWR,RRRR", "1x1/c1")]
SOLUTIONS = {inst.board_name + str(inst.border) + str(inst.counts): [codes_to_grid(inst, row) for row in list_solutions(inst)] for inst in SMALL}


@st.composite
def edited_grids(draw):
    """(instance, grid): a solution of a small instance (a random grid when it has
    none), then maybe a hostile edit."""
    inst = draw(st.sampled_from(SMALL))
    solutions = SOLUTIONS[inst.board_name + str(inst.border) + str(inst.counts)]
    rows, cols = (int(v) for v in inst.board_name.split("x"))
    if solutions and draw(st.booleans()):
        grid = json.loads(json.dumps(draw(st.sampled_from(solutions))))
    else:
        grid = [[[draw(st.integers(0, len(inst.tiles) - 1)), draw(st.integers(0, 3))] for _ in range(cols)] for _ in range(rows)]
    i, j = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
    edit = draw(st.sampled_from(["none"] * 4 + ["turn", "piece", "swap", "huge", "negative", "type", "name", "short", "long", "wrap"]))
    if edit == "turn":
        grid[i][j][1] = draw(st.integers(-1, 5))
    elif edit == "piece":
        grid[i][j][0] = draw(st.integers(-1, len(inst.tiles)))
    elif edit == "swap":
        a, b = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        grid[i][j], grid[a][b] = grid[a][b], grid[i][j]
    elif edit == "huge":
        grid[i][j][draw(st.integers(0, 1))] = draw(st.sampled_from([10**29, 2**63, -(2**63)]))
    elif edit == "negative":
        grid[i][j] = [-1, -1]
    elif edit == "type":
        grid[i][j] = draw(st.sampled_from([[1.0, 0], [True, 0], [0, "1"], [0], [0, 0, 0], None, "WWWW", {"piece": 0}]))
    elif edit == "name":
        grid[i][j][0] = draw(st.sampled_from(["wwww", "WWWR", "²", "", "RRRR", "WRWR"]))
    elif edit == "short":
        grid[i].pop()
    elif edit == "long":
        grid.append(list(grid[0]))
    elif edit == "wrap":
        grid = {"grid": grid}
    return inst, grid


@given(edited_grids())
@settings(max_examples=400, deadline=None)
def test_well_formed_but_wrong_grids_get_the_edge_check_verdict(case):
    inst, grid = case
    verdict = PUZZLE.verify(inst, grid)
    assert_one_line_verdict(verdict)
    assert verdict.ok == edges_ok(inst, by_index(inst, grid)), verdict.message


@given(st.lists(edited_grids(), min_size=1, max_size=4), st.booleans())
@settings(max_examples=100, deadline=None)
def test_lists_of_solutions_are_all_checked_and_distinct(cases, repeat):
    inst = cases[0][0]
    grids = [grid for other, grid in cases if other is inst]
    if repeat:
        grids.append(grids[0])
    verdict = PUZZLE.verify(inst, {"solutions": grids})
    distinct = len({json.dumps(g) for g in grids}) == len(grids)
    if verdict.ok:
        assert all(edges_ok(inst, by_index(inst, g)) for g in grids) and distinct and verdict.value == len(grids)


@given(st.one_of(json_values(("board", "colours", "colors", "border", "tiles", "rows", "cols", "grid", "solutions")), text(80)))
@settings(max_examples=300, deadline=None)
def test_arbitrary_json_or_text_as_a_solution(solution):
    assume(not (isinstance(solution, dict) and solution.get("kind") == "count"))
    for inst in SMALL[:2]:
        verdict = PUZZLE.verify(inst, solution)
        assert_one_line_verdict(verdict)
        if verdict.ok and "solutions" not in (solution if isinstance(solution, dict) else {}):
            assert edges_ok(inst, by_index(inst, solution))


# ------------------------------------------------------------------ the command line


@given(instance_text.filter(lambda s: "\x00" not in s and s.strip() and not s.startswith("-")))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cli_count_on_arbitrary_instances(spec):
    assert_clean_cli(fast.invoke(COMMAND, ["macmahon", "count", spec, "--budget", "1", "--no-store", "--border", "free"]))


@pytest.mark.parametrize(
    "args, words",
    [
        (["macmahon", "solve", "WWWR*²"], "expected a board"),
        (["macmahon", "solve", "3x3/c3/tiles=WWWR*²"], "NAME*COUNT"),
        (["macmahon", "solve", "2x3/c²"], "instance"),
        (["macmahon", "count", "4x6", "--border", "²"], "unknown colour"),
        (["macmahon", "solve", "2x3/free", "--checkpoint", "{bin}"], "not the checkpoint of a macmahon count"),
        (["macmahon", "count", "2x3/free", "--checkpoint", "{bin}"], "not UTF-8"),
        (["macmahon", "count", "2x3/free", "--checkpoint", "{text}"], "not valid JSON"),
        (["macmahon", "count", "2x3/free", "--checkpoint", "{other}"], "JSON of another kind"),
        (["macmahon", "count", "2x3/free", "--checkpoint", "{folder}"], "not a file"),
        (["macmahon", "count", "2x3/free", "--checkpoint", "{folder}/no/such/ck.json"], "does not exist"),
        (["macmahon", "count", "2x3/free", "--list", "{folder}/no/such/list.jsonl"], "does not exist"),
        (["macmahon", "count", "2x3/free", "--workers", "100000"], "at most 256"),
        (["macmahon", "count", "2x3/free", "--split-depth", "1000000"], "at most 64"),
        (["macmahon", "verify", "2x3/free", "{bin}"], "not UTF-8"),
        (["macmahon", "verify", "2x3/free", "{deep}"], "nested"),
        (["macmahon", "verify", "{bin}", "{deep}"], "not UTF-8"),
        (["macmahon", "solve", "29x36/c8/free", "--method", "mip"], "4,276,224 placement variables"),
        (["macmahon", "solve", "29x36/c8/free", "--method", "cpsat"], "more than the 300,000"),
        (["macmahon", "solve", "99999999999999999999999x2"], "more than the 2048 allowed"),
    ],
)
def test_cli_regressions_are_clear_errors(tmp_path, args, words):
    files = {"bin": b"\xff\xfe\x00\x80binary", "text": b"a checkpoint? no", "other": b'{"total": 5}', "deep": b"[" * 100_000 + b"]" * 100_000}
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    args = [a.format(folder=tmp_path, **{name: tmp_path / name for name in files}) for a in args]
    assert_cli_refuses(fast.invoke(COMMAND, args), words)
    for name, content in files.items():
        assert (tmp_path / name).read_bytes() == content  # refused files are left as they were


@pytest.mark.parametrize("verb", ["solve", "count"])
def test_a_one_cell_board_is_counted(verb):
    result = runner.invoke(cli.app, ["macmahon", verb, "1x1/c1", "--no-store"])
    assert_clean_cli(result)
    assert result.exit_code == 0 and "1" in result.output, result.output


# ------------------------------------------------------------------ checkpoints, memory


def test_a_checkpoint_resumes_its_own_count_and_refuses_another(tmp_path):
    path = tmp_path / "count.json"
    first = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--checkpoint", str(path), "--no-store", "--json"])
    assert first.exit_code == 0, first.output
    state = json.loads(path.read_text())
    assert state["kind"] == "macmahon-count" and len(state["done"]) == json.loads(first.stdout)["stats"]["subtrees"]
    again = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--checkpoint", str(path), "--no-store", "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["total"] == 416
    shown = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--checkpoint", str(path), "--no-store"])
    subtrees = len(state["done"])  # every one read back, and the line says so
    assert shown.exit_code == 0 and f"({subtrees} of {subtrees} subtrees read back from the checkpoint, not counted now)" in shown.stdout
    before = path.read_bytes()
    other = runner.invoke(cli.app, ["macmahon", "count", "2x3/c2", "--checkpoint", str(path), "--no-store"])
    assert other.exit_code == 2 and "another count" in other.output and path.read_bytes() == before
    name = next(iter(state["done"]))
    part = state["done"][name]
    group, sizes = next((g, h) for g, h in part["hist"].items() if h)
    size = next(iter(sizes))
    forged_counts = [{**sizes, size: value} for value in (True, -1, 1.5, "2")]
    for forged in [{"total": "many"}, {"total": True}, {"total": -3}, {"seconds": False}, {"fix": [True] * len(part["fix"])}] + [
        {"hist": {**part["hist"], group: counts}} for counts in forged_counts
    ]:
        path.write_text(json.dumps(dict(state, done={name: dict(part, **forged)})))
        result = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--checkpoint", str(path), "--no-store"])
        assert result.exit_code == 2 and "damaged" in result.output, forged


def test_splitting_is_bounded_in_subtrees_and_time(monkeypatch):
    inst = PUZZLE.parse("2x3/free")
    units = enumerator.plan_units(inst)
    big = PUZZLE.parse("4x6")
    assert split_units(big, enumerator.plan_units(big), 20, budget=Budget(0)) is None  # the budget ended
    monkeypatch.setattr(enumerator, "MAX_UNITS", 10)
    with pytest.raises(InvalidInstance) as info:
        split_units(inst, units, 4)
    assert info.value.status == 413 and "split-depth" in str(info.value)


def test_big_boards_take_small_blocks():
    assert enumerator.block_rows(24) == enumerator.BLOCK
    assert enumerator.block_rows(2048) * 2048 * 8 <= 4 * 2**20


def test_error_messages_stay_short_on_huge_values():
    huge = "W" * 1_000_000
    for spec in ({"board": "2x3", "tiles": [huge]}, {"board": "2x3", "border": huge}, {"board": "2x3", huge: 1}, f"2x3/{huge}=1"):
        with pytest.raises(InvalidInstance) as info:
            PUZZLE.parse(spec)
        assert_one_line_refusal(info.value)
        assert len(str(info.value)) < 300


def test_a_count_stopped_before_its_first_solution_is_not_complete():
    """Found by the CLI fuzzing: with the row order and a short budget the enumerator
    came back 'complete, 0 solutions' after searching 0 nodes on 4 x 6 (106,624)."""
    from puzzlelab.puzzles.macmahon import PUZZLE as MACMAHON

    result = MACMAHON.solve(MACMAHON.load("4x6"), "enumerate", budget=0.01, order="rows", symmetry=False)
    assert not result.solution["complete"] and result.status.value != "optimal"
