"""The penalty-edge SAT: proofs of optimality at the published scores, restricted runs,
the encoding against brute force on tiny orders."""

import itertools

import pytest

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Status
from puzzlelab.puzzles.hexagon import PUZZLE
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.reference import level_table, published_arguments, published_table
from puzzlelab.puzzles.hexagon.sat.search import sat_search
from puzzlelab.puzzles.hexagon.scoring import penalty_edges, raw_score
from puzzlelab.puzzles.hexagon.verify import rule_violation


def _brute_force_best_raw(n):
    """Best raw score by trying every grid (values up to degree + 1): n <= 2 only."""
    g = hexagon(n)
    ranges = [range(1, int(g.degree[c]) + 2) for c in range(g.cells)]
    best = None
    for values in itertools.product(*ranges):
        if rule_violation(n, values) is None:
            raw = raw_score(values)
            best = raw if best is None else max(best, raw)
    return best


@pytest.mark.parametrize("n", [1, 2])
def test_tiny_orders_match_brute_force(n):
    result = PUZZLE.solve(HexInstance(n), "sat", budget=120)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.value == _brute_force_best_raw(n)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_small_orders_proven_optimal_at_the_published_score(n):
    result = PUZZLE.solve(HexInstance(n), "sat", budget=300)
    published = int(published_table()[n]["best_raw_score"])
    assert result.status is Status.OPTIMAL and result.verified
    assert result.value == published == result.bound
    assert result.stats["penalty"] + result.value == edge_count(n)
    assert result.stats["cell_sum"] == int(published_table()[n]["best_cell_sum"])


@pytest.mark.slow  # 9-18 s on 2 loaded cores; n = 3..5 proven: test_small_orders_proven_optimal_at_the_published_score
def test_order_6_proven_optimal_through_level_3():
    """n = 6: no level-3 grid has fewer than 13 penalties, and a grid with 13 exists."""
    result = PUZZLE.solve(HexInstance(6), "sat", budget=600, levels=3)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.value == 227 == int(published_table()[6]["best_raw_score"])
    assert result.stats["level_penalty"] == level_table()[6][2]


def test_restricted_runs_say_what_they_proved():
    # Published arguments for n=7: -r 4 -I 1 reaches the best score, but proves nothing
    # about grids outside the restriction.
    options = published_arguments(7)
    assert options == {"ring": 4, "inner": 1}
    result = PUZZLE.solve(HexInstance(7), "sat", budget=600, **options)
    assert result.verified and result.value == 325
    assert result.status is Status.FEASIBLE
    assert "--ring 4 --inner 1" in result.stats["proven"]
    # every penalty edge lies at distance < 4 except at most one
    g = hexagon(7)
    grid = list(PUZZLE.parse(result.solution).start)
    far = [e for e in penalty_edges(g, grid) if g.edge_distance[e] >= 4]
    assert len(far) <= 1


def test_ring_without_inner_keeps_every_penalty_on_the_rim():
    summary = sat_search(5, {"ring": 4})
    g = hexagon(5)
    assert summary["grid"] is not None
    assert all(g.edge_distance[e] < 4 for e in penalty_edges(g, summary["grid"]))
    # the write-up: -r 4 alone already reaches the best score for n = 5
    assert summary["penalty"] == 9
    # penalties only between perimeter cells cannot work at n = 5: proven infeasible
    assert sat_search(5, {"ring": 3})["proven"] == "infeasible"
    assert summary["proven"] == "restricted" and summary["restricted"]


def test_allow_at_allows_one_penalty_per_listed_distance():
    summary = sat_search(6, {"ring": 4, "allow_at": (4, 5), "break": 2})
    g = hexagon(6)
    far = [int(g.edge_distance[e]) for e in penalty_edges(g, summary["grid"]) if g.edge_distance[e] >= 4]
    assert sorted(set(far)) == sorted(far) and set(far) <= {4, 5}
    # more freedom than --ring 4 alone can only help
    assert summary["penalty"] <= sat_search(6, {"ring": 4, "break": 2})["penalty"]


def test_target_stops_early_and_bad_options_are_refused():
    from puzzlelab.core.puzzle import InvalidInstance

    result = PUZZLE.solve(HexInstance(5), "sat", budget=120, target=140)
    assert result.verified and result.value >= 140
    with pytest.raises(InvalidInstance, match="--ring"):
        PUZZLE.solve(HexInstance(5), "sat", inner=2)
    with pytest.raises(InvalidInstance, match="allow-at"):
        PUZZLE.solve(HexInstance(5), "sat", ring=4, allow_at=(40,))
    with pytest.raises(InvalidInstance, match="break"):
        PUZZLE.solve(HexInstance(5), "sat", **{"break": 3})


def test_unrestricted_sat_above_order_6_starts_from_the_published_arguments():
    """n = 7: the published arguments' run reaches 325 in seconds and the unrestricted
    search goes on from its grid (unrestricted from scratch: 305 after 180 s here);
    --no-published-start leaves it out."""
    result = PUZZLE.solve(HexInstance(7), "sat", budget=120, target=325)
    assert result.verified and result.value == 325
    assert result.stats["started_from"].startswith("published arguments --ring 4 --inner 1: raw 325")
    plain = PUZZLE.solve(HexInstance(7), "sat", budget=3, target=325, published_start=False)
    assert "started_from" not in plain.stats


def test_budget_ends_with_the_best_so_far():
    result = PUZZLE.solve(HexInstance(9), "sat", budget=3)
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN)
    if result.solution is not None:
        assert result.verified and result.value <= 576


def test_a_long_proof_call_reports_progress_and_a_stopped_call_proves_nothing(monkeypatch):
    """The proof of n = 5 through level 3 with the one-clause symmetry breaking is one
    UNSAT call of thousands of conflicts. In rounds of 200 conflicts it reports what it is asking
    after every round; stopped by the budget mid-call it must not count as UNSAT."""
    from puzzlelab.core.result import Budget
    from puzzlelab.puzzles.hexagon.sat import search as sat

    found = sat_search(5, {"levels": 3})
    assert found["proven"] == "optimal"
    full = found["grid"]
    # the whole proof, in small rounds: the same answer, and a report per round
    monkeypatch.setattr(sat, "ROUND_CONFLICTS", 200)
    reports = []
    whole = sat_search(5, {"levels": 3, "symmetry": "centre"}, start=full, report=reports.append)
    asking = [r["asking"] for r in reports if r["asking"]]
    assert whole["proven"] == "optimal" and whole["lower"] == found["lower"] and len(whole["steps"]) == 1
    assert len(asking) >= 2 and asking[-1]["conflicts"] > asking[0]["conflicts"] > 0
    assert asking[-1]["bound"] == whole["steps"][0]["bound"] == found["lower"] - 1
    assert "conflicts" in sat.progress_message(reports[-2]) and "penalty" in sat.progress_message(reports[-2])
    # the same call stopped by the budget: no answer, no lower bound, not proven
    stopped = sat_search(5, {"levels": 3, "symmetry": "centre"}, start=full, budget=Budget(0.05))
    assert stopped["steps"][-1]["sat"] is None
    assert stopped["lower"] is None and stopped["proven"] is None and stopped["grid"] == full
    result = sat.result_from_search(5, stopped, {"levels": 3}, "sat", 0.1)
    assert result.status is Status.FEASIBLE


def test_target_is_asked_for_at_once_and_an_unsat_target_is_a_lower_bound():
    # reachable target: one bounded call at the target penalty after the first grid
    summary = sat_search(7, {"ring": 4, "inner": 1, "target": 325})
    kinds = [step["kind"] for step in summary["steps"]]
    assert kinds[:2] == ["first", "target"] and summary["steps"][1]["bound"] == 342 - 325
    assert summary["raw"] >= 325 and summary["restricted"]
    # a target above the optimum: UNSAT at its penalty proves the bound, the descent
    # then finds the optimum and the run ends proven optimal
    summary = sat_search(4, {"target": 88})
    target_step = summary["steps"][1]
    assert target_step["kind"] == "target" and target_step["sat"] is False and target_step["bound"] == 2
    assert summary["penalty"] == summary["lower"] == 3 and summary["proven"] == "optimal"


def test_a_target_call_past_its_conflict_cap_gives_way_to_the_descent(monkeypatch):
    """A --target above the optimum (n = 5: raw 148, penalty 8) is an UNSAT call of
    thousands of conflicts; capped at 400 conflicts it stops unanswered, proves nothing,
    and the descent still ends at the optimum (147), proven."""
    from puzzlelab.puzzles.hexagon.sat import search as sat

    monkeypatch.setattr(sat, "ROUND_CONFLICTS", 200)
    monkeypatch.setattr(sat, "TARGET_CONFLICTS", 400)
    summary = sat_search(5, {"target": 148})
    target_step = summary["steps"][1]
    assert target_step["kind"] == "target" and target_step["bound"] == 156 - 148 and target_step["sat"] is None
    assert [step["kind"] for step in summary["steps"][2:]] == ["descend"] * (len(summary["steps"]) - 2)
    assert summary["raw"] == 147 and summary["proven"] == "optimal" and summary["lower"] == 9


@pytest.mark.parametrize("n", [4, 5])
def test_a_given_grid_is_the_first_bound_and_is_improved_to_a_proof(n):
    """An all-ones grid (raw 0, valid) starts the search instead of the first SAT
    answer; the run still ends at the published optimum, proven. An optimal grid given
    back is proven optimal through level 3 with a single UNSAT call."""
    ones = PUZZLE.parse(format_grid(n, [1] * hexagon(n).cells))
    result = PUZZLE.solve(ones, "sat", budget=300)
    published = int(published_table()[n]["best_raw_score"])
    assert result.status is Status.OPTIMAL and result.verified and result.value == published
    again = PUZZLE.solve(PUZZLE.parse(result.solution), "sat", budget=300, levels=3)
    assert again.status is Status.OPTIMAL and again.verified and again.value == published
    level3 = level_table()[n][2]
    if level3 == result.stats["penalty"]:
        assert again.stats["steps"] == 1 and again.stats["sat_calls"][0]["sat"] is False


def test_a_given_grid_is_refused_by_restricted_sat_runs_and_when_it_breaks_the_rule():
    grid = PUZZLE.parse(format_grid(4, [1] * hexagon(4).cells))
    with pytest.raises(InvalidInstance, match="unrestricted"):
        PUZZLE.solve(grid, "sat", budget=60, ring=3)
    twos = PUZZLE.parse(format_grid(2, [2] * hexagon(2).cells))  # no 1 anywhere
    with pytest.raises(InvalidInstance, match="row 1, cell 1 holds 2 but no neighbour holds 1"):
        PUZZLE.solve(twos, "sat", budget=60)
