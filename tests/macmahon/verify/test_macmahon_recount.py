"""The checker's own count (verify_recount) against the plain-Python backtracking of the
solvers' side (brute.py: another search, every rotation tried, solutions deduplicated by
side colours) and, for the solutions a symmetry fixes, against brute force over that
listing. The checker imports neither; here they are the oracles."""

import pytest

from puzzlelab.puzzles.macmahon.brute import backtrack_solutions
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.symmetry import instance_group
from puzzlelab.puzzles.macmahon.verify.recount import recount
from puzzlelab.puzzles.macmahon.verify.rules import apply_action, element_action
from support.macmahon_helpers import random_solvable

SMALL = [
    "2x3/free",
    "1x6/free",
    "3x2/free",
    "2x2/c2/free/tiles=WWWW,WWWR,WRRR,RRRR",
    "hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR",
    "hex1/c3/free/tiles=RBB,WWW,WRR,BBB,WWB,RRB",
    "2x3/c2",  # no solution: every cell touches the white border
    "3x3/c3/border=red/tiles=RRRR,RRRR,RRRR,RRRR,RRWR,RRRR,RRRR,RRRR,RRRR",
]


def random_cases():
    cases = [("3x3", 3, 0, seed) for seed in range(6)] + [("2x4", 3, 1, seed) for seed in range(4)]
    cases += [("2x3", 2, None, seed) for seed in range(3)] + [("hex1", 3, border, seed) for seed in range(3) for border in (None, 0)]
    return cases


def brute_force(inst):
    found, finished = backtrack_solutions(inst)
    assert finished
    return found


@pytest.mark.parametrize("name", SMALL)
def test_recount_equals_backtracking_and_fixed_points_brute_force(name):
    inst = parse_instance(name)
    solutions = brute_force(inst)
    assert recount(inst).value == len(solutions)
    for element in instance_group(inst):
        action = element_action(inst, element.name)
        fixed = sum(1 for s in solutions if apply_action(action, s) == s)
        assert recount(inst, action).value == fixed, element.name


@pytest.mark.parametrize("board_name,colours,border,seed", random_cases())
def test_recount_equals_backtracking_on_random_multisets(board_name, colours, border, seed):
    inst = random_solvable(board_name, colours, border, seed)
    assert recount(inst).value == len(brute_force(inst))


@pytest.mark.parametrize("name", ["3x8", "2x12"])
def test_catalog_boards_without_solutions_are_proved_empty(name):
    """3 x 8: the six pieces without white fill the six inner cells, so the three with two
    opposite white sides have nowhere to go; 2 x 12: every cell touches the border."""
    found = recount(parse_instance(name))
    assert found.value == 0 and found.work < 1000


def test_the_search_gives_up_instead_of_running_on():
    inst = parse_instance("4x6")  # 106,624 solutions: far beyond a plain search's limit
    stopped = recount(inst, work_limit=2_000)
    assert stopped.value is None and stopped.work > 2_000
    too_big = parse_instance("13x13/c1/tiles=" + ",".join(["WWWW"] * 169))
    assert recount(too_big).value is None  # more cells than the search is allowed
