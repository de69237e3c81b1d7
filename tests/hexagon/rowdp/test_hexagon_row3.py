"""The row3 store against the row DP (its counts by penalty are the oracle: a grid
rebuilt from chunks is a valid level grid, so no store can count more), round trips of
its text, the backtracking method against the published optimum."""

import numpy as np
import pytest

from puzzlelab.core.result import Status
from puzzlelab.puzzles.hexagon import PUZZLE
from puzzlelab.puzzles.hexagon.model import HexInstance, hexagon
from puzzlelab.puzzles.hexagon.reference import published_raw
from puzzlelab.puzzles.hexagon.rowdp.dp import level_counts, level_grids
from puzzlelab.puzzles.hexagon.rowdp.row3 import _images, canonical, from_array, from_grids, mine, read_store
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import rule_violation


def test_store_rebuilds_exactly_the_grids_it_was_built_from():
    grids = level_grids(4, 4, 4)
    store = from_grids(4, [(4, g) for g in grids])
    assert store.count(4, 4) == level_counts(4, 4, 4)
    rebuilt = store.grids(4, 4, limit=10_000)
    assert {tuple(g) for g in rebuilt} == {tuple(g) for g in grids}


def test_numpy_build_equals_grid_by_grid_and_text_round_trip(tmp_path):
    grids = level_grids(5, 3, 9)
    one = from_grids(3, [(5, g) for g in grids])
    two = from_array(5, 3, np.array(grids, dtype=np.int8))
    assert one.chunks == two.chunks
    path = tmp_path / "s.row3"
    size = two.write(path)
    assert size == path.stat().st_size
    again = read_store(path.read_text())
    assert again.chunks == two.chunks and again.level == 3
    assert again.count(5, 9) == {9: len(grids)}


def test_canonical_is_one_per_orbit():
    chunk = ((1, 2, 3), (4, 1, 2, 5), (2, 5, 1, 3, 4))
    assert len({canonical(image) for image in _images(chunk)}) == 1


def test_merged_and_mined_stores_never_count_more_than_the_dp():
    """Chunks of n = 4 and 5 merged, then mined by turning rebuilt grids: every count
    stays at most the DP's (all level grids within the bound) and every rebuilt grid
    checks out."""
    bound = 10
    store = from_grids(2, [(5, g) for g in level_grids(5, 2, 9)[:5]])
    store.merge(from_grids(2, [(4, g) for g in level_grids(4, 2, 3)]))
    exact = level_counts(5, 2, bound)
    counted = store.count(5, bound)
    assert all(counted[p] <= exact.get(p, 0) for p in counted)
    added = mine(store, 5, bound, limit=20)
    assert added > 0
    after = store.count(5, bound)
    assert sum(after.values()) >= sum(counted.values())
    assert all(after[p] <= exact.get(p, 0) for p in after)
    g = hexagon(5)
    for values in store.grids(5, bound, limit=30):
        assert rule_violation(5, values) is None and level_penalty(g, values, 2) <= bound


@pytest.mark.parametrize("text, where", [("", "line 1"), ("# row3 level=2\n12|3|-", "line 2"), ("# row3 level=1\n-|13|22", "line 2")])
def test_bad_store_text_names_the_line(text, where):
    with pytest.raises(ValueError, match=where):
        read_store(text)


@pytest.mark.parametrize("n", [2, 3])
def test_backtrack_proves_small_orders(n):
    result = PUZZLE.solve(HexInstance(n), "backtrack", budget=300)
    assert result.status is Status.OPTIMAL and result.verified
    if n == 3:
        assert result.value == published_raw(3)
    else:
        assert result.value == PUZZLE.solve(HexInstance(2), "sat", budget=60).value


@pytest.mark.slow
def test_backtrack_proves_order_4():
    result = PUZZLE.solve(HexInstance(4), "backtrack", budget=600)
    assert result.status is Status.OPTIMAL and result.value == published_raw(4) and result.verified


def test_backtrack_out_of_time_says_so():
    result = PUZZLE.solve(HexInstance(7), "backtrack", budget=1)
    assert result.status in (Status.UNKNOWN, Status.FEASIBLE)


def test_rows_verb_builds_counts_rebuilds_and_refuses(tmp_path):
    import json

    from typer.testing import CliRunner

    from puzzlelab import cli

    runner = CliRunner()
    path = str(tmp_path / "n4.row3")
    built = runner.invoke(cli.app, ["hexagon", "rows", "build", "4", "--level", "2", "--penalty", "2", "--out", path, "--json"])
    assert built.exit_code == 0, built.output
    report = json.loads(built.stdout.splitlines()[-1])
    assert report["grids"] == level_counts(4, 2, 2)[2] and report["entries"] > 0
    counted = runner.invoke(cli.app, ["hexagon", "rows", "count", path, "4", "--penalty", "2", "--json"])
    assert json.loads(counted.stdout.splitlines()[-1])["counts"] == {"2": report["grids"]}
    rebuilt = runner.invoke(cli.app, ["hexagon", "rows", "rebuild", path, "4", "--penalty", "2"])
    assert rebuilt.exit_code == 0 and rebuilt.stdout.count(";") == report["grids"]
    for args, field in ((["bogus", path], "action"), (["count", path], "n: expected"), (["count", str(tmp_path / "none"), "4", "--penalty", "2"], "store file")):
        bad = runner.invoke(cli.app, ["hexagon", "rows", *args])
        assert bad.exit_code == 2 and field in bad.output and "Traceback" not in bad.output
