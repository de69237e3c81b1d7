"""The enumeration split into subtrees shipped through core.parallel (--backend), and
the published 4 x 6 count (slow: about a minute of search on one core)."""

import json

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.puzzles.macmahon.count_results import count_verified

runner = CliRunner()


def test_split_batch_equals_the_single_process_count():
    whole = count_verified("2x3/free", workers=1, split_depth=0)
    split = count_verified("2x3/free", workers=2, split_depth=3, backend="local")
    assert split["verified"] and split["complete"] and split["subtrees"] > whole["subtrees"]
    assert (split["total"], split["classes"]) == (whole["total"], whole["classes"])
    assert split["total"] == 416  # also the plain-Python backtracking count (test_macmahon_enumerate)


def test_count_verb_backend_and_symmetry_flags():
    with_sym = runner.invoke(cli.app, ["macmahon", "count", "hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR", "--workers", "2", "--backend", "local", "--json", "--no-store"])
    assert with_sym.exit_code == 0, with_sym.output
    data = json.loads(with_sym.stdout)
    plain = runner.invoke(cli.app, ["macmahon", "count", "hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR", "--no-symmetry", "--json", "--no-store"])
    assert plain.exit_code == 0, plain.output
    bare = json.loads(plain.stdout)
    assert bare["total"] == data["total"] and bare["classes"] == {} and data["classes"]["full"] < data["total"]
    bad = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--backend", "mars"])
    assert bad.exit_code == 2 and "backend" in bad.output


@pytest.mark.slow
def test_the_published_4x6_count():
    """CPLEX's solution pool (the write-up): 106,624 solutions, board held fixed."""
    result = count_verified("4x6", workers=2, split_depth=2)
    assert result["verified"] and result["complete"]
    assert result["total"] == 106_624
    # the group of order 8 (board symmetries x the red/blue swap) acts freely
    assert result["classes"]["full"] * 8 == result["total"]
    assert result["classes"]["board"] * 4 == result["total"]
