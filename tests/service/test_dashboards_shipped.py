"""What the package ships is on the dashboards of a fresh install, each row checked again
by its puzzle's checker: the matchsticks proofs and new bounds, the hexagon grids and
proofs, the A219158 rows past the published table and the contest tilings, the MacMahon
counts, the coin table. A shipped row altered by one value is shown as failed, with the
reason, never as ours; `puzzlelab records` lists the same."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from puzzlelab.cli.app import app as cli_app
from puzzlelab.core import tables
from puzzlelab.puzzles.hexagon import shipped as hexagon_files
from puzzlelab.puzzles.macmahon import counts as macmahon_counts
from puzzlelab.puzzles.matchsticks import proofs as matchsticks_proofs
from puzzlelab.puzzles.matchsticks import records as matchsticks_records
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.tiling import contest_tilings
from puzzlelab.puzzles.tiling.a219158 import computed_rows
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA
from puzzlelab.service.app import create_app
from puzzlelab.service.shipped import clear_shipped, hexagon, macmahon, matchsticks, tiling


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The service on a fresh, empty records store."""
    path = tmp_path_factory.mktemp("shipped") / "records.sqlite"
    with TestClient(create_app(workers=1, store_path=str(path), start_method="fork")) as c:
        yield c


def dashboard(client, name):
    response = client.get(f"/api/records/{name}/dashboard")
    assert response.status_code == 200, response.text
    return response.json()


def by(rows, key):
    return {row[key]: row for row in rows}


# ------------------------------------------------------------ a fresh install shows what ships
def test_matchsticks_proofs_and_new_bounds_are_ours_on_a_fresh_store(client):
    data = dashboard(client, "matchsticks")
    rows = by(data["rows"], "n")
    n36 = rows[36]
    assert n36["ours"]["value"] == 629 == n36["published"] and n36["ours"]["status"] == "optimal"
    assert n36["ours"]["source"] == matchsticks.PROOFS and n36["local"] is None and n36["versus"] == "ties"
    proof = next(s for s in n36["shipped"] if s["kind"] == "answer")
    assert proof["check"] == "verified" and proof["figures"]["optimal_solutions"] == 2 and proof["claim"] == "proven optimal"
    assert "629 distinct matches" in proof["reason"] and "not run again" in proof["reason"]
    assert set(range(39)) <= set(data["ours_proven"])  # proven here: n = 0..38
    for n in range(39):  # each proof equals A294249's proven value, and its classes add up to its count
        shipped = next(s for s in rows[n]["shipped"] if s["kind"] == "answer")
        assert shipped["value"] == published_table()[n]["best_known"]
        classes = shipped["figures"]["solution_classes"]
        assert not classes or sum(c["solutions"] for c in classes) == shipped["figures"]["optimal_solutions"]
    n54, n56 = rows[54], rows[56]
    assert n54["ours"]["value"] == 1153 < n54["published"] == 1157 and n54["versus"] == "beats"
    assert n56["ours"]["value"] == 1216 < n56["published"] == 1217 and n56["versus"] == "beats"
    assert n54["ours"]["status"] == "feasible"  # a bound, not a proof
    # at a glance: the two new bounds first
    assert [h["instances"] for h in data["highlights"][:2]] == [["54"], ["56"]]
    assert all(h["versus"] == "beats" for h in data["highlights"][:2]) and "1,153" in data["highlights"][0]["text"]
    assert all(s["failed"] == 0 for s in data["sources"]) and data["unreadable"] is None


def test_the_provenance_of_a_proof_is_in_the_row_and_its_file(client):
    data = dashboard(client, "matchsticks")
    proof = next(s for s in by(data["rows"], "n")[36]["shipped"] if s["kind"] == "answer")
    shared = by(data["sources"], "source")[proof["source"]]["provenance"]
    provenance = {**shared, **proof["provenance"]}
    assert provenance["method"] == "full --count-solutions" and "--count-solutions" in provenance["command"]
    assert provenance["commit"] and provenance["recorded"].startswith("2026-") and provenance["subtree_cpu_seconds"] > 0
    answer = client.get("/api/records/matchsticks/answer", params={"instance": "36"}).json()
    assert answer["verified"] and answer["verdict"]["value"] == 629 and answer["source"] == matchsticks.PROOFS


def test_hexagon_orders_3_to_12_are_proven_here(client):
    data = dashboard(client, "hexagon")
    rows = by(data["rows"], "n")
    n11 = rows[11]
    assert n11["ours"]["value"] == 902 == n11["published"] and n11["ours"]["status"] == "optimal" and n11["ours_penalty"] == 28
    assert n11["ours"]["source"] == hexagon.GRIDS and set(range(3, 13)) <= set(data["ours_proven"])
    kinds = {s["kind"]: s for s in n11["shipped"]}
    assert kinds["answer"]["check"] == "verified" and kinds["proof"]["check"] == "recorded"
    assert kinds["proof"]["figures"] == {"level": 2, "bound": 27}
    n12 = rows[12]  # past the write-up's proofs: its best score, proven optimal here
    assert n12["ours"]["value"] == 1090 == n12["published"] and n12["ours"]["status"] == "optimal"
    assert {s["kind"]: s for s in n12["shipped"]}["proof"]["figures"] == {"level": 3, "bound": 31}
    for n in range(13, 17):  # past the proofs: the published best score reached, not proven
        assert rows[n]["ours"]["value"] == rows[n]["published"] and rows[n]["ours"]["status"] == "feasible"
    # the solution counts: recorded (the DP gives no certificate), each beside the write-up's equal figure
    assert data["counts"] and all(c["shipped"]["check"] == "recorded" and c["versus"] == "ties" for c in data["counts"])
    assert any(h["text"].startswith("proven optimal here for n = 3..12") for h in data["highlights"])
    assert any(h["versus"] == "beats" and h["text"].startswith("proven optimal here past the published proofs: n = 12 ") for h in data["highlights"])


def test_tiling_rows_16_to_20_and_the_contest_tilings_are_ours(client):
    data = dashboard(client, "tiling")
    computed = computed_rows()
    assert {m for m, _ in computed} == {16, 17, 18, 19, 20}
    for (m, n), value in computed.items():
        if m <= n:
            assert data["ours"][m - 1][n - 1] == value and data["ours_status"][m - 1][n - 1] == "optimal", (m, n)
    assert data["computed_failed"] == []
    contests = by(data["contests"], "number")
    for number, optimum in CONTEST_OPTIMA.items():
        row = contests[number]
        assert row["ours"]["value"] == optimum and row["ours"]["status"] == "optimal" and row["versus"] == "ties"
        assert row["ours"]["source"] == tiling.CONTESTS and row["shipped"][0]["check"] == "verified"


def test_macmahon_4x6_count_is_ours(client):
    rows = by(dashboard(client, "macmahon")["rows"], "instance")
    row = rows["4x6"]
    assert row["ours"]["value"] == 106_624 == row["published"] and row["versus"] == "ties"
    assert row["ours"]["source"] == macmahon.COUNTS and row["shipped"][0]["check"] == "verified"
    assert row["classes"]["full"] * row["group_orders"]["full"] == 106_624  # the full group acts freely
    assert rows["3x8"]["ours"]["value"] == rows["2x12"]["ours"]["value"] == 0


def test_a_count_the_checker_cannot_recount_is_recorded_never_verified(client):
    """hex2's 11,853,792: no published count, far beyond the checker's own recount, so the
    checker says UNCHECKED: shown as a recorded count, not as ours, not served."""
    data = dashboard(client, "macmahon")
    row = by(data["rows"], "instance")["hex2"]
    assert row["ours"] is None and row["versus"] is None
    (shipped,) = row["shipped"]
    assert shipped["check"] == "recorded" and shipped["value"] == 11_853_792 and "NOT checked: the total" in shipped["reason"]
    assert any("hex2 11,853,792" in h["text"] for h in data["highlights"])
    assert client.get("/api/records/macmahon/answer", params={"instance": "hex2"}).status_code == 404


def test_the_coin_table_is_checked_and_its_provenance_shown(client):
    data = dashboard(client, "coins")
    font = next(f for f in data["fonts"] if f["font"] == "font5x7")
    assert font["counts"]["solved"] == 1332 and font["counts"]["disagree"] == 0 and font["counts"]["local"] == 0
    assert data["sources"][0]["verified"] == 1332 and data["provenance"]["command"].startswith("puzzlelab coins batch")
    wide = next(f for f in data["fonts"] if f["font"] == "font5x9")  # the 5 x 9 starts computed whole, 36 targets each
    assert wide["counts"]["solved"] > 0 and wide["counts"]["solved"] % 36 == 0 and wide["counts"]["disagree"] == 0


# ------------------------------------------------------------ a row altered by one value fails
def _alter(monkeypatch, modules, name: str, change):
    """Every reader of data/`name` gets its text with `change` applied (the file on disk
    is left alone), and the shipped rows are read again."""
    real = tables.read_data_text

    def altered(package: str, file: str) -> str:
        text = real(package, file)
        return change(text) if file == name else text

    for module in modules:
        monkeypatch.setattr(module, "read_data_text", altered)
    return altered


@pytest.fixture
def reread():
    """Read and check the shipped files again before and after the test."""
    clear_shipped()
    yield
    clear_shipped()


def test_an_altered_proof_is_failed_not_ours(client, monkeypatch, reread):
    def change(text):
        data = json.loads(text)
        row = next(r for r in data["proofs"] if r["n"] == 36)
        row["value"] = 628  # one value changed: the squares still give 629
        return json.dumps(data)

    _alter(monkeypatch, [matchsticks_proofs], "proofs.json", change)
    clear_shipped("matchsticks")
    data = dashboard(client, "matchsticks")
    row = by(data["rows"], "n")[36]
    proof = next(s for s in row["shipped"] if s["kind"] == "answer")
    assert proof["check"] == "failed" and "629 matches, not the 628" in proof["reason"]
    assert row["ours"] is None or (row["ours"]["source"] != matchsticks.PROOFS and row["ours"]["value"] != 628)
    assert 36 not in data["ours_proven"]
    failures = by(data["sources"], "source")[proof["source"]]["failures"]
    assert [f["instance"] for f in failures] == ["36"]
    answer = client.get("/api/records/matchsticks/answer", params={"instance": "36"})
    assert answer.status_code == 404 or answer.json()["value"] != 628


def test_a_row_the_reader_lets_through_is_failed_by_the_service_check(client, monkeypatch, reread):
    """The service checks again, whatever the reader said: a new record whose value is one
    below what its squares give, handed over as if it had passed the reader's check."""
    real = matchsticks_records.record_rows

    def lying():
        shipped = real()
        rows = [(dict(row, value=row["value"] - 1) if row["n"] == 54 else row, None) for row, _ in shipped["rows"]]
        return {"provenance": shipped["provenance"], "rows": rows}

    monkeypatch.setattr("puzzlelab.service.shipped.matchsticks.record_rows", lying)
    clear_shipped("matchsticks")
    row = by(dashboard(client, "matchsticks")["rows"], "n")[54]
    record = next(s for s in row["shipped"] if s["kind"] == "record")
    assert record["check"] == "failed" and "1153" in record["reason"] and "1152" in record["reason"]
    assert row["ours"] is None or row["ours"]["value"] != 1152
    assert row["versus"] != "beats" or row["ours"]["value"] == 1153


@pytest.mark.parametrize("puzzle,modules,name,change,where", [
    ("hexagon", [hexagon_files], "best_grids.json", lambda t: t.replace('"n":11,"raw":902', '"n":11,"raw":903'), "11"),
    ("tiling", [contest_tilings], "contest_tilings.json", lambda t: t.replace('"number":3,"value":103', '"number":3,"value":102'), "contest_3"),
    ("macmahon", [macmahon_counts], "counts.json", lambda t: t.replace('"instance":"4x6","total":106624', '"instance":"4x6","total":106625'), "4x6"),
])
def test_an_altered_row_of_each_file_is_failed(client, monkeypatch, reread, puzzle, modules, name, change, where):
    text = tables.read_data_text(f"puzzlelab.puzzles.{puzzle}", name)
    assert change(text) != text  # the change applies to the shipped file
    _alter(monkeypatch, modules, name, change)
    clear_shipped(puzzle)
    data = dashboard(client, puzzle)
    rows = data["contests"] if puzzle == "tiling" else data["rows"]
    key = "instance" if puzzle != "hexagon" else "n"
    row = by(rows, key)[int(where) if puzzle == "hexagon" else where]
    failed = [s for s in row["shipped"] if s["check"] == "failed"]
    assert failed and failed[0]["reason"], row["shipped"]
    assert row["ours"] is None  # nothing else on a fresh store: no answer is shown for it
    assert any(f["instance"] == where for s in data["sources"] for f in s["failures"])


def test_a_damaged_file_is_named_and_none_of_it_is_ours(client, monkeypatch, reread):
    _alter(monkeypatch, [matchsticks_proofs], "proofs.json", lambda text: text[: len(text) // 2])  # cut off mid-row
    clear_shipped("matchsticks")
    data = dashboard(client, "matchsticks")
    assert "matchsticks data/proofs.json cannot be read: JSONDecodeError" in data["unreadable"]
    assert all(r["ours"] is None or r["ours"]["source"] != matchsticks.PROOFS for r in data["rows"]) and data["ours_proven"] == []
    assert not any(s["kind"] == "answer" for r in data["rows"] for s in r["shipped"])
    assert by(data["rows"], "n")[54]["ours"]["value"] == 1153  # the other files are still read and shown


def test_an_altered_a219158_row_is_failed_and_left_off_the_heat_map(client, monkeypatch, reread):
    def change(text):
        lines = text.splitlines()
        i = next(k for k, line in enumerate(lines) if line.startswith("17\t40\t"))
        m, n, t, squares = lines[i].split("\t")
        lines[i] = "\t".join((m, n, str(int(t) - 1), squares))
        return "\n".join(lines) + "\n"

    _alter(monkeypatch, [tables], "A219158_m16_20.tsv", change)
    clear_shipped("tiling")
    data = dashboard(client, "tiling")
    assert [(f["m"], f["n"]) for f in data["computed_failed"]] == [(17, 40)]
    assert data["ours"][16][39] is None and data["ours"][16][40] is not None


# ------------------------------------------------------------ the command line lists the same
def test_records_lists_shipped_and_local_each_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELAB_DB", str(tmp_path / "fresh.sqlite"))
    runner = CliRunner()
    shown = runner.invoke(cli_app, ["records", "--puzzle", "matchsticks"], env={"COLUMNS": "160"})
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("matchsticks 54: 1,153 beats the published 1,157") and lines[1].startswith("matchsticks 56: 1,216")
    proven = len(json.loads(tables.read_data_text("puzzlelab.puzzles.matchsticks", "proofs.json"))["proofs"])  # every shipped proof row
    assert proven >= 37 and f"{proven} verified" in shown.stdout and "no local records yet" in shown.stdout
    listed = json.loads(runner.invoke(cli_app, ["records", "--puzzle", "macmahon", "--json", "--shipped"]).stdout)
    counted = {row["instance"]: row for row in listed["shipped"]}
    assert counted["4x6"]["value"] == 106_624 and counted["4x6"]["check"] == "verified" and listed["local"] == []
    assert counted["4x6"]["provenance"]["command"].startswith("puzzlelab macmahon count 4x6")
    plain = json.loads(runner.invoke(cli_app, ["records", "--json"]).stdout)
    assert plain == []  # --json alone: the store's records, as before


def test_records_names_a_failed_shipped_row(tmp_path, monkeypatch, reread):
    monkeypatch.setenv("PUZZLELAB_DB", str(tmp_path / "fresh.sqlite"))
    _alter(monkeypatch, [contest_tilings], "contest_tilings.json", lambda t: t.replace('"number":3,"value":103', '"number":3,"value":102'))
    clear_shipped("tiling")
    shown = CliRunner().invoke(cli_app, ["records", "--puzzle", "tiling"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "contest 3" in shown.stdout and "FAILED" in shown.stdout and "102" in shown.stdout
