"""The searches against their oracles: the published A294249 table (optimum and the
three restricted columns), the published counts of optimal solutions, a brute force
over every placement, and the plain-Python twin of the kernel."""

import json
import threading
import time

import pytest
from matchsticks_oracles import brute_force_minimum, published_rows

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget, Status
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.plain import plain_search
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search, solve_subtree
from puzzlelab.puzzles.matchsticks.tables import root_prefixes

ROWS = published_rows()


def test_full_proves_every_published_optimum_up_to_16():
    for n in range(0, 17):
        result = PUZZLE.solve(Instance(n), "full", budget=300)
        assert result.verified
        assert result.status == Status.OPTIMAL, n
        assert result.value == result.bound == ROWS[n]["best_known"], n


def test_counts_of_optimal_solutions():
    # Published: 1, 1, 1, 1, 3, 14 for n = 1..6; 4 for n = 16 (under its drawing).
    counts = [PUZZLE.solve(Instance(n), "full", budget=300, count_solutions=True).stats["optimal_solutions"] for n in range(1, 7)]
    assert counts == [1, 1, 1, 1, 3, 14]
    assert PUZZLE.solve(Instance(16), "full", budget=300, count_solutions=True).stats["optimal_solutions"] == 4


@pytest.mark.slow
def test_count_of_optimal_solutions_for_21():
    result = PUZZLE.solve(Instance(21), "full", budget=3600, count_solutions=True)
    assert result.value == 282 and result.stats["optimal_solutions"] == 2


@pytest.mark.parametrize("n", range(1, 6))
def test_full_equals_brute_force_over_every_placement(n):
    assert PUZZLE.solve(Instance(n), "full", budget=300).value == brute_force_minimum(n)


@pytest.mark.parametrize("n", range(2, 5))
def test_roaming_squares_equal_brute_force_with_roam(n):
    result = PUZZLE.solve(Instance(n), "full", budget=300, roam=1)
    assert result.status == Status.OPTIMAL and result.verified
    assert result.value == brute_force_minimum(n, roam=1)
    assert result.solution["roam"] == 1


@pytest.mark.parametrize(
    "method, options, column",
    [
        ("diagonal", {"free_below": 1}, "diagonal1_best"),
        ("diagonal", {"free_below": 20}, "diagonal20_best"),
        ("greedy", {}, "greedy_best"),
    ],
)
def test_restricted_searches_reproduce_the_published_columns_up_to_20(method, options, column):
    for n in range(0, 21):
        result = PUZZLE.solve(Instance(n), method, budget=300, **options)
        assert result.verified and result.stats.get("complete", True), n
        assert result.value == ROWS[n][column], (n, result.value, ROWS[n][column])


def test_diagonal20_counts_size_20_as_diagonal():
    # The published diagonal20 column needs size 20 itself on the diagonal: n = 24.
    assert PUZZLE.solve(Instance(24), "diagonal", budget=300, free_below=20).value == ROWS[24]["diagonal20_best"] == 348


@pytest.mark.slow
def test_diagonal_with_size_20_free_differs_at_24():
    assert PUZZLE.solve(Instance(24), "diagonal", budget=3600, free_below=21).value == 340


MODES = [
    {"count": True},
    {},
    {"greedy": True, "count": True},
    {"free_below": 4, "count": True},
    {"max_added": True, "count": True},
    {"greedy": True, "greedy_slack": 2, "count": True},
]


@pytest.mark.parametrize("mode", MODES)
def test_kernel_and_plain_python_visit_the_same_nodes(mode):
    for n in range(1, 12):
        prefix = root_prefixes(n, 0, mode.get("free_below"))[0]
        descriptor = make_descriptor(n, prefix=prefix, **mode)
        fast, slow = solve_subtree(descriptor), plain_search(descriptor)
        for key in ("found", "best", "count", "nodes", "solution"):
            assert fast[key] == slow[key], (n, key)


@pytest.mark.parametrize("mode", MODES[:4])
def test_lookahead_pruning_changes_no_answer_and_no_count(mode):
    for n in range(3, 15):
        prefix = root_prefixes(n, 0, mode.get("free_below"))[0]
        with_it = solve_subtree(make_descriptor(n, prefix=prefix, **mode))
        without = solve_subtree(dict(make_descriptor(n, prefix=prefix, **mode), lookahead=False))
        assert (with_it["best"], with_it["count"]) == (without["best"], without["count"]), n
        assert with_it["nodes"] <= without["nodes"]


def test_subtrees_combine_to_the_whole_search():
    for n in (12, 15):
        whole = run_search(make_descriptor(n, count=True))
        split = run_search(make_descriptor(n, count=True), target_subtrees=40)
        assert split.subtrees >= 40 and split.complete
        assert (split.best, split.count) == (whole.best, whole.count)
        known = (ROWS[n]["best_known"] + 2, None)
        bounded = run_search(make_descriptor(n, count=True), known=known, target_subtrees=40)
        assert (bounded.best, bounded.count) == (whole.best, whole.count)


def test_worker_processes_share_the_subtrees():
    result = PUZZLE.solve(Instance(17), "full", budget=300, workers=2, count_solutions=True)
    assert result.status == Status.OPTIMAL and result.value == 208
    serial = PUZZLE.solve(Instance(17), "full", budget=300, count_solutions=True)
    assert result.stats["optimal_solutions"] == serial.stats["optimal_solutions"]
    assert result.stats["subtrees"] >= 32


def test_checkpoint_resumes_after_an_interruption(tmp_path):
    path = tmp_path / "n18.json"
    budget = Budget()
    seen = []

    def stop_after_three(event):
        seen.append(event.done)
        if event.done >= 3:
            budget.cancel()

    first = PUZZLE.method("full").function(
        Instance(18), budget=budget, progress=stop_after_three, seed=0, count_solutions=True, subtrees=30, checkpoint=str(path), bound=226
    )
    assert first.status != Status.OPTIMAL and first.stats["subtrees_done"] == 3
    second = PUZZLE.solve(Instance(18), "full", budget=300, count_solutions=True, subtrees=30, checkpoint=str(path), bound=226)
    assert second.status == Status.OPTIMAL and second.value == 226
    assert second.stats["resumed_subtrees"] == 3
    fresh = PUZZLE.solve(Instance(18), "full", budget=300, count_solutions=True, bound=226)
    assert second.stats["optimal_solutions"] == fresh.stats["optimal_solutions"]
    with pytest.raises(InvalidInstance, match="another search"):
        PUZZLE.solve(Instance(18), "full", budget=300, checkpoint=str(path), bound=226)


def test_greedy_checkpoint_resumes_to_the_published_greedy_value(tmp_path):
    # The columns campaign runs greedy for hours at n >= 45, so greedy resumes too;
    # n = 30 is the first n whose greedy search cuts into many subtrees quickly.
    path = tmp_path / "greedy30.json"
    budget = Budget()

    def stop_after_five(event):
        if event.done >= 5:
            budget.cancel()

    first = PUZZLE.method("greedy").function(Instance(30), budget=budget, progress=stop_after_five, seed=0, subtrees=40, checkpoint=str(path))
    assert first.stats["subtrees_done"] == 5 and not first.stats["complete"]
    second = PUZZLE.solve(Instance(30), "greedy", budget=300, subtrees=40, checkpoint=str(path))
    assert second.verified and second.stats["complete"] and second.stats["resumed_subtrees"] == 5
    assert second.value == ROWS[30]["greedy_best"]
    with pytest.raises(InvalidInstance, match="another search"):
        PUZZLE.solve(Instance(30), "greedy", budget=300, slack=1, checkpoint=str(path))


def test_a_resumed_search_cuts_its_last_subtrees_finer_and_counts_the_same(tmp_path):
    # Stopped with fewer subtrees left than the plan's target, the search resumes with
    # them cut finer: same optimum, same count of optimal solutions as one whole run,
    # the finished subtrees kept, and the cut recorded in the checkpoint.
    import json

    path = tmp_path / "n15.json"
    base = make_descriptor(15, count=True)
    budget = Budget()

    def stop_late(event):
        if event.done >= event.total - 3:
            budget.cancel()

    first = run_search(base, budget=budget, progress=stop_late, target_subtrees=12, checkpoint=path)
    assert not first.complete and first.subtrees - first.subtrees_done == 3
    before = json.loads(path.read_text())
    second = run_search(base, target_subtrees=12, checkpoint=path)
    after = json.loads(path.read_text())
    whole = run_search(base)
    assert second.complete and (second.best, second.count) == (whole.best, whole.count)
    assert second.resumed == first.subtrees_done and second.subtrees >= first.subtrees_done + 12
    assert after["recuts"] == 1 and "recuts" not in before
    kept = [before["prefixes"][int(i)] for i in sorted(before["done"], key=int)]
    assert after["prefixes"][: len(kept)] == kept
    left = [p for i, p in enumerate(before["prefixes"]) if str(i) not in before["done"]]
    finer = after["prefixes"][len(kept) :]
    assert all(any(q[: len(p)] == p for p in left) and len(q) > len(left[0]) for q in finer)


def test_out_of_time_gives_the_best_so_far_not_a_traceback():
    result = PUZZLE.solve(Instance(34), "full", budget=1.0)
    assert result.verified and result.status == Status.FEASIBLE
    assert result.value >= ROWS[34]["best_known"]


def test_cancel_from_another_thread_stops_the_kernel():
    budget = Budget()
    timer = threading.Timer(1.0, budget.cancel)
    timer.start()
    started = time.monotonic()
    result = PUZZLE.solve(Instance(36), "full", budget=budget, bound=ROWS[36]["best_known"])
    timer.cancel()
    assert time.monotonic() - started < 60
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN)


def test_max_added_keeps_the_optimum_for_small_n():
    for n in range(1, 13):
        result = PUZZLE.solve(Instance(n), "full", budget=300, max_added=True)
        assert result.value == ROWS[n]["best_known"] and result.status == Status.FEASIBLE


def test_roam_must_fit_the_word():
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.solve(Instance(40), "full", budget=5, roam=12)
    assert info.value.field == "roam"
    assert [len(root_prefixes(9, m)) for m in range(4)] == [1, 3, 6, 10]


def test_ray_backend_missing_is_a_clear_error():
    try:
        import puzzlelab.core.parallel.ray_backend  # noqa: F401
    except ImportError:
        with pytest.raises(InvalidInstance) as info:
            PUZZLE.solve(Instance(20), "full", budget=60, backend="ray", bound=264)
        assert info.value.field == "backend" and "ray" in str(info.value)
    else:
        pytest.skip("a ray backend is installed here")


def test_batch_through_core_parallel_map_is_verified_on_the_driver():
    from puzzlelab.puzzles.matchsticks.batch import solve_batch

    rows = solve_batch([6, 5, 12], "full", seconds=120, options={"count_solutions": True}, workers=2)
    assert [r["n"] for r in rows] == [6, 5, 12]
    assert [r["value"] for r in rows] == [45, 35, 125]
    assert all(r["verified"] and r["status"] == "optimal" for r in rows)
    assert [r["result"].stats["optimal_solutions"] for r in rows[:2]] == [14, 3]
    with pytest.raises(InvalidInstance):
        solve_batch([64], "full")


def test_a_proof_read_back_from_its_checkpoint_says_so(tmp_path):
    """The CLI's result line names the subtrees a rerun took from the checkpoint."""
    from typer.testing import CliRunner

    from puzzlelab import cli

    path = tmp_path / "n22.json"  # (n = 20 is proven by its bound search alone: no subtree, no file)
    args = ["matchsticks", "solve", "22", "--method", "full", "--checkpoint", str(path), "--no-store"]
    first = CliRunner().invoke(cli.app, args)
    again = CliRunner().invoke(cli.app, args)
    assert first.exit_code == again.exit_code == 0, again.output
    assert "read back" not in first.stdout and "[optimal]" in again.stdout
    subtrees = len(json.loads(path.read_text())["prefixes"])
    assert f"({subtrees} of {subtrees} subtrees read back from the checkpoint, not searched now)" in again.stdout
