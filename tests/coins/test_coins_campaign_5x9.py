"""proofs/coins-font5x9/campaign.py: a whole start's `coins bfs --json` summary into
solved.json and the package's table, here on a 5 x 7 start since a 5 x 9 start takes
hours: every entry replayed, the run's figures in the provenance, the table read back
by the package's reader; a run with a target missing, a move list of another length or
a length other than the published one is refused in one line. The default suite builds
the summary from the shipped font5x7 table; the slow test makes it by a real run of the
two-bit engine with orbits (font5x7:O: about 160 CPU s) and checks its 36 lengths
against the byte engine's."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.puzzles.coins import optimal_table
from puzzlelab.puzzles.coins.optimal_table import load_table
from support.campaigns import load_campaign

runner = CliRunner()


@pytest.fixture(scope="module")
def campaign():
    return load_campaign("coins-font5x9", "coins_font5x9_campaign")


@pytest.fixture(scope="module")
def summary():
    """What `coins bfs font5x7:O --json` prints, its rows taken from the shipped table."""
    table = load_table("font5x7")
    rows = [{"target": e.target, "moves": e.moves, "verified": True, "solution": e.solution} for e in table.entries() if e.start == "O"]
    return {"start": "font5x7:O", "levels": [1, 120], "seconds": 300.5, "level_wall_seconds": 290.0, "cpu_seconds": 155.6,
            "peak_memory_bytes": 4 * 10**8, "engine": "twobit", "threads": 2, "symmetry": ["mirror-x", "mirror-y", "half-turn"],
            "finished": False, "targets": rows}


@pytest.mark.slow
def test_a_real_two_bit_run_with_orbits_ships_the_byte_engines_lengths(tmp_path, campaign):
    done = runner.invoke(cli.build_app(), ["coins", "bfs", "font5x7:O", "--engine", "twobit", "--workdir", str(tmp_path / "O"),
                                           "--json", "--quiet", "--no-store", "--threads", "2"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["engine"] == "twobit" and data["symmetry"] == ["mirror-x", "mirror-y", "half-turn"]
    assert data["cpu_seconds"] > 0 and data["peak_memory_bytes"] > 10**7 and data["threads"] == 2
    test_a_whole_start_goes_into_solved_json_and_the_table_replayed(tmp_path, campaign, data)


def test_a_whole_start_goes_into_solved_json_and_the_table_replayed(tmp_path, campaign, summary):
    run_file = tmp_path / "O.json"
    run_file.write_text(json.dumps(summary))
    solved, table_path = tmp_path / "solved.json", tmp_path / "font5x7_test.json"
    campaign.add([str(run_file)], solved, "font5x7")
    assert campaign.ship(solved, table_path, "font5x7") == 36
    table = load_table(path=table_path)
    shipped = load_table("font5x7")  # the byte engine's campaign: the same optimal lengths
    assert [e.moves for e in table.entries()] == [shipped.entry("O", e.target).moves for e in table.entries()]
    facts = table.provenance
    assert facts["starts"]["O"]["cpu_seconds"] == summary["cpu_seconds"] and facts["starts"]["O"]["levels"] == summary["levels"]
    assert facts["starts"]["O"]["peak_memory_bytes"] == summary["peak_memory_bytes"] and facts["puzzles"] == 36
    assert facts["generator"].endswith("coins-font5x9/campaign.py ship")


@pytest.mark.parametrize("fault, expected", [
    ("missing", "not reached in the run"),
    ("length", "the checker"),
    ("published", "the published sample says"),
    ("font", "expected a glyph of font5x9"),
])
def test_a_run_that_cannot_go_into_the_table_is_refused_in_one_line(campaign, summary, monkeypatch, fault, expected):
    bad = json.loads(json.dumps(summary))
    row = next(r for r in bad["targets"] if r["target"] == "C")
    if fault == "missing":
        bad["targets"].remove(row)
    elif fault == "length":
        row["moves"] += 1
    elif fault == "published":
        monkeypatch.setattr(campaign, "published_lengths", lambda: {"font5x7:O-C": row["moves"] + 2})
    with pytest.raises(campaign.Refused) as info:
        campaign.checked_start(bad, "font5x9" if fault == "font" else "font5x7")
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_only_fonts_whose_file_ships_have_a_table():
    shipped = {name for name in optimal_table.TABLE_FILES.values()}
    data = Path(optimal_table.__file__).parent / "data"
    assert shipped == {p.name for p in data.glob("font5x*_optimal.json")} and "font5x7_optimal.json" in shipped
