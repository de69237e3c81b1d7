"""The write-up's model on HiGHS (mip) and CP-SAT: valid solutions, distinct ones under
no-good cuts, every one among the enumerator's, and exact counts where they exhaust."""

import pytest

from puzzlelab.core.result import Status
from puzzlelab.puzzles.macmahon import PUZZLE
from puzzlelab.puzzles.macmahon.edge_model import build_edge_model
from puzzlelab.puzzles.macmahon.enumerator import list_solutions
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import grid_colours
from support.macmahon_helpers import random_solvable


def enumerated(inst):
    from puzzlelab.puzzles.macmahon.enumerator import codes_to_grid

    return {grid_colours(inst, codes_to_grid(inst, r))[0] for r in list_solutions(inst)}


def test_model_size_matches_the_write_up():
    model = build_edge_model(parse_instance("4x6"))
    assert len(model.orientations) == 81  # 324 / 4 table entries: distinct orientations
    assert model.n_x == 24 * 81 and model.n_y == 24 * 4 * 3
    full = build_edge_model(parse_instance("4x6"), "all")
    assert len(full.orientations) == 96  # 384 / 4


def test_mip_solutions_are_distinct_and_enumerated():
    inst = random_solvable("3x3", 3, 0, seed=2)
    every = enumerated(inst)
    k = min(len(every), 5)
    result = PUZZLE.solve(inst, "mip", budget=120, solutions=k)
    grids = result.solution["solutions"] if k > 1 else [result.solution]
    colours = [grid_colours(inst, g)[0] for g in grids]
    assert result.verified and len(set(colours)) == k and set(colours) <= every


def test_mip_no_good_cuts_exhaust_to_the_exact_count():
    inst = random_solvable("3x3", 3, 0, seed=0)  # 32 solutions by the enumerator
    every = enumerated(inst)
    result = PUZZLE.solve(inst, "mip", budget=300, solutions=len(every) + 20)
    assert result.status == Status.OPTIMAL and result.value == len(every) and result.verified
    assert result.stats["exhausted"]
    assert {grid_colours(inst, g)[0] for g in result.solution["solutions"]} == every


@pytest.mark.slow  # HiGHS needs 15-90 s on the 24-piece model here
def test_mip_one_solution_of_the_classic_puzzle():
    result = PUZZLE.solve(parse_instance("4x6"), "mip", budget=300)
    assert result.verified and result.value == 1 and result.stats["seconds_to_first"] is not None


def test_mip_all_orientations_variant():
    inst = random_solvable("2x3", 2, None, seed=1)
    result = PUZZLE.solve(inst, "mip", budget=120, solutions=3, orientations="all")
    assert result.verified


@pytest.mark.parametrize("name", [pytest.param("2x3/free", marks=pytest.mark.slow), "hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR"])
def test_cpsat_enumerates_the_same_count(name):
    inst = parse_instance(name)
    count = PUZZLE.solve(inst, "cpsat", budget=300, all=True)
    assert count.status == Status.OPTIMAL and count.verified
    assert count.value == len(list_solutions(inst))


@pytest.mark.slow  # tens of seconds; run with `make test-all`
def test_cpsat_solutions_are_enumerated():
    inst = random_solvable("3x3", 3, 0, seed=3)
    every = enumerated(inst)
    k = min(len(every), 3)
    result = PUZZLE.solve(inst, "cpsat", budget=120, solutions=k)
    grids = result.solution["solutions"] if k > 1 else [result.solution]
    assert result.verified and {grid_colours(inst, g)[0] for g in grids} <= every


def test_infeasible_instance():
    inst = parse_instance("2x3/c2")  # every cell touches the white border; RRRR cannot
    result = PUZZLE.solve(inst, "mip", budget=60)
    assert result.status == Status.INFEASIBLE and result.solution is None
    assert len(list_solutions(inst)) == 0


@pytest.mark.slow
def test_fifty_mip_solutions_are_all_enumerated():
    """50 different solutions from no-good cuts, every one among the
    enumerator's (on a 12-piece board where the enumerator lists 72)."""
    inst = random_solvable("3x4", 3, 0, seed=1)
    every = enumerated(inst)
    assert len(every) > 50
    result = PUZZLE.solve(inst, "mip", budget=600, solutions=50)
    colours = [grid_colours(inst, g)[0] for g in result.solution["solutions"]]
    assert result.verified and len(set(colours)) == 50 and set(colours) <= every
