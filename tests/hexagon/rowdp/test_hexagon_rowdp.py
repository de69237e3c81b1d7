"""The row-by-row DP (rowdp/dp.py) against its oracles: SAT enumeration of the same level
grids (counts by penalty and the grids themselves), the independent verifier, and the
write-up's solution-count table."""

import pytest

from puzzlelab.puzzles.hexagon.model import HexInstance, format_grid, hexagon
from puzzlelab.puzzles.hexagon.reference import count_table, level_table
from puzzlelab.puzzles.hexagon.rowdp.count import count_solutions, enumerate_level
from puzzlelab.puzzles.hexagon.rowdp.dp import TooLarge, count_levels, level_counts, level_grids
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import rule_violation, verify_grid


@pytest.mark.parametrize("n, level, bound", [(2, 3, 0), (3, 1, 5), (3, 2, 4), (3, 4, 3), (4, 1, 2), (4, 3, 3)])
def test_counts_by_penalty_equal_sat_enumeration(n, level, bound):
    """Every penalty up to the bound, not only the lowest: the DP's histogram equals
    the histogram of the grids SAT lists one by one (no symmetry breaking)."""
    grids = enumerate_level(n, level, bound)
    g = hexagon(n)
    expected: dict[int, int] = {}
    for grid in grids:
        p = level_penalty(g, grid, level)
        expected[p] = expected.get(p, 0) + 1
    assert level_counts(n, level, bound) == dict(sorted(expected.items()))


@pytest.mark.parametrize("n, level, bound", [(3, 2, 4), (4, 2, 3)])
def test_walked_grids_are_the_sat_grids(n, level, bound):
    ours = level_grids(n, level, bound)
    assert len(ours) == len({tuple(v) for v in ours})
    sat = enumerate_level(n, level, bound)
    cap = level + 1
    assert {tuple(v) for v in ours} == {tuple(min(int(x), cap) for x in grid) for grid in sat}


def test_walked_grids_exact_penalty_and_verified():
    g = hexagon(4)
    grids = level_grids(4, 6, 3, exact=True, max_grids=2000)
    assert len(grids) == count_table()[4][6]
    for values in grids[::50]:
        assert rule_violation(4, values) is None
        assert level_penalty(g, values, 6) == 3
        assert verify_grid(HexInstance(4), format_grid(4, values)).ok


def test_too_many_grids_is_refused():
    with pytest.raises(TooLarge, match="more than 10 grids"):
        level_grids(4, 6, 3, max_grids=10)


def test_nothing_within_a_low_bound():
    assert level_counts(5, 1, 6) == {}
    assert level_grids(5, 1, 6) == []


@pytest.mark.parametrize("n", [3, 4])
def test_dp_and_sat_counts_agree(n):
    assert count_solutions(n, method="dp") == count_solutions(n, method="sat")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_count_table_small(n):
    """The write-up's table (n = 3..5) and lowest penalties; n = 2 against SAT."""
    counts = count_solutions(n)
    if n == 2:
        assert counts == count_solutions(2, method="sat")
        return
    assert {k: c for k, (_, c) in counts.items()} == count_table()[n]
    assert tuple(counts[k][0] for k in (1, 2, 3, 4)) == level_table()[n]


def test_samples_are_checked_grids():
    found = count_levels(4, [2, 6], 3)
    g = hexagon(4)
    for level, (histogram, sample) in found.items():
        assert level_penalty(g, sample, level) == min(histogram)
        assert rule_violation(4, sample) is None


@pytest.mark.slow
def test_count_table_order_6():
    counts = count_solutions(6)
    assert {k: c for k, (_, c) in counts.items()} == count_table()[6]
    assert tuple(counts[k][0] for k in (1, 2, 3, 4)) == level_table()[6]


def test_tables_spilled_to_disk_count_the_same(monkeypatch):
    """With every table memory-mapped from a file (SPILL_BYTES = 0) the counts, the
    lowest penalty and the grids are those of the tables kept in memory."""
    from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp

    in_memory = (rowdp.level_counts(5, 2, 10), rowdp.grids_within(5, 3, 9))
    monkeypatch.setattr(rowdp, "SPILL_BYTES", 0)
    assert (rowdp.level_counts(5, 2, 10), rowdp.grids_within(5, 3, 9)) == in_memory
    assert in_memory[0] and in_memory[1]


def _stop_after(budget, steps: int):
    """A progress callback that cancels the budget after `steps` steps of any pass."""
    seen = [0]

    def progress(report: dict) -> None:
        seen[0] += 1
        if seen[0] == steps:
            budget.cancel()

    return progress


@pytest.mark.parametrize("stop_at", [5, 70, 130])
def test_checkpointed_run_stopped_and_resumed_finds_the_same_grids(tmp_path, stop_at):
    """A min pass stopped by its budget (in level 1, in level 2, in level 3 of n = 5)
    and resumed from its checkpoint folder ends with the grids of an uninterrupted run,
    and the resumed run reuses the finished steps instead of computing them again."""
    from puzzlelab.core.result import Budget
    from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp

    plain = rowdp.grids_within(5, 3, 9)
    assert plain
    budget = Budget(3600)
    with pytest.raises(rowdp.TooLarge, match="out of time"):
        rowdp.grids_within(5, 3, 9, budget=budget, checkpoint=tmp_path, progress=_stop_after(budget, stop_at))
    stats = rowdp.DPStats()
    assert rowdp.grids_within(5, 3, 9, checkpoint=tmp_path, stats=stats) == plain
    assert len(stats.sizes) == 3 * 61 - stop_at  # n = 5 has 61 cells: only the steps not yet kept are computed
    again = rowdp.DPStats()  # a third run reads level 3's filled tables: nothing to compute
    assert rowdp.grids_within(5, 3, 9, checkpoint=tmp_path, stats=again) == plain
    assert again.sizes == [] and again.resumed_steps == 61
    assert sorted(p.name for p in tmp_path.iterdir()) == ["level-3", "manifest.json"]  # levels 1, 2 dropped


def test_checkpoint_of_a_settled_question_keeps_the_answer_not_the_tables(tmp_path):
    """Bound 8 is below n = 5's least level-3 penalty (9): the answer is [] and the
    folder keeps only the manifest saying where the pass ran dry; a rerun answers at
    once."""
    import json

    from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp

    assert rowdp.grids_within(5, 3, 8, checkpoint=tmp_path) == []
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["settled"]["level"] in (1, 2, 3)
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.json"]
    stats = rowdp.DPStats()
    assert rowdp.grids_within(5, 3, 8, checkpoint=tmp_path, stats=stats) == [] and stats.sizes == []


def test_checkpointed_counts_equal_the_plain_counts(tmp_path):
    import json

    from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp
    from puzzlelab.puzzles.hexagon.rowdp.tables import CheckpointMismatch, DPCheckpoint

    plain = rowdp.count_levels(5, [1, 2], 10)
    assert plain[1][0] and plain[2][0]
    assert rowdp.count_levels(5, [1, 2], 10, checkpoint=tmp_path) == plain
    reported = []
    fresh = []
    rowdp.count_levels(5, [1, 2], 10, on_level=lambda level, _h, seconds: fresh.append(seconds))
    assert len(fresh) == 2 and all(isinstance(s, float) for s in fresh)  # counted now: its seconds
    again = rowdp.count_levels(5, [1, 2], 10, checkpoint=tmp_path, on_level=lambda level, histogram, s: reported.append((level, histogram, s)))
    assert again == plain  # the counts read back, checked
    assert reported == [(1, plain[1][0], None), (2, plain[2][0], None)]  # and reported as read back (seconds None), not counted now
    assert rowdp.count_levels(5, [1, 2, 3], 10, checkpoint=tmp_path) == rowdp.count_levels(5, [1, 2, 3], 10)  # one level more
    for level in (1, 2, 3):  # with every table gone, the recorded counts still answer (and are checked)
        DPCheckpoint(tmp_path, 5, 10).drop(level)
    assert rowdp.count_levels(5, [1, 2], 10, checkpoint=tmp_path) == plain
    path = tmp_path / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["levels"]["2"]["count"]["sample"][0] = 9  # a forged sample grid is caught when read back
    path.write_text(json.dumps(manifest))
    with pytest.raises(CheckpointMismatch, match="sample grid fails its check"):
        rowdp.count_levels(5, [1, 2], 10, checkpoint=tmp_path)


def test_checkpoint_of_another_question_or_layout_is_refused(tmp_path):
    import json

    from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp
    from puzzlelab.puzzles.hexagon.rowdp.tables import CheckpointMismatch

    rowdp.grids_within(4, 2, 3, checkpoint=tmp_path)
    with pytest.raises(CheckpointMismatch, match="not .*'bound': 4"):
        rowdp.grids_within(4, 2, 4, checkpoint=tmp_path)
    with pytest.raises(CheckpointMismatch, match="not .*'n': 5"):
        rowdp.grids_within(5, 2, 3, checkpoint=tmp_path)
    path = tmp_path / "manifest.json"
    manifest = json.loads(path.read_text())
    for entry in manifest["levels"].values():
        entry["layout"] = "0" * 16
    path.write_text(json.dumps(manifest))
    with pytest.raises(CheckpointMismatch, match="another frontier layout"):
        rowdp.grids_within(4, 2, 3, checkpoint=tmp_path)
    path.write_text("{not json")
    with pytest.raises(CheckpointMismatch, match="cannot be read"):
        rowdp.grids_within(4, 2, 3, checkpoint=tmp_path)
