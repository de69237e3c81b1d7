"""The tiling commands through the CLI: solve (catalog, file, standard input), verify,
catalog, and the A219158 `table` verb checked against the published table."""

import json

from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.store import Store
from puzzlelab.puzzles.tiling.reference import a219158_table

runner = CliRunner()


def test_table_verb_matches_a219158():
    result = runner.invoke(cli.app, ["tiling", "table", "--m", "1..10", "--n", "1..25"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[0].split() == ["m", "n", "T"]
    rows = [tuple(map(int, line.split())) for line in lines[1:]]
    assert len(rows) == 250
    table = a219158_table()
    for m, n, t in rows:
        assert t == table[(min(m, n), max(m, n))], (m, n)


def test_table_verb_bad_range():
    result = runner.invoke(cli.app, ["tiling", "table", "--m", "5..2"])
    assert result.exit_code == 2 and "empty" in result.output
    assert runner.invoke(cli.app, ["tiling", "table", "--m", "0..2"]).exit_code == 2


def test_solve_json_from_stdin_and_verify(tmp_path):
    result = runner.invoke(cli.app, ["tiling", "solve", "-", "--method", "dp", "--json"], input="....\n.#..\n....\n")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["puzzle"] == "tiling" and data["status"] == "optimal" and data["verified"] is True
    assert data["value"] == len(data["solution"]["squares"]) == data["bound"]
    assert [r.value for r in Store().best("tiling")] == [data["value"]]
    puzzle_file = tmp_path / "p.txt"
    puzzle_file.write_text("....\n.#..\n....\n")
    solution_file = tmp_path / "s.json"
    solution_file.write_text(json.dumps(data["solution"]))
    assert runner.invoke(cli.app, ["tiling", "verify", str(puzzle_file), str(solution_file)]).exit_code == 0
    solution_file.write_text(json.dumps({"squares": [{"X": 0, "Y": 0, "Size": 2}]}))
    rejected = runner.invoke(cli.app, ["tiling", "verify", str(puzzle_file), str(solution_file)])
    assert rejected.exit_code == 1 and "INVALID" in rejected.output


def test_solve_text_drawing_svg_and_bad_input(tmp_path):
    svg = tmp_path / "t.svg"
    result = runner.invoke(cli.app, ["tiling", "solve", "12x5", "--method", "dp", "--svg", str(svg), "--no-store"])
    assert result.exit_code == 0, result.output
    assert "squares 6" in result.output and "verified" in result.output and "+--" in result.output
    assert svg.read_text().startswith("<svg")
    bad = runner.invoke(cli.app, ["tiling", "solve", "-"], input='{"width": 3, "puzzle": [[true, true]]}')
    assert bad.exit_code == 2 and "width" in bad.output
    assert runner.invoke(cli.app, ["tiling", "solve", "contest_8", "--method", "beam", "--margin", "x"]).exit_code == 2


def test_catalog_lists_contest_and_rectangles():
    result = runner.invoke(cli.app, ["tiling", "catalog", "--json"])
    names = json.loads(result.stdout)
    assert "contest_1" in names and "rect_15x100" in names


def test_table_rows_in_worker_processes_match_the_in_process_table():
    """The batch call (one strip per short side through parallel.map, the hook the Ray
    backend uses) gives verified rows equal to A219158 and to the in-process sweep."""
    from puzzlelab.puzzles.tiling.rectangles import rectangle_table, table_rows

    ms, ns = [3, 1, 7, 12], list(range(1, 31))
    rows = table_rows(ms, ns, workers=2, backend="local")
    assert [(r.m, r.n) for r in rows] == [(m, n) for m in ms for n in ns]
    assert all(r.result.verified for r in rows)
    table = a219158_table()
    inline = {(a.m, a.n): a.squares for a in rectangle_table(ms, ns)}
    for r in rows:
        assert r.squares == inline[(r.m, r.n)]
        if min(r.m, r.n) <= 10:
            assert r.squares == table[(min(r.m, r.n), max(r.m, r.n))], (r.m, r.n)


def test_table_verb_backend_option():
    result = runner.invoke(cli.app, ["tiling", "table", "--m", "2..3", "--n", "4", "--backend", "local", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.split()[3:] == ["2", "4", "2", "3", "4", "4"]
    bad = runner.invoke(cli.app, ["tiling", "table", "--m", "2", "--n", "4", "--backend", "slurm"])
    assert bad.exit_code == 2 and "backend" in bad.output
