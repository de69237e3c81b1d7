"""Counting optimal solutions: the counts must not move when the search gets
faster. Oracles: a brute force over every placement counted up to the square's eight
symmetries (which gives the write-up's published 1, 1, 1, 1, 3, 14), and the plain-Python
twin of the kernel (`plain.py`, no prefilter, no line counts) for n up to 20; the
reference counts of n = 1..24 (the search's before its line floors, and the proofs
recorded in proofs/matchsticks-proofs.json: n = 24, 26: value, count, classes); the
classification against the write-up's two examples."""

import itertools
import json
from pathlib import Path

import pytest
from matchsticks_oracles import published_rows

from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.plain import plain_search
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search, solve_subtree
from puzzlelab.puzzles.matchsticks.tables import root_prefixes

ROWS = published_rows()
PROOFS = json.loads((Path(__file__).resolve().parents[2] / "proofs" / "matchsticks-proofs.json").read_text())["proofs"]


def _sides(s, x, y):
    return frozenset(
        [("h", x + i, y) for i in range(s)] + [("h", x + i, y + s) for i in range(s)]
        + [("v", x, y + i) for i in range(s)] + [("v", x + s, y + i) for i in range(s)]
    )


def brute_force_orbits(n: int) -> tuple[int, int]:
    """(optimum, optimal solutions up to the 8 symmetries of the largest square), by
    trying every placement of every smaller square inside it."""
    per_size = [[(s, x, y) for y in range(n - s + 1) for x in range(n - s + 1)] for s in range(n - 1, 0, -1)]
    start = _sides(n, 0, 0)
    best, optimal = None, []
    for combo in itertools.product(*per_size):
        total = len(start.union(*(_sides(*q) for q in combo)))
        if best is None or total < best:
            best, optimal = total, [combo]
        elif total == best:
            optimal.append(combo)

    def image(square, k):
        s, x, y = square
        for _ in range(k % 4):
            x, y = n - s - y, x  # a quarter turn
        return (s, y, x) if k >= 4 else (s, x, y)

    orbits = {min(tuple(sorted(image(q, k) for q in ((n, 0, 0),) + c)) for k in range(8)) for c in optimal}
    return best, len(orbits)


def _counted(n: int):
    result = PUZZLE.solve(Instance(n), "full", budget=600, count_solutions=True)
    return result.value, result.stats["optimal_solutions"]


@pytest.mark.parametrize("n", range(1, 6))
def test_counts_equal_brute_force_up_to_symmetry(n):
    assert _counted(n) == brute_force_orbits(n)


@pytest.mark.slow
def test_count_for_6_equals_brute_force_up_to_symmetry():
    assert _counted(6) == brute_force_orbits(6) == (45, 14)


def _twin_agrees(n: int) -> None:
    """Kernel and plain twin on the whole proof of n from its published optimum,
    counting ties: same best, count and nodes in every root subtree."""
    for prefix in root_prefixes(n):
        descriptor = make_descriptor(n, count=True, bound=ROWS[n]["best_known"], prefix=prefix)
        fast, slow = solve_subtree(descriptor), plain_search(descriptor)
        assert (fast["best"], fast["count"], fast["nodes"]) == (slow["best"], slow["count"], slow["nodes"]), n


@pytest.mark.parametrize("n", range(7, 15))
def test_counts_equal_the_plain_twin(n):
    _twin_agrees(n)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(15, 21))
def test_counts_equal_the_plain_twin_up_to_20(n):
    _twin_agrees(n)


# (optimum, optimal solutions) of n = 1..23 as the search counted them before the line
# floors and the published start (commit c348f69, `full --count-solutions`): n = 1..6 are
# the brute force's (1, 1, 1, 1, 3, 14), 16 and 21 the write-up's (4 and 2 solutions).
# n = 24 is proofs/matchsticks-proofs.json's.
REFERENCE = {
    1: (4, 1), 2: (10, 1), 3: (17, 1), 4: (26, 1), 5: (35, 3), 6: (45, 14), 7: (56, 1), 8: (69, 44), 9: (82, 3),
    10: (95, 6), 11: (109, 2), 12: (125, 52), 13: (140, 2), 14: (156, 6), 15: (172, 2), 16: (190, 4), 17: (208, 9),
    18: (226, 4), 19: (243, 8), 20: (264, 7), 21: (282, 2), 22: (300, 2), 23: (322, 1),
}


def _reference(n: int) -> tuple[int, int]:
    return REFERENCE[n] if n in REFERENCE else (PROOFS[str(n)]["value"], PROOFS[str(n)]["optimal_solutions"])


@pytest.mark.parametrize("n", range(1, 25))
def test_value_and_count_equal_the_reference_up_to_24(n):
    result = PUZZLE.solve(Instance(n), "full", budget=600, count_solutions=True)
    assert result.verified and result.status.value == "optimal"
    assert result.value == ROWS[n]["best_known"]
    assert (result.value, result.stats["optimal_solutions"]) == _reference(n)


@pytest.mark.parametrize("n", [12, 17, 21])
def test_the_search_from_the_bound_methods_counts_the_same(n):
    # start="bounds": the search as it was (from the bound methods' answer).
    result = PUZZLE.solve(Instance(n), "full", budget=600, count_solutions=True, start="bounds")
    assert result.verified and (result.value, result.stats["optimal_solutions"]) == _reference(n)
    assert "bounds" in result.stats and "start" not in result.stats


@pytest.mark.parametrize("n", [24, pytest.param(26, marks=pytest.mark.slow)])
def test_counts_equal_the_recorded_proofs(n):
    # Recorded by benchmarks/bench_matchsticks_proofs.py with the kernel before its
    # second round of speed-ups; the faster kernel must prove and count the same.
    recorded = PROOFS[str(n)]
    result = PUZZLE.solve(Instance(n), "full", budget=600, count_solutions=True)
    assert result.verified and result.status.value == "optimal"
    assert (result.value, result.stats["optimal_solutions"]) == (recorded["value"], recorded["optimal_solutions"])
    assert result.stats["solution_classes"] == recorded["solution_classes"]


def test_solutions_are_classified_as_in_the_write_up():
    # n = 16: "4 solutions; 12 squares on main diagonal; first one off diagonal is 4".
    result = PUZZLE.solve(Instance(16), "full", budget=300, count_solutions=True)
    assert result.stats["solution_classes"] == [{"on_diagonal": 12, "first_off_diagonal": 4, "matches": 190, "solutions": 4}]


@pytest.mark.slow
def test_ladder_solutions_of_21_are_classified_as_in_the_write_up():
    # n = 21: "2 solutions; 5 squares on main diagonal; first one off diagonal is 17".
    result = PUZZLE.solve(Instance(21), "full", budget=3600, count_solutions=True, workers=2)
    assert result.stats["solution_classes"] == [{"on_diagonal": 5, "first_off_diagonal": 17, "matches": 282, "solutions": 2}]


def test_the_trace_adds_up():
    # measure.trace_search: below the root, the children made at each depth are the
    # nodes expanded one depth down (the last depth's are leaves); they sum to the nodes.
    from puzzlelab.puzzles.matchsticks.measure import format_trace, trace_search

    n = 14
    found = trace_search(make_descriptor(n, count=True, bound=ROWS[n]["best_known"]))
    rows = found["rows"]
    assert sum(r["children"] for r in rows) == found["nodes"]
    assert (found["best"], found["count"]) == _counted(n)
    assert rows[2]["expanded"] == 1  # depths 0 and 1 are the fixed two largest squares
    for upper, lower in zip(rows[2:], rows[3:]):
        assert upper["children"] == lower["expanded"], upper["depth"]
    assert all(r["lookahead_dead"] <= r["expanded"] for r in rows)
    assert format_trace(found).splitlines()[-1].split()[0] == "all"


@pytest.mark.parametrize("n", range(7, 17))
def test_the_pair_bound_changes_no_count(n):
    # FLAG_PAIRS (off by default): fewer nodes, the same best and count in every subtree.
    nodes = {False: 0, True: 0}
    for prefix in root_prefixes(n):
        descriptor = make_descriptor(n, count=True, bound=ROWS[n]["best_known"], prefix=prefix)
        plain, paired = solve_subtree(descriptor), solve_subtree(dict(descriptor, pairs=True))
        assert (paired["best"], paired["count"]) == (plain["best"], plain["count"]), n
        nodes[False] += plain["nodes"]
        nodes[True] += paired["nodes"]
    assert nodes[True] < nodes[False] if n >= 12 else nodes[True] <= nodes[False]


def test_the_pair_bound_keeps_the_recorded_count_of_24():
    recorded = PROOFS["24"]
    outcome = run_search(dict(make_descriptor(24, count=True), pairs=True), known=(recorded["value"], None))
    assert outcome.complete and (outcome.best, outcome.count) == (recorded["value"], recorded["optimal_solutions"])
