"""The row DP's checkpoint folder under faults: a run stopped at any write (a table's
file half written, the manifest, the rewrite of a filled table) resumes with the grids
of a run never stopped and recomputes at most the one table it was writing; a disk
that fills mid-pass ends the run with one line giving the figures, and the folder
still resumes; a checkpoint of the earlier wide format is still read."""

import errno
import json

import pytest

from puzzlelab.core import files
from puzzlelab.core.files import WriteFailed
from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp
from puzzlelab.puzzles.hexagon.rowdp import tables as rowdp_tables

N, LEVEL, BOUND = 4, 3, 3
STEPS = 3 * 37  # three min passes over n = 4's 37 cells


class Stopped(BaseException):
    """What a kill looks like to the code: nothing after it runs."""


def _faulty_writer(monkeypatch, at: int, fault):
    """Every atomic write (tables and manifest) counted; the `at`-th one raises `fault`
    after half its bytes went to the temporary file."""
    real = files.write_atomic_with
    calls = [0]

    def write(path, fill, nbytes, what, field=None, *, sync=True):
        calls[0] += 1
        if calls[0] != at:
            return real(path, fill, nbytes, what, field, sync=sync)

        def half(handle):
            import io

            buffer = io.BytesIO()
            fill(buffer)
            handle.write(buffer.getvalue()[: len(buffer.getvalue()) // 2])
            raise fault

        return real(path, half, nbytes, what, field, sync=sync)

    monkeypatch.setattr(files, "write_atomic_with", write)
    monkeypatch.setattr(rowdp_tables, "write_atomic_with", write)
    return calls


def _counting_progress():
    seen = [0]

    def progress(report: dict) -> None:
        seen[0] += 1

    return seen, progress


@pytest.fixture(scope="module")
def plain():
    grids = rowdp.grids_within(N, LEVEL, BOUND)
    assert grids
    return grids


@pytest.fixture(scope="module")
def writes_in_a_run(tmp_path_factory) -> int:
    calls = [0]
    real = files.write_atomic_with

    def count(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "write_atomic_with", count)
        patch.setattr(rowdp_tables, "write_atomic_with", count)
        rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path_factory.mktemp("count"))
    return calls[0]


@pytest.mark.parametrize("where", [0.01, 0.34, 0.5, 0.8, 0.97, 1.0])
def test_a_run_stopped_at_any_write_resumes_losing_at_most_one_table(tmp_path, monkeypatch, plain, writes_in_a_run, where):
    """`where`: how far through the run's writes the stop comes (the last ones are the
    fill's rewrites of level 3's tables and the manifest saying it is filled)."""
    total = writes_in_a_run
    at = max(1, round(where * total))
    _faulty_writer(monkeypatch, at, Stopped())
    first, progress = _counting_progress()
    with pytest.raises(Stopped):
        rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path, progress=progress)
    monkeypatch.undo()
    assert not list(tmp_path.rglob("*.tmp")), "a half-written file was left behind"
    stats = rowdp.DPStats()
    assert rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path, stats=stats) == plain
    lost = first[0] + len(stats.sizes) - STEPS
    assert 0 <= lost <= 1, f"stopped at write {at} of {total}: {lost} tables computed again"


@pytest.mark.parametrize("at, what", [(40, "checkpoint"), (41, "row DP table")])  # each step writes its table, then the manifest
def test_a_disk_that_fills_mid_pass_says_so_with_figures_and_the_folder_resumes(tmp_path, monkeypatch, plain, at, what):
    _faulty_writer(monkeypatch, at, OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(WriteFailed) as caught:
        rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{what} {tmp_path}") and "no space left on the disk" in message
    assert "it needs" in message and "free now" in message
    monkeypatch.undo()
    manifest = json.loads((tmp_path / "manifest.json").read_text())  # still readable, naming the tables written
    assert manifest["levels"]["1"]["steps_done"] > 0
    assert rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path) == plain


def test_a_disk_too_small_is_refused_before_the_write_with_figures(tmp_path, monkeypatch, plain):
    monkeypatch.setattr(files, "free_space", lambda folder: 1000)
    with pytest.raises(WriteFailed, match=r"row DP table .*: needs .*, and .* has 1000 B free|needs .* free"):
        rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path)


def test_a_wide_checkpoint_of_the_earlier_format_is_still_read(tmp_path, monkeypatch, plain):
    monkeypatch.setattr(rowdp, "TABLES", "wide")
    budget = rowdp.Budget(3600)
    seen = [0]

    def stop(report):
        seen[0] += 1
        if seen[0] == 100:
            budget.cancel()

    with pytest.raises(rowdp.TooLarge):
        rowdp.grids_within(N, LEVEL, BOUND, budget=budget, checkpoint=tmp_path, progress=stop)
    path = tmp_path / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["tables"] == "wide"
    del manifest["tables"]
    manifest["format"] = 1  # as the earlier version wrote it
    path.write_text(json.dumps(manifest))
    monkeypatch.setattr(rowdp, "TABLES", "compact")
    stats = rowdp.DPStats()
    assert rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path, stats=stats) == plain
    assert len(stats.sizes) == STEPS - 100
    manifest["format"] = 7
    path.write_text(json.dumps(manifest))
    with pytest.raises(rowdp_tables.CheckpointMismatch, match="format 7, expected 1 or 2"):
        rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path)
    manifest.update(format=2, tables="tight")
    path.write_text(json.dumps(manifest))
    with pytest.raises(rowdp_tables.CheckpointMismatch, match=r"damaged \(tables: expected compact or wide\)"):
        rowdp.grids_within(N, LEVEL, BOUND, checkpoint=tmp_path)


def test_a_compact_checkpoint_under_a_bound_past_a_byte_is_refused(tmp_path):
    rowdp_tables.DPCheckpoint(tmp_path, N, 300, "compact")  # as an edited folder would say
    with pytest.raises(rowdp_tables.CheckpointMismatch, match="compact tables hold bounds of 0..254 only"):
        rowdp.grids_within(N, LEVEL, 300, checkpoint=tmp_path)
