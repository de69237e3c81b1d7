"""The files around a run, from the command line: an output file (--svg, --out, --list,
--html) never replaces the records store, the instance or a file puzzlelab did not
write (unless --force) and follows no symbolic link; a checkpoint or workdir in a
folder that does not exist is refused before any work; a full disk is one line; a
store that cannot be written costs its error line after the verified answer; a foreign
SQLite file is refused untouched; /dev/full fails at once and /dev/stdout streams; a
bad PUZZLELAB_PLUGINS entry is one line."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzlelab import cli, puzzles
from puzzlelab.core import files
from puzzlelab.core.files import MARKER
from puzzlelab.core.store import Store, StoreError

runner = CliRunner()
SRC = Path(__file__).resolve().parents[2] / "src"
SOLVE = ["tiling", "solve", "5x3", "--no-store", "--quiet"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_error(result, *words: str) -> str:
    """The run ended with exit 2 and one `error:` line holding `words`."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert all(word in lines[0] for word in words), lines[0]
    return lines[0]


def test_svg_never_replaces_the_records_store(tmp_path, monkeypatch):
    """PUZZLELAB_DB=db.sqlite puzzlelab tiling solve 5x3 --no-store --svg db.sqlite"""
    store = tmp_path / "db.sqlite"
    monkeypatch.setenv("PUZZLELAB_DB", str(store))
    Store().count()
    before = digest(store)
    for extra in ([], ["--force"]):
        one_error(runner.invoke(cli.app, [*SOLVE, "--svg", str(store), *extra]), "--svg", "is the records store")
    assert digest(store) == before


def test_svg_never_replaces_the_instance(tmp_path):
    grid = tmp_path / "grid.txt"
    grid.write_text("....\n....\n")
    before = digest(grid)
    result = runner.invoke(cli.app, ["tiling", "solve", str(grid), "--no-store", "--quiet", "--svg", str(grid), "--force"])
    one_error(result, "is the instance file")
    assert digest(grid) == before


def test_svg_replaces_only_its_own_files_unless_forced(tmp_path):
    picture = tmp_path / "tiling.svg"
    assert runner.invoke(cli.app, [*SOLVE, "--svg", str(picture)]).exit_code == 0
    assert picture.read_text().startswith("<svg") and f"<!-- {MARKER} -->" in picture.read_text()[:1000]
    assert runner.invoke(cli.app, [*SOLVE, "--svg", str(picture)]).exit_code == 0  # ours: replaced
    notes = tmp_path / "notes.svg"
    notes.write_text("my own drawing")
    one_error(runner.invoke(cli.app, [*SOLVE, "--svg", str(notes)]), "did not write", "--force")
    assert notes.read_text() == "my own drawing"
    assert runner.invoke(cli.app, [*SOLVE, "--svg", str(notes), "--force"]).exit_code == 0
    assert "<svg" in notes.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.svg", "tiling.svg"]  # no temporary file


def test_svg_does_not_follow_a_symbolic_link(tmp_path):
    precious = tmp_path / "precious.txt"
    precious.write_text("keep")
    link = tmp_path / "link.svg"
    link.symlink_to(precious)
    one_error(runner.invoke(cli.app, [*SOLVE, "--svg", str(link)]), "symbolic link")
    assert runner.invoke(cli.app, [*SOLVE, "--svg", str(link), "--force"]).exit_code == 0
    assert precious.read_text() == "keep" and not link.is_symlink() and "<svg" in link.read_text()


def test_svg_to_standard_output_and_to_a_full_device():
    streamed = runner.invoke(cli.app, [*SOLVE, "--svg", "-"])
    assert streamed.exit_code == 0 and f"<!-- {MARKER} -->" not in streamed.stdout and "<svg" in streamed.stdout
    full = runner.invoke(cli.app, [*SOLVE, "--svg", "/dev/full"])
    one_error(full, "--svg /dev/full", "no space left")
    assert "verified" in full.stdout  # the answer was printed before the file failed


@pytest.mark.parametrize(
    "args, words",
    [
        (["hexagon", "prove", "3", "--raw", "10", "--method", "cubes", "--checkpoint", "{missing}/ck.json"], "does not exist"),
        (["hexagon", "prove", "3", "--raw", "10", "--method", "dp", "--checkpoint", "{missing}/ck"], "does not exist"),
        (["hexagon", "count", "3", "--checkpoint", "{missing}/ck"], "does not exist"),
        (["coins", "bfs", "font5x7:A", "--targets", "B", "--workdir", "{missing}/work"], "does not exist"),
        (["coins", "batch", "--font", "font5x7", "--starts", "A", "--workdir", "{missing}/work"], "does not exist"),
        (["coins", "solve", "font5x7:A-B", "--method", "bfs", "--workdir", "{missing}/work", "--no-store"], "does not exist"),
        (["matchsticks", "solve", "9", "--method", "full", "--checkpoint", "{missing}/ck.json", "--no-store"], "does not exist"),
        (["macmahon", "count", "2x3/free", "--checkpoint", "{missing}/ck.json", "--no-store"], "does not exist"),
        (["tour", "--out", "{missing}/pictures", "--budget", "1"], "does not exist"),
    ],
)
def test_a_checkpoint_or_workdir_in_a_missing_folder_is_refused_up_front(tmp_path, args, words):
    missing = tmp_path / "no" / "such"
    result = runner.invoke(cli.app, [a.format(missing=missing) for a in args])
    one_error(result, words)
    assert not (tmp_path / "no").exists()  # nothing made on the way


def test_a_full_disk_ends_a_count_with_one_line_and_no_temporary_file(tmp_path, monkeypatch):
    """macmahon count writing its checkpoint on a full disk: exit 2, one line naming the
    file (it exited 5, 'internal error', when the disk filled)."""
    real = files.shutil.disk_usage
    monkeypatch.setattr(files.shutil, "disk_usage", lambda folder: real(folder)._replace(free=1000))
    checkpoint = tmp_path / "ck.json"
    result = runner.invoke(cli.app, ["macmahon", "count", "2x3/free", "--workers", "2", "--checkpoint", str(checkpoint), "--no-store"])
    one_error(result, str(checkpoint), "free")
    assert not checkpoint.exists() and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def _small_tmpfs(folder: Path, size: str) -> None:
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")


@pytest.mark.slow
def test_prove_on_a_small_disk_stops_with_one_line_and_resumes(tmp_path):
    """hexagon prove 8 (the row DP, its tables memory-mapped) with its checkpoint on a
    1 MB tmpfs: exit 2 with one line, not SIGBUS (exit 135); the manifest still loads,
    no temporary file is left, and a run on a larger disk resumes from it."""
    disk = tmp_path / "small"
    _small_tmpfs(disk, "1m")
    try:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH", "")])))
        command = [sys.executable, "-m", "puzzlelab.cli", "hexagon", "prove", "8", "--checkpoint", str(disk / "ck"), "--budget", "120", "--no-store"]
        first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
        errors = [line for line in first.stderr.splitlines() if line.startswith("error:")]
        assert first.returncode == 2 and len(errors) == 1 and "row DP table" in errors[0] and "free" in errors[0], first.stderr[-2000:]
        assert "Traceback" not in first.stderr and not list(disk.rglob("*.tmp"))
        manifest = json.loads((disk / "ck" / "manifest.json").read_text())
        done = manifest["levels"]["1"]["steps_done"]
        assert done > 0
        subprocess.run(["mount", "-o", "remount,size=4m", str(disk)], check=True)
        second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
        assert second.returncode == 2 and "Traceback" not in second.stderr  # 4 MB is not enough for n = 8 either
        assert json.loads((disk / "ck" / "manifest.json").read_text())["levels"]["1"]["steps_done"] > done  # resumed, went further
        assert not list(disk.rglob("*.tmp"))
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def test_a_store_that_cannot_be_written_comes_after_the_verified_answer(monkeypatch):
    def full_disk(*args, **kwargs):
        raise StoreError("records store db.sqlite: database or disk is full")

    monkeypatch.setattr(Store, "add", full_disk)
    result = runner.invoke(cli.app, ["tiling", "solve", "5x3", "--quiet", "--json"])
    assert result.exit_code == 4, result.output
    report = json.loads(result.stdout)
    assert report["value"] == 4 and report["verified"] is True
    assert result.stderr.strip() == "error: records store db.sqlite: database or disk is full"


def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path, monkeypatch):
    foreign = tmp_path / "other.sqlite"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE results (a, b)")
    db.execute("CREATE TABLE notes (text)")
    db.commit()
    db.close()
    before = digest(foreign)
    monkeypatch.setenv("PUZZLELAB_DB", str(foreign))
    result = runner.invoke(cli.app, ["tiling", "solve", "5x3", "--quiet"])
    assert result.exit_code == 4 and "verified" in result.stdout
    assert "another program" in result.stderr and "left untouched" in result.stderr
    assert digest(foreign) == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]
    assert sqlite3.connect(foreign).execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # not switched to WAL


def test_table_out_streams_to_standard_output_and_fails_at_once_on_dev_full(tmp_path):
    """`tiling table --out /dev/stdout` hung (it read the terminal to resume) and
    `--out /dev/full` grew to 4.3 GB (it read zeros to resume)."""
    table = ["tiling", "table", "--m", "1..2", "--n", "1..3", "--workers", "1"]
    expected = [["1", "1", "1"], ["1", "2", "2"], ["1", "3", "3"], ["2", "1", "2"], ["2", "2", "1"], ["2", "3", "3"]]
    for stream in ("/dev/stdout", "-"):
        streamed = runner.invoke(cli.app, [*table, "--out", stream])
        assert streamed.exit_code == 0, streamed.output
        assert [line.split() for line in streamed.stdout.splitlines() if line and not line.startswith("#")] == expected
    full = runner.invoke(cli.app, [*table, "--out", "/dev/full"])
    one_error(full, "--out /dev/full: cannot be written (no space left on the disk)")
    assert full.stdout == ""  # before any row was computed


@pytest.mark.slow
def test_table_out_to_the_real_standard_output(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH", "")])))
    table = [sys.executable, "-m", "puzzlelab.cli", "tiling", "table", "--m", "1..2", "--n", "1..3", "--workers", "1", "--out", "/dev/stdout"]
    streamed = subprocess.run(table, capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path, stdin=subprocess.PIPE)
    assert streamed.returncode == 0, streamed.stderr
    assert "2 3 3" in streamed.stdout.splitlines()


@pytest.mark.parametrize("entry", ["no_such_module:PUZZLE", "os:no_such_attribute", "os:sep", "broken_plugin:PUZZLE"])
def test_a_bad_plugin_entry_is_named_in_one_line(tmp_path, monkeypatch, entry):
    (tmp_path / "broken_plugin.py").write_text("raise ValueError('this module does not load')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(puzzles, "PLUGIN_ERRORS", [])
    registered = dict(puzzles.REGISTRY)
    try:
        puzzles._load_plugins(f"support.toy_puzzle:Toy,{entry}")
        assert sorted(puzzles.REGISTRY) == sorted(registered)  # the good entry registered, the bad one nothing
    finally:
        puzzles.REGISTRY.clear()
        puzzles.REGISTRY.update(registered)
    [line] = puzzles.PLUGIN_ERRORS
    assert line.startswith(f"PUZZLELAB_PLUGINS entry '{entry}': ") and "\n" not in line


def test_the_cli_stops_at_a_bad_plugin_entry_with_one_line():
    env = dict(os.environ, PUZZLELAB_PLUGINS="support.toy_puzzle:Toy,no_such_module:PUZZLE")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "puzzlelab.cli", "tiling", "catalog"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: PUZZLELAB_PLUGINS entry 'no_such_module:PUZZLE': ModuleNotFoundError: No module named 'no_such_module'; "
        "expected module:attribute naming a Puzzle"
    ]
