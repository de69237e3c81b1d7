"""bidir and bfs against a plain-Python BFS (conftest oracle) on small boards, the
published optimal lengths of the short sample puzzles, checkpoint/resume of the level
array, and the up-front refusals."""

import json
import math

import numpy as np
import pytest

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Status
from puzzlelab.puzzles.coins import PUZZLE, model, reference
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun

# A 4 x 4 board with 6 coins: C(16, 6) = 8,008 boards, 4,602 reachable, 20 levels deep.
W, H, COINS = 4, 4, 6
START = model.rows_to_mask(["---o", "o---", "-o-o", "o-o-"], "start")[2]


@pytest.fixture(scope="module")
def distances(oracle):
    return oracle.bfs(START, W, H)


def test_bidir_finds_the_oracle_distance_both_ways(distances):
    rng = np.random.default_rng(7)
    reached = sorted(distances)
    picks = [reached[i] for i in rng.choice(len(reached), size=12, replace=False)]
    picks.append(max(reached, key=distances.get))  # the farthest board
    for dedup in ("hash", "bits"):
        for target in picks:
            inst = model.Instance(W, H, START, target)
            result = PUZZLE.solve(inst, "bidir", budget=30, dedup=dedup)
            assert result.status == Status.OPTIMAL and result.verified
            assert result.value == distances[target], (dedup, target)


def test_bidir_proves_an_unreachable_target_infeasible(distances):
    unreachable = next(
        b for b in range(1 << (W * H)) if model.popcount(b) == COINS and b not in distances and b != START
    )
    result = PUZZLE.solve(model.Instance(W, H, START, unreachable), "bidir", budget=30)
    assert result.status == Status.INFEASIBLE and result.solution is None


def test_bidir_memory_bound_gives_a_proven_lower_bound():
    inst = PUZZLE.parse("font5x7:0-J")  # 9 moves
    result = PUZZLE.solve(inst, "bidir", budget=60, memory_mb=16, dedup="hash")
    assert result.status == Status.UNKNOWN and result.solution is None
    assert 1 <= result.bound <= 9
    assert "memory" in result.stats["note"]


def test_bfs_levels_equal_the_oracle_levels_and_paths_verify(tmp_path, distances):
    start = model.Start(W, H, START)
    run = LevelArrayRun(start, tmp_path / "run")
    outcome = run.run(stop_when_found=False)
    level_counts = np.bincount(list(distances.values())).tolist()
    assert outcome.finished and outcome.levels == level_counts
    for target in list(distances)[::97]:
        moves = run.moves(target)
        assert len(moves) == distances[target]
        assert PUZZLE.verify(model.Instance(W, H, START, target), moves).ok
    unreached = sum(1 for b in range(1 << 16) if model.popcount(b) == COINS and b not in distances)
    assert math.comb(16, COINS) - sum(level_counts) == unreached
    run.close()


@pytest.mark.parametrize("storage", ["ram", "memmap"])
def test_bfs_resumes_after_a_kill_mid_level(tmp_path, distances, storage):
    folder = tmp_path / "run"
    run = LevelArrayRun(model.Start(W, H, START), folder, storage=storage)
    run.run(max_level=3)
    run.close()
    state = json.loads((folder / "state.json").read_text())
    assert len(state["counts"]) == 4  # levels 0..3 complete
    # Simulate a kill after the array of level 4 and part of level 5 reached the file
    # (a background checkpoint writes ahead of state.json).
    from puzzlelab.core.rank import rank_many

    with open(folder / "levels.u8", "r+b") as fh:
        for level, count in ((4, 10**6), (5, 7)):
            boards = [b for b, d in distances.items() if d == level][:count]
            for r in rank_many(np.array(boards, dtype=np.uint64)):
                fh.seek(int(r))
                fh.write(bytes([level + 1]))
    again = LevelArrayRun(model.Start(W, H, START), folder, storage=storage)
    assert again.resumed
    outcome = again.run(stop_when_found=False)
    assert outcome.levels == np.bincount(list(distances.values())).tolist()
    again.close()


def test_bfs_method_solves_one_puzzle_and_agrees_with_bidir(distances):
    target = max(distances, key=distances.get)
    inst = model.Instance(W, H, START, target)
    result = PUZZLE.solve(inst, "bfs", budget=60)
    assert result.status == Status.OPTIMAL and result.value == distances[target] and result.verified


def test_bfs_refuses_up_front_when_the_array_cannot_fit(tmp_path):
    with pytest.raises(InvalidInstance) as info:
        LevelArrayRun(model.parse_start("font5x9:A"), tmp_path / "big", max_memory_bytes=24 * 10**9)
    message = str(info.value)
    assert info.value.status == 413
    assert "73,006,209,045" in message and "bidir" in message
    assert not (tmp_path / "big").exists()  # refused before creating anything
    with pytest.raises(InvalidInstance):
        LevelArrayRun(model.Start(W, H, START), tmp_path / "small", max_memory_bytes=1000)


def test_a_second_run_on_the_same_folder_is_refused(tmp_path):
    first = LevelArrayRun(model.Start(W, H, START), tmp_path / "run")
    with pytest.raises(InvalidInstance) as info:
        LevelArrayRun(model.Start(W, H, START), tmp_path / "run")
    assert "another bfs run" in str(info.value)
    first.close()


SHORT = [(name, moves) for name, moves in reference.published_lengths().items() if name.startswith("font5x7") and moves <= 8]
SHORT += [(name, moves) for name, moves in reference.published_lengths().items() if name.startswith("font5x9") and moves <= 5]


@pytest.mark.parametrize("name, published", SHORT)
def test_short_sample_puzzles_match_the_published_optimum(name, published):
    result = PUZZLE.solve(PUZZLE.parse(name), "bidir", budget=60)
    assert result.status == Status.OPTIMAL and result.verified
    assert result.value == published


def test_two_bit_bfs_equals_the_oracle_and_rebuilds_paths(distances):
    from puzzlelab.puzzles.coins.bfs.two_bit import OLD, TwoBitBfs

    bfs = TwoBitBfs(W, H, START)
    counts = bfs.run()
    assert counts == np.bincount(list(distances.values())).tolist()
    assert bfs.count_code(OLD) == sum(counts)  # every board expanded once, then old
    for target in list(distances)[::211]:
        moves = bfs.moves(target)
        assert len(moves) == distances[target]
        assert PUZZLE.verify(model.Instance(W, H, START, target), moves).ok


@pytest.mark.parametrize(
    "probe, mode",
    [
        ("bits", "pull"),
        ("bits", "push"),
        # sorted and direct probing are the benchmark's alternatives, used by no method
        ("sorted", "push"),
        pytest.param("direct", "push", marks=pytest.mark.slow),
    ],
)
def test_both_probe_kernels_and_pull_build_the_same_levels(tmp_path, distances, probe, mode):
    level_counts = np.bincount(list(distances.values())).tolist()
    run = LevelArrayRun(model.Start(W, H, START), tmp_path / f"{probe}-{mode}", probe=probe)
    assert run.run(stop_when_found=False, mode=mode).levels == level_counts
    run.close()


def test_batch_with_bfs_tasks_matches_the_oracle_and_resumes(tmp_path, monkeypatch, distances):
    """The bfs path of `batch` (one level-array task per start, in a worker process,
    answers replayed on the driver) on a small font added for the test: every answer
    equals the plain-Python BFS distance, an unreachable target is proven so, and
    a second run skips what the records store holds."""
    from puzzlelab.core.store import Store
    from puzzlelab.puzzles.coins import batch

    reached = sorted(distances)
    far = max(reached, key=distances.get)
    unreachable = next(b for b in (model.rows_to_mask(r, "t")[2] for r in (["oooo", "oo--", "----", "----"], ["o--o", "----", "----", "oooo"])) if b not in distances)
    glyphs = {"S": START, "M": reached[len(reached) // 2], "F": far, "U": unreachable}
    monkeypatch.setitem(model.fonts(), "tiny4x4", {"width": W, "height": H, "order": list(glyphs), "glyphs": glyphs})
    assert batch.resolve_method("auto", "tiny4x4") == "bfs"
    report = batch.run_batch(PUZZLE, "tiny4x4", method="bfs", starts="S", workers=1, workdir=str(tmp_path / "w"))
    assert report.failed_groups == 0 and report.unsolved == 0 and report.infeasible == 1
    assert report.results == {"tiny4x4:S-M": distances[glyphs["M"]], "tiny4x4:S-F": distances[far]}
    assert {r.instance: r.value for r in Store().best("coins")} == report.results
    assert (tmp_path / "w").exists() and not (tmp_path / "w" / "tiny4x4_S").exists()  # finished arrays are removed
    # A row forged into the store (S-M's solution filed under the unreachable S-U) does
    # not make the batch skip S-U: only records the checker passes again count as done.
    import sqlite3

    db = sqlite3.connect(Store().path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(results)") if row[1] not in ("id", "instance")]
    db.execute(f"INSERT INTO results (instance, {', '.join(columns)}) SELECT 'tiny4x4:S-U', {', '.join(columns)} FROM results WHERE instance = 'tiny4x4:S-M'")
    db.commit()
    db.close()
    again = batch.run_batch(PUZZLE, "tiny4x4", method="bfs", starts="S", workers=1, workdir=str(tmp_path / "w"))
    assert again.skipped == 2 and again.solved == 0 and again.infeasible == 1
