"""The independent checker: its own geometry agrees with the boards', it accepts valid
placements and rejects every kind of broken one, and count certificates are checked."""

import copy

import pytest

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.macmahon.boards import board
from puzzlelab.puzzles.macmahon.count_results import run_enumerate
from puzzlelab.puzzles.macmahon.enumerator import codes_to_grid, list_solutions
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import cell_geometry, element_action, verify
from puzzlelab.puzzles.macmahon.verify.rules import touching
from support.macmahon_helpers import random_solvable


@pytest.mark.parametrize("name", ["4x6", "3x8", "2x12", "3x3/c3/tiles=" + ",".join(["WWWW"] * 9), "hex2", "hex3/c1/tiles=" + ",".join(["WWW"] * 54)])
def test_geometry_agrees_with_the_boards(name):
    inst = parse_instance(name)
    rows, polys = cell_geometry(inst)
    geometry = inst.board
    k = geometry.sides
    assert [len(r) for r in rows] == [len(r) for r in geometry.rows]
    touch = touching(polys)
    for c in range(geometry.cells):
        for s in range(k):
            other = touch[(c, s)]
            nb = int(geometry.neighbour[c, s])
            assert (nb < 0) == (other is None)
            if other is not None:
                assert nb == other[0] * k + other[1]
    for sym in geometry.symmetries:
        assert element_action(inst, sym.name)[0] == sym.perm


def test_symmetry_groups_have_the_expected_orders():
    assert [s.name for s in board("4x6").symmetries] == ["id", "rot180", "mirror0", "mirror90"]
    assert len(board("5x5").symmetries) == 8
    assert len(board("hex2").symmetries) == 12


def small_solution():
    inst = random_solvable("3x3", 3, 0, seed=5)
    rows = list_solutions(inst)
    assert len(rows) >= 1
    return inst, codes_to_grid(inst, rows[0])


def test_accepts_a_valid_grid_and_piece_names():
    inst, grid = small_solution()
    assert verify(inst, grid).ok and verify(inst, grid).value == 1
    names = inst.tile_names()
    named = [[[names[p], r] for p, r in row] for row in grid]
    assert verify(inst, named).ok
    assert verify(inst, {"grid": grid}).ok


def test_rejects_broken_grids():
    inst, grid = small_solution()
    k = inst.sides
    # a rotation that breaks the border or a touching edge
    for i in range(3):
        for j in range(3):
            bad = copy.deepcopy(grid)
            p, r = bad[i][j]
            if len(set(inst.tiles[p])) == 1:
                continue
            bad[i][j] = [p, (r + 1) % k]
            assert not verify(inst, bad).ok
    missing = copy.deepcopy(grid)
    missing[1][1] = [(missing[1][1][0] + 1) % len(inst.tiles), 0]
    assert not verify(inst, missing).ok and "used" in verify(inst, missing).message
    assert not verify(inst, grid[:2]).ok
    assert not verify(inst, [[["XXXX", 0]] * 3] * 3).ok
    assert not verify(inst, [[[0, 7]] * 3] * 3).ok


def test_several_solutions_must_differ():
    inst, grid = small_solution()
    assert verify(inst, {"solutions": [grid]}).value == 1
    assert not verify(inst, {"solutions": [grid, grid]}).ok


def test_count_certificate_checks_and_tampering():
    inst = parse_instance("2x3/free")
    result = run_enumerate(inst, budget=Budget(), progress=lambda e: None, seed=0)
    cert = result.solution
    good = verify(inst, cert)
    assert good.ok and good.value == 416 == result.value
    tampered = copy.deepcopy(cert)
    tampered["total"] += 8  # still a multiple of the group order, but Burnside fails
    assert not verify(inst, tampered).ok
    tampered = copy.deepcopy(cert)
    tampered["groups"]["full"]["classes"] += 1
    assert not verify(inst, tampered).ok
    tampered = copy.deepcopy(cert)
    tampered["groups"]["board"]["members"] = ["id", "rot180", "mirror0"]  # not a group
    assert not verify(inst, tampered).ok
    tampered = copy.deepcopy(cert)
    tampered["examples"][0][0][0][0] = (tampered["examples"][0][0][0][0] + 1) % len(inst.tiles)
    assert not verify(inst, tampered).ok  # an invalid example


def test_symmetric_classes_are_recounted():
    inst = parse_instance("hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR")
    cert = run_enumerate(inst, budget=Budget(), progress=lambda e: None, seed=0).solution
    assert cert["symmetric"], "this instance has symmetric solutions"
    assert verify(inst, cert).ok
    tampered = copy.deepcopy(cert)
    tampered["symmetric"] = tampered["symmetric"][1:]
    assert not verify(inst, tampered).ok
    tampered = copy.deepcopy(cert)
    name = next(n for n, v in cert["fixed_points"].items() if v and n != "id")
    tampered["fixed_points"][name] += 1
    assert not verify(inst, tampered).ok
