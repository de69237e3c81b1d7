"""The coins verbs through the real CLI: solve / verify / catalog from the contract, and
the puzzle's own bfs, batch and animate; plus the pictures."""

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.store import Store
from puzzlelab.puzzles.coins import PUZZLE, batch, model
from puzzlelab.puzzles.coins.render import animated_svg, coin_tracks, html_stepper, pair_svg

runner = CliRunner()
APP = cli.build_app()


def test_solve_json_contract_and_store():
    result = runner.invoke(APP, ["coins", "solve", "font5x7:O-C", "--method", "bidir", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["value"] == 3 == PUZZLE.published("font5x7:O-C")["value"]
    assert data["status"] == "optimal" and data["verified"] and data["method"] == "bidir"
    assert [r.value for r in Store().best("coins")] == [3]


def test_bad_input_exits_2_with_the_field():
    result = runner.invoke(APP, ["coins", "solve", "font5x7:O-#"])
    assert result.exit_code == 2 and "no glyph '#'" in result.output
    result = runner.invoke(APP, ["coins", "solve", "font5x7:O-C", "--method", "bidir", "--dedup", "tree"])
    assert result.exit_code == 2 and "--dedup" in result.output


def test_verify_command(tmp_path):
    good = PUZZLE.solve(PUZZLE.parse("font5x7:U-J"), "bidir", budget=30).solution
    (tmp_path / "good.json").write_text(json.dumps(good))
    bad = [list(m) for m in good]
    bad[0][2], bad[0][3] = bad[0][0], bad[0][1]  # put the coin back where it was: occupied
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    ok = runner.invoke(APP, ["coins", "verify", "font5x7:U-J", str(tmp_path / "good.json")])
    assert ok.exit_code == 0 and "valid: moves 4" in ok.output
    no = runner.invoke(APP, ["coins", "verify", "font5x7:U-J", str(tmp_path / "bad.json")])
    assert no.exit_code == 1 and "INVALID" in no.output and "move 1" in no.output


@pytest.mark.slow  # tens of seconds; run with `make test-all`
def test_bfs_verb_on_glyph_rows_matches_bidir(tmp_path):
    start = "---o/o---/-o-o/o-o-"
    targets = "oo--/oo--/o---/o---;oo-o/---o/---o/-o--;-o-o/o-o-/---o/o---"  # 7, 20, unreachable
    args = ["coins", "bfs", "--targets", targets, "--workdir", str(tmp_path / "w"), "--json", "--quiet", "--", start]
    result = runner.invoke(APP, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["finished"] is True  # the unreachable target makes the search exhaust the board space
    start_mask = model.rows_to_mask(start.replace("/", "\n"), "s")[2]
    for row, text in zip(data["targets"], targets.split(";")):
        target = model.rows_to_mask(text.replace("/", "\n"), "t")[2]
        expected = PUZZLE.solve(model.Instance(4, 4, start_mask, target), "bidir", budget=30)
        assert row["moves"] == expected.value and row["verified"] == (expected.value is not None)
    assert [row["moves"] for row in data["targets"]] == [7, 20, None]


def test_bfs_verb_refuses_5x9_up_front_when_memory_is_short(tmp_path):
    # 5 x 9 runs on the two-bit engine (18.5 GB); with 16 GB it is refused, in one line
    result = runner.invoke(APP, ["coins", "bfs", "font5x9:A", "--workdir", str(tmp_path / "w"), "--max-memory-gb", "16"])
    assert result.exit_code == 2
    assert "73,006,209,045" in result.output and "memory is short" in result.output and "--method bidir" in result.output
    # the figure shown is the cap, or less when this machine has less free right now
    shown = re.search(r"(?:available here is|requested memory bound is) ([0-9.]+) GB", result.output)
    assert "18.5 GB of memory" in result.output and shown and float(shown.group(1)) <= 16.0, result.output
    assert not (tmp_path / "w").exists()
    byte = runner.invoke(APP, ["coins", "bfs", "font5x9:A", "--engine", "byte", "--workdir", str(tmp_path / "w"), "--max-memory-gb", "20"])
    assert byte.exit_code == 2 and "73.0 GB" in byte.output and not (tmp_path / "w").exists()


def test_batch_stores_verified_results_and_resumes(tmp_path):
    # three short puzzles (O-C is published: 3 moves)
    args = ["coins", "batch", "--font", "font5x7", "--starts", "O", "--targets", "C,J,U", "--method", "bidir", "--workers", "1", "--json"]
    first = runner.invoke(APP, args)
    assert first.exit_code == 0, first.output
    summary = json.loads(first.stdout.strip().splitlines()[-1])
    assert summary["solved"] == 3 and summary["skipped"] == 0
    best = {r.instance: r.value for r in Store().best("coins")}
    assert sorted(best) == ["font5x7:O-C", "font5x7:O-J", "font5x7:O-U"]
    assert best["font5x7:O-C"] == 3 == PUZZLE.published("font5x7:O-C")["value"]
    assert summary["results"] == best
    again = runner.invoke(APP, args)
    summary = json.loads(again.stdout.strip().splitlines()[-1])
    assert summary["solved"] == 0 and summary["skipped"] == 3
    assert Store().count() == 3
    # the backend-comparison call: same answers, without reading or writing the store
    assert batch.verified_batch(workers=2, backend="local") == best
    assert Store().count() == 3


def test_batch_ships_small_json_descriptors_and_refuses_bad_options():
    groups = batch.plan("font5x7", "A,B", None)
    per_puzzle = batch.descriptors(groups, "bidir", {"memory_mb": 512}, "w", 60.0)
    per_start = batch.descriptors(groups, "bfs", {}, "w", None)
    assert len(per_puzzle) == 2 * 36 and len(per_start) == 2
    assert sorted(t for d in per_start for t in d["targets"]) == sorted(t for d in per_puzzle for t in d["targets"])
    for descriptor in per_puzzle + per_start:
        assert json.loads(json.dumps(descriptor)) == descriptor and len(json.dumps(descriptor)) < 1000
    result = runner.invoke(APP, ["coins", "batch", "--font", "font5x7", "--backend", "mpi"])
    assert result.exit_code == 2 and "--backend" in result.output
    result = runner.invoke(APP, ["coins", "batch", "--font", "font9x9"])
    assert result.exit_code == 2 and "font9x9" in result.output


def test_catalog_and_animate(tmp_path):
    listing = runner.invoke(APP, ["coins", "catalog", "--json"])
    assert len(json.loads(listing.stdout)) == 2664
    html, svg = tmp_path / "oc.html", tmp_path / "oc.svg"
    result = runner.invoke(APP, ["coins", "animate", "font5x7:O-C", "--html", str(html), "--svg", str(svg)])
    assert result.exit_code == 0, result.output
    assert "moves = [[" in html.read_text()
    ET.fromstring(svg.read_text())


def test_pictures_replay_the_moves():
    inst = PUZZLE.parse("font5x7:O-C")
    moves = PUZZLE.solve(inst, "bidir", budget=30).solution
    ET.fromstring(pair_svg(inst))
    tracks = coin_tracks(inst, moves)
    final = {track[-1] for track in tracks}
    assert final == {(x, y) for y in range(7) for x in range(5) if inst.target >> (5 * y + x) & 1}
    root = ET.fromstring(animated_svg(inst, moves))
    animations = [e for e in root.iter() if e.tag.endswith("animate")]
    assert len(animations) == 2 * inst.coins
    assert html_stepper(inst, moves).count("<button") == 4
    text = PUZZLE.render_text(inst, None)
    assert text.splitlines()[1].startswith("-ooo-")


def test_bfs_verb_on_the_two_bit_engine_resumes_and_verifies(tmp_path, oracle):
    start = "---o/o---/-o-o/o-o-"
    targets = "oo--/oo--/o---/o---;oo-o/---o/---o/-o--;-o-o/o-o-/---o/o---"  # 7, 20, unreachable
    start_mask = model.rows_to_mask(start.replace("/", "\n"), "s")[2]
    distances = oracle.bfs(start_mask, 4, 4)
    expected = [distances.get(model.rows_to_mask(t.replace("/", "\n"), "t")[2]) for t in targets.split(";")]
    args = ["coins", "bfs", "--engine", "twobit", "--targets", targets, "--workdir", str(tmp_path / "w"), "--json", "--quiet", "--no-store"]
    first = runner.invoke(APP, [*args, "--budget", "0", "--", start])  # stopped at once: level 0 only on disk
    assert first.exit_code == 1
    result = runner.invoke(APP, [*args, "--", start])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["finished"] is True and data["levels"] == np.bincount(list(distances.values())).tolist()
    assert [row["moves"] for row in data["targets"]] == expected == [7, 20, None]
    assert [row["verified"] for row in data["targets"]] == [True, True, False]
    assert (tmp_path / "w" / "level_020.ef").exists()


def test_batch_reports_a_start_refused_on_its_machine_in_one_line(tmp_path):
    """The byte array for a 5 x 9 start is refused where the task runs; the report names
    the start as it is (no emoji for "font5x9:A:") and the figures."""
    args = ["coins", "batch", "--font", "font5x9", "--method", "bfs", "--engine", "byte", "--starts", "A", "--targets", "B",
            "--workers", "1", "--workdir", str(tmp_path / "w")]
    result = runner.invoke(APP, args)
    assert result.exit_code == 1
    assert "font5x9:A: task failed" in result.output and "73,006,209,045" in result.output and "--engine twobit" in result.output
    assert not (tmp_path / "w" / "font5x9_A").exists()
