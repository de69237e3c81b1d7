"""The CLI contract on a toy puzzle: verbs, JSON output, exit statuses, help texts."""

import json

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.store import Store
from puzzlelab.puzzles import REGISTRY
from support.toy_puzzle import Toy

runner = CliRunner()


@pytest.fixture
def app(monkeypatch):
    monkeypatch.setitem(REGISTRY, "toy", Toy())
    return cli.build_app()


def test_help_lists_commands_and_every_command_has_an_example(app):
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("records", "tour", "bench", "toy"):
        assert command in result.output
    for args in (["records"], ["tour"], ["bench"], ["toy", "solve"], ["toy", "verify"], ["toy", "catalog"]):
        text = runner.invoke(app, args + ["--help"]).output
        assert "Example: puzzlelab" in text, args
    solve_help = runner.invoke(app, ["toy", "solve", "--help"]).output
    assert "dp (default): exact dynamic programme" in solve_help and "--largest-first" in solve_help


def test_version():
    result = runner.invoke(cli.app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("puzzlelab ")


def test_solve_json_contract_and_store(app):
    result = runner.invoke(app, ["toy", "solve", "small", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("puzzle", "instance", "value", "status", "bound", "method", "solution", "stats", "verified"):
        assert key in data
    assert data["value"] == 2 and data["status"] == "optimal" and data["verified"] is True
    assert "seconds" in data["stats"]
    assert [r.value for r in Store().best("toy")] == [2]


def test_method_options_from_the_command_line(app):
    ok = runner.invoke(app, ["toy", "solve", "small", "--method", "greedy", "--no-largest-first", "--json", "--no-store"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["value"] == 11
    bad = runner.invoke(app, ["toy", "solve", "small", "--method", "greedy", "--ring", "3"])
    assert bad.exit_code == 2 and "--ring" in bad.output and "--largest-first" in bad.output
    assert Store().count() == 0


def test_exit_statuses(app, tmp_path):
    assert runner.invoke(app, ["toy", "solve", "banana"]).exit_code == 2
    assert runner.invoke(app, ["toy", "solve", "small", "--method", "nope"]).exit_code == 2
    none = runner.invoke(app, ["toy", "solve", "7 4 6"])
    assert none.exit_code == 1 and "no answer" in none.output
    liar = Toy(with_liar=True)
    REGISTRY["toy"] = liar
    wrong = runner.invoke(cli.build_app(), ["toy", "solve", "small", "--method", "liar"])
    assert wrong.exit_code == 3 and "rejected" in wrong.output


def test_solve_from_stdin_and_svg(app, tmp_path):
    svg = tmp_path / "p.svg"
    result = runner.invoke(app, ["toy", "solve", "-", "--svg", str(svg)], input='{"coins": [1, 3, 4], "target": 6}')
    assert result.exit_code == 0, result.output
    assert "coins 2" in result.output and "verified" in result.output and svg.read_text().startswith("<svg")


def test_verify_command(app, tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text("[5, 6]")
    bad.write_text("[5, 5]")
    assert runner.invoke(app, ["toy", "verify", "small", str(good)]).exit_code == 0
    rejected = runner.invoke(app, ["toy", "verify", "small", str(bad)])
    assert rejected.exit_code == 1 and "INVALID" in rejected.output and "sum to 10" in rejected.output
    assert runner.invoke(app, ["toy", "verify", "small", str(tmp_path / "missing")]).exit_code == 2


def test_catalog_records_and_tour(app, tmp_path):
    assert "small" in runner.invoke(app, ["toy", "catalog"]).output
    tour = runner.invoke(app, ["tour", "--out", str(tmp_path), "--warm-up"])
    assert tour.exit_code == 0, tour.output
    assert "toy" in tour.output and "verified" in tour.output and (tmp_path / "toy.svg").exists()
    assert tour.output.count("kernels compiled") == len(REGISTRY)  # make install's warm-up ran each hook
    records = runner.invoke(app, ["records", "--puzzle", "toy", "--json"])
    assert [r["value"] for r in json.loads(records.stdout)] == [2]
    assert runner.invoke(app, ["records", "--puzzle", "nope"]).exit_code == 2


def test_store_error_is_reported_not_raised(app, tmp_path, monkeypatch):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"garbage" * 200)
    monkeypatch.setenv("PUZZLELAB_DB", str(bad))
    result = runner.invoke(app, ["records"])
    assert result.exit_code == 4 and "damaged" in result.output
