"""proofs/hexagon-beyond/restricted.py on proven orders: each restricted run that ends
scores at most the proven optimum, a wider rung never scores less than the one inside it,
a second run resumes without repeating a rung, and a grid is adopted into the walks'
state only where it scores more than the best there, checked by the independent checker."""

import json

import pytest

from support.campaigns import load_campaign


@pytest.fixture(scope="module")
def restricted():
    return load_campaign("hexagon-beyond", "hexagon_beyond_restricted", "restricted.py")


def test_rungs_end_below_the_proven_optimum_and_widen_monotonically(restricted, tmp_path, monkeypatch):
    monkeypatch.setattr(restricted, "LADDER", restricted.LADDER[:3])
    results_file, state_file = tmp_path / "restricted.json", tmp_path / "state.json"
    args = ["run", "--orders", "7,8", "--seconds", "60", "--results", str(results_file), "--state", str(state_file)]
    assert restricted.main(args) == 0
    runs = json.loads(results_file.read_text())["runs"]
    assert len(runs) == 6
    for n in (7, 8):
        rows = [runs[f"{n} {restricted.rung_name(options)}"] for options in restricted.LADDER]
        for row in rows:
            assert row["ended"] and row["raw"] is not None
            assert row["raw"] <= row["published"]  # n <= 11: the published score is the proven optimum
            assert restricted.campaign.checked_raw(n, [int(c) for c in row["grid"]]) == row["raw"]
        assert [r["raw"] for r in rows] == sorted(r["raw"] for r in rows)  # each rung holds the one before

    def no_run(*_a, **_k):
        raise AssertionError("a finished rung ran again")

    monkeypatch.setattr(restricted, "run_rung", no_run)
    assert restricted.main(args) == 0


def test_a_grid_is_adopted_only_where_it_scores_more(restricted):
    row = restricted.run_rung(7, {"ring": 4, "inner": 1}, 60)
    grid = row["grid"]
    lower = "".join("1" if c == "2" else c for c in grid)  # a 3 with no 2 beside it: the checker refuses it
    low_raw = row["raw"] - 1  # the adoption compares the recorded scores
    state = {"orders": {"7": {"best": {"raw": low_raw, "grid": lower}, "current": {"raw": low_raw, "grid": lower}}}}
    assert row["raw"] > low_raw and restricted.adopt(state, row)
    assert state["orders"]["7"]["best"]["raw"] == row["raw"] and state["orders"]["7"]["current"]["grid"] == grid
    assert not restricted.adopt(state, row)  # the same score again: kept as it is
    forged = {**row, "raw": row["raw"] + 5, "grid": lower}
    with pytest.raises(ValueError, match="n=7"):
        restricted.adopt({"orders": {"7": {"best": {"raw": 0, "grid": grid}}}}, forged)
