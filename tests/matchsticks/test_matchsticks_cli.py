"""The command line: solve / verify / catalog / table for matchsticks, exit statuses."""

import json

import pytest
from matchsticks_oracles import published_drawings, published_rows
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.store import Store

runner = CliRunner()


@pytest.fixture(scope="module")
def app():
    return cli.build_app()


def test_solve_full_json_with_count(app):
    result = runner.invoke(app, ["matchsticks", "solve", "16", "--method", "full", "--json", "--count-solutions", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["value"] == 190 and data["status"] == "optimal" and data["verified"] is True
    assert data["stats"]["optimal_solutions"] == 4
    assert [r.value for r in Store().best("matchsticks")] == [190]


def test_solve_prints_the_drawing_and_classification(app):
    result = runner.invoke(app, ["matchsticks", "solve", "4", "--method", "full", "--quiet", "--no-store"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "n=4: best score 26"
    assert "\n".join(lines[1:6]) == "\n".join(published_drawings()[3])
    assert lines[6] == "26 matchsticks"
    assert "[optimal]" in lines[-1] and "verified" in lines[-1]


def test_bad_input_exits_2_with_the_field_named(app):
    too_big = runner.invoke(app, ["matchsticks", "solve", "64"])
    assert too_big.exit_code == 2 and "0..63" in too_big.output
    roam = runner.invoke(app, ["matchsticks", "solve", "40", "--method", "full", "--roam", "12"])
    assert roam.exit_code == 2 and "--roam" in roam.output
    option = runner.invoke(app, ["matchsticks", "solve", "5", "--method", "greedy", "--free-below", "3"])
    assert option.exit_code == 2 and "--free-below" in option.output


def test_verify_a_published_drawing_and_a_wrong_solution(app, tmp_path):
    drawing = tmp_path / "n21.txt"
    drawing.write_text("\n".join(published_drawings()[5]) + "\n")
    ok = runner.invoke(app, ["matchsticks", "verify", "21", str(drawing)])
    assert ok.exit_code == 0 and "matches 282" in ok.stdout
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"squares": [[3, 0, 0], [2, 0, 0]]}))
    bad = runner.invoke(app, ["matchsticks", "verify", "3", str(wrong)])
    assert bad.exit_code == 1 and "missing sizes 1" in bad.stdout


def test_table_prints_ours_beside_the_published_column(app):
    result = runner.invoke(app, ["matchsticks", "table", "--n", "1..12,18", "--method", "greedy", "--no-store"])
    assert result.exit_code == 0, result.output
    rows = published_rows()
    body = [line.split() for line in result.stdout.splitlines()[1:-1]]
    assert [int(r[0]) for r in body] == list(range(1, 13)) + [18]
    for r in body:
        n, ours, published = int(r[0]), int(r[1]), int(r[3])
        assert published == rows[n]["greedy_best"] and ours == published and r[4] == "="
    assert result.stdout.splitlines()[-1].startswith("13 of 13 equal the published greedy_best")
    bad = runner.invoke(app, ["matchsticks", "table", "--n", "5..1"])
    assert bad.exit_code == 2


def test_catalog_and_help(app):
    catalog = runner.invoke(app, ["matchsticks", "catalog", "--json"])
    assert catalog.exit_code == 0 and json.loads(catalog.stdout)["46"].startswith("squares 1x1..46x46: 909")
    help_text = runner.invoke(app, ["matchsticks", "solve", "--help"]).output
    for word in ("--free-below", "--count-solutions", "--max-added", "--roam", "--checkpoint", "auto (default)"):
        assert word in help_text
    assert "Example: puzzlelab matchsticks table" in runner.invoke(app, ["matchsticks", "table", "--help"]).output


def test_table_jobs_ship_each_n_through_core_parallel(app):
    result = runner.invoke(app, ["matchsticks", "table", "--n", "3..8", "--method", "full", "--jobs", "2", "--json", "--no-store"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    published = published_rows()
    assert [r["n"] for r in rows] == list(range(3, 9))
    for r in rows:
        assert r["verified"] and r["status"] == "optimal" and r["value"] == published[r["n"]]["best_known"]
    bad = runner.invoke(app, ["matchsticks", "table", "--n", "3", "--backend", "cloud"])
    assert bad.exit_code == 2 and "--backend" in bad.output


def test_a_bounded_search_run_to_the_end_says_none_exists_not_that_time_ran_out(app):
    from puzzlelab.cli.errors import EXIT_NO_ANSWER

    rows = published_rows()
    optimum = rows[12]["best_known"]  # proven: no search, restricted or not, goes below it
    below = runner.invoke(app, ["matchsticks", "solve", "12", "--method", "full", "--bound", str(optimum - 1), "--no-store"])
    assert below.exit_code == EXIT_NO_ANSWER
    assert f"the search is complete: no answer of at most {optimum - 1} matches exists where every square lies inside" in below.output
    at = runner.invoke(app, ["matchsticks", "solve", "12", "--method", "full", "--bound", str(optimum), "--json", "--quiet", "--no-store"])
    assert at.exit_code == 0 and json.loads(at.stdout)["value"] == optimum
    restricted = runner.invoke(app, ["matchsticks", "solve", "12", "--method", "greedy", "--slack", "1", "--bound", str(optimum - 1), "--json", "--quiet", "--no-store"])
    assert restricted.exit_code == EXIT_NO_ANSWER
    assert json.loads(restricted.stdout)["stats"]["no_answer"].endswith(f"at most {optimum - 1} matches exists in the restricted search (greedy --slack 1)")
    # stopped by its budget, a bounded search claims nothing
    stopped = runner.invoke(app, ["matchsticks", "solve", "30", "--method", "full", "--bound", str(rows[30]["best_known"] - 10), "--budget", "0.05", "--no-store"])
    assert stopped.exit_code == EXIT_NO_ANSWER and "no answer found within the budget" in stopped.output
