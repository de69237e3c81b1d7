"""The shipped restricted columns (`columns.py`) and the restriction checker
(`verify.restriction_broken`): every shipped row equals the published column and is
re-verified on load; a tampered row is refused; the checker agrees with a brute force
over every placement for small n and with the methods it describes."""

import itertools
import json

import pytest
from matchsticks_oracles import published_rows
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.columns import COLUMNS, check_row, record_row, shipped_columns
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.verify import count_matches, restriction_broken

ROWS = published_rows()


def test_every_shipped_value_equals_the_published_column():
    shipped = shipped_columns()
    assert shipped["provenance"]["how"] and shipped["provenance"]["commands"]
    assert sum(len(rows) for rows in shipped["columns"].values()) >= 60
    for name, rows in shipped["columns"].items():
        column = COLUMNS[name][3]
        for n, row in rows.items():
            assert row["value"] == ROWS[n][column], (name, n)
            assert count_matches(row["squares"]) == row["value"]


def _row(name, n):
    return json.loads(json.dumps(shipped_columns()["columns"][name][n]))


def test_a_tampered_row_is_refused():
    row = _row("greedy", 12)
    row["value"] -= 1
    with pytest.raises(ValueError, match="do not give"):
        check_row("greedy", row)
    row = _row("diagonal1", 10)
    row["squares"][3] = [row["squares"][3][0], row["squares"][3][1] + 1, row["squares"][3][2]]
    with pytest.raises(ValueError):
        check_row("diagonal1", row)
    row = _row("greedy", 12)
    row["complete"] = False
    with pytest.raises(ValueError, match="did not complete"):
        check_row("greedy", row)


def _brute_minimum(n, **restriction):
    best = None
    per_size = [[(s, x, y) for y in range(n - s + 1) for x in range(n - s + 1)] for s in range(n - 1, 0, -1)]
    for combo in itertools.product(*per_size):
        squares = [(n, 0, 0), *combo]
        if restriction_broken(squares, **restriction) is None:
            value = count_matches(squares)
            best = value if best is None else min(best, value)
    return best


@pytest.mark.parametrize("n", range(1, 5))
def test_restricted_brute_force_gives_the_published_columns(n):
    assert _brute_minimum(n, greedy=True) == ROWS[n]["greedy_best"]
    assert _brute_minimum(n, free_below=1) == ROWS[n]["diagonal1_best"]


def test_the_checker_tells_greedy_answers_from_others():
    for n in range(2, 13):
        greedy = PUZZLE.solve(Instance(n), "greedy", budget=120)
        assert restriction_broken(greedy.solution["squares"], greedy=True) is None, n
    # n = 18: the optimum (226) is below the greedy optimum (227), so it is not greedy.
    best = PUZZLE.solve(Instance(18), "full", budget=600, bound=226)
    assert best.value == 226 and "not greedy" in restriction_broken(best.solution["squares"], greedy=True)


def test_record_row_keeps_one_row_per_n_and_the_commands(tmp_path):
    path = tmp_path / "columns.json"
    result = PUZZLE.solve(Instance(9), "greedy", budget=60)
    record_row(path, "greedy", result, 9, 0.5, {"how": "test", "command": "a"})
    record_row(path, "greedy", result, 9, 0.25, {"how": "test", "command": "b"})
    data = json.loads(path.read_text())
    assert [r["n"] for r in data["columns"]["greedy"]] == [9]
    assert data["columns"]["greedy"][0]["seconds"] == 0.25 and data["provenance"]["commands"] == ["a", "b"]
    diagonal = PUZZLE.solve(Instance(9), "diagonal", budget=60, free_below=20)
    with pytest.raises(ValueError, match="off the main diagonal"):
        record_row(path, "diagonal1", diagonal, 9, 0.1, {"how": "test", "command": "c"})


def test_table_stored_shows_the_shipped_columns():
    result = CliRunner().invoke(cli.build_app(), ["matchsticks", "table", "--stored", "--n", "1..20"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:5] == ["n", "best", "diagonal1", "diagonal20", "greedy"]
    assert lines[16].split()[:3] == ["16", "190", "192/192"]
    assert lines[-1].startswith("60 of 60 shipped values equal the published ones")
