"""The batch verb: SAT settings for several orders through core.parallel, every answer
verified on the driver, proofs from unrestricted tasks, bad options refused."""

import json

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.result import Status
from puzzlelab.core.store import Store
from puzzlelab.puzzles.hexagon import PUZZLE
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count
from puzzlelab.puzzles.hexagon.reference import published_table
from puzzlelab.puzzles.hexagon.sat.batch import batch_settings, run_batch

runner = CliRunner()


def test_batch_proves_small_orders_and_verifies_on_the_driver():
    rows = run_batch([4, 3], settings="unrestricted", budget=120, workers=2)
    assert [row["n"] for row in rows] == [4, 3]
    for row in rows:
        published = int(published_table()[row["n"]]["best_raw_score"])
        assert row["status"] == "optimal" and row["raw"] == published and row["reached"]
        assert row["lower"] == row["penalty"] == edge_count(row["n"]) - published
        assert row["result"].verified and row["result"].status is Status.OPTIMAL
        # the independent checker agrees with the text itself
        assert PUZZLE.verify(HexInstance(row["n"]), row["solution"]).value == published


def test_batch_settings_follow_the_published_arguments():
    assert batch_settings(7, "published") == [{"ring": 4, "inner": 1}]
    assert batch_settings(3, "published") == [{}]
    portfolio = batch_settings(10, "portfolio")
    assert portfolio[0] == {"ring": 5, "inner": 6, "break": 2}
    assert {"levels": 3, "lower_only": True} in portfolio
    with pytest.raises(ValueError, match="settings"):
        batch_settings(7, "fastest")


def test_batch_verb_prints_json_lines_and_stores():
    result = runner.invoke(cli.app, ["hexagon", "batch", "--orders", "3,4", "--settings", "unrestricted", "--budget", "120", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert sorted(row["n"] for row in rows) == [3, 4]
    assert all(row["verified"] and row["status"] == "optimal" for row in rows)
    best = {record.instance: record.value for record in Store().best("hexagon")}
    assert best == {"3": 39, "4": 87}


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--backend", "spark"], "backend: expected one of local, ray"),
        (["--settings", "fastest"], "settings: expected one of"),
        (["--orders", "0..3"], "orders: expected orders between 1"),
        (["--budget", "0"], "budget: expected a positive"),
    ],
)
def test_batch_verb_refuses_bad_options(arguments, message):
    result = runner.invoke(cli.app, ["hexagon", "batch", *arguments])
    assert result.exit_code == 2
    assert message in result.output
