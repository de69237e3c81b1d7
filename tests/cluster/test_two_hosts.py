"""Every batch command that offers `--backend ray`, end to end on a cluster of two
hosts that share no files (two_hosts.py: two namespaced Ray nodes, each with its own
working folder and TMPDIR). The CLI runs as the driver in the head's namespace; its
answers are checked here, on the caller's side, against published values or the
checkers' own recounts, and every stored record is checked again by its puzzle's
checker. Files the commands write (checkpoints, tables, lists) must be in the
driver's folder: a task that wrote them on its node, or read one the driver wrote,
fails here.

3 to 4 minutes on 2 loaded cores (the cluster takes 30-40 s to start): `make test-all`.
"""

import json
import sys
import time
from pathlib import Path

import pytest

from puzzlelab.core.records_check import checked_best
from puzzlelab.core.store import Store

pytestmark = pytest.mark.slow


def _json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def _ok(done):
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _stored(two_hosts, puzzle):
    """The driver's records of `puzzle`, each passing its checker again here."""
    checked = checked_best(Store(two_hosts.driver / "records.sqlite"), {puzzle.name: puzzle}, puzzle.name)
    assert not checked.rejected, [r.line() for r in checked.rejected]
    return {r.instance: r.value for r in checked.records}


def test_tasks_on_the_two_hosts_share_no_files(two_hosts):
    """The harness itself: tasks run on both nodes, each in a folder of its own; none
    sees the driver's files, and the driver sees none of theirs. So a task that leans
    on a shared filesystem cannot pass the tests below."""
    marker = two_hosts.driver / "driver-only.txt"
    marker.write_text("the driver's")
    code = (
        "import json, ray_tasks\n"
        "from puzzlelab.core import parallel\n"
        f"items = [({str(marker)!r}, f't{{i}}') for i in range(6)]\n"
        "outcomes = parallel.map(ray_tasks.files_here, items, workers=2, backend='ray')\n"
        "assert all(o.ok for o in outcomes), [o.error for o in outcomes]\n"
        "print(json.dumps([o.value for o in outcomes]))\n"
    )
    seen = json.loads(_ok(two_hosts.python(code)).stdout.strip().splitlines()[-1])
    assert len({s["node"] for s in seen}) == 2  # both hosts ran tasks
    assert {s["cwd"] for s in seen} == {str(two_hosts.head.work), str(two_hosts.peer.work)}
    assert all(s["tmpdir"] != str(two_hosts.driver / "tmp") for s in seen)
    assert not any(s["sees_driver_file"] for s in seen)
    assert not any(Path(s["written"]).exists() for s in seen)  # written on the nodes only
    assert all(str(two_hosts.driver) not in s["written"] for s in seen)


def test_matchsticks_solve_splits_its_search_over_the_hosts(two_hosts):
    from puzzlelab.core.result import Result
    from puzzlelab.puzzles.matchsticks import PUZZLE
    from puzzlelab.puzzles.matchsticks.reference import published_table

    args = ["matchsticks", "solve", "24", "--method", "full", "--workers", "2", "--count-solutions", "--checkpoint", "n24.json",
            "--backend", "ray", "--budget", "300", "--json"]
    data = _json_lines(_ok(two_hosts.cli(*args)).stdout)[-1]
    assert data["verified"] and data["status"] == "optimal"
    assert data["value"] == published_table()[24]["best_known"] == 340
    # docs/matchsticks.md, "Proofs with counts": 6 optimal solutions, 2 x [7, 20] and 4 x [5, 20]
    assert data["stats"]["optimal_solutions"] == 6
    classes = sorted((c["solutions"], c["on_diagonal"], c["first_off_diagonal"]) for c in data["stats"]["solution_classes"])
    assert classes == [(2, 7, 20), (4, 5, 20)]
    assert PUZZLE.check(PUZZLE.parse("24"), Result.from_dict(data)).verified  # checked again here
    checkpoint = json.loads((two_hosts.driver / "n24.json").read_text())  # kept by the driver, not a node
    assert len(checkpoint["done"]) == len(checkpoint["prefixes"]) == data["stats"]["subtrees"]
    assert _stored(two_hosts, PUZZLE)["24"] == 340


def test_matchsticks_table_one_proof_per_n(two_hosts):
    from puzzlelab.puzzles.matchsticks import PUZZLE
    from puzzlelab.puzzles.matchsticks.reference import published_table

    rows = _json_lines(_ok(two_hosts.cli("matchsticks", "table", "--n", "5,6,9,12", "--method", "full", "--jobs", "2",
                                         "--backend", "ray", "--json")).stdout)
    published = published_table()
    assert [(r["n"], r["value"], r["status"], r["verified"]) for r in rows] == [
        (n, published[n]["best_known"], "optimal", True) for n in (5, 6, 9, 12)
    ]
    assert {k: v for k, v in _stored(two_hosts, PUZZLE).items() if k in ("5", "6", "9", "12")} == {
        str(n): published[n]["best_known"] for n in (5, 6, 9, 12)
    }


def test_tiling_table_strips_on_both_hosts(two_hosts):
    from puzzlelab.puzzles.tiling.reference import a219158_table

    published = a219158_table()
    expected = [f"{m} {n} {published[(min(m, n), max(m, n))]}" for m in range(1, 5) for n in range(1, 13)]
    printed = _ok(two_hosts.cli("tiling", "table", "--m", "1..4", "--n", "1..12", "--workers", "2", "--backend", "ray")).stdout
    assert [" ".join(line.split()) for line in printed.splitlines() if line[:1].isdigit()] == expected  # OEIS A219158
    _ok(two_hosts.cli("tiling", "table", "--m", "1..4", "--n", "1..12", "--workers", "2", "--backend", "ray", "--out", "a219158.txt"))
    written = [" ".join(line.split()) for line in (two_hosts.driver / "a219158.txt").read_text().splitlines() if line[:1].isdigit()]
    assert written == expected  # appended by the driver, row by row


def test_hexagon_batch_of_orders(two_hosts):
    from puzzlelab.puzzles.hexagon import PUZZLE
    from puzzlelab.puzzles.hexagon.reference import published_raw

    rows = _json_lines(_ok(two_hosts.cli("hexagon", "batch", "--orders", "3..5", "--settings", "published", "--workers", "2",
                                         "--budget", "120", "--backend", "ray", "--json")).stdout)
    assert [(r["n"], r["raw"], r["status"], r["verified"]) for r in rows] == [(n, published_raw(n), "optimal", True) for n in (3, 4, 5)]
    stored = _stored(two_hosts, PUZZLE)
    assert {n: stored[str(n)] for n in (3, 4, 5)} == {n: published_raw(n) for n in (3, 4, 5)}


def test_hexagon_prove_refutes_cubes_on_both_hosts(two_hosts):
    from puzzlelab.puzzles.hexagon import PUZZLE
    from puzzlelab.puzzles.hexagon.reference import published_raw

    data = json.loads(_ok(two_hosts.cli("hexagon", "prove", "5", "--method", "cubes", "--workers", "2", "--budget", "240",
                                        "--grid-budget", "60", "--backend", "ray", "--json")).stdout.strip().splitlines()[-1])
    assert data["proven"] and data["optimal"] and data["settled"] and data["claim_raw"] == published_raw(5)
    assert data["refuted"] == data["refuted_here"] == data["cubes"] > 0
    checkpoint = json.loads((two_hosts.driver / data["checkpoint"]).read_text())
    assert len(checkpoint["refuted"]) == data["cubes"]
    assert _stored(two_hosts, PUZZLE)["5"] == published_raw(5)


def test_hexagon_certified_proof_counts_the_certificates_checked_on_the_nodes(two_hosts):
    """A Ray task's certificates come back in its answer (no interim reports on Ray):
    they are this run's, checked by the task's own checker on its node."""
    data = json.loads(_ok(two_hosts.cli("hexagon", "prove", "4", "--method", "cubes", "--certified", "--depth", "7", "--workers", "2",
                                        "--budget", "240", "--grid-budget", "60", "--backend", "ray", "--json")).stdout.strip().splitlines()[-1])
    assert data["proven"] and data["certified"] and data["certificate_failure"] is None
    assert data["certified_here"] == data["refuted"] == data["cubes"] > 0 and data["proof_bytes"] > 0


def test_coins_batch_of_a_font(two_hosts):
    from puzzlelab.puzzles.coins import PUZZLE, model
    from puzzlelab.puzzles.coins.optimal_table import load_table

    args = ["coins", "batch", "--font", "font5x7", "--starts", "O", "--targets", "C,J,U", "--method", "bidir", "--workers", "2",
            "--backend", "ray", "--json"]
    report = _json_lines(_ok(two_hosts.cli(*args)).stdout)[-1]
    table = load_table("font5x7")
    expected = {f"font5x7:O-{t}": table.lookup(model.parse_instance(f"font5x7:O-{t}")).moves for t in "CJU"}
    assert report["results"] == expected and report["failed_groups"] == report["unsolved"] == 0
    assert {k: v for k, v in _stored(two_hosts, PUZZLE).items() if k in expected} == expected


def test_macmahon_count_in_subtrees(two_hosts):
    from puzzlelab.puzzles.macmahon import PUZZLE
    from puzzlelab.puzzles.macmahon.verify.recount import recount

    args = ["macmahon", "count", "2x3/free", "--workers", "2", "--split-depth", "1", "--checkpoint", "count.json",
            "--list", "classes.jsonl", "--backend", "ray", "--json"]
    data = _json_lines(_ok(two_hosts.cli(*args)).stdout)[-1]
    total = recount(PUZZLE.parse("2x3/free")).value  # the checker's own plain recount
    assert data["complete"] and data["total"] == total == 416
    listed = (two_hosts.driver / "classes.jsonl").read_text().splitlines()
    assert len(listed) == data["classes"]["full"] == 52  # one representative per class, written by the driver
    assert len(json.loads((two_hosts.driver / "count.json").read_text())["done"]) > 1
    assert _stored(two_hosts, PUZZLE)["2x3/free"] == total


def test_macmahon_solve_enumerates_on_the_hosts(two_hosts):
    from puzzlelab.puzzles.macmahon import PUZZLE
    from puzzlelab.puzzles.macmahon.verify.recount import recount

    data = _json_lines(_ok(two_hosts.cli("macmahon", "solve", "2x3/free", "--workers", "2", "--split-depth", "1", "--backend", "ray",
                                         "--no-store", "--json")).stdout)[-1]
    assert data["verified"] and data["value"] == recount(PUZZLE.parse("2x3/free")).value


BATCHES = [
    ["matchsticks", "solve", "24", "--method", "full", "--workers", "2", "--backend", "ray"],
    ["matchsticks", "table", "--n", "5", "--method", "full", "--backend", "ray"],
    ["tiling", "table", "--m", "1..2", "--n", "1..5", "--backend", "ray"],
    ["hexagon", "batch", "--orders", "3", "--backend", "ray"],
    ["hexagon", "prove", "4", "--method", "cubes", "--backend", "ray"],
    ["coins", "batch", "--font", "font5x7", "--starts", "O", "--targets", "C", "--method", "bidir", "--backend", "ray"],
    ["macmahon", "count", "2x3/free", "--workers", "2", "--backend", "ray"],
    ["macmahon", "solve", "2x3/free", "--workers", "2", "--backend", "ray"],
]


@pytest.mark.parametrize("args", BATCHES, ids=[" ".join(a[:2]) for a in BATCHES])
def test_no_cluster_at_the_address_is_one_line_at_once(two_hosts, args):
    """Nothing listens on the peer's head port: refused up front with one line naming
    the address (ray.init alone retries for ever)."""
    nowhere = f"{two_hosts.peer.ip}:6379"
    started = time.monotonic()
    done = two_hosts.run([sys.executable, "-m", "puzzlelab.cli", *args], timeout=120, RAY_ADDRESS=nowhere)
    assert time.monotonic() - started < 60
    assert done.returncode == 2, (done.returncode, done.stdout[-1000:], done.stderr[-1000:])
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: address") and nowhere in last and "Traceback" not in done.stderr
