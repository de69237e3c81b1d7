"""The hexagon verbs through the real CLI: solve with method options, verify a file or
standard input, score a submission, bad input, catalog and published figures."""

import json

from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.store import Store
from puzzlelab.puzzles.hexagon import PUZZLE

runner = CliRunner()
OPTIMAL_3 = "(3,1,4), (4,2,3,2), (1,6,5,1,4), (3,7,4,3), (2,1,2)"


def test_solve_with_declared_options_json():
    result = runner.invoke(cli.app, ["hexagon", "solve", "5", "--method", "sat", "--ring", "4", "--inner", "1", "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["puzzle"] == "hexagon" and data["instance"] == "5" and data["verified"]
    assert data["stats"]["cell_sum"] - 61 == data["value"]
    assert data["stats"]["penalty"] == len(data["stats"]["penalty_edges"]) == 156 - data["value"]
    assert data["solution"].startswith("(") and data["solution"].count("(") == 9
    assert "--ring 4 --inner 1" in data["stats"]["proven"]
    assert Store().best("hexagon")[0].value == data["value"]


def test_solve_default_method_proves_small_order_and_draws(tmp_path):
    picture = tmp_path / "hex.svg"
    result = runner.invoke(cli.app, ["hexagon", "solve", "3", "--svg", str(picture), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "raw score 39  [optimal]" in result.stdout
    assert picture.read_text().startswith("<svg")


def test_verify_file_and_stdin(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(OPTIMAL_3 + "\n")
    result = runner.invoke(cli.app, ["hexagon", "verify", "3", str(good)])
    assert result.exit_code == 0 and "raw score 39" in result.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text(OPTIMAL_3.replace("(2,1,2)", "(2,1,5)"))
    result = runner.invoke(cli.app, ["hexagon", "verify", "3", str(bad)])
    assert result.exit_code == 1 and "row 4, cell 3 holds 4 but no neighbour holds 2" in result.stdout
    # a grid given as the instance itself, from standard input
    result = runner.invoke(cli.app, ["hexagon", "solve", "-", "--method", "improve", "--rounds", "2", "--json", "--quiet"], input=OPTIMAL_3)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["value"] == 39


def _said(result):
    return " ".join(result.output.split())  # the console wraps long lines


def test_bad_input_exit_2_with_row_and_cell():
    result = runner.invoke(cli.app, ["hexagon", "solve", "(1,2), (1,2,x), (1,2)"])
    assert result.exit_code == 2 and "row 2, cell 3: expected a positive integer" in _said(result)
    result = runner.invoke(cli.app, ["hexagon", "solve", "0"])
    assert result.exit_code == 2 and "order n >= 1" in _said(result)
    result = runner.invoke(cli.app, ["hexagon", "solve", "5", "--method", "sat", "--break", "7"])
    assert result.exit_code == 2 and "--break" in _said(result)
    result = runner.invoke(cli.app, ["hexagon", "solve", "9999"])
    assert result.exit_code == 2 and "maximum" in _said(result)


def test_score_a_whole_submission(tmp_path):
    sub = tmp_path / "submission.txt"
    sub.write_text("(1);\n" + OPTIMAL_3 + ";\n(1,1),(1,2,1),(1,1)")
    result = runner.invoke(cli.app, ["hexagon", "score", str(sub), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["n"], r["raw"], r["published"]) for r in rows] == [(1, 0, None), (3, 39, 39), (2, 1, None)]


def test_catalog_and_published_figures():
    catalog = PUZZLE.catalog()
    assert list(catalog) == [str(n) for n in range(1, 28)]
    assert "proven optimal raw score 902" in catalog["11"] and "best known raw score 6077" in catalog["27"]
    assert PUZZLE.published("12") == {
        "value": 1090,
        "proven": False,
        "source": "Al Zimmermann's Programming Contest, Hexagonal Neighbors (2018-2019)",
        "penalty": 32,
        "cpu": "1.9s",
        "arguments": "-r 4",
    }
    assert PUZZLE.parse(PUZZLE.format_instance(PUZZLE.parse(OPTIMAL_3))) == PUZZLE.parse(OPTIMAL_3)


def test_count_verb():
    result = runner.invoke(cli.app, ["hexagon", "count", "3", "--levels", "1..2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[-1])["levels"] == {"1": {"penalty": 2, "count": 6}, "2": {"penalty": 3, "count": 48}}


def test_count_read_back_from_a_checkpoint_says_so(tmp_path):
    args = ["hexagon", "count", "3", "--levels", "1..2", "--checkpoint", str(tmp_path / "dp")]
    first = runner.invoke(cli.app, args)
    again = runner.invoke(cli.app, args)
    assert first.exit_code == again.exit_code == 0, again.output
    lines = [line for line in again.stdout.splitlines() if line.startswith("n=3 level")]
    assert "read back" not in first.stdout and len(lines) == 2
    assert all(f"read back from {tmp_path / 'dp'}, not counted now" in line for line in lines)
    assert [line.split("  (")[0] for line in lines] == ["n=3 level 1: lowest penalty 2, 6 grids", "n=3 level 2: lowest penalty 3, 48 grids"]
