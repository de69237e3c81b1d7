"""core/files.py: every file is written atomically after a space check, a full disk is
one error naming the file (the previous file whole, no temporary file left), and an
output replaces nothing of value (the store, the instance, a file we did not write, a
symbolic link's target)."""

from __future__ import annotations

import errno
import subprocess
from collections import namedtuple
from pathlib import Path

import pytest

from puzzlelab.core import files
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.files import MARKER, WriteFailed, check_output_file, check_output_folder, marked, write_atomic, write_atomic_with, write_output
from puzzlelab.core.store import Store

Usage = namedtuple("Usage", "total used free")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_an_atomic_write_replaces_the_file_and_keeps_its_permissions(tmp_path):
    target = tmp_path / "state.json"
    write_atomic(target, "one", "checkpoint")
    target.chmod(0o640)
    write_atomic(target, b"two", "checkpoint")
    assert target.read_text() == "two" and (target.stat().st_mode & 0o777) == 0o640
    assert leftovers(tmp_path) == []


def test_a_write_the_disk_refuses_keeps_the_previous_file_and_leaves_nothing(tmp_path):
    target = tmp_path / "checkpoint.json"
    target.write_text('{"previous": true}')

    def fill(handle):
        handle.write(b"x" * 1000)
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(WriteFailed, match=r"checkpoint .*checkpoint.json: cannot be written \(no space left on the disk\); the previous file is as it was") as caught:
        write_atomic_with(target, fill, 1000, "checkpoint", "checkpoint")
    assert caught.value.field == "checkpoint" and isinstance(caught.value, InvalidInstance)
    assert target.read_text() == '{"previous": true}' and leftovers(tmp_path) == []


def test_a_disk_without_room_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(files.shutil, "disk_usage", lambda folder: Usage(10**9, 10**9 - 5000, 5000))
    with pytest.raises(WriteFailed, match=r"table .*t.npy: needs 2.0 MB, and .* has 5.0 kB free"):
        write_atomic(tmp_path / "t.npy", b"x" * 2_000_000, "table")
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB tmpfs (skipped where it cannot be mounted: not root, no tmpfs)."""
    folder = tmp_path / "small"
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_real_full_disk_is_one_error_and_the_old_file_stays(small_disk):
    target = small_disk / "checkpoint.json"
    write_atomic(target, "previous", "checkpoint")
    with pytest.raises(WriteFailed, match="needs 2.0 MB, and .* free"):
        write_atomic(target, b"x" * 2_000_000, "checkpoint")
    # the space check passed (it was told 10 bytes): the disk itself refuses the write
    with pytest.raises(WriteFailed, match="no space left on the disk"):
        write_atomic_with(target, lambda handle: handle.write(b"x" * 2_000_000), 10, "checkpoint")
    assert target.read_text() == "previous" and leftovers(small_disk) == []


# ------------------------------------------------------------------ output files


def test_outputs_never_replace_the_store_even_with_force(tmp_path, monkeypatch):
    store = tmp_path / "db.sqlite"
    monkeypatch.setenv("PUZZLELAB_DB", str(store))
    Store().count()
    before = store.read_bytes()
    for path in (store, Path(str(store) + "-wal")):
        with pytest.raises(InvalidInstance, match="is the records store; an output never replaces it"):
            check_output_file(path, "--svg", force=True)
    with pytest.raises(InvalidInstance, match="is the records store"):
        write_output(store, "<svg/>", "--svg", force=True, kind="svg")
    assert store.read_bytes() == before


def test_outputs_never_replace_what_the_run_reads(tmp_path):
    instance = tmp_path / "grid.txt"
    instance.write_text("...\n...")
    with pytest.raises(InvalidInstance, match="is the instance file"):
        check_output_file(instance, "--svg", force=True, protect=[(instance, "the instance file")])
    folder = tmp_path / "checkpoint"
    folder.mkdir()
    with pytest.raises(InvalidInstance, match="is the checkpoint folder"):
        check_output_file(folder / "picture.svg", "--svg", protect=[(folder, "the checkpoint")])
    assert instance.read_text() == "...\n..."


def test_a_file_we_did_not_write_is_replaced_only_with_force(tmp_path):
    foreign = tmp_path / "notes.svg"
    foreign.write_text("my notes")
    with pytest.raises(InvalidInstance, match="a file that puzzlelab did not write is there; give --force"):
        write_output(foreign, "<svg/>", "--svg", kind="svg")
    assert foreign.read_text() == "my notes"
    write_output(foreign, "<svg></svg>", "--svg", force=True, kind="svg")
    assert foreign.read_text() == f"<svg><!-- {MARKER} --></svg>"
    write_output(foreign, "<svg>again</svg>", "--svg", kind="svg")  # ours now: no --force needed
    assert "again" in foreign.read_text()
    empty = tmp_path / "empty.svg"
    empty.write_text("")
    write_output(empty, "<svg/>", "--svg", kind="svg")  # nothing to lose
    lines = tmp_path / "list.jsonl"
    lines.write_text("[[1, 2]]\n")
    write_output(lines, "[[3, 4]]\n", "--list", recognise=lambda head: head.startswith(b"[["))
    assert lines.read_text() == "[[3, 4]]\n" and leftovers(tmp_path) == []


def test_a_symbolic_link_is_not_followed(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "picture.svg"
    link.symlink_to(target)
    with pytest.raises(InvalidInstance, match="is a symbolic link; give --force to replace the link itself"):
        write_output(link, "<svg/>", "--svg", kind="svg")
    write_output(link, "<svg/>", "--svg", force=True, kind="svg")
    assert target.read_text() == "keep me" and not link.is_symlink() and MARKER in link.read_text()


def test_streams_and_devices_are_written_as_they_are(capsys):
    write_output("-", "to stdout\n", "--svg")
    write_output("/dev/stdout", "again\n", "--svg")
    assert capsys.readouterr().out == "to stdout\nagain\n"
    write_output("/dev/null", "gone", "--svg")
    with pytest.raises(WriteFailed, match="--out /dev/full: cannot be written \\(no space left on the disk\\)"):
        write_output("/dev/full", "x" * 100_000, "--out")


def test_folders_are_made_only_inside_one_that_exists(tmp_path):
    assert check_output_folder(tmp_path / "new", "--workdir") == tmp_path / "new"
    with pytest.raises(InvalidInstance, match="--workdir .*deep: folder .*missing does not exist"):
        check_output_folder(tmp_path / "missing" / "deep", "--workdir")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InvalidInstance, match="is a file; expected a folder"):
        check_output_folder(tmp_path / "file", "--workdir")
    with pytest.raises(InvalidInstance, match="folder .* does not exist"):
        check_output_file(tmp_path / "missing" / "x.svg", "--svg")
    assert not (tmp_path / "missing").exists()


def test_the_marker_goes_where_the_format_allows():
    comment = f"<!-- {MARKER} -->"
    assert marked('<svg width="2"><rect/></svg>', "svg") == f'<svg width="2">{comment}<rect/></svg>'
    assert marked('<?xml version="1.0"?>\n<svg>x</svg>', "svg") == f'<?xml version="1.0"?>\n<svg>{comment}x</svg>'
    assert marked("<!DOCTYPE html>\n<html></html>", "html") == f"<!DOCTYPE html>\n{comment}\n<html></html>"
    assert marked("<p>no doctype</p>", "html") == f"{comment}\n<p>no doctype</p>"
    assert marked("1 1 1\n", "table") == f"# {MARKER}\n1 1 1\n"
    assert marked("{}", "") == "{}"


def test_a_mapped_level_array_too_large_for_its_disk_is_refused_not_sigbus(small_disk):
    """The coins level array kept as a memory-mapped file (storage memmap) reserves its
    blocks first: a page the disk could not back would end the process with SIGBUS."""
    from puzzlelab.puzzles.coins.bfs.byte_store import LevelStore

    with pytest.raises(WriteFailed, match="the level array of 4,000,000 bytes does not fit on the disk"):
        LevelStore(small_disk / "levels.u8", 4_000_000, storage="memmap", create=True)
    assert not (small_disk / "levels.u8").exists()
    fits = LevelStore(small_disk / "small.u8", 100_000, storage="memmap", create=True)
    fits.array[:] = 7  # every page backed: no SIGBUS
    assert int(fits.array.sum()) == 700_000
