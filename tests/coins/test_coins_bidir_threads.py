"""`bidir` with each level expanded on several threads (bidir_shared.py) against the
byte-array BFS distances (themselves checked against plain Python in
test_coins_search.py): the same optimum for every target tried, the same proofs of
unreachability and lower bounds, with table growth while threads run."""

import numpy as np
import pytest

from puzzlelab.core.rank import unrank_many
from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.bfs import LevelArrayRun
from puzzlelab.puzzles.coins.bidir import bidirectional

START_4X5 = model.rows_to_mask(["oo--", "o--o", "--o-", "o---", "-oo-"], "start")[2]  # 112,271 reachable, 19 levels


@pytest.fixture(scope="module")
def byte_levels(tmp_path_factory):
    run = LevelArrayRun(model.Start(4, 5, START_4X5), tmp_path_factory.mktemp("bfs") / "run", threads=1)
    run.run(stop_when_found=False)
    levels = run.levels[: run.total].copy()
    run.close()
    return levels


def test_threads_find_the_byte_array_distance(byte_levels):
    rng = np.random.default_rng(3)
    reached = np.flatnonzero((byte_levels > 0) & (byte_levels < 254))
    picks = list(rng.choice(reached, size=10, replace=False)) + [int(np.argmax(np.where(byte_levels < 254, byte_levels, 0)))]
    for r in picks:
        target = int(unrank_many(np.array([r]), 20, 8)[0])
        inst = model.Instance(4, 5, START_4X5, target)
        result = bidirectional(inst, budget=Budget(60), memory_mb=256, dedup="hash", threads=3)
        assert result.status == Status.OPTIMAL and result.value == int(byte_levels[r]) - 1, r
        assert PUZZLE.verify(inst, result.solution).ok


def test_threads_prove_unreachability_and_bounds(byte_levels):
    unreached = int(unrank_many(np.array([int(np.flatnonzero(byte_levels == 0)[0])]), 20, 8)[0])
    result = bidirectional(model.Instance(4, 5, START_4X5, unreached), budget=Budget(60), memory_mb=256, dedup="hash", threads=3)
    assert result.status == Status.INFEASIBLE
    small = bidirectional(PUZZLE.parse("font5x7:0-J"), budget=Budget(60), memory_mb=16, dedup="hash", threads=3)  # 9 moves
    assert small.status == Status.UNKNOWN and small.solution is None and 1 <= small.bound <= 9 and "memory" in small.stats["note"]


def test_threads_solve_a_sample_puzzle_at_its_published_length():
    result = PUZZLE.solve(PUZZLE.parse("font5x7:0-J"), "bidir", budget=120, threads=2)
    assert result.status == Status.OPTIMAL and result.verified and result.value == PUZZLE.published("font5x7:0-J")["value"]
