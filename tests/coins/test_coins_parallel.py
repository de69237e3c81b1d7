"""`bfs` on several threads against the same run on one thread:
the same level counts and the same bytes, level by level, for push, pull and the
direction-optimising mix, with every board stored or one per orbit; paths rebuilt from
the parallel array replay; a run stopped mid-level on several threads resumes to the
same array. The one-thread runs are themselves checked against the plain-Python BFS
(test_coins_search.py, test_coins_symmetry.py; the 4 x 4 case here too).

Also the atomic OR and add the push kernel relies on: several threads claiming the same
bits claim each exactly once (a plain `|=` loses bits under contention and counts a
board twice)."""

import threading

import numba
import numpy as np
import pytest

from puzzlelab.core.atomics import atomic_add_i64, atomic_or_u8
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.rank import unrank_many
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun
from puzzlelab.puzzles.coins.bfs.byte_kernels import IMAGE
from puzzlelab.puzzles.coins.memory import cores_available

THREADS = 3  # more threads than this machine's cores is fine: the spans interleave all the same

STARTS = {
    # C(20, 8) = 125,970 boards, 112,271 reachable, 19 levels; no symmetry fixes it
    "plain4x5": ["oo--", "o--o", "--o-", "o---", "-oo-"],
    # one mirror (4 x 5, 8 coins): one board per orbit is stored
    "mirror4x5": ["o--o", "-oo-", "----", "o--o", "-oo-"],
    # C(25, 10) = 3,268,760 boards, 3,168,270 reachable, 20 levels; no symmetry
    "plain5x5": ["oo---", "o---o", "--o--", "o---o", "-ooo-"],
    # both mirrors and the half turn fix it
    "orbits5x5": ["-ooo-", "o---o", "-----", "o---o", "-ooo-"],
}
# Every mode on the small boards; on 5 x 5 the mix (push first, pull for the late levels).
CASES = [(name, mode) for name in ("plain4x5", "mirror4x5") for mode in ("push", "pull", "auto")]
CASES += [("plain5x5", "auto"), ("orbits5x5", "auto")]


def _run(tmp_path, rows, threads, mode, name):
    start = model.rows_to_mask(rows, "start")[2]
    run = LevelArrayRun(model.Start(len(rows[0]), len(rows), start), tmp_path / f"{name}-{mode}-{threads}", threads=threads)
    outcome = run.run(stop_when_found=False, mode=mode)
    assert outcome.finished
    return run, outcome


@pytest.mark.parametrize("name, mode", CASES)
def test_several_threads_give_the_one_thread_levels_and_bytes(tmp_path, name, mode):
    rows = STARTS[name]
    one, single = _run(tmp_path, rows, 1, mode, name)
    many, parallel = _run(tmp_path, rows, THREADS, mode, name)
    assert many.kernels.threads == THREADS and one.kernels.threads == 1
    assert parallel.levels == single.levels
    assert np.array_equal(many.levels, one.levels)  # every board's byte, so every level's boards
    assert np.array_equal(many.kernels.seen, one.kernels.seen)
    assert [h["threads"] for h in parallel.history] == [THREADS] * len(parallel.history)
    modes = {h["mode"] for h in parallel.history}
    assert modes == ({"push", "pull"} if mode == "auto" else {mode})
    for level in range(1, len(single.levels)):
        assert many.kernels.count(level + 1) == single.levels[level]  # the counting passes, on threads
    start = model.rows_to_mask(rows, "start")[2]
    width, height = len(rows[0]), len(rows)
    reached = np.flatnonzero((one.levels[: one.total] != 0) & (one.levels[: one.total] != IMAGE))
    for board in unrank_many(reached[:: max(1, len(reached) // 25)], width * height, model.popcount(start)):
        board = int(board)
        moves = many.moves(board)
        assert len(moves) == one.level_of(board)
        assert PUZZLE.verify(model.Instance(width, height, start, board), moves).ok
    one.close()
    many.close()


def test_several_threads_equal_the_plain_bfs_on_4x4(tmp_path, oracle):
    start = model.rows_to_mask(["---o", "o---", "-o-o", "o-o-"], "start")[2]
    level_counts = np.bincount(list(oracle.bfs(start, 4, 4).values())).tolist()
    for mode in ("push", "pull", "auto"):
        run = LevelArrayRun(model.Start(4, 4, start), tmp_path / mode, threads=THREADS)
        assert run.run(stop_when_found=False, mode=mode).levels == level_counts, mode
        run.close()


def test_a_run_stopped_mid_level_on_threads_resumes_to_the_same_array(tmp_path):
    rows = STARTS["plain5x5"]
    one, single = _run(tmp_path, rows, 1, "auto", "whole")
    start = model.Start(5, 5, model.rows_to_mask(rows, "start")[2])
    run = LevelArrayRun(start, tmp_path / "stopped", threads=THREADS)
    run.run(stop_when_found=False, max_level=5)
    budget = Budget()
    outcome = run.run(stop_when_found=False, budget=budget, progress=lambda event: budget.cancel())
    assert outcome.stopped and outcome.levels == single.levels[:6]  # level 6 part done, not recorded
    assert np.count_nonzero(run.levels == 7) > 0
    run.close()
    again = LevelArrayRun(start, tmp_path / "stopped", threads=THREADS)
    assert again.resumed
    assert again.run(stop_when_found=False).levels == single.levels
    assert np.array_equal(again.levels, one.levels)
    again.close()
    one.close()


def test_threads_option_defaults_to_the_cores_available_and_refuses_nonsense(tmp_path):
    start = model.Start(4, 4, model.rows_to_mask(["---o", "o---", "-o-o", "o-o-"], "start")[2])
    run = LevelArrayRun(start, tmp_path / "default")
    assert run.threads == cores_available() >= 1
    run.close()
    for bad in (-1, 1025, 10**18, 1.5, "2", True):
        with pytest.raises(InvalidInstance) as info:
            LevelArrayRun(start, tmp_path / "bad", threads=bad)
        assert info.value.field == "threads"


@numba.njit(nogil=True)
def _claim_all(seen, order, counter):
    got = 0
    for i in order:
        bit = np.uint8(1) << np.uint8(i & 7)
        if not (atomic_or_u8(seen, i >> 3, bit) & bit):
            got += 1
    atomic_add_i64(counter, 0, got)
    return got


def test_atomic_or_claims_each_bit_once_across_threads():
    size = 1 << 20
    rng = np.random.default_rng(23)
    orders = [rng.permutation(size) for _ in range(4)]
    seen = np.zeros(size // 8, dtype=np.uint8)
    counter = np.zeros(1, dtype=np.int64)
    _claim_all(np.zeros(1, dtype=np.uint8), np.arange(8), np.zeros(1, dtype=np.int64))  # compile first
    claimed = [0] * len(orders)

    def claim(j):
        claimed[j] = _claim_all(seen, orders[j], counter)

    workers = [threading.Thread(target=claim, args=(j,)) for j in range(len(orders))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sum(claimed) == size == int(counter[0])
    assert np.all(seen == 255)
