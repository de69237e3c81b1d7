"""The disk-backed two-bit BFS (bfs/two_bit_bfs.py) against the
plain-Python BFS (conftest oracle) and the byte array (bfs/byte_bfs.py): the same distance for
every board on 4 x 4 and 4 x 5 boards, on one thread and on three (the same level files,
byte for byte); the Elias-Fano level files round-trip; a run interrupted after level k
resumes from its level files to the same result; paths rebuilt from the level files replay in the
checker; corrupt level files and short memory or disk are refused with the figures."""

import json
import math

import numpy as np
import pytest

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.rank import rank_many, unrank_many
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.bfs import two_bit_bfs as engine
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun
from puzzlelab.puzzles.coins.bfs.level_file import SPAN_RANKS, LevelFileReader, LevelFileWriter, encode_span, level_file_paths, segment_bytes
from puzzlelab.puzzles.coins.bfs.two_bit_bfs import TwoBitRun

START_4X4 = model.rows_to_mask(["---o", "o---", "-o-o", "o-o-"], "start")[2]
START_4X5 = model.rows_to_mask(["oo--", "o--o", "--o-", "o---", "-oo-"], "start")[2]  # 125,970 boards, 19 levels


def _level_files(run: TwoBitRun) -> list[tuple[bytes, bytes]]:
    return [(p.read_bytes(), i.read_bytes()) for p, i in (level_file_paths(run.workdir, lv) for lv in range(len(run.state["counts"])))]


@pytest.fixture(scope="module")
def distances_4x4(oracle):
    return oracle.bfs(START_4X4, 4, 4)


def test_every_board_has_the_oracle_distance_on_4x4(tmp_path, distances_4x4):
    run = TwoBitRun(model.Start(4, 4, START_4X4), tmp_path / "run", threads=1)
    outcome = run.run(stop_when_found=False)
    assert outcome.finished and outcome.levels == np.bincount(list(distances_4x4.values())).tolist()
    for level in range(len(outcome.levels)):  # each level file is exactly the oracle's level
        expected = sorted(rank_many(np.array([b for b, d in distances_4x4.items() if d == level], dtype=np.uint64)).tolist())
        assert run.reader(level).ranks().tolist() == expected
    unreached = next(b for b in range(1 << 16) if model.popcount(b) == 6 and b not in distances_4x4)
    assert run.level_of(unreached) == -1
    for target in list(distances_4x4)[::37]:
        moves = run.moves(target)
        assert len(moves) == distances_4x4[target]
        assert PUZZLE.verify(model.Instance(4, 4, START_4X4, target), moves).ok
    run.close()


def test_4x5_equals_the_byte_array_on_one_and_three_threads(tmp_path):
    """Spans of 8 words (256 boards; 493 spans on 4 x 5): three threads mark children in
    the same bytes all the time, so a lost or double-counted mark would show."""
    start = model.Start(4, 5, START_4X5)
    byte = LevelArrayRun(start, tmp_path / "byte", threads=1)
    expected = byte.run(stop_when_found=False)
    one = TwoBitRun(start, tmp_path / "one", threads=1, span_words=8)
    three = TwoBitRun(start, tmp_path / "three", threads=3, span_words=8)
    assert three.spans == 493
    assert one.run(stop_when_found=False).levels == expected.levels == three.run(stop_when_found=False).levels
    assert _level_files(one) == _level_files(three)  # the same boards at every level, whatever the threads
    big = TwoBitRun(start, tmp_path / "big", threads=1)  # one span of 2^16 words: the same boards
    assert big.run(stop_when_found=False).levels == expected.levels
    assert [big.reader(lv).ranks().tolist() == one.reader(lv).ranks().tolist() for lv in range(len(expected.levels))] == [True] * len(expected.levels)
    big.close()
    boards = byte.levels[: byte.total]
    for level in range(len(expected.levels)):
        assert np.array_equal(three.reader(level).ranks(), np.flatnonzero(boards == level + 1))
    for board in unrank_many(np.arange(0, math.comb(20, 8), 4999), 20, 8):
        board = int(board)
        assert three.level_of(board) == byte.level_of(board)
        if byte.level_of(board) > 0:
            moves = three.moves(board)
            assert len(moves) == byte.level_of(board) and PUZZLE.verify(model.Instance(4, 5, START_4X5, board), moves).ok
    for run in (byte, one, three):
        run.close()


def test_level_files_round_trip(tmp_path):
    rng = np.random.default_rng(5)
    spans = 3
    cells = np.zeros(spans * SPAN_RANKS // 4, dtype=np.uint8)
    words = cells.view(np.uint64)
    # span 0: sparse (l > 0), span 1: empty, span 2: every field (l = 0)
    chosen = np.sort(rng.choice(SPAN_RANKS, size=1000, replace=False))
    chosen = np.concatenate([chosen, np.arange(2 * SPAN_RANKS, 3 * SPAN_RANKS)])
    np.bitwise_or.at(cells, chosen >> 2, (2 << (2 * (chosen & 3))).astype(np.uint8))
    writer = LevelFileWriter(tmp_path, 7, spans)
    for i in range(spans):
        n, low, seg = encode_span(words, 2, i * SPAN_RANKS // 32, (i + 1) * SPAN_RANKS // 32)
        assert seg.nbytes == segment_bytes(n, SPAN_RANKS)
        writer.add(i, n, low, seg)
    writer.finish()
    reader = LevelFileReader(tmp_path, 7, spans)
    assert reader.boards == len(chosen) and np.array_equal(reader.ranks(), chosen)
    probes = np.concatenate([chosen[:200], rng.integers(0, spans * SPAN_RANKS, 500)])
    inside = set(chosen.tolist())
    assert [reader.contains(int(r)) for r in probes] == [int(r) in inside for r in probes]
    reader.close()


def test_an_interrupted_run_resumes_from_its_level_files_to_the_same_result(tmp_path):
    start = model.Start(4, 5, START_4X5)
    whole = TwoBitRun(start, tmp_path / "whole", threads=2, span_words=64)
    expected = whole.run(stop_when_found=False).levels
    folder = tmp_path / "cut"
    run = TwoBitRun(start, folder, threads=2, span_words=64)
    run.run(max_level=6)
    budget = Budget()
    budget.cancel()  # the run is interrupted inside level 7
    stopped = run.run(budget=budget, stop_when_found=False)
    assert stopped.stopped and stopped.levels == expected[:7]
    run.close()
    # a kill after level file 7 was written but before state.json counted it
    (folder / "level_007.ef").write_bytes(b"\0" * 24)
    again = TwoBitRun(start, folder, threads=2, span_words=64)
    assert again.resumed and len(again.state["counts"]) == 7
    outcome = again.run(stop_when_found=False)
    assert outcome.levels == expected and _level_files(again) == _level_files(whole)
    target = int(unrank_many(np.array([again.reader(15).ranks()[3]]), 20, 8)[0])
    assert len(again.moves(target)) == 15
    again.close()
    whole.close()


def test_a_damaged_level_file_is_refused_on_resume(tmp_path):
    folder = tmp_path / "run"
    run = TwoBitRun(model.Start(4, 4, START_4X4), folder, threads=1)
    run.run(max_level=5)
    run.close()
    data = bytearray((folder / "level_003.ef").read_bytes())
    data[5] ^= 0x10
    (folder / "level_003.ef").write_bytes(bytes(data))
    with pytest.raises(InvalidInstance) as info:
        TwoBitRun(model.Start(4, 4, START_4X4), folder, threads=1)
    assert "CRC" in str(info.value) and "level_003" in str(info.value)


def test_5x9_is_refused_up_front_when_memory_or_disk_is_short(tmp_path, monkeypatch):
    begin = model.parse_start("font5x9:A")
    with pytest.raises(InvalidInstance) as info:
        TwoBitRun(begin, tmp_path / "m", max_memory_bytes=16 * 10**9)
    text = str(info.value)
    assert info.value.status == 413 and "memory is short" in text and "73,006,209,045" in text and "18.5 GB" in text
    assert "\n" not in text and not (tmp_path / "m").exists()
    monkeypatch.setattr(engine, "memory_limit", lambda requested: (64 * 10**9, "the memory available here"))
    monkeypatch.setattr(engine.shutil, "disk_usage", lambda folder: type("U", (), {"free": 10 * 10**9})())
    with pytest.raises(InvalidInstance) as info:
        TwoBitRun(begin, tmp_path / "d")
    assert "disk is short: 10.0 GB free" in str(info.value) and not (tmp_path / "d").exists()
    assert 40e9 < engine.disk_estimate(math.comb(45, 13)) < 55e9  # the 5 x 7 level sizes, scaled


def test_a_byte_array_checkpoint_is_not_taken_for_a_two_bit_one(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "state.json").write_text(json.dumps({"format": 1, "counts": [1]}))
    with pytest.raises(InvalidInstance) as info:
        TwoBitRun(model.Start(4, 4, START_4X4), folder)
    assert "not a checkpoint of a two-bit" in str(info.value)


def test_a_batch_task_checks_the_memory_of_the_machine_it_runs_on(tmp_path, monkeypatch):
    """run_group is what a Ray node (or a local worker) runs for one start: with a fake
    small memory figure there, the 5 x 9 start is refused before anything is made."""
    import puzzlelab.puzzles.coins.bfs.engine as chooser
    from puzzlelab.puzzles.coins import batch

    for module in (engine, chooser):  # the node's memory figure, as coins.memory reports it there
        monkeypatch.setattr(module, "memory_limit", lambda requested: (12 * 10**9, "the memory available here"))
    task = batch.descriptors([{"font": "font5x9", "start": "A", "targets": ["B"]}], "bfs", {}, str(tmp_path / "w"), None)[0]
    with pytest.raises(InvalidInstance) as info:
        batch.run_group(task)
    assert "memory is short: the memory available here is 12.0 GB" in str(info.value) and "18.5 GB" in str(info.value)
    assert not (tmp_path / "w").exists()


def test_the_engine_is_chosen_by_memory_and_kept_by_the_folder(tmp_path, monkeypatch):
    import puzzlelab.puzzles.coins.bfs.engine as chooser

    small = model.Start(4, 4, START_4X4)
    assert chooser.choose_engine(small, tmp_path / "a") == "byte"
    assert chooser.choose_engine(model.parse_start("font5x9:A"), tmp_path / "a", max_memory_bytes=24 * 10**9) == "twobit"
    run = chooser.open_bfs_run(small, tmp_path / "b", engine="twobit", threads=1)
    run.run(max_level=2)
    run.close()
    again = chooser.open_bfs_run(small, tmp_path / "b")
    assert isinstance(again, TwoBitRun) and again.resumed
    again.close()
    with pytest.raises(InvalidInstance, match="--engine"):
        chooser.open_bfs_run(small, tmp_path / "c", engine="nibble")


def _field_counts(cells: np.ndarray) -> np.ndarray:
    fields = (cells[:, None] >> np.arange(0, 8, 2, dtype=np.uint8)) & 3
    return np.bincount(fields.reshape(-1), minlength=4)


@pytest.mark.parametrize("bits, rounds", [(12, 200), pytest.param(18, 30, marks=pytest.mark.slow)])
def test_the_shared_kernel_loses_no_mark_under_contention(bits, rounds):
    """Four threads expand disjoint quarters of a slice of 2^bits boards of the 5 x 9 rank
    space whose children are all folded into the slice (the benchmark's slice mode), so
    they write the same few KB of fields all the time. Every expanded board must turn
    old, every counted mark must be a field that went from unseen to next, and nothing
    else may change. Catching a race needs two threads on two cores at once, so on a
    loaded machine it is a matter of chance: with plain read-modify-writes instead of
    the atomics, 2 of 30 rounds of 2^18 boards (the slow case) broke these counts here,
    and 6 of 300 rounds of 2^12 boards in one run, none of 1,000 in another."""
    from concurrent.futures import ThreadPoolExecutor

    from puzzlelab.puzzles.coins import kernels
    from puzzlelab.puzzles.coins.bfs.two_bit import expand_shared

    rng = np.random.default_rng(1)
    size, threads = 1 << bits, 4
    geo, reserve, offset = kernels.geometry(5, 9), kernels.max_moves(45, 13), math.comb(45, 13) // 3
    broken = []
    with ThreadPoolExecutor(threads) as pool:
        for round_ in range(rounds):
            codes = rng.choice(3, size=size, p=[0.4, 0.3, 0.3]).astype(np.uint8)  # unseen, old, current
            cells = np.zeros(size // 4, dtype=np.uint8)
            for j in range(4):
                cells |= codes[j::4] << np.uint8(2 * j)
            words = cells.view(np.uint64)
            before, control, per = _field_counts(cells), Budget().control, words.shape[0] // threads
            got = [f.result() for f in [pool.submit(expand_shared, cells, words, 2, 45, 13, size, geo, t * per, (t + 1) * per, control, reserve, offset, size - 1)
                                        for t in range(threads)]]
            expanded, marked = sum(int(g[1]) for g in got), sum(int(g[2]) for g in got)
            after = _field_counts(cells)
            if not (expanded == before[2] and after[2] == 0 and after[1] == before[1] + expanded and after[3] == marked and after[0] == before[0] - marked):
                broken.append(round_)
    assert broken == []


def test_a_full_disk_stops_with_a_clear_error_and_the_run_resumes(tmp_path, monkeypatch, distances_4x4):
    import errno

    from puzzlelab.puzzles.coins.bfs import level_file

    folder = tmp_path / "run"
    run = TwoBitRun(model.Start(4, 4, START_4X4), folder, threads=1)
    run.run(max_level=3)
    real_add = level_file.LevelFileWriter.add

    def full(self, *args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(level_file.LevelFileWriter, "add", full)
    with pytest.raises(InvalidInstance) as info:
        run.run(stop_when_found=False)
    assert "writing level file 4 failed (No space left on device)" in str(info.value) and "levels 0..3 are kept" in str(info.value)
    assert sorted(p.name for p in folder.glob("level_*.ef*")) == [f"level_{lv:03d}.ef" for lv in range(4)]
    monkeypatch.setattr(level_file.LevelFileWriter, "add", real_add)
    assert run.run(stop_when_found=False).levels == np.bincount(list(distances_4x4.values())).tolist()  # same process, rebuilt
    run.close()


@pytest.mark.parametrize("engine_class", [LevelArrayRun, TwoBitRun])
def test_a_second_run_on_a_busy_folder_is_refused_until_the_first_closes(tmp_path, engine_class):
    """One run a work folder (workdir.lock_workdir): a second one is refused with 409
    while the first holds the folder, and allowed once it is closed."""
    start = model.Start(4, 4, START_4X4)
    first = engine_class(start, tmp_path / "run", threads=1)
    with pytest.raises(InvalidInstance, match="another bfs run is using it") as refused:
        engine_class(start, tmp_path / "run", threads=1)
    assert refused.value.status == 409
    first.close()
    engine_class(start, tmp_path / "run", threads=1).close()
