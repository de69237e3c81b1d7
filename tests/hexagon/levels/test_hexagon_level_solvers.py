"""The level solvers (dancing links, ILP, SAT, beam; levels/solvers.py) against their
oracles: the row DP's exact histograms (counts by penalty, lowest penalties), the
published lowest penalties, brute force over the extensions of small level-2 grids,
and each other; every grid checked by the verifier's rule check."""

import pytest

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.levels.dlx import dlx_count, dlx_grids, exact_cover_count
from puzzlelab.puzzles.hexagon.levels.question import check_answer, level_question
from puzzlelab.puzzles.hexagon.levels.solvers import solve_level
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.reference import level_table
from puzzlelab.puzzles.hexagon.rowdp.dp import level_counts, level_grids
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import rule_violation


def _bases(n: int, count: int) -> list[list[int]]:
    """Level-2 grids of order n: the lowest-penalty ones and one above, from the row DP."""
    low = level_table()[n][1]
    grids = level_grids(n, 2, low + 1, max_grids=100_000)
    grids.sort(key=lambda g: (level_penalty(hexagon(n), g, 2), g))
    step = max(1, len(grids) // count)
    return grids[::step][:count]


def _brute_force(question) -> dict[int, int]:
    """penalty -> number of level-k grids extending the base: level by level, every
    subset of the cells still free tried as the cells holding j (those left must see a
    j), each complete grid checked by the verifier's rule check and scored."""
    g = question.geometry
    out: dict[int, int] = {}

    def place(grid: list[int], free: list[int], j: int) -> None:
        if j > question.k:
            if rule_violation(question.n, grid) is None:
                p = level_penalty(g, grid, question.k)
                out[p] = out.get(p, 0) + 1
            return
        for mask in range(1 << len(free)):
            chosen = {c for i, c in enumerate(free) if mask >> i & 1}
            rest = [c for c in free if c not in chosen]
            if all(any(x in chosen for x in g.neighbours_of(c)) for c in rest):
                place([j if c in chosen else (j + 1 if c in rest else v) for c, v in enumerate(grid)], rest, j + 1)

    place(list(question.start()), question.free(), question.first)
    return out


@pytest.mark.parametrize("n, level, extra", [(3, 1, 2), (3, 2, 1), (4, 1, 3), (4, 2, 1), pytest.param(5, 1, 1, marks=pytest.mark.slow)])  # n = 5: 6 s
def test_dlx_counts_equal_the_row_dp_histogram(n, level, extra):
    """DLX with a penalty allowance p lists each grid of penalty <= p once: its count is
    the row DP's cumulative histogram (penalty 0 = the exact cover: n = 4 level 1 has
    2 perfect codes, the others none)."""
    histogram = level_counts(n, level, level_table()[n][level - 1] + extra)
    question = level_question(n, "1" if level == 1 else "1-2")
    for allowance in sorted(set([0, *histogram])):
        expected = sum(c for p, c in histogram.items() if p <= allowance)
        assert dlx_count(question, allowance) == expected, allowance


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("method", ["dlx", "ilp", "sat"])
def test_lowest_level1_penalty_agrees(n, method):
    expected = level_table()[n][0]
    assert level_counts(n, 1, expected)  # the row DP's proof that it is the least
    assert level_counts(n, 1, expected - 1) == {} if expected else True
    answer = solve_level(level_question(n, "1"), method)
    assert (answer.penalty, answer.proven, answer.lower) == (expected, True, expected)
    assert check_answer(level_question(n, "1"), answer.grid) == expected


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("method", ["dlx", "ilp", "sat"])
def test_lowest_level2_penalty_agrees(n, method):
    expected = level_table()[n][1]
    assert min(level_counts(n, 2, expected)) == expected
    answer = solve_level(level_question(n, "1-2"), method)
    assert (answer.penalty, answer.proven) == (expected, True)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["ilp", "sat"])
def test_lowest_level2_penalty_n5(method):
    answer = solve_level(level_question(5, "1-2"), method)
    assert (answer.penalty, answer.proven) == (level_table()[5][1], True)


@pytest.mark.parametrize("levels", ["3", "3-4"])
def test_extensions_of_level2_grids_by_brute_force(levels):
    """n = 3: every extension of each base tried; the least penalty of every exact
    method and the DLX counts at each allowance are brute force's."""
    for base in _bases(3, 4):
        question = level_question(3, levels, base)
        truth = _brute_force(question)
        low = min(truth)
        for method in ("dlx", "ilp", "sat"):
            answer = solve_level(question, method)
            assert (answer.penalty, answer.proven) == (low, True), method
        beam = solve_level(question, "beam", width=50)
        assert beam.penalty is None or beam.penalty >= low
        base_penalty = question.base_penalty()
        for allowance in range(0, low - base_penalty + 3):
            expected = sum(c for p, c in truth.items() if p <= base_penalty + allowance)
            assert dlx_count(question, allowance) == expected


@pytest.mark.parametrize("n, levels", [(4, "3"), (4, "3-4"), (5, "3"), pytest.param(5, "3-4", marks=pytest.mark.slow)])  # (5, "3-4"): 6 s
def test_extensions_agree_between_methods(n, levels):
    for base in _bases(n, 3):
        question = level_question(n, levels, base)
        answers = {m: solve_level(question, m) for m in ("dlx", "ilp", "sat")}
        assert len({(a.penalty, a.proven) for a in answers.values()}) == 1, {m: a.penalty for m, a in answers.items()}
        for answer in answers.values():
            assert check_answer(question, answer.grid) == answer.penalty


def test_plain_exact_cover_counts_the_same_grids():
    """One level, penalty 0: Algorithm X on closed neighbourhoods and the colour model
    count the same grids (level 1 from nothing; level 3 on level-2 grids)."""
    for n in (3, 4, 5):
        question = level_question(n, "1")
        assert exact_cover_count(question) == dlx_count(question, 0) == level_counts(n, 1, 0).get(0, 0)
    for n in (4, 5):
        for base in _bases(n, 3):
            question = level_question(n, "3", base)
            assert exact_cover_count(question) == dlx_count(question, 0)
    with pytest.raises(ValueError):
        exact_cover_count(level_question(3, "1-2"))


def test_dlx_grids_are_distinct_and_valid():
    question = level_question(4, "1-2")
    grids = list(dlx_grids(question, 1))
    assert len(grids) == len({tuple(g) for g in grids}) == sum(level_counts(4, 2, 3).get(p, 0) for p in range(2))
    for grid in grids:
        assert rule_violation(4, grid) is None


def test_dlx_under_a_budget_keeps_its_lower_bound():
    """n = 6 level 1 (least 10): DLX cannot finish in a second, but what it refuted
    stands as a proven lower bound, never above the least penalty."""
    answer = solve_level(level_question(6, "1"), "dlx", Budget(1.0))
    assert not answer.proven and answer.grid is None
    assert 0 <= answer.lower <= 10


def test_a_count_under_a_budget_stops():
    """Refuting allowance 7 of n = 5 levels 1-2 takes minutes in one native call: the
    count runs in a worker and ends with the budget, giving no number."""
    import time

    from puzzlelab.puzzles.hexagon.levels.solvers import count_level

    t0 = time.perf_counter()
    assert count_level(level_question(5, "1-2"), 7, Budget(1.0)) is None
    assert time.perf_counter() - t0 < 10
    assert count_level(level_question(4, "1"), 0, Budget(30)) == 2


def test_check_answer_rejects_bad_grids():
    base = _bases(4, 1)[0]
    question = level_question(4, "3", base)
    good = solve_level(question, "sat").grid
    changed = list(good)
    first = next(c for c, v in enumerate(base) if v <= 2)
    changed[first] = 3 - changed[first]  # 1 <-> 2 on a base cell
    with pytest.raises(AssertionError):
        check_answer(question, changed)
    with pytest.raises(AssertionError, match="invalid"):
        check_answer(question, [4] * len(good))  # nobody holds 3: every 4 lacks it


@pytest.mark.parametrize(
    "n, levels, base, message",
    [
        (4, "0", None, "levels: expected 1 <= first"),
        (4, "5", None, "levels: expected 1 <= first"),
        (4, "3-2", None, "levels: expected 1 <= first"),
        (4, "x", None, "levels: expected a level"),
        (4, "3", None, "base: levels 3 need a level-2 grid"),
        (4, "1-2", [1] * 37, "base: levels from 1 take no base"),
        (4, "3", [1] * 5, "base: expected 37 cells"),
        (4, "3", [3] * 37, "base: not a valid level-2 grid"),
        (0, "1", None, "n: expected an order"),
    ],
)
def test_bad_questions_get_one_line_errors(n, levels, base, message):
    with pytest.raises(InvalidInstance, match=message) as info:
        level_question(n, levels, base)
    assert "\n" not in str(info.value)


def test_unknown_method_is_refused():
    with pytest.raises(InvalidInstance, match="method: expected one of sat, beam, dlx, ilp"):
        solve_level(level_question(3, "1"), "cplex")


# ------------------------------------------------------------------ through the CLI
def _cli(*args):
    import json

    from typer.testing import CliRunner

    from puzzlelab import cli
    from puzzlelab.puzzles.hexagon.model import grid_values, parse_grids

    result = CliRunner().invoke(cli.app, ["hexagon", "level", *args])
    data = json.loads(result.stdout) if result.exit_code == 0 and "--json" in args else None
    if data and data.get("grid"):
        data["values"] = list(grid_values(parse_grids(data["grid"])[0])[1])
    return result, data


@pytest.mark.parametrize("method", ["dlx", "ilp", "sat", "beam"])
def test_level_verb_answers_and_checks(method, tmp_path):
    result, data = _cli("4", "--levels", "1-2", "--method", method, "--json")
    assert result.exit_code == 0, result.output
    question = level_question(4, "1-2")
    assert check_answer(question, data["values"]) == data["penalty"]
    assert data["penalty"] == 2 and data["proven"] == (method != "beam")
    base = tmp_path / "base.txt"
    base.write_text(data["grid"])
    result, upper = _cli("4", "--levels", "3-4", "--base", str(base), "--method", method, "--json")
    assert result.exit_code == 0, result.output
    assert check_answer(level_question(4, "3-4", data["values"]), upper["values"]) == upper["penalty"]


def test_level_verb_counts_and_refuses_bad_input():
    result, data = _cli("4", "--levels", "1", "--count", "0", "--json")
    assert result.exit_code == 0 and data["count"] == level_counts(4, 1, 0)[0] == 2
    for args, message in [
        (("4", "--levels", "3"), "base: levels 3 need a level-2 grid"),
        (("4", "--method", "cplex"), "method: expected one of"),
        (("4", "--levels", "9"), "levels: expected 1 <= first"),
        (("4", "--base", "/nonexistent", "--levels", "3"), "base file /nonexistent"),
    ]:
        result, _ = _cli(*args)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_levels_method_with_each_level_solver():
    """The `levels` method with exact solvers on both halves: a whole grid, verified."""
    from puzzlelab.puzzles.hexagon import PUZZLE
    from puzzlelab.puzzles.hexagon.model import HexInstance

    for low, high in (("dlx", "ilp"), ("ilp", "dlx"), ("sat", "beam")):
        result = PUZZLE.solve(HexInstance(4), method="levels", budget=Budget(30), low=low, high=high)
        assert result.verdict.ok and result.stats["low"] == low and result.stats["level2_penalties"] == [2]
        assert 87 - 1 <= result.value <= 87  # 87 is optimal; an optimal level-2 grid need not complete to it
