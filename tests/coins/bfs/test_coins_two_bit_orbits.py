"""The two-bit engine keeping one board per orbit (bfs/two_bit_orbits.py) against the
plain-Python BFS (conftest oracle), the byte array and the two-bit run that keeps every
board: the same level sizes and the same distance for every board, each level file
exactly the canonical boards of its level, paths that replay in the checker, the same
level files on one thread and on three, and a run killed after any level resuming to the
same level files."""

import json
import math

import numpy as np
import pytest

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.rank import rank_many, unrank_many
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun
from puzzlelab.puzzles.coins.bfs.level_file import level_file_paths
from puzzlelab.puzzles.coins.bfs.symmetry import canonical, stabilizer
from puzzlelab.puzzles.coins.bfs.two_bit_bfs import TwoBitRun

SYMMETRIC_STARTS = [
    (4, 4, ["oo--", "o---", "---o", "--oo"]),  # the half turn and both transposes
    (4, 5, ["----", "o--o", "-oo-", "o--o", "----"]),  # both mirrors and the half turn
    (5, 4, ["o---o", "-o-o-", "o---o", "-----"]),  # one mirror
]


def _level_files(run: TwoBitRun) -> list[tuple[bytes, bytes]]:
    return [(p.read_bytes(), i.read_bytes()) for p, i in (level_file_paths(run.workdir, lv) for lv in range(len(run.state["counts"])))]


@pytest.mark.parametrize("width, height, rows", SYMMETRIC_STARTS)
def test_one_board_per_orbit_gives_the_oracle_levels_boards_and_paths(tmp_path, oracle, width, height, rows):
    start = model.rows_to_mask(rows, "start")[2]
    names, perms = stabilizer(start, width, height)
    distances = oracle.bfs(start, width, height)
    level_counts = np.bincount(list(distances.values())).tolist()
    run = TwoBitRun(model.Start(width, height, start), tmp_path / "orbits", threads=1)
    assert run.symmetries == names and names
    outcome = run.run(stop_when_found=False)
    assert outcome.finished and outcome.levels == level_counts
    for level in range(len(level_counts)):  # each level file: exactly the canonical boards of the level
        stored = {int(canonical(np.uint64(b), perms)) for b, d in distances.items() if d == level}
        expected = sorted(rank_many(np.array(sorted(stored), dtype=np.uint64)).tolist())
        assert run.reader(level).ranks().tolist() == expected
    assert sum(run.state["counts"]) < sum(level_counts)  # fewer boards stored than reached
    coins = model.popcount(start)
    for board in unrank_many(np.arange(math.comb(width * height, coins)), width * height, coins):
        assert run.level_of(int(board)) == distances.get(int(board), -1)
    for target in list(distances)[:: max(1, len(distances) // 60)]:
        moves = run.moves(target)
        assert len(moves) == distances[target]
        assert PUZZLE.verify(model.Instance(width, height, start, target), moves).ok
    plain = TwoBitRun(model.Start(width, height, start), tmp_path / "plain", threads=1, symmetry=False)
    assert plain.symmetries == [] and plain.run(stop_when_found=False).levels == level_counts
    assert plain.state["counts"] == plain.state["members"] == level_counts
    plain.close()
    run.close()


def test_orbits_equal_the_byte_array_on_three_threads_and_small_spans(tmp_path):
    """Spans of 8 words (256 boards): three threads mark the same bytes all the time."""
    width, height, rows = SYMMETRIC_STARTS[1]
    start = model.Start(width, height, model.rows_to_mask(rows, "start")[2])
    byte = LevelArrayRun(start, tmp_path / "byte", threads=1)
    expected = byte.run(stop_when_found=False).levels
    one = TwoBitRun(start, tmp_path / "one", threads=1, span_words=8)
    three = TwoBitRun(start, tmp_path / "three", threads=3, span_words=8)
    assert one.run(stop_when_found=False).levels == expected == three.run(stop_when_found=False).levels
    assert _level_files(one) == _level_files(three)
    for board in unrank_many(np.arange(0, math.comb(20, 6), 97), 20, 6):
        assert three.level_of(int(board)) == byte.level_of(int(board))
    for run in (byte, one, three):
        run.close()


@pytest.mark.parametrize("cut", [1, 3, 5, 6])
def test_a_run_killed_after_any_level_resumes_to_the_same_level_files(tmp_path, cut):
    width, height, rows = SYMMETRIC_STARTS[1]
    start = model.Start(width, height, model.rows_to_mask(rows, "start")[2])
    whole = TwoBitRun(start, tmp_path / "whole", threads=2, span_words=16)
    expected = whole.run(stop_when_found=False).levels
    folder = tmp_path / "cut"
    run = TwoBitRun(start, folder, threads=2, span_words=16)
    run.run(max_level=cut)
    budget = Budget()
    budget.cancel()  # stopped inside level cut + 1: the array is part way through it
    assert run.run(budget=budget, stop_when_found=False).stopped
    run.close()
    again = TwoBitRun(start, folder, threads=2, span_words=16)
    assert again.resumed and again.state["members"] == expected[: cut + 1]
    assert again.run(stop_when_found=False).levels == expected and _level_files(again) == _level_files(whole)
    target = int(unrank_many(again.reader(len(expected) - 1).ranks()[:1], 20, 6)[0])
    moves = again.moves(target)
    assert len(moves) == len(expected) - 1 and PUZZLE.verify(model.Instance(width, height, start.board, target), moves).ok
    again.close()
    whole.close()


def test_an_orbit_run_is_not_resumed_as_a_run_of_every_board_and_bad_members_are_refused(tmp_path):
    width, height, rows = SYMMETRIC_STARTS[2]
    start = model.Start(width, height, model.rows_to_mask(rows, "start")[2])
    folder = tmp_path / "run"
    run = TwoBitRun(start, folder, threads=1)
    run.run(max_level=3)
    run.close()
    plain = TwoBitRun(start, folder, threads=1, symmetry=False)
    assert not plain.resumed  # a different array: started afresh
    plain.close()
    run = TwoBitRun(start, folder, threads=1)
    run.run(max_level=3)
    run.close()
    state = json.loads((folder / "state.json").read_text())
    state["members"][2] = state["counts"][2] * 5  # more members than two mirrors' orbits hold
    (folder / "state.json").write_text(json.dumps(state))
    with pytest.raises(InvalidInstance, match="members"):
        TwoBitRun(start, folder, threads=1)


@pytest.mark.parametrize("width, height, rows", [
    (5, 9, None),  # font5x9:X: both mirrors and the half turn
    (5, 9, "T"),  # one mirror
    (4, 4, ["o--o", "----", "----", "o--o"]),  # every symmetry of the square: the general path
    (4, 4, ["oo--", "o---", "---o", "--oo"]),  # the half turn and both transposes
])
def test_canonical_children_are_the_smallest_images_of_the_plain_children(width, height, rows):
    """symmetry.canonical_move_ranks (its fast paths: safe cells, ranks from scratch)
    against the plain rule: each child of a canonical board replaced by canonical() of
    it, ranked by rank(), as sorted lists, on boards from all over the rank space."""
    from puzzlelab.puzzles.coins import kernels
    from puzzlelab.puzzles.coins.bfs.symmetry import canonical_move_ranks, frame_workspace_njit

    if width == 5:
        start = model.parse_start("font5x9:" + (rows or "X")).board
    else:
        start = model.rows_to_mask(rows, "start")[2]
    names, perms = stabilizer(start, width, height)
    assert len(names) == (1 if rows == "T" else 7 if rows and rows[0] == "o--o" else 3)
    cells, coins = width * height, model.popcount(start)
    geo, reserve = kernels.geometry(width, height), kernels.max_moves(cells, coins)
    work = frame_workspace_njit(perms)
    out, masks = np.empty(reserve, dtype=np.int64), np.empty(reserve, dtype=np.uint64)
    rng = np.random.default_rng(11)
    checked = 0
    for r in rng.integers(0, math.comb(cells, coins), 3000):
        board = int(unrank_many(np.array([r]), cells, coins)[0])
        board = int(canonical(np.uint64(board), perms))
        board_rank = int(rank_many(np.array([board], dtype=np.uint64))[0])
        n = canonical_move_ranks(np.uint64(board), board_rank, geo, *work, out, masks)
        plain = kernels.forward_list(board, geo, reserve)
        expected = sorted(int(canonical(np.uint64(c), perms)) for c in plain)
        assert sorted(int(m) for m in masks[:n]) == expected
        assert sorted(out[:n].tolist()) == sorted(rank_many(np.array(expected, dtype=np.uint64)).tolist())
        checked += n
    assert checked > 3000


def test_a_5x9_start_with_orbits_is_refused_up_front_with_its_own_disk_figure(tmp_path, monkeypatch):
    """One board per orbit: the same 18.5 GB array, about a quarter of the level files for
    font5x9:X; a machine short of either is refused in one line, before anything is made."""
    from puzzlelab.puzzles.coins.bfs import two_bit_bfs as engine
    from puzzlelab.puzzles.coins.bfs.two_bit_budget import disk_estimate

    every, orbits = disk_estimate(math.comb(45, 13)), disk_estimate(math.comb(45, 13), 4)
    assert 40e9 < every < 55e9 and every / 4.5 < orbits < every / 2.5
    begin = model.parse_start("font5x9:X")
    with pytest.raises(InvalidInstance) as info:
        TwoBitRun(begin, tmp_path / "m", max_memory_bytes=16 * 10**9)
    text = str(info.value)
    assert info.value.status == 413 and "memory is short" in text and "18.5 GB" in text
    assert f"about {orbits / 1e9:.1f} GB of disk" in text and "one board per orbit of mirror-x, mirror-y, half-turn" in text
    assert "\n" not in text and not (tmp_path / "m").exists()
    monkeypatch.setattr(engine, "memory_limit", lambda requested: (64 * 10**9, "the memory available here"))
    monkeypatch.setattr(engine.shutil, "disk_usage", lambda folder: type("U", (), {"free": int(orbits * 0.9)})())
    with pytest.raises(InvalidInstance) as info:
        TwoBitRun(begin, tmp_path / "d")
    assert f"disk is short: {orbits * 0.9 / 1e9:.1f} GB free" in str(info.value) and not (tmp_path / "d").exists()
    with pytest.raises(InvalidInstance) as info:  # without orbits the same disk is shorter still
        TwoBitRun(begin, tmp_path / "e", symmetry=False)
    assert f"about {every / 1e9:.1f} GB of disk" in str(info.value) and "disk is short" in str(info.value)


@pytest.mark.slow
def test_font5x9_x_first_levels_with_orbits_equal_a_plain_set_bfs(tmp_path):
    """The real 5 x 9 board: font5x9:X's levels 0..3 (1; 158; 6,800; 117,236 boards) from a
    set of boards grown by the move rule, against the engine with its orbits (a quarter of
    the boards stored) and without; paths to level-3 boards replay. The array's 18.3 GB
    are mapped but only the marked pages taken (touch=False): ~40 CPU s, 0.2 GB."""
    from puzzlelab.puzzles.coins import kernels

    begin = model.parse_start("font5x9:X")
    geo, cap = kernels.geometry(5, 9), kernels.max_moves(45, 13)
    seen, front = {begin.board: 0}, [begin.board]
    for level in range(1, 4):
        front = [c for b in front for c in map(int, kernels.forward_list(b, geo, cap)) if c not in seen and not seen.setdefault(c, level) < level]
    levels = np.bincount(list(seen.values())).tolist()
    assert levels == [1, 158, 6800, 117236]
    for symmetry in (True, False):
        run = TwoBitRun(begin, tmp_path / str(symmetry), threads=2, touch=False, symmetry=symmetry)
        assert run.run(max_level=3, stop_when_found=False).levels == levels
        assert (sum(run.state["counts"]) < sum(levels) / 3.5) == symmetry
        for board in front[:: len(front) // 10]:
            moves = run.moves(board)
            assert run.level_of(board) == 3 and len(moves) == 3 and PUZZLE.verify(model.Instance(5, 9, begin.board, board), moves).ok
        run.close()
