"""A batch of each kind that outgrows one machine, run on a real two-node Ray cluster
and on the local worker processes: the same verified answers from both.

Each call ships small descriptors (puzzle, instance, method, options, subtree or
setting) and verifies every answer on the driver before returning it."""

import pytest


def both(call):
    """call(backend, address) on the local backend and on the cluster."""

    def run(address):
        return call("local", None), call("ray", address)

    return run


@pytest.mark.slow  # ~95 s on 2 loaded cores: `make test-all`
def test_matchsticks_batch_of_proofs(ray_cluster):
    from puzzlelab.puzzles.matchsticks.batch import solve_batch

    def call(backend, address):
        rows = solve_batch([5, 6, 16], "full", seconds=120, options={"count_solutions": True}, workers=2,
                           backend=backend, address=address)
        assert all(r["verified"] for r in rows)
        return [(r["value"], r["status"], r["result"].stats["optimal_solutions"]) for r in rows]

    local, remote = both(call)(ray_cluster)
    assert remote == local
    assert [row[:2] for row in local] == [(35, "optimal"), (45, "optimal"), (190, "optimal")]


@pytest.mark.slow  # 15-20 s on a loopback cluster; `make test-all`
def test_matchsticks_full_search_split_into_subtrees(ray_cluster):
    from puzzlelab.core.result import Budget
    from puzzlelab.puzzles.matchsticks import PUZZLE

    def call(backend, address):
        result = PUZZLE.solve(PUZZLE.parse(14), method="full", budget=Budget(300), count_solutions=True, workers=2, subtrees=8,
                              backend=backend, address=address)
        assert result.verified
        return result.value, str(result.status), result.stats.get("optimal_solutions")

    local, remote = both(call)(ray_cluster)
    assert remote == local and local[1] == "optimal"


@pytest.mark.slow  # 10-15 s on a loopback cluster; `make test-all`
def test_hexagon_portfolio_of_settings_and_sizes(ray_cluster):
    from puzzlelab.puzzles.hexagon.sat.batch import run_batch

    def call(backend, address):
        rows = run_batch([3, 4, 5], settings="published", budget=120, backend=backend, address=address)
        assert all(r["verified"] for r in rows)
        return [(r["n"], r["raw"], r["status"]) for r in rows]

    local, remote = both(call)(ray_cluster)
    assert remote == local
    assert all(status == "optimal" for _, _, status in local)


@pytest.mark.slow  # tens of seconds; run with `make test-all`
def test_coins_batch_over_a_font(ray_cluster):
    from puzzlelab.puzzles.coins.batch import verified_batch

    local, remote = both(lambda backend, address: verified_batch(workers=2, backend=backend, address=address))(ray_cluster)
    assert remote == local and local


def test_tiling_table(ray_cluster):
    from puzzlelab.puzzles.tiling.puzzle import a219158_table
    from puzzlelab.puzzles.tiling.rectangles import table_rows

    def call(backend, address):
        rows = table_rows([3, 1, 7, 12], list(range(1, 31)), workers=2, backend=backend, address=address)
        return [(r.m, r.n, r.squares) for r in rows]

    local, remote = both(call)(ray_cluster)
    assert remote == local
    published = a219158_table()
    assert all(published[(min(m, n), max(m, n))] == squares for m, n, squares in local if (min(m, n), max(m, n)) in published)


@pytest.mark.slow  # ~85 s on 2 loaded cores: `make test-all`
def test_macmahon_enumeration_split_into_subtrees(ray_cluster):
    from puzzlelab.puzzles.macmahon.count_results import count_verified

    local, remote = both(
        lambda backend, address: count_verified("2x3/free", workers=2, split_depth=3, backend=backend, address=address)
    )(ray_cluster)
    assert remote == local
    assert local["complete"] and local["verified"]
