"""Cube-and-conquer proofs: the cubes partition the models (a counting identity), the
split proof agrees with the published level table and with the single SAT call, a
checkpoint resumes and refuses another question, and `prove` through the real CLI."""

import json

import pytest
from pysat.solvers import Solver
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.result import Budget, Status
from puzzlelab.core.store import Store
from puzzlelab.puzzles.hexagon.model import edge_count, hexagon
from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import guided_runs, prove_below
from puzzlelab.puzzles.hexagon.proof.cube_checkpoint import Checkpoint
from puzzlelab.puzzles.hexagon.proof.cubes import enumerate_cubes, proof_formula, split_cells
from puzzlelab.puzzles.hexagon.proof.prove import check_counterexample
from puzzlelab.puzzles.hexagon.proof.refute import screen_cubes
from puzzlelab.puzzles.hexagon.reference import level_table
from puzzlelab.puzzles.hexagon.scoring import level_penalty

runner = CliRunner()


def _count_models(clauses, enc, assumptions=()):
    """Level grids satisfying the formula (distinct cell values), by blocking each one."""
    count = 0
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve(assumptions=list(assumptions)):
            values = enc.decode(solver.get_model())
            solver.add_clause(enc.block(values, range(enc.cells)))
            count += 1
    return count


@pytest.mark.parametrize("n,level,bound,depth", [(3, 2, 6, 4), (3, 3, 5, 7), (4, 2, 4, 7)])
def test_cubes_partition_the_models(n, level, bound, depth):
    """Every model lies in exactly one cube: the cube counts add up to the whole count,
    and the patterns are distinct (so no model is counted twice)."""
    enc, clauses = proof_formula(n, level, bound)
    total = _count_models(clauses, enc)
    assert total > 0
    cubes = enumerate_cubes(n, level, bound, depth)
    assert len(set(cubes)) == len(cubes) and all(len(c) == depth for c in cubes)
    assert len(cubes) < 2**depth  # propagation pruned some patterns, and lost no model:
    cells = split_cells(n, depth)
    by_cube = 0
    for pattern in cubes:
        lits = [enc.x(c, 1) if b == "1" else -enc.x(c, 1) for c, b in zip(cells, pattern)]
        by_cube += _count_models(clauses, enc, lits)
    assert by_cube == total


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_split_proof_agrees_with_the_published_level_table(n, level):
    """One below the published level-k minimum: proven; at it: a checked counterexample."""
    minimum = level_table()[n][level - 1]
    below = prove_below(n, level, minimum - 1, depth=7, workers=1)
    assert below["proven"] and below["counterexample"] is None and below["refuted"] == below["cubes"]
    at = prove_below(n, level, minimum, depth=7, workers=1)
    assert not at["proven"] and at["counterexample"] is not None
    grid = at["counterexample"]["grid"]
    assert check_counterexample(n, level, minimum, grid) == minimum
    assert level_penalty(hexagon(n), [min(v, level + 1) for v in grid], level) == minimum


@pytest.mark.parametrize("count,workers", [(1, 1), (5, 2), (1267, 2), (100, 7)])
def test_guided_runs_cover_every_cube_once_longest_first(count, workers):
    cubes = [f"c{i}" for i in range(count)]
    runs = guided_runs(cubes, workers)
    assert [c for run in runs for c in run] == cubes
    sizes = [len(run) for run in runs]
    assert all(a >= b for a, b in zip(sizes, sizes[1:])) and sizes[-1] == 1


def test_a_split_cube_is_covered_by_its_pieces():
    """extend_cube's pieces of one cube hold exactly that cube's models."""
    from puzzlelab.puzzles.hexagon.proof.cubes import extend_cube

    n, level, bound = 3, 3, 5
    enc, clauses = proof_formula(n, level, bound)
    order = split_cells(n)

    def lits(pattern):
        return [enc.x(c, 1) if b == "1" else -enc.x(c, 1) for c, b in zip(order, pattern)]

    split = 0
    for cube in enumerate_cubes(n, level, bound, 4):
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            pieces = extend_cube(solver, enc, order, cube, 9)
        assert all(p.startswith(cube) and len(p) == 9 for p in pieces)
        models = _count_models(clauses, enc, lits(cube))
        assert sum(_count_models(clauses, enc, lits(p)) for p in pieces) == models
        split += models > 0 and len(pieces) > 1
    assert split  # some cube with models really was cut into several pieces


@pytest.mark.parametrize("level", [2, pytest.param(3, marks=pytest.mark.slow)])  # 6 s, 21 s on 2 loaded cores (n = 5 never splits)
def test_hard_cubes_are_split_and_the_proof_still_closes(level, tmp_path):
    """With a split after every conflict round, cubes come back deeper and the proof
    still ends proven, with the checkpoint holding the deeper cubes."""
    path = tmp_path / "split.json"
    bound = level_table()[6][level - 1] - 1
    summary = prove_below(6, level, bound, depth=7, workers=2, split_conflicts=1, checkpoint=path)
    assert summary["proven"]
    saved = json.loads(path.read_text())
    assert saved["proven"] and max(len(c) for c in saved["cubes"]) > 7
    assert summary["cubes"] == len(saved["cubes"]) > len(enumerate_cubes(6, level, bound, 7))


@pytest.mark.parametrize("n,bound", [(5, 9), pytest.param(6, 13, marks=pytest.mark.slow)])  # n = 6: 23 s
def test_screening_refutes_only_cubes_without_a_grid_within_the_bound(n, bound):
    """At the published level-3 minimum (grids exist): every cube a lower level refutes
    holds no level-3 grid within the bound, by the full formula without symmetry
    breaking under that cube, and the cubes that do hold one survive every screen."""
    depth = 7
    cubes = enumerate_cubes(n, 3, bound, depth)
    enc, clauses = proof_formula(n, 3, bound, symmetry="none")
    cells = split_cells(n, depth)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        holds = {c: solver.solve(assumptions=[enc.x(cell, 1) if b == "1" else -enc.x(cell, 1) for cell, b in zip(cells, c)]) for c in cubes}
    assert any(holds.values())
    for screen_level in (1, 2):
        screened = screen_cubes(n, screen_level, bound, cubes)
        assert sorted(screened["refuted"] + screened["open"]) == sorted(cubes)
        assert screened["refuted"], "the lower level rules out no cube"
        assert not [c for c in screened["refuted"] if holds[c]]


@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.slow)])  # n = 6: 24 s on 2 loaded cores
def test_screened_proof_agrees_with_the_table_and_resumes_without_screening_again(n, tmp_path):
    """With levels 1 and 2 screened first: proven one below the level-3 minimum (the
    checkpoint notes both passes), a checked counterexample at it; a resumed run of a
    screened checkpoint goes straight to the level-3 cubes."""
    minimum = level_table()[n][2]
    path = tmp_path / "screened.json"
    below = prove_below(n, 3, minimum - 1, depth=7, workers=2, screen_levels=(1, 2), checkpoint=path)
    assert below["proven"] and 0 < below["screened"] < below["cubes"]
    assert json.loads(path.read_text())["screened"] == [[1, 20_000], [2, 20_000]]
    at = prove_below(n, 3, minimum, depth=7, workers=2, screen_levels=(1, 2))
    assert at["counterexample"] is not None and level_penalty(hexagon(n), at["counterexample"]["grid"], 3) <= minimum
    saved = json.loads(path.read_text())
    saved["refuted"], saved["proven"] = saved["refuted"][:-2], False
    path.write_text(json.dumps(saved))
    calls = []
    again = prove_below(n, 3, minimum - 1, depth=7, workers=1, screen_levels=(1, 2), checkpoint=path, progress=calls.append)
    assert again["proven"] and again["screened"] == 0 and calls[0]["refuted"] == len(saved["refuted"])
    saved["refuted"], saved["proven"] = saved["refuted"][:-2], False
    path.write_text(json.dumps(saved))
    more = prove_below(n, 3, minimum - 1, depth=7, workers=1, screen_levels=(1,), screen_conflicts=40_000, checkpoint=path)
    assert more["proven"] and json.loads(path.read_text())["screened"][-1] == [1, 40_000]
    with pytest.raises(ValueError, match="screen levels"):
        prove_below(n, 3, minimum - 1, depth=7, workers=1, screen_levels=(3,))


def test_a_stopped_proof_resumes_from_its_checkpoint(tmp_path):
    path = tmp_path / "n5.json"
    first = prove_below(5, 3, 8, depth=7, workers=1, budget=Budget(0), checkpoint=path)
    assert not first["proven"] and first["refuted"] < first["cubes"]
    saved = json.loads(path.read_text())
    assert saved["cubes"] and not saved["proven"]
    # Mark all but the last three cubes refuted by hand: the resumed run only has those.
    saved["refuted"] = saved["cubes"][:-3]
    path.write_text(json.dumps(saved))
    calls = []
    second = prove_below(5, 3, 8, depth=7, workers=1, checkpoint=path, progress=calls.append)
    assert second["proven"] and second["refuted"] == second["cubes"]
    assert calls[0]["refuted"] == len(saved["cubes"]) - 3
    assert json.loads(path.read_text())["proven"] is True


def test_a_checkpoint_of_another_question_is_refused(tmp_path):
    path = tmp_path / "n5.json"
    prove_below(5, 3, 8, depth=7, workers=1, checkpoint=path)
    with pytest.raises(ValueError, match="another question"):
        Checkpoint(path, {"n": 5, "level": 3, "bound": 7, "depth": 7, "symmetry": "lex", "digest": "x"})
    with pytest.raises(ValueError, match="another question"):
        prove_below(5, 3, 7, depth=7, workers=1, checkpoint=path)


def test_a_false_counterexample_is_caught_by_the_checker():
    grid = [1] * hexagon(4).cells  # all 1s: every edge is a penalty
    with pytest.raises(AssertionError, match="penalties, above"):
        check_counterexample(4, 2, 5, grid)
    bad = [3] * hexagon(4).cells  # 3s with no 1 or 2 beside them
    with pytest.raises(AssertionError, match="breaks the rule"):
        check_counterexample(4, 3, 500, bad)


@pytest.mark.parametrize("method", ["cubes", "dp"])
def test_prove_cli_proves_optimal_and_stores_it(tmp_path, method):
    out = tmp_path / "p.json"
    result = runner.invoke(cli.app, ["hexagon", "prove", "5", "--method", method, "--level", "3", "--depth", "7", "--workers", "1", "--checkpoint", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["proven"] and data["optimal"] and data["claim_raw"] == 147 and data["bound"] == edge_count(5) - 148
    assert data["method"] == {"cubes": "cubes", "dp": "row-dp"}[method]
    best = Store().best("hexagon")[0]
    assert best.value == 147 and best.status == Status.OPTIMAL.value


@pytest.mark.parametrize("method", ["cubes", "dp"])
def test_prove_cli_reports_a_false_claim_with_a_verified_grid(tmp_path, method):
    result = runner.invoke(cli.app, ["hexagon", "prove", "5", "--method", method, "--raw", "146", "--depth", "7", "--workers", "1", "--checkpoint", str(tmp_path / "c.json"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert not data["proven"] and data["settled"]
    assert data["counterexample"]["raw"] == 147 and data["counterexample"]["level_penalty"] <= 9


def test_prove_cli_unfinished_run_exits_1_and_bad_input_exits_2(tmp_path):
    result = runner.invoke(cli.app, ["hexagon", "prove", "6", "--method", "cubes", "--depth", "7", "--budget", "0.001", "--checkpoint", str(tmp_path / "u.json")])
    assert result.exit_code == 1 and "run the same command to resume" in result.output
    for args, field in ((["5", "--raw", "999"], "raw"), (["5", "--level", "7"], "level"), (["30"], "raw"), (["5", "--backend", "mpi"], "backend"), (["5", "--split-conflicts", "-1"], "split-conflicts"), (["5", "--method", "bfs"], "method"), (["5", "--method", "dp", "--certified"], "method")):
        bad = runner.invoke(cli.app, ["hexagon", "prove", *args])
        assert bad.exit_code == 2 and f"error: {field}" in bad.output, (args, bad.output)


def test_prove_by_dp_out_of_budget_exits_1_and_resumes_from_its_folder(tmp_path):
    """A DP proof stopped by its budget says where its steps are; one stopped after 50
    cells (here through the library, deterministically) resumes at cell 51 under the
    command and proves the claim."""
    from puzzlelab.core.result import Budget
    from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp

    folder = tmp_path / "dp6"
    args = ["hexagon", "prove", "6", "--method", "dp", "--no-store", "--checkpoint", str(folder), "--json"]
    result = runner.invoke(cli.app, [*args, "--budget", "0.001"])
    assert result.exit_code == 1, result.output
    message = json.loads(result.stdout)["message"]
    assert "not finished: the row DP stopped" in message and f"every finished step is kept in {folder}" in message
    budget, seen = Budget(600), []

    def stop_after_50(report):
        seen.append(report)
        if len(seen) == 50:
            budget.cancel()

    with pytest.raises(rowdp.TooLarge):
        rowdp.grids_within(6, 3, edge_count(6) - 227 - 1, budget=budget, checkpoint=folder, progress=stop_after_50)  # the published 227
    result = runner.invoke(cli.app, args[:-1])  # without --json: progress on standard error
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("proven: no level-3 grid of order 6 with at most 12 penalty edges")
    assert "n=6 level 1 min pass: cell 51/91" in result.stderr.splitlines()[0]
    file = tmp_path / "a-file"
    file.write_text("")
    bad = runner.invoke(cli.app, ["hexagon", "prove", "6", "--method", "dp", "--checkpoint", str(file)])
    assert bad.exit_code == 2 and "error: --checkpoint" in bad.output and "folder" in bad.output


def test_a_dp_checkpoint_is_a_record_to_check_not_a_proof(tmp_path):
    """The row DP's manifest says where a pass ran dry, and its tables are gone then:
    a rerun says the claim was settled by an earlier run. A manifest forged to settle
    a false claim (n = 4 scores 87, published) is contradicted by the checked grid the
    claim's own grid search finds, and nothing is proven; damaged fields are refused."""
    folder = tmp_path / "dp4"
    args = ["hexagon", "prove", "4", "--method", "dp", "--no-store", "--checkpoint", str(folder), "--json"]
    first = json.loads(runner.invoke(cli.app, args).stdout)
    assert first["settled"] and first["optimal"] and "earlier run" not in first["message"]
    again = runner.invoke(cli.app, args)
    rerun = json.loads(again.stdout)
    assert again.exit_code == 0 and rerun["optimal"] and f"settled by an earlier run whose record is {folder}" in rerun["message"]
    forged = tmp_path / "forged"
    forged.mkdir()
    manifest = {"format": 1, "n": 4, "bound": edge_count(4) - 86 - 1, "levels": {}, "settled": {"level": 1, "step": 0}}
    (forged / "manifest.json").write_text(json.dumps(manifest))
    result = runner.invoke(cli.app, ["hexagon", "prove", "4", "--raw", "86", "--method", "dp", "--no-store", "--checkpoint", str(forged), "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and not report["proven"] and not report["settled"]
    assert report["message"].startswith("contradiction, nothing proven") and "verified grid of raw 87" in report["message"]
    assert f"the checkpoint {forged} it rests on is damaged or edited" in report["message"]
    for damage in ({"levels": 5}, {"settled": "yes"}, {"settled": {"level": True, "step": 0}}, {"levels": {"1": {"layout": "x", "steps_done": 2, "lowest": [0]}}},
                   {"levels": {"1": {"layout": "x", "count": {"histogram": {"a": 1}}}}}, {"levels": {"one": {}}}):
        (forged / "manifest.json").write_text(json.dumps({**manifest, **damage}))
        bad = runner.invoke(cli.app, ["hexagon", "prove", "4", "--raw", "86", "--method", "dp", "--no-store", "--checkpoint", str(forged)])
        assert bad.exit_code == 2 and "its manifest.json is damaged" in bad.output and len(bad.output.strip().splitlines()) == 1, (damage, bad.output)


@pytest.mark.slow
def test_order_9_proven_optimal_by_the_row_dp(tmp_path):
    """n = 9: the row DP's min passes of levels 1..3 under the bound 23 end empty
    (about 2 CPU minutes and 4 GB), and a verified grid of 576 is found: 576 is
    optimal, the published value (the cubes took 14,260 s wall)."""
    result = runner.invoke(cli.app, ["hexagon", "prove", "9", "--grid-budget", "900", "--no-store", "--json", "--checkpoint", str(tmp_path / "dp9")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "row-dp" and data["level"] == 3 and data["bound"] == 23
    assert data["proven"] and data["optimal"] and data["claim_raw"] == 576


@pytest.mark.slow
def test_order_10_proven_optimal_by_the_row_dp(tmp_path):
    """n = 10: the row DP's min passes of levels 1..3 under the bound 27 end empty
    (about 15 CPU minutes; its checkpoint folder peaks near 18 GB), and the published
    728 is found and verified: 728 is optimal (the write-up's SAT proof: 169 min)."""
    result = runner.invoke(cli.app, ["hexagon", "prove", "10", "--no-store", "--json", "--checkpoint", str(tmp_path / "dp10")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "row-dp" and data["level"] == 3 and data["bound"] == 27
    assert data["proven"] and data["optimal"] and data["claim_raw"] == 728


@pytest.mark.slow
def test_order_8_proven_optimal_by_cubes(tmp_path):
    """n = 8: no level-3 grid has 19 or fewer penalties, and the published 442 is
    reached: 442 is optimal. About 2 hours on 2 cores (7328 s over three runs, the last
    with --split-conflicts 0, which closed the cubes that splitting kept cutting)."""
    result = runner.invoke(
        cli.app,
        ["hexagon", "prove", "8", "--method", "cubes", "--level", "3", "--workers", "2", "--split-conflicts", "0", "--budget", "14400", "--checkpoint", str(tmp_path / "n8.json"), "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["proven"] and data["optimal"] and data["claim_raw"] == 442 and data["bound"] == 19


@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.slow)])  # n = 6: 10 s on 2 loaded cores
def test_the_cover_check_accepts_the_cubes_and_catches_a_missing_one(n):
    """At the published level-3 minimum grids exist: the enumerated cubes
    cover them, and with a cube that holds a grid taken away the check names it."""
    from puzzlelab.puzzles.hexagon.proof.cover import uncovered_pattern

    bound = level_table()[n][2]
    cubes = enumerate_cubes(n, 3, bound, 7)
    assert uncovered_pattern(n, 3, bound, "lex", cubes) is None
    enc, clauses = proof_formula(n, 3, bound)
    cells = split_cells(n, 7)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        holding = next(c for c in cubes if solver.solve(assumptions=[enc.x(cell, 1) if b == "1" else -enc.x(cell, 1) for cell, b in zip(cells, c)]))
    assert uncovered_pattern(n, 3, bound, "lex", [c for c in cubes if c != holding]) == holding


def test_the_default_level_is_the_lowest_that_can_prove_the_claim():
    """From the published level table: n = 7 needs level 4 (its level-3 minimum, 16, is
    the bound of 325), n = 8 and 9 level 3, n = 11 level 2, n = 3 level 2."""
    from puzzlelab.puzzles.hexagon.proof.prove import proof_level
    from puzzlelab.puzzles.hexagon.reference import published_raw

    levels = {n: proof_level(n, edge_count(n) - published_raw(n) - 1) for n in (3, 4, 7, 8, 9, 11)}
    assert levels == {3: 2, 4: 3, 7: 4, 8: 3, 9: 3, 11: 2}
    for n, level in levels.items():
        bound = edge_count(n) - published_raw(n) - 1
        minimum = level_table()[n][min(level, 4) - 1]
        assert minimum > bound and (level == 1 or level_table()[n][level - 2] <= bound)


def test_a_level_too_low_leaves_the_claim_unsettled(tmp_path):
    """n = 4 at level 2: level-2 grids with 2 penalties exist, the bound of the true claim
    87; that is no counterexample to 87, so the run exits 1 and says to go higher."""
    result = runner.invoke(cli.app, ["hexagon", "prove", "4", "--method", "cubes", "--level", "2", "--depth", "7", "--workers", "1", "--no-store", "--checkpoint", str(tmp_path / "l2.json"), "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert not data["settled"] and not data["proven"] and data["counterexample"]["level_penalty"] <= 2
    assert data["message"].startswith("not settled at level 2") and "higher --level" in data["message"]
    assert data["counterexample"]["raw"] <= 87


def test_cubes_refuted_by_an_earlier_run_are_named_as_such(tmp_path):
    """A cube proof finished on a checkpoint's cubes says how many this run refuted."""
    path = tmp_path / "p4.json"
    args = ["hexagon", "prove", "4", "--method", "cubes", "--depth", "7", "--workers", "1", "--no-store", "--checkpoint", str(path), "--json"]
    first = json.loads(runner.invoke(cli.app, args).stdout)
    assert first["proven"] and first["refuted_here"] == first["refuted"] > 0 and "earlier runs" not in first["message"]
    again = runner.invoke(cli.app, args)
    rerun = json.loads(again.stdout)
    assert again.exit_code == 0 and rerun["proven"] and rerun["refuted_here"] == 0
    assert f"{rerun['refuted']} of the {rerun['refuted']} cubes were refuted by earlier runs whose record is {path}" in rerun["message"]
