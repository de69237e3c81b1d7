"""The shipped table of font5x7 optima: every entry replayed by the checker
from the raw file, lengths against the published sample, whole starts, a damaged file
refused (never served), the `table` method and its fallback, the `coins table` verb."""

import json
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.puzzles.coins import PUZZLE, model, optimal_table, table
from puzzlelab.puzzles.coins.optimal_table import CorruptTable, entries_digest, load_table
from puzzlelab.puzzles.coins.reference import published_lengths
from puzzlelab.puzzles.coins.verify import verify
from support.job_waiting import wait_for

runner = CliRunner()
APP = cli.build_app()
FONT = model.fonts()["font5x7"]
RAW = json.loads(resources.files("puzzlelab.puzzles.coins").joinpath("data", "font5x7_optimal.json").read_text())
SAMPLE = {k: v for k, v in published_lengths().items() if k.startswith("font5x7:")}
IN_TABLE = sum(1 for _ in RAW["puzzles"])


def plain_moves(text: str) -> list[list[int]]:
    """The file's moves decoded here from its own description (not by the module under test)."""
    width, alphabet = RAW["width"], RAW["alphabet"]
    cells = [alphabet.index(c) for c in text]
    return [[a % width, a // width, b % width, b // width] for a, b in zip(cells[::2], cells[1::2])]


def smallest_entry() -> str:
    """The table's shortest puzzle: its bidir fallback takes a moment, not minutes."""
    return min(RAW["puzzles"], key=lambda key: RAW["puzzles"][key][0])


def written(tmp_path, data, *, digest=True, name="table.json"):
    if digest:
        data["sha256"] = entries_digest(data["puzzles"])
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


# ----------------------------------------------------------------- the shipped file


def test_every_shipped_move_list_replays_from_its_start_to_its_target_in_its_length():
    assert RAW["font"] == "font5x7" and (RAW["width"], RAW["height"]) == (5, 7) and IN_TABLE > 0
    for key, (moves, text) in RAW["puzzles"].items():
        start, target = key.split("-")
        instance = model.parse_instance(f"font5x7:{start}-{target}")
        verdict = verify(instance, plain_moves(text))
        assert verdict.ok and verdict.value == moves == len(text) // 2, (key, verdict.message)
    served = list(load_table().entries())  # the reader serves the same entries, all replayed
    assert [(e.start, e.target, e.moves) for e in served] == [(*k.split("-"), v[0]) for k, v in RAW["puzzles"].items()]
    assert all(e.solution == plain_moves(RAW["puzzles"][f"{e.start}-{e.target}"][1]) for e in served)


def test_lengths_equal_the_published_sample_wherever_it_has_the_puzzle():
    table = load_table()
    matched = 0
    for key, length in SAMPLE.items():
        start, target = key.split(":")[1].split("-")
        if (start, target) in table:
            assert table.entry(start, target).moves == length, key
            matched += 1
    starts = set(table.starts)
    assert matched == sum(1 for key in SAMPLE if key.split(":")[1][0] in starts) > 0


def test_each_covered_start_has_all_its_targets_and_its_provenance():
    starts = {}
    for key in RAW["puzzles"]:
        start, target = key.split("-")
        starts.setdefault(start, set()).add(target)
    for start, targets in starts.items():
        assert targets == set(FONT["order"]) - {start}, start
    facts = RAW["provenance"]
    assert set(facts["starts"]) == set(starts) and facts["puzzles"] == IN_TABLE and facts["of"] == 1332
    assert "--method bfs" in facts["command"] and facts["generator"].endswith("campaign.py ship")
    assert facts["wall_seconds_total"] == pytest.approx(sum(s["wall_seconds"] for s in facts["starts"].values()))
    assert all(s["wall_seconds"] > 0 for s in facts["starts"].values())


def test_the_table_is_what_ship_makes_of_the_committed_campaign_results():
    """Every start solved.json holds whole is in the table, with the same move lists, and
    nothing else: re-run `python proofs/coins-font5x7/campaign.py ship` after an export."""
    solved_path = Path(__file__).resolve().parents[2] / "proofs" / "coins-font5x7" / "solved.json"
    if not solved_path.exists():
        pytest.skip("no proofs/ beside the tests (an installed copy)")
    solved = json.loads(solved_path.read_text())["puzzles"]
    starts = {key.split(":")[1].split("-")[0] for key in solved}
    whole = {s for s in starts if sum(1 for key in solved if key.startswith(f"font5x7:{s}-")) == 36}
    expected = {key.split(":")[1]: entry for key, entry in solved.items() if key.split(":")[1].split("-")[0] in whole}
    assert set(RAW["puzzles"]) == set(expected), "the table is out of date: run campaign.py ship"
    for key, entry in expected.items():
        assert RAW["puzzles"][key][0] == entry["moves"] and plain_moves(RAW["puzzles"][key][1]) == entry["solution"], key


def test_the_table_is_complete():
    table = load_table()
    assert len(table) == 1332 == len(model.catalog_names("font5x7"))
    matched = [key for key in SAMPLE if tuple(key.split(":")[1].split("-")) in table]
    assert len(matched) == len(SAMPLE) == 150


# ----------------------------------------------------------------- a damaged file


def test_a_truncated_file_is_refused_in_one_line(tmp_path):
    text = (resources.files("puzzlelab.puzzles.coins") / "data" / "font5x7_optimal.json").read_text()
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2])
    with pytest.raises(CorruptTable, match="not valid JSON.*damaged or truncated") as refused:
        load_table(path=path)
    assert "\n" not in str(refused.value)


def test_a_changed_entry_fails_the_digest(tmp_path):
    data = json.loads(json.dumps(RAW))
    key = smallest_entry()
    data["puzzles"][key][0] += 1
    data["puzzles"][key][1] += data["puzzles"][key][1][-2:]
    with pytest.raises(CorruptTable, match="sha256"):
        load_table(path=written(tmp_path, data, digest=False))


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda e: [e[0] + 1, e[1]], "expected \\[moves, two characters a move\\]"),
        (lambda e: [e[0], e[1][:-1] + "~"], "no cell of the 5 x 7 board"),
        (lambda e: [e[0], e[1][:-1] + "Z"], "no cell of the 5 x 7 board"),  # cell 61 of 35
        (lambda e: [True, e[1][:2]], "expected \\[moves"),
        (lambda e: {"moves": e[0]}, "expected \\[moves"),
    ],
)
def test_a_malformed_entry_is_refused_on_load(tmp_path, damage, words):
    data = json.loads(json.dumps(RAW))
    key = smallest_entry()
    data["puzzles"][key] = damage(data["puzzles"][key])
    with pytest.raises(CorruptTable, match=words):
        load_table(path=written(tmp_path, data))  # digest recomputed: the shape check itself refuses


def test_a_start_lacking_a_target_or_a_foreign_glyph_is_refused(tmp_path):
    data = json.loads(json.dumps(RAW))
    del data["puzzles"][smallest_entry()]
    with pytest.raises(CorruptTable, match="targets; a start is shipped whole"):
        load_table(path=written(tmp_path, data))
    data = json.loads(json.dumps(RAW))
    data["puzzles"]["a-B"] = data["puzzles"].pop(smallest_entry())
    with pytest.raises(CorruptTable, match="two glyphs of font5x7"):
        load_table(path=written(tmp_path, data))
    for field, value, words in (("format", "v0", "format"), ("font", "font9x9", "not a shipped font"), ("width", 7, "board 7 x 7")):
        data = json.loads(json.dumps(RAW))
        data[field] = value
        with pytest.raises(CorruptTable, match=words):
            load_table(path=written(tmp_path, data))


def damaged_but_well_formed(tmp_path):
    """A legal-looking entry whose moves are wrong (a move changed, the length kept, the
    digest recomputed): only the replay can catch it. Returns (path, key)."""
    data = json.loads(json.dumps(RAW))
    key = smallest_entry()
    moves, text = data["puzzles"][key]
    first = text[0]
    data["puzzles"][key] = [moves, text[1] + first + text[2:]]  # the first move reversed
    return written(tmp_path, data), key


def test_a_wrong_move_list_is_never_served(tmp_path):
    path, key = damaged_but_well_formed(tmp_path)
    damaged = load_table(path=path)
    start, target = key.split("-")
    with pytest.raises(CorruptTable, match=f"entry {key} .* fails the replay"):
        damaged.entry(start, target)
    with pytest.raises(CorruptTable, match="fails the replay"):
        list(damaged.entries())
    with pytest.raises(CorruptTable):
        damaged.entry(start, target)  # refused again, never cached as served


def test_the_table_method_falls_back_to_bidir_on_a_damaged_table(tmp_path, monkeypatch):
    path, key = damaged_but_well_formed(tmp_path)
    monkeypatch.setattr(table, "load_table", lambda font: load_table(path=path))
    result = PUZZLE.solve(PUZZLE.load(f"font5x7:{key}"), budget=120)
    assert result.method == "bidir" and result.verified and result.status.value == "optimal"
    assert result.value == RAW["puzzles"][key][0]  # bidir's own optimum: the entry's length was right, its moves were not
    assert "entry was refused" in result.stats["table"] and "fails the replay" in result.stats["table"]


def test_the_table_verb_refuses_a_damaged_table_in_one_line(tmp_path, monkeypatch):
    path = tmp_path / "cut.json"
    path.write_text("{\"format\": ")
    monkeypatch.setattr(optimal_table, "_shipped", lambda font: load_table(path=path))
    result = runner.invoke(APP, ["coins", "table"])
    assert result.exit_code == 5
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "not valid JSON" in lines[0] and "--method bidir" in lines[0]


# ----------------------------------------------------------------- answering from the table


def test_solve_answers_from_the_table_with_its_proof():
    key = next(iter(RAW["puzzles"]))
    result = runner.invoke(APP, ["coins", "solve", f"font5x7:{key}", "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "table" and data["status"] == "optimal" and data["verified"]
    assert data["value"] == data["bound"] == RAW["puzzles"][key][0] == len(data["solution"])
    assert "exhaustive BFS" in data["stats"]["proof"] and "--method bfs" in data["stats"]["provenance"]["command"]
    assert data["stats"]["provenance"]["start_bfs_wall_seconds"] == RAW["provenance"]["starts"][key.split("-")[0]]["wall_seconds"]
    again = PUZZLE.solve(PUZZLE.load(f"font5x7:{key}"))  # the Python API, default method: the same answer
    assert again.value == data["value"] and again.solution == data["solution"]


def test_the_same_glyphs_given_as_rows_are_answered_from_the_table():
    key = smallest_entry()
    start, target = key.split("-")
    rows = {g: model.mask_to_rows(FONT["glyphs"][g], 5, 7) for g in (start, target)}
    result = PUZZLE.solve(PUZZLE.parse({"start": rows[start], "target": rows[target]}))
    assert result.method == "table" and result.value == RAW["puzzles"][key][0] and result.verified


def test_a_puzzle_the_table_lacks_goes_to_bidir_and_says_so(tmp_path, monkeypatch):
    result = PUZZLE.solve(PUZZLE.parse("---o\no---\n-o-o\no-o-\n\noo--\noo--\no---\no---"), budget=60)  # a board of its own
    assert result.method == "bidir" and result.value == 7 and result.verified
    assert "is not in a shipped table" in result.stats["table"]
    found, why = table._from_table(PUZZLE.parse("font5x9:O-C"))  # font5x9 ships only the starts computed whole
    assert found is None and "font5x9:O-C is not in the shipped table yet" in why
    # a start not yet computed: the table without the start of its shortest puzzle
    data = json.loads(json.dumps(RAW))
    key = smallest_entry()
    data["puzzles"] = {k: v for k, v in data["puzzles"].items() if k.split("-")[0] != key.split("-")[0]}
    path = written(tmp_path, data)
    monkeypatch.setattr(table, "load_table", lambda font: load_table(path=path))
    result = PUZZLE.solve(PUZZLE.load(f"font5x7:{key}"), budget=120)
    assert result.method == "bidir" and result.value == RAW["puzzles"][key][0]
    assert f"font5x7:{key} is not in the shipped table yet" in result.stats["table"]


def test_the_search_methods_still_recompute():
    key = smallest_entry()
    result = runner.invoke(APP, ["coins", "solve", f"font5x7:{key}", "--method", "bidir", "--json", "--quiet", "--no-store"])
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["method"] == "bidir" and data["value"] == RAW["puzzles"][key][0]
    assert "table" not in data["stats"]


def test_table_is_the_default_method_and_takes_bidirs_options():
    assert PUZZLE.default_method == "table" and next(iter(PUZZLE.methods)) == "table"
    assert PUZZLE.method("table").options == PUZZLE.method("bidir").options


# ----------------------------------------------------------------- the verb


def test_table_verb_prints_every_puzzle_and_a_summary():
    result = runner.invoke(APP, ["coins", "table", "--font", "font5x7"])
    assert result.exit_code == 0, result.output
    *rows, summary = result.stdout.strip().splitlines()
    assert [row.split() for row in rows] == [[*k.split("-"), str(v[0])] for k, v in RAW["puzzles"].items()]
    assert summary.startswith(f"# {IN_TABLE:,} of 1,332 font5x7 puzzles") and "replayed" in summary


def test_table_verb_json_carries_the_move_lists():
    result = runner.invoke(APP, ["coins", "table", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["puzzles_in_table"] == IN_TABLE == len(data["puzzles"]) and data["puzzles_in_font"] == 1332
    assert data["provenance"] == RAW["provenance"]
    for row in data["puzzles"][:: max(1, IN_TABLE // 40)]:
        verdict = verify(model.parse_instance(f"font5x7:{row['start']}-{row['target']}"), row["solution"])
        assert verdict.ok and verdict.value == row["moves"]


def test_table_verb_refuses_a_font_without_a_table():
    result = runner.invoke(APP, ["coins", "table", "--font", "nofont"])
    assert result.exit_code == 2 and "no optimal table ships for" in result.output and "font5x7, font5x9" in result.output


def test_the_font5x9_table_holds_whole_starts_at_the_published_lengths():
    """Each start it covers has all 36 targets, each replayed (the reader's load), and
    every one the published sample has is at its published length."""
    result = runner.invoke(APP, ["coins", "table", "--font", "font5x9", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = data["puzzles"]
    starts = {row["start"] for row in rows}
    assert starts and len(rows) == 36 * len(starts) == data["puzzles_in_table"] and data["puzzles_in_font"] == 1332
    published = published_lengths()
    sampled = [row for row in rows if f"font5x9:{row['start']}-{row['target']}" in published]
    assert sampled and all(row["moves"] == published[f"font5x9:{row['start']}-{row['target']}"] for row in sampled)
    for row in rows[::6]:
        verdict = verify(model.parse_instance(f"font5x9:{row['start']}-{row['target']}"), row["solution"])
        assert verdict.ok and verdict.value == row["moves"]
    served = PUZZLE.solve(PUZZLE.parse(f"font5x9:{sampled[0]['start']}-{sampled[0]['target']}"))
    assert served.method == "table" and served.value == sampled[0]["moves"] and served.verified


def test_the_rest_service_answers_from_the_table_by_default(tmp_path):
    """The service's job runner (a worker process) with the default method; the page
    offers the methods the API describes, the default first."""
    from fastapi.testclient import TestClient

    from puzzlelab.service.app import create_app

    key = smallest_entry()
    with TestClient(create_app(workers=1, store_path=str(tmp_path / "service.sqlite"), grace=1.0)) as client:
        described = {p["name"]: p for p in client.get("/api/puzzles").json()}["coins"]
        assert described["default_method"] == "table" and described["methods"][0]["name"] == "table"
        response = client.post("/api/jobs", json={"puzzle": "coins", "instance": f"font5x7:{key}"})
        assert response.status_code == 202, response.text
        job = wait_for(client, response.json()["id"], timeout=120)
        assert job["state"] == "done", job
        result = job["result"]
        assert result["method"] == "table" and result["status"] == "optimal" and result["verified"]
        assert result["value"] == RAW["puzzles"][key][0] and "exhaustive BFS" in result["stats"]["proof"]
        assert client.get(job["svg"]).status_code == 200

