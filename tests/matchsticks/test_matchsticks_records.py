"""The new upper bounds for A294249 (`records.py`): every shipped
record recounts, with a counter written here, to its value, which is below the published
best known value; a tampered file is refused; the band search finds the n = 56 record
again from greedy's answer; the CLI shows and draws the records."""

import json

import pytest
from matchsticks_oracles import published_rows
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.band import improve_band
from puzzlelab.puzzles.matchsticks.columns import shipped_columns
from puzzlelab.puzzles.matchsticks.ladder import SHAPES, ladder_answer, ladder_squares, shape_family
from puzzlelab.puzzles.matchsticks.lns import sweep_bands
from puzzlelab.puzzles.matchsticks.records import _parse, check_record, record_improvement, shipped_records

ROWS = published_rows()


def _matches(squares):
    """Distinct unit segments of the squares' sides, counted from the corners alone."""
    edges = set()
    for size, x, y in squares:
        for i in range(size):
            edges |= {(x + i, y, "h"), (x + i, y + size, "h"), (x, y + i, "v"), (x + size, y + i, "v")}
    return len(edges)


def _record(n):
    return json.loads(json.dumps(shipped_records()[n]))


def test_every_shipped_record_recounts_below_the_published_value():
    records = shipped_records()
    assert records[56]["value"] <= 1216 and records[54]["value"] <= 1153
    for n, row in records.items():
        squares = row["squares"]
        assert sorted(s for s, _, _ in squares) == list(range(1, n + 1))
        assert all(0 <= x and 0 <= y and x + s <= n and y + s <= n for s, x, y in squares)
        assert _matches(squares) == row["value"] < ROWS[n]["best_known"] == row["published"]


def test_a_tampered_record_is_refused():
    row = _record(56)
    row["value"] -= 1
    with pytest.raises(ValueError, match="not the"):
        check_record(row)
    row = _record(56)
    row["squares"][-1] = [1, 0, 0]  # the 1x1 moved onto the top-left corner: more matches
    with pytest.raises(ValueError, match="not the 1216"):
        check_record(row)
    row = _record(56)
    row["squares"] = row["squares"][:-1]
    with pytest.raises(ValueError, match="missing sizes 1"):
        check_record(row)
    row = _record(56)
    row["published"] = 1216
    with pytest.raises(ValueError, match="shipped table has 1217"):
        check_record(row)
    row = _record(56)
    del row["found_by"]
    with pytest.raises(ValueError, match="missing fields found_by"):
        check_record(row)
    greedy = shipped_columns()["columns"]["greedy"][55]
    row = _record(56) | {"n": 55, "value": greedy["value"], "published": 1186, "squares": greedy["squares"]}
    with pytest.raises(ValueError, match="not below the published 1186"):
        check_record(row)
    twice = json.dumps({"provenance": "test", "records": [_record(56), _record(56)]})
    with pytest.raises(ValueError, match="appears twice"):
        _parse(twice)
    with pytest.raises(ValueError, match="expected"):
        _parse(json.dumps([_record(56)]))


def test_the_band_search_finds_the_n56_record_from_greedys_answer():
    greedy = shipped_columns()["columns"]["greedy"][56]["squares"]
    assert _matches(greedy) == ROWS[56]["greedy_best"] == 1217
    outcome = improve_band(greedy, 56, 4, 8, Budget(60))
    assert outcome.complete and outcome.squares is not None
    assert _matches(outcome.squares) == 1216
    # sizes 4..8 alone move; everything else stays where greedy put it
    assert [s for s in outcome.squares if not 4 <= s[0] <= 8] == [s for s in greedy if not 4 <= s[0] <= 8]


def test_record_improvement_keeps_only_what_beats_the_published_and_the_held(tmp_path):
    path = tmp_path / "records.json"
    greedy = shipped_columns()["columns"]["greedy"][56]["squares"]
    assert record_improvement(path, 56, greedy, "test", "greedy", None) is None  # 1217: equals the published
    assert not path.exists()
    better = _record(56)["squares"]
    row = record_improvement(path, 56, better, "test", "greedy (1217 matches)", "abc")
    assert row["value"] == 1216 and _parse(path.read_text())[56]["commit"] == "abc"
    assert record_improvement(path, 56, better, "again", "greedy", None) is None  # as good as the one held
    broken = [list(s) for s in better]
    broken[0] = [56, 1, 0]  # the largest square off the area
    with pytest.raises(ValueError, match="checker rejects"):
        record_improvement(path, 56, broken[1:], "test", "greedy", None)
    assert _parse(path.read_text())[56]["found_by"] == "test"


def test_records_command_draws_and_lists(tmp_path):
    app = cli.build_app()
    result = CliRunner().invoke(app, ["matchsticks", "records", "--n", "56", "--svg", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("n=56: 1216 matches, below the published 1217")
    assert "1216 matchsticks" in result.stdout and result.stdout.rstrip().endswith(f"1 new record of {len(shipped_records())} shipped")
    assert (tmp_path / "matchsticks-n56-record.svg").read_text().startswith("<svg")
    shown = CliRunner().invoke(app, ["matchsticks", "records", "--json"])
    rows = [json.loads(line) for line in shown.stdout.splitlines()]
    assert [r["n"] for r in rows] == sorted(shipped_records()) and all(_matches(r["squares"]) == r["value"] for r in rows)
    bad = CliRunner().invoke(app, ["matchsticks", "records", "--n", "x"])
    assert bad.exit_code == 2 and bad.output.strip().startswith("error: --n:") and "Traceback" not in bad.output
    table = CliRunner().invoke(app, ["matchsticks", "table", "--stored", "--n", "56"])
    assert "1216  new record, below the published 1217" in table.stdout


def test_improve_command_finds_the_record_from_a_users_answer_and_checks_input(tmp_path):
    app = cli.build_app()
    greedy = shipped_columns()["columns"]["greedy"][56]["squares"]
    start = tmp_path / "greedy56.json"
    start.write_text(json.dumps({"roam": 0, "squares": greedy}))
    found = tmp_path / "found.json"
    result = CliRunner().invoke(app, ["matchsticks", "improve", "56", "--start", str(start), "--related", "12", "--moves", "50", "--out", str(found), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["before"], report["value"], report["published"], report["moves"]) == (1217, 1216, 1217, 50)
    assert _matches(json.loads(found.read_text())["squares"]) == 1216
    bands = CliRunner().invoke(app, ["matchsticks", "improve", "56", "--start", str(start), "--related", "0", "--width", "5", "--budget", "60"])
    assert bands.exit_code == 0 and bands.stdout.startswith("n=56: 1217 -> 1216 matches") and "new record (verified)" in bands.stdout
    broken = [list(s) for s in greedy]
    broken[-1] = [2, 0, 0]  # two squares of size 2, none of size 1
    start.write_text(json.dumps({"roam": 0, "squares": broken}))
    bad = CliRunner().invoke(app, ["matchsticks", "improve", "56", "--start", str(start)])
    assert bad.exit_code == 2 and "not a valid answer for n = 56" in bad.output and "Traceback" not in bad.output
    ladder = CliRunner().invoke(app, ["matchsticks", "improve", "54", "--ladder", "6", "--related", "0", "--width", "12", "--json"])
    assert ladder.exit_code == 0 and json.loads(ladder.stdout)["value"] == 1156
    pairs = CliRunner().invoke(app, ["matchsticks", "improve", "54", "--ladder", "6", "--ladder-shape", "pairs", "--related", "0", "--width", "15", "--json"])
    assert pairs.exit_code == 0 and json.loads(pairs.stdout)["value"] == 1153
    shape = CliRunner().invoke(app, ["matchsticks", "improve", "54", "--ladder", "6", "--ladder-shape", "quads"])
    assert shape.exit_code == 2 and "--ladder-shape: expected one of triples, pairs" in shape.output
    both = CliRunner().invoke(app, ["matchsticks", "improve", "54", "--ladder", "6", "--start", str(start)])
    assert both.exit_code == 2 and "not both" in both.output
    for n in ("1", "2", "3"):  # nothing or almost nothing to move: an answer, not an error
        small = CliRunner().invoke(app, ["matchsticks", "improve", n, "--moves", "5", "--json"])
        assert small.exit_code == 0, small.output
        assert json.loads(small.stdout)["value"] == ROWS[int(n)]["best_known"]
    missing = CliRunner().invoke(app, ["matchsticks", "improve", "56", "--out", str(tmp_path / "no" / "such.json")])
    assert missing.exit_code == 2 and "--out" in missing.output


def test_the_ladder_gives_both_records_and_never_beats_a_proven_value():
    for n, record in ((54, 1156), (56, 1216)):  # the records, from the shape alone
        squares, complete = ladder_answer(n, 6)
        assert complete and _matches(squares) == record < ROWS[n]["best_known"]
    # the pairs shape with its tail, then bands of 15 swept over it: 1166, then 1153
    squares, complete = ladder_answer(54, 6, "pairs")
    assert complete and _matches(squares) == 1166
    swept = sweep_bands(54, squares, 15, 60)
    assert _matches(swept.squares) == swept.value == 1153 < ROWS[54]["best_known"]
    # for n <= 46 the published values are proven optima: no answer may go below them
    for shape in ("triples", "pairs"):
        for n in range(12, 47):
            squares, _ = ladder_answer(n, 6, shape)
            assert _matches(squares) >= ROWS[n]["best_known"], (shape, n)


def test_the_ladder_shape_is_greedys_shape():
    # greedy's complete answers for n = 55 and 56 (shipped, found by its own search) hold
    # the ladder shape in every size above their tails
    for n, tail in ((55, 7), (56, 8)):
        greedy = {s: (x, y) for s, x, y in shipped_columns()["columns"]["greedy"][n]["squares"]}
        shape = ladder_squares(n, tail)
        assert {s: (x, y) for s, x, y in shape if s > tail} == {s: greedy[s] for s in range(tail + 1, n + 1)}
    greedy = {s: (x, y) for s, x, y in shipped_columns()["columns"]["greedy"][53]["squares"]}
    shape = ladder_squares(53, 11, "pairs")  # greedy's n = 53 answer, sizes 53..12
    assert {s: (x, y) for s, x, y in shape if s > 11} == {s: greedy[s] for s in range(12, 54)}
    for n in (20, 47, 63):
        shape = ladder_squares(n, 8)
        assert sorted(s for s, _, _ in shape) == list(range(1, n + 1))
        assert all(0 <= x and 0 <= y and x + s <= n and y + s <= n for s, x, y in shape)
    with pytest.raises(ValueError, match="tail"):
        ladder_squares(10, 10)
    with pytest.raises(ValueError, match="shape"):
        ladder_squares(10, 5, "quads")


def test_the_shape_family_holds_greedys_shapes_and_never_beats_a_proven_value():
    family = shape_family()
    assert len(family) == len(set(family)) == 3645
    assert SHAPES["triples"] in family and SHAPES["pairs"] in family
    # the diagonal answers' shape is in it too, and with its tail placed exactly it gives
    # the published bound where a diagonal column holds it (n = 50: groups of 5; 60: of 6)
    for n, group in ((50, 5), (60, 6)):
        assert (group, ((0, 0),), group) in family
        squares, complete = ladder_answer(n, 6, (group, ((0, 0),), group))
        assert complete and _matches(squares) == ROWS[n]["best_known"] == ROWS[n]["diagonal20_best"]
    for name, shape in SHAPES.items():  # a shape given by value builds what its name builds
        assert ladder_squares(47, 6, shape) == ladder_squares(47, 6, name)
    for shape in family[::23]:  # every placement stays inside the largest square
        squares = ladder_squares(30, 4, shape)
        assert sorted(s for s, _, _ in squares) == list(range(1, 31))
        assert all(0 <= x and 0 <= y and x + s <= 30 and y + s <= 30 for s, x, y in squares)
    # the published values for n <= 46 are proven optima: no shape may go below them
    for shape in family[::97]:
        for n in (12, 19, 26, 33, 40, 46):
            squares, _ = ladder_answer(n, 6, shape, Budget(10))
            assert _matches(squares) >= ROWS[n]["best_known"], (shape, n)


def test_a_block_off_the_diagonal_gives_greedys_n57_answer_and_the_n54_record():
    # greedy's n = 57 answer (its own search, shipped) is the pairs shape with its third
    # block on the left side, in every size above 15
    greedy = {s: (x, y) for s, x, y in shipped_columns()["columns"]["greedy"][57]["squares"]}
    shape = ladder_squares(57, 15, "pairs", "ddl")
    assert {s: (x, y) for s, x, y in shape if s > 15} == {s: greedy[s] for s in range(16, 58)}
    squares, complete = ladder_answer(57, 15, "pairs", Budget(120), "ddl")
    assert complete and _matches(squares) == ROWS[57]["best_known"]
    # the same shape for n = 54, with sizes 12..1 exact, is the record at once
    squares, complete = ladder_answer(54, 12, "pairs", Budget(60), "ddl")
    assert complete and _matches(squares) == shipped_records()[54]["value"] < ROWS[54]["best_known"]
    with pytest.raises(ValueError, match="sides"):
        ladder_squares(20, 5, "pairs", "dx")


def test_improve_takes_the_blocks_sides():
    app = cli.build_app()
    sides = CliRunner().invoke(app, ["matchsticks", "improve", "54", "--ladder", "12", "--ladder-shape", "pairs", "--ladder-sides", "ddl", "--related", "0", "--json"])
    assert sides.exit_code == 0, sides.output
    report = json.loads(sides.stdout)
    assert report["before"] == report["value"] == _matches(report["squares"]) == shipped_records()[54]["value"]
    bad = CliRunner().invoke(app, ["matchsticks", "improve", "54", "--ladder", "12", "--ladder-sides", "dx"])
    assert bad.exit_code == 2 and "--ladder-sides: expected the letters d, l and t" in bad.output
    alone = CliRunner().invoke(app, ["matchsticks", "improve", "54", "--ladder-sides", "dl"])
    assert alone.exit_code == 2 and "--ladder-sides: give it with --ladder" in alone.output
