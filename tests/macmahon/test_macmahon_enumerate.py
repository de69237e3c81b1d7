"""The numba enumerator against the plain-Python backtracking (a different search: cell
order, every rotation tried, solutions deduplicated by side colours), its own variants
(cell orders, the pivot reduction, subtrees in worker processes) and counting identities
(Burnside's lemma, orbit sizes)."""

import pytest

from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.macmahon import PUZZLE
from puzzlelab.puzzles.macmahon.brute import backtrack_solutions
from puzzlelab.puzzles.macmahon.enumerator import codes_to_grid, count_solutions, list_solutions, plan_units
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import check_placement
from support.macmahon_helpers import random_solvable

SMALL = [
    "2x3/free",  # the 6 two-colour squares, free border
    "1x6/free",
    "3x2/free",
    "2x2/c2/free/tiles=WWWW,WWWR,WRRR,RRRR",
    "hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR",
    "hex1/c3/free/tiles=RBB,WWW,WRR,BBB,WWB,RRB",
]


def random_cases():
    cases = []
    for seed in range(8):
        cases.append(("3x3", 3, 0, seed))
        cases.append(("2x4", 3, 1, seed))
    for seed in range(3):
        cases.append(("2x3", 2, None, seed))
        cases.append(("hex1", 3, None, seed))
        cases.append(("hex1", 3, 0, seed))
    return cases


def solutions_as_colours(inst, rows):
    out = set()
    for row in rows:
        colours, why = check_placement(inst, codes_to_grid(inst, row))
        assert colours is not None, why
        out.add(colours)
    return out


@pytest.mark.parametrize("name", SMALL)
def test_enumerator_equals_backtracking_on_small_sets(name):
    inst = parse_instance(name)
    brute, finished = backtrack_solutions(inst)
    assert finished
    rows = list_solutions(inst)
    assert len(rows) == len(brute)
    assert solutions_as_colours(inst, rows) == brute  # every solution valid, none twice


@pytest.mark.parametrize("board_name,colours,border,seed", random_cases())
def test_enumerator_equals_backtracking_on_random_multisets(board_name, colours, border, seed):
    inst = random_solvable(board_name, colours, border, seed)
    brute, finished = backtrack_solutions(inst)
    assert finished and len(brute) >= 1
    rows = list_solutions(inst)
    assert solutions_as_colours(inst, rows) == brute and len(rows) == len(brute)
    for order in ("ring", "rows", "greedy"):
        assert count_solutions(inst, budget=Budget(), order=order, symmetry=False)["total"] == len(brute)


@pytest.mark.parametrize("name", ["2x3/free", "hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR", "3x3/c3/border=red/tiles=RRRR,RRRR,RRRR,RRRR,RRWR,RRRR,RRRR,RRRR,RRRR"])
def test_pivot_reduction_and_workers_agree(name):
    inst = parse_instance(name)
    plain = count_solutions(inst, budget=Budget(), reduce=False)
    reduced = count_solutions(inst, budget=Budget())
    split = count_solutions(inst, budget=Budget(), workers=2, split_depth=2)
    for stats in (reduced, split):
        assert stats["total"] == plain["total"]
        assert stats["classes"] == plain["classes"] and stats["fix"] == plain["fix"]
    assert len(plan_units(inst)) >= 1


@pytest.mark.parametrize("name", SMALL[:3] + ["hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR"])
def test_burnside_and_orbit_sizes(name):
    inst = parse_instance(name)
    stats = count_solutions(inst, budget=Budget())
    total = stats["total"]
    fix = dict(zip(stats["elements"], stats["fix"]))
    assert fix["id"] == total
    for i, group in enumerate(stats["groups"]):
        members = [stats["elements"][m] for m in stats["members"][i]]
        classes = stats["classes"][i]
        assert sum(fix[m] for m in members) == classes * len(members)
        hist = stats["hist"][group]
        assert sum(size * n for size, n in hist.items()) == total
        assert sum(hist.values()) == classes


def test_counts_through_the_puzzle_and_classes_by_brute_force():
    inst = parse_instance("2x3/free")
    result = PUZZLE.solve(inst, "enumerate")
    assert result.value == 416 and result.status == Status.OPTIMAL and result.verified
    # classes up to the full group, counted by brute force over the images of each solution
    from puzzlelab.puzzles.macmahon.symmetry import instance_group

    group = instance_group(inst)
    brute, _ = backtrack_solutions(inst)
    k = inst.sides

    def image(colours, e):
        out = [0] * len(colours)
        for p, col in enumerate(colours):
            out[e.board.perm[p]] = e.cmap[col]
        return tuple(out)

    orbits = {min(image(s, e) for e in group) for s in brute}
    assert result.stats["classes"]["full"] == len(orbits)
    assert k == 4


def test_budget_stop_returns_a_partial_count():
    inst = parse_instance("4x6")
    budget = Budget(0.5)
    result = PUZZLE.solve(inst, "enumerate", budget=budget)
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL)
    if result.status == Status.FEASIBLE:
        assert result.solution["complete"] is False and result.verified


def test_first_solution_and_progress():
    events = []
    inst = parse_instance("4x6")
    result = PUZZLE.solve(inst, "first", budget=60)
    assert result.value == 1 and result.verified
    PUZZLE.solve(parse_instance("2x3/free"), "enumerate", progress=events.append)
    assert events and events[-1].best is not None
    none = PUZZLE.solve(parse_instance("2x3/c2"), "first")
    assert none.status == Status.INFEASIBLE and none.solution is None
