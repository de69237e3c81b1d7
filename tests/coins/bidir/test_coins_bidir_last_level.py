"""`bidir`'s last level, probed against the other side and not kept, when memory stops
the search (bidir/last_level.py), against the shipped font5x7 table (every entry a
full BFS's optimum, replayed by the checker): at every memory bound the answer is the
optimum, or a lower bound one above the bound without the probe and never above the
optimum."""

import pytest

from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.coins import PUZZLE
from puzzlelab.puzzles.coins.bidir.search import bidirectional
from puzzlelab.puzzles.coins.optimal_table import load_table

PUZZLES = ("font5x7:0-J", "font5x7:A-B", "font5x7:M-W", "font5x7:8-3")


@pytest.fixture(scope="module")
def optimum():
    table = load_table("font5x7")
    return {name: table.entry(*name.split(":")[1].split("-")).moves for name in PUZZLES}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", PUZZLES)
def test_the_probed_level_solves_or_raises_the_bound_by_one(name, threads, optimum):
    inst = PUZZLE.parse(name)
    best = optimum[name]
    seen_probe = False
    for memory_mb in (2, 4, 8, 16):
        plain = bidirectional(inst, budget=Budget(60), memory_mb=memory_mb, dedup="hash", threads=threads, last_level=False)
        probed = bidirectional(inst, budget=Budget(60), memory_mb=memory_mb, dedup="hash", threads=threads)
        if plain.status == Status.OPTIMAL:  # memory enough without the probe: nothing changes
            assert probed.status == Status.OPTIMAL and probed.value == plain.value == best
            continue
        assert plain.status == Status.UNKNOWN and "memory" in plain.stats["note"] and plain.bound <= best
        seen_probe = True
        assert probed.stats["last_level"] == "probed, not kept"
        if plain.bound == best:  # an optimal path of exactly that length exists, so the probe meets it
            assert probed.status == Status.OPTIMAL and probed.value == best, memory_mb
            assert PUZZLE.verify(inst, probed.solution).ok and len(probed.solution) == best
        else:
            assert probed.status == Status.UNKNOWN and probed.solution is None, memory_mb
            assert probed.bound == plain.bound + 1 <= best, memory_mb
            assert "probed" in probed.stats["note"] and "memory" in probed.stats["note"]
    assert seen_probe, "no memory bound stopped the search: the test asked nothing"


def test_a_probe_the_budget_stops_keeps_the_memory_stops_bound(monkeypatch):
    from puzzlelab.puzzles.coins.bidir import search as search_module

    inst = PUZZLE.parse("font5x7:8-3")
    plain = bidirectional(inst, budget=Budget(60), memory_mb=2, dedup="hash", last_level=False)
    monkeypatch.setattr(search_module, "probe_last_level", lambda search, side: "stopped")
    stopped = bidirectional(inst, budget=Budget(60), memory_mb=2, dedup="hash")
    assert stopped.status == Status.UNKNOWN and stopped.bound == plain.bound
