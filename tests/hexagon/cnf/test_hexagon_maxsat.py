"""Core-guided lower bounds (hexagon/cnf/maxsat.py) and the MaxSAT screen: the bound meets
the published level minima with a grid the independent scorer agrees with, stops at a
target, and the screen refutes exactly the cubes that a full SAT call refutes."""

import json

import pytest
from pysat.solvers import Solver

from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
from puzzlelab.puzzles.hexagon.cnf.maxsat import penalty_lower_bound
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import prove_below
from puzzlelab.puzzles.hexagon.proof.cubes import enumerate_cubes, proof_formula, split_cells
from puzzlelab.puzzles.hexagon.proof.refute import screen_cubes
from puzzlelab.puzzles.hexagon.reference import level_table
from puzzlelab.puzzles.hexagon.scoring import level_penalty


@pytest.mark.parametrize("n,level", [(3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3), (6, 1), (6, 2)])
def test_exact_bound_is_the_published_level_minimum_with_a_grid_that_scores_it(n, level):
    enc = HexEncoding(hexagon(n), top=level, symmetry="lex")
    least, exact, model = penalty_lower_bound(enc)
    assert exact and least == level_table()[n][level - 1]
    assert level_penalty(hexagon(n), enc.decode(model), level) == least


def test_a_target_stops_the_bound_early_and_no_model_gives_an_exact_infinite_bound():
    enc = HexEncoding(hexagon(5), top=3, symmetry="none")
    minimum = level_table()[5][2]
    least, exact, model = penalty_lower_bound(enc, target=minimum - 3)
    assert minimum - 3 <= least <= minimum and not exact and model is None
    centre = split_cells(5, 1)[0]
    least, exact, model = penalty_lower_bound(enc, [[enc.x(centre, 1)], [-enc.x(centre, 1)]])
    assert exact and model is None and least > len(enc.count_lits)


def _refutable(n, level, bound, cubes):
    """The cubes in which no level grid has at most `bound` penalties, by one full
    CaDiCaL call each (no conflict limit, no symmetry breaking)."""
    enc, clauses = proof_formula(n, level, bound, symmetry="none")
    cells = split_cells(n, len(cubes[0]))
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        return {c for c in cubes if not solver.solve(assumptions=[enc.x(cell, 1) if b == "1" else -enc.x(cell, 1) for cell, b in zip(cells, c)])}


@pytest.mark.parametrize("n,level,bound", [(5, 1, 9), (5, 2, 9), (6, 1, 13), pytest.param(6, 2, 13, marks=pytest.mark.slow)])  # (6, 2, 13): 15 s
def test_maxsat_screen_refutes_exactly_the_cubes_a_full_call_refutes(n, level, bound):
    """With one conflict for CaDiCaL, nearly every cube goes to RC2; the refuted set must
    be exactly the cubes with no level grid within the bound."""
    cubes = enumerate_cubes(n, 3, bound, 7)
    screened = screen_cubes(n, level, bound, cubes, conflicts=1, method="maxsat")
    assert sorted(screened["refuted"] + screened["open"]) == sorted(cubes)
    expected = _refutable(n, level, bound, cubes)
    assert expected and set(screened["refuted"]) == expected


def test_a_maxsat_screened_proof_closes_and_is_not_screened_again(tmp_path):
    minimum = level_table()[6][2]
    path = tmp_path / "maxsat.json"
    below = prove_below(6, 3, minimum - 1, depth=7, workers=2, screen_levels=(1,), screen_method="maxsat", screen_conflicts=100, checkpoint=path)
    assert below["proven"] and below["screened"] > 0
    assert json.loads(path.read_text())["screened"] == [[1, 0]]
    saved = json.loads(path.read_text())
    saved["refuted"], saved["proven"] = saved["refuted"][:-2], False
    path.write_text(json.dumps(saved))
    again = prove_below(6, 3, minimum - 1, depth=7, workers=1, screen_levels=(1,), screen_conflicts=10**6, checkpoint=path)
    assert again["proven"] and again["screened"] == 0  # a MaxSAT pass outranks any CaDiCaL pass
    with pytest.raises(ValueError, match="screen method"):
        screen_cubes(5, 1, 9, ["1"], method="cp-sat")


def test_maxsat_cubes_prove_the_table_and_find_a_checked_counterexample_at_the_minimum():
    minimum = level_table()[5][2]
    below = prove_below(5, 3, minimum - 1, depth=7, workers=2, cube_method="maxsat")
    assert below["proven"] and below["refuted"] == below["cubes"]
    at = prove_below(5, 3, minimum, depth=7, workers=2, cube_method="maxsat")
    assert not at["proven"] and level_penalty(hexagon(5), at["counterexample"]["grid"], 3) <= minimum
    with pytest.raises(ValueError, match="cube method"):
        prove_below(5, 3, minimum, depth=7, cube_method="cp-sat")


def test_resplit_replaces_each_open_cube_by_its_pieces_and_forgets_the_screens():
    """The pieces of the open cubes are exactly the deeper cubes under them (the same
    propagation from the root), refuted cubes stay as they were, and the screening
    record is cleared: the pieces were never screened."""
    from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import resplit_open
    from puzzlelab.puzzles.hexagon.proof.cube_checkpoint import Checkpoint

    state = Checkpoint(None, {})
    state.cubes = enumerate_cubes(6, 3, 12, 5)
    state.refuted = set(state.cubes[::2])
    state.screened = [[1, 0]]
    open_before = [c for c in state.cubes if c not in state.refuted]
    assert resplit_open(state, 6, 3, 12, "lex", 2) == len(open_before)
    deeper = enumerate_cubes(6, 3, 12, 7)
    assert sorted(c for c in state.cubes if len(c) == 7) == sorted(c for c in deeper if c[:5] in open_before)
    assert sorted(c for c in state.cubes if len(c) == 5) == sorted(state.refuted)
    assert state.screened == []


@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.slow)])  # n = 6: 17-22 s on 2 loaded cores
def test_a_resplit_proof_closes_and_a_capped_screen_refutes_only_what_a_full_call_does(n, tmp_path):
    minimum = level_table()[n][2]
    summary = prove_below(n, 3, minimum - 1, depth=5, workers=2, resplit=2, screen_levels=(1,), screen_method="maxsat", screen_seconds=0.5)
    assert summary["proven"] and summary["cubes"] > len(enumerate_cubes(n, 3, minimum - 1, 5))
    cubes = enumerate_cubes(n, 3, minimum, 7)
    capped = screen_cubes(n, 1, minimum, cubes, conflicts=1, method="maxsat", seconds=0.05)
    assert set(capped["refuted"]) <= _refutable(n, 1, minimum, cubes)


@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.slow)])  # n = 6: 17-22 s on 2 loaded cores
def test_a_capped_maxsat_pass_is_noted_with_its_cap_and_a_larger_cap_screens_again(n, tmp_path):
    minimum = level_table()[n][2]
    path = tmp_path / "capped.json"
    first = prove_below(n, 3, minimum - 1, depth=7, workers=1, screen_levels=(1,), screen_method="maxsat", screen_conflicts=100, screen_seconds=5.0, checkpoint=path)
    assert first["proven"] and json.loads(path.read_text())["screened"] == [[1, 0, 5.0]]
    saved = json.loads(path.read_text())
    saved["refuted"], saved["proven"] = saved["refuted"][:-2], False
    path.write_text(json.dumps(saved))
    same = prove_below(n, 3, minimum - 1, depth=7, workers=1, screen_levels=(1,), screen_method="maxsat", screen_conflicts=100, screen_seconds=5.0, checkpoint=path)
    assert same["proven"] and same["screened"] == 0  # the same cap: not screened again
    saved["refuted"] = saved["refuted"][:-2]
    path.write_text(json.dumps(saved))
    larger = prove_below(n, 3, minimum - 1, depth=7, workers=1, screen_levels=(1,), screen_method="maxsat", screen_conflicts=100, checkpoint=path)
    assert larger["proven"] and json.loads(path.read_text())["screened"][-1] == [1, 0]


@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.slow)])  # n = 6: 17-22 s on 2 loaded cores
def test_resplit_rounds_go_deeper_each_round_and_the_proof_still_closes(n, tmp_path):
    minimum = level_table()[n][2]
    path = tmp_path / "rounds.json"
    summary = prove_below(n, 3, minimum - 1, depth=5, workers=2, resplit=1, resplit_rounds=3, screen_levels=(1,), screen_conflicts=1, checkpoint=path)
    cubes = json.loads(path.read_text())["cubes"]
    assert summary["proven"] and max(len(c) for c in cubes) == 5 + 3
