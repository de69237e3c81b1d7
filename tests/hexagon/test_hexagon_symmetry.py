"""Lex-leader symmetry breaking keeps exactly one grid per orbit of the hexagon's
twelve symmetries: checked against orbits computed plainly from every grid and against
Burnside's count (the mean number of grids each symmetry fixes)."""

from __future__ import annotations

import itertools

import pytest

from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding, symmetry_mode
from puzzlelab.puzzles.hexagon.cnf.solver import BoundedSolver
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.rowdp.count import level_minimum
from puzzlelab.puzzles.hexagon.symmetry import cell_symmetries, lex_at_most


def every_grid(n: int, level: int, max_penalty: int, symmetry: str) -> list[tuple[int, ...]]:
    geometry = hexagon(n)
    encoding = HexEncoding(geometry, top=level, symmetry=symmetry)
    grids = []
    with BoundedSolver(encoding.clauses, encoding.count_lits, encoding.n_vars) as solver:
        while solver.solve(max_penalty):
            grid = encoding.decode(solver.model())
            grids.append(tuple(grid))
            solver.add_clause(encoding.block(grid))
    return grids


def image(grid, perm) -> tuple[int, ...]:
    return tuple(grid[int(perm[c])] for c in range(len(grid)))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_twelve_symmetries_form_the_dihedral_group(n):
    geometry = hexagon(n)
    perms = [tuple(int(v) for v in p) for p in cell_symmetries(geometry)]
    assert len(set(perms)) == 12
    assert perms[0] == tuple(range(geometry.cells))
    group = set(perms)
    for a, b in itertools.product(perms, repeat=2):
        assert tuple(a[b[c]] for c in range(geometry.cells)) in group
    # Rings are kept, so --ring restrictions stay symmetric.
    for p in perms:
        assert all(geometry.ring[p[c]] == geometry.ring[c] for c in range(geometry.cells))


def test_lex_at_most_against_every_assignment():
    xs, ys = [1, 2, 3], [3, 1, 2]  # y is a rotation of x's positions
    clauses: list[list[int]] = []
    top = [3]

    def new_var():
        top[0] += 1
        return top[0]

    lex_at_most(xs, ys, new_var, clauses)
    from pysat.solvers import Solver

    for bits in itertools.product((0, 1), repeat=3):
        value = {1: bits[0], 2: bits[1], 3: bits[2]}
        assumptions = [v if value[v] else -v for v in (1, 2, 3)]
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            satisfiable = solver.solve(assumptions=assumptions)
        assert satisfiable == (tuple(value[v] for v in xs) <= tuple(value[v] for v in ys)), bits


@pytest.mark.parametrize(("n", "level"), [(3, 1), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)])
def test_lex_keeps_one_grid_per_orbit(n, level):
    geometry = hexagon(n)
    perms = cell_symmetries(geometry)
    lowest, _ = level_minimum(n, level, symmetry="none")
    for max_penalty in (lowest, lowest + 1):
        every = every_grid(n, level, max_penalty, "none")
        orbits = {min(image(grid, p) for p in perms) for grid in every}
        fixed = sum(image(grid, p) == grid for grid in every for p in perms)
        assert fixed % 12 == 0 and fixed // 12 == len(orbits)  # Burnside
        kept = every_grid(n, level, max_penalty, "lex")
        assert len(kept) == len(orbits)
        assert {min(image(grid, p) for p in perms) for grid in kept} == orbits
        assert set(kept) <= set(every)


@pytest.mark.parametrize("n", [3, 4, pytest.param(5, marks=pytest.mark.slow)])
def test_lex_proves_the_same_level_minima(n):
    for level in (1, 2, 3):
        assert level_minimum(n, level, symmetry="lex")[0] == level_minimum(n, level, symmetry="none")[0]


def test_symmetry_mode_names():
    assert symmetry_mode(True) == "centre" and symmetry_mode(False) == "none"
    assert symmetry_mode("lex") == "lex"
    with pytest.raises(ValueError, match="symmetry"):
        symmetry_mode("mirror")


def test_break_and_pins_switch_lex_off():
    geometry = hexagon(4)
    plain = HexEncoding(geometry, top=3, symmetry="none")
    assert len(HexEncoding(geometry, top=3, symmetry="lex", break_=1).clauses) == len(HexEncoding(geometry, top=3, break_=1).clauses)
    assert len(HexEncoding(geometry, top=3, symmetry="lex", fixed={0: 1}).clauses) == len(plain.clauses) + 1
    assert len(HexEncoding(geometry, top=3, symmetry="lex").clauses) > len(plain.clauses)
