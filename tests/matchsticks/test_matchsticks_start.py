"""Where the exhaustive search starts (`full`'s `start` option): by default below the
published best value with the best shipped answer in hand. The published value only
guides the search: if it were wrong (too low), the search must still find the optimum
and count its solutions, from the shipped answer or, with none shipping, from the bound
methods'. Oracle: the published optima and the reference counts."""

import pytest

import puzzlelab.puzzles.matchsticks.records as records
import puzzlelab.puzzles.matchsticks.reference as reference
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance

OPTIMA = {16: (190, 4), 17: (208, 9)}  # (optimum, optimal solutions), as test_matchsticks_counts.REFERENCE


def _with_published(monkeypatch, n, value):
    table = {k: dict(v) for k, v in reference.published_table().items()}
    table[n]["best_known"] = value
    monkeypatch.setattr(reference, "published_table", lambda: table)


@pytest.mark.parametrize("count", [True, False])
def test_a_published_value_below_the_optimum_still_gives_the_optimum(monkeypatch, count):
    _with_published(monkeypatch, 16, 188)
    result = PUZZLE.solve(Instance(16), "full", budget=600, count_solutions=count)
    assert result.verified and result.status.value == "optimal" and result.value == 190
    assert result.stats["start"] == {"published": 188, "shipped": 190, "below_published": False}
    if count:
        assert result.stats["optimal_solutions"] == 4


def test_with_no_answer_shipped_the_bound_methods_take_over(monkeypatch):
    _with_published(monkeypatch, 17, 205)
    monkeypatch.setattr(records, "best_shipped", lambda n, column=None, records=True: None)
    result = PUZZLE.solve(Instance(17), "full", budget=600, count_solutions=True)
    assert result.verified and (result.value, result.stats["optimal_solutions"]) == OPTIMA[17]
    assert result.stats["start"]["below_published"] is False and "bounds" in result.stats


def test_a_published_value_above_the_optimum_is_only_a_bound(monkeypatch):
    # The shipped answer (190) lies below it: the search starts from that answer.
    _with_published(monkeypatch, 16, 195)
    result = PUZZLE.solve(Instance(16), "full", budget=600, count_solutions=True)
    assert (result.value, result.stats["optimal_solutions"]) == OPTIMA[16]
    assert result.stats["start"] == {"published": 195, "shipped": 190}


def test_the_start_is_checked():
    with pytest.raises(InvalidInstance, match="start"):
        PUZZLE.solve(Instance(16), "full", budget=60, start="guess")


def test_out_of_time_below_the_published_value_gives_the_shipped_answer():
    # n = 33: the shipped answer (555) is above the published optimum (553); stopped at
    # once, the search returns the answer in hand, verified, not a missing one.
    result = PUZZLE.solve(Instance(33), "full", budget=0.5, workers=1)
    assert result.verified and result.value is not None and result.value <= 555
    assert result.status.value != "optimal"


def test_a_checkpoint_of_the_search_from_the_bound_methods_resumes_from_the_published_start(tmp_path):
    # The checkpoint names the search, not where it started: one begun from the bound
    # methods' answer (as before) finishes below the published value with the same count.
    from puzzlelab.core.result import Budget

    path = tmp_path / "n24.json"
    budget = Budget()

    def stop_after_four(event):
        if event.done >= 4:
            budget.cancel()

    options = {"count_solutions": True, "subtrees": 40, "checkpoint": str(path)}
    first = PUZZLE.method("full").function(Instance(24), budget=budget, progress=stop_after_four, seed=0, start="bounds", **options)
    assert first.status.value != "optimal" and first.stats["subtrees_done"] >= 4
    second = PUZZLE.solve(Instance(24), "full", budget=600, **options)
    assert second.verified and second.status.value == "optimal"
    assert (second.value, second.stats["optimal_solutions"]) == (340, 6)  # proofs/matchsticks-proofs.json
    assert second.stats["resumed_subtrees"] >= 4 and second.stats["start"]["published"] == 340
