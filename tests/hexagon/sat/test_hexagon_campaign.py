"""proofs/hexagon-beyond/campaign.py on small orders: a slice walks from the shipped
grid (or a beam grid where none is shipped), the state is checked again when read (a
grid tampered with is refused), a second run resumes the walk, and `ship` adds an order
only where the campaign's grid ties the published score and nothing is shipped, every
grid checked by the independent checker."""

import json
import random
from pathlib import Path

import pytest

from puzzlelab.puzzles.hexagon.model import HexInstance
from puzzlelab.puzzles.hexagon.shipped import data_file
from puzzlelab.puzzles.hexagon.verify import verify_grid
from support.campaigns import load_campaign


@pytest.fixture(scope="module")
def campaign():
    return load_campaign("hexagon-beyond", "hexagon_beyond_campaign")


def test_slices_resume_and_the_state_is_checked_when_read(campaign, tmp_path):
    state_file = tmp_path / "state.json"
    assert campaign.main(["run", "--orders", "5,6", "--seconds", "3", "--radius", "2", "--state", str(state_file)]) == 0
    state = json.loads(state_file.read_text())
    for key, published in (("5", 147), ("6", 227)):
        order = state["orders"][key]
        assert order["published"] == published and order["slices"] == 1 and order["start"].startswith("the shipped grid")
        assert order["best"]["raw"] == published  # the shipped grid is the proven optimum: the walk keeps it
        assert order["rounds"] > 0
    assert campaign.main(["run", "--orders", "5", "--seconds", "2", "--radius", "2", "--state", str(state_file)]) == 0
    assert json.loads(state_file.read_text())["orders"]["5"]["slices"] == 2

    tampered = json.loads(state_file.read_text())
    grid = tampered["orders"]["6"]["current"]["grid"]
    tampered["orders"]["6"]["current"]["grid"] = ("2" if grid[0] == "1" else "1") + grid[1:]
    state_file.write_text(json.dumps(tampered))
    with pytest.raises(ValueError, match="n=6"):
        campaign.load_state(state_file)


def test_an_order_with_nothing_shipped_starts_from_a_beam_and_ships_once_it_ties(campaign, tmp_path, monkeypatch):
    shipped = json.loads(Path(data_file()).read_text())
    shipped["rows"] = [row for row in shipped["rows"] if row["n"] != 4]
    grids = tmp_path / "best_grids.json"
    grids.write_text(json.dumps(shipped))
    monkeypatch.setattr(campaign, "best_grids", lambda: {})  # nothing shipped: a beam grid
    state_file = tmp_path / "state.json"
    campaign.main(["run", "--orders", "4", "--seconds", "5", "--radius", "2", "--state", str(state_file)])
    state = campaign.load_state(state_file)
    order = state["orders"]["4"]
    assert order["start"].startswith("a beam grid") and order["best"]["raw"] == 87  # n = 4's optimum, 3 penalty edges
    assert campaign.ship(state, grids) == [4]
    rows = {row["n"]: row for row in json.loads(grids.read_text())["rows"]}
    assert verify_grid(HexInstance(4), rows[4]["grid"]).value == 87 and rows[4]["method"] == "improve"
    assert campaign.ship(state, grids) == []  # nothing above what is shipped now


def test_an_order_whose_beam_finds_nothing_is_skipped_not_fatal(campaign, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(campaign, "starting_grid", lambda n, seed, budget: (None, "no beam grid within the slice"))
    state_file = tmp_path / "state.json"
    assert campaign.main(["run", "--orders", "7", "--seconds", "1", "--state", str(state_file)]) == 0
    assert "n=7: no starting grid" in capsys.readouterr().out
    assert campaign.load_state(state_file)["orders"] == {}


@pytest.mark.parametrize("n", [5, 6])
def test_an_order_with_nothing_shipped_starts_from_the_orders_beside_it(campaign, monkeypatch, n):
    """Order n from order n + 1 cut and from order n - 1 grown: each grid valid by the
    checker, and the one returned is the better of the two."""
    from puzzlelab.puzzles.hexagon.shipped import best_grids

    shipped = best_grids()
    monkeypatch.setattr(campaign, "best_grids", lambda: {k: v for k, v in shipped.items() if k != n})
    grid, origin = campaign.from_neighbour_orders(n)
    assert grid is not None and "repaired and raised" in origin
    raw = campaign.checked_raw(n, grid)  # raises where the checker rejects it
    for other in (n - 1, n + 1):  # each side alone gives no better a grid
        monkeypatch.setattr(campaign, "best_grids", lambda other=other: {other: shipped[other]})
        alone, _ = campaign.from_neighbour_orders(n)
        assert campaign.checked_raw(n, alone) <= raw
        centred, origin = campaign.from_neighbour_orders(n, placements=((0, 0),))
        assert "centred" in origin and campaign.checked_raw(n, centred) <= campaign.checked_raw(n, alone)


def test_a_cut_off_the_centre_loses_no_cell_of_the_smaller_order(campaign):
    """Each of the seven placements of order n inside order n + 1 lies wholly inside it,
    so a cut reads no cell that is not there (a 1 filled in would mark a wrong shift)."""
    inner, outer = campaign.hexagon(6), campaign.hexagon(7)
    cells = {(int(q), int(s)) for q, s in zip(outer.q, outer.s)}
    for dq, ds in campaign.PLACEMENTS:
        assert all((int(q) + dq, int(s) + ds) in cells for q, s in zip(inner.q, inner.s))


def test_repair_makes_any_values_valid_and_raising_keeps_them_valid(campaign):
    rng = random.Random(7)
    for n in (3, 4, 7):
        cells = len(campaign.hexagon(n).q)
        values = [rng.randint(1, 7) for _ in range(cells)]
        fixed = campaign.repaired(n, values)
        assert all(a <= b for a, b in zip(fixed, values))  # only lowered
        raised = campaign.raised(n, fixed)
        assert all(a >= b for a, b in zip(raised, fixed))  # only raised
        assert campaign.checked_raw(n, raised) >= campaign.checked_raw(n, fixed)
