"""The CLI verbs of the MacMahon puzzle: solve (generic), count, verify, pictures."""

import json

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.store import Store
from puzzlelab.puzzles.macmahon import PUZZLE
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import verify

runner = CliRunner()


@pytest.mark.slow  # tens of seconds; run with `make test-all`
def test_count_json_contract_and_store():
    result = runner.invoke(cli.app, ["macmahon", "count", "2x3", "--border", "free", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["total"] == 416 and data["verified"] is True
    assert set(data["classes"]) == {"full", "rotations", "board", "colours"}
    assert data["classes"]["full"] * data["group_orders"]["full"] >= data["total"]
    assert [r.value for r in Store().best("macmahon")] == [416]


def test_count_lists_checked_representatives(tmp_path):
    target = tmp_path / "classes.jsonl"
    result = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--list", str(target), "--list-group", "board", "--json", "--no-store"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    lines = target.read_text().splitlines()
    assert len(lines) == data["classes"]["board"] == data["listed"]["classes"]
    inst = parse_instance("2x3/free")
    assert all(verify(inst, json.loads(line)).ok for line in lines)


def test_count_with_custom_group_and_bad_input():
    ok = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--group", "rot180", "--json", "--no-store"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["classes"]["custom"] == json.loads(ok.stdout)["classes"]["rotations"]
    bad = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--group", "rot90"])
    assert bad.exit_code == 2 and "rot90" in bad.output
    bad = runner.invoke(cli.app, ["macmahon", "count", "4x5"])
    assert bad.exit_code == 2 and "cells" in bad.output


def test_solve_and_verify_round_trip(tmp_path):
    result = runner.invoke(cli.app, ["macmahon", "solve", "4x6", "--method", "first", "--json", "--no-store", "--svg", str(tmp_path / "s.svg")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verified"] and data["value"] == 1
    svg = (tmp_path / "s.svg").read_text()
    assert svg.count("<polygon") >= 24 * 5  # four triangles and an outline per square
    sol = tmp_path / "sol.json"
    sol.write_text(json.dumps(data["solution"]))
    checked = runner.invoke(cli.app, ["macmahon", "verify", "4x6", str(sol)])
    assert checked.exit_code == 0 and "valid" in checked.output
    broken = data["solution"]
    tiles = parse_instance("4x6").tiles
    # turn the first piece whose quarter turn changes its colours (a one-colour piece
    # turned is still the same placement)
    row, col = next((r, c) for r in range(4) for c in range(6) if len(set(tiles[broken[r][c][0]])) > 1)
    broken[row][col][1] = (broken[row][col][1] + 1) % 4
    sol.write_text(json.dumps(broken))
    assert runner.invoke(cli.app, ["macmahon", "verify", "4x6", str(sol)]).exit_code == 1


def test_catalog_and_pictures():
    result = runner.invoke(cli.app, ["macmahon", "catalog", "--json"])
    assert "4x6" in json.loads(result.stdout) and "hex2" in json.loads(result.stdout)
    tiles_svg = PUZZLE.render_svg(parse_instance("4x6"), None)
    assert tiles_svg.count("<polygon") == 24 * 5 and "WWWW" in tiles_svg
    triangles = PUZZLE.render_svg(parse_instance("hex2"), None)
    assert triangles.count("<polygon") == 24 * 4
