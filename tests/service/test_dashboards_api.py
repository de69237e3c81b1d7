"""The records dashboards, the answer views and the exports, end to end on
the real service: the published figures each dashboard serves equal the puzzles'
reference tables (and the counting identities they must obey), answers solved through
the service appear on the dashboards as `ours` and can be fetched, re-checked and
exported in each field's format, and every export reads back through the puzzle's own
checker to the same value."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from puzzlelab.core.tables import read_data_text
from puzzlelab.puzzles import get
from puzzlelab.puzzles.coins.reference import published_lengths
from puzzlelab.puzzles.hexagon.reference import level_table
from puzzlelab.puzzles.hexagon.reference import published_table as hexagon_table
from puzzlelab.puzzles.matchsticks.reference import published_table as matchsticks_table
from puzzlelab.puzzles.tiling.reference import CONTEST_OPTIMA, a219158_table
from puzzlelab.service.answers import SourcedAnswer, clear_answer_sources, register_answer_source
from puzzlelab.service.app import create_app
from puzzlelab.service.sources import COINS_TABLE, MATCHSTICKS_SHIPPED, register_shipped_sources
from support.job_waiting import wait_for

# One job per puzzle, each solved to optimality in seconds: (puzzle, instance, key).
JOBS = [
    ("tiling", "3x5", "rect_3x5"),
    ("hexagon", "3", "3"),
    ("matchsticks", "4", "4"),
    ("coins", "font5x7:O-C", "font5x7:O-C"),
    ("macmahon", "2x3/free", "2x3/free"),
]
FIELD_FORMATS = {"tiling": "contest", "hexagon": "submission", "matchsticks": "squares", "coins": "moves", "macmahon": "solution"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("dashboards") / "records.sqlite"
    with TestClient(create_app(workers=2, store_path=str(path), grace=2.0)) as c:
        yield c


@pytest.fixture(scope="module")
def solved(client):
    """The dashboards before any solve, then one verified job per puzzle."""
    before = {name: client.get(f"/api/records/{name}/dashboard").json() for name, _, _ in JOBS}
    ids = [client.post("/api/jobs", json={"puzzle": p, "instance": i, "budget": 120}).json()["id"] for p, i, _ in JOBS]
    jobs = {p: wait_for(client, job_id, timeout=240) for (p, _, _), job_id in zip(JOBS, ids)}
    for name, job in jobs.items():
        assert job["state"] == "done" and job["result"]["verified"] and job["result"]["status"] == "optimal", (name, job)
    return before, jobs


def dashboard(client, name, **params):
    response = client.get(f"/api/records/{name}/dashboard", params=params)
    assert response.status_code == 200, response.text
    return response.json()


# ------------------------------------------------------------ published figures
def test_the_index_lists_every_dashboard(client):
    listed = {entry["puzzle"]: entry["url"] for entry in client.get("/api/records/dashboards").json()}
    assert listed == {name: f"/api/records/{name}/dashboard" for name in ("matchsticks", "hexagon", "coins", "tiling", "macmahon")}


def test_matchsticks_published_values_are_a294249(client):
    data = dashboard(client, "matchsticks")
    table = matchsticks_table()
    assert [row["n"] for row in data["rows"]] == sorted(table)
    for row in data["rows"]:
        assert row["published"] == table[row["n"]]["best_known"] and row["proven"] == table[row["n"]]["proven"]
        # a restricted search never beats the unrestricted record
        assert row["published"] <= min(row["diagonal1_best"], row["diagonal20_best"], row["greedy_best"])
    # the shipped table's header: proven optimal for n <= 46, upper bounds for 47..63
    assert (data["proven_to"], data["bounds_to"]) == (46, 63)
    assert "n <= 46" in read_data_text("puzzlelab.puzzles.matchsticks", "a294249.tsv").splitlines()[0]


def test_hexagon_published_scores_penalties_and_proven_range(client):
    data = dashboard(client, "hexagon")
    table, levels = hexagon_table(), level_table()
    assert [row["n"] for row in data["rows"]] == sorted(table)
    for row in data["rows"]:
        published = table[row["n"]]
        assert row["published"] == int(published["best_raw_score"]) and row["published_penalty"] == int(published["penalty_edges"])
        assert row["cells"] == int(published["cells"]) and row["edges"] == int(published["edges"])
        # the contest's scoring: raw score = edges - penalty edges (what `ours_penalty` relies on)
        assert row["published"] == row["edges"] - row["published_penalty"]
        assert row["level_penalties"] == list(levels[row["n"]])
        # the penalty of the best grid is at least the lowest penalty through any level
        assert row["published_penalty"] >= max(row["level_penalties"][:3])
    assert data["proven_range"] == [3, 11]


def test_coins_grids_hold_the_published_sample(client):
    data = dashboard(client, "coins")
    published = published_lengths()
    seen = 0
    for font in data["fonts"]:
        glyphs = font["glyphs"]
        assert len(glyphs) == 37 and len(font["published"]) == 37 and all(len(r) == 37 for r in font["published"])
        assert font["counts"]["puzzles"] == 37 * 36
        for i, a in enumerate(glyphs):
            assert font["published"][i][i] is None and font["ours"][i][i] is None
            for j, b in enumerate(glyphs):
                if i != j:
                    assert font["published"][i][j] == published.get(f"{font['font']}:{a}-{b}")
                    seen += font["published"][i][j] is not None
    assert seen == len(published) == 210  # data/README.md: 150 of font5x7, 60 of font5x9
    counts = {font["font"]: font["counts"]["published"] for font in data["fonts"]}
    assert counts == {"font5x7": 150, "font5x9": 60}
    only = dashboard(client, "coins", font="font5x9")
    assert [f["font"] for f in only["fonts"]] == ["font5x9"]


def test_tiling_heat_map_is_a219158_and_obeys_its_identities(client):
    from puzzlelab.puzzles.tiling.a219158 import computed_rows

    data = dashboard(client, "tiling")
    table, computed = a219158_table(), computed_rows()
    # the heat map covers every shipped row: the published table and the rows computed here
    assert (data["m_max"], data["n_max"]) == (20, 100) == (max(m for m, _ in computed), max(n for _, n in computed))
    assert (data["published_m_max"], data["published_n_max"]) == (10, 60) and data["computed_rows"] == [16, 17, 18, 19, 20]
    for m in range(1, 21):
        for n in range(1, 101):
            assert data["published"][m - 1][n - 1] == table.get((m, n)), (m, n)
            if m > n:
                assert data["published"][m - 1][n - 1] is None
    for n in range(1, 61):
        assert data["published"][0][n - 1] == n  # a 1 x n strip: n unit squares
    for m in range(1, 11):
        for k in range(1, 60 // m + 1):
            assert data["published"][m - 1][k * m - 1] == k  # an m x km rectangle: k squares of side m
    for m in range(16, 21):  # the same identity on the rows computed here: an m x km rectangle is k squares
        for k in range(1, 100 // m + 1):
            assert data["ours"][m - 1][k * m - 1] == k
    assert {row["number"]: row["published"] for row in data["contests"]} == CONTEST_OPTIMA


def test_macmahon_counts_published_for_4x6_and_its_turn(client):
    rows = {row["instance"]: row for row in dashboard(client, "macmahon")["rows"]}
    assert set(get("macmahon").catalog()) <= set(rows)
    assert rows["4x6"]["published"] == rows["6x4"]["published"] == 106_624
    assert rows["3x8"]["published"] is None and rows["7x10"]["published"] is None


def test_matchsticks_shipped_answers_are_served_with_the_new_record(client):
    from puzzlelab.puzzles.matchsticks.verify import count_matches

    data = dashboard(client, "matchsticks")
    rows = {row["n"]: row for row in data["rows"]}
    row = rows[56]
    assert row["ours"]["value"] == 1216 < row["published"] == 1217 and row["ours"]["status"] == "feasible"
    assert row["ours"]["source"] == MATCHSTICKS_SHIPPED
    # a restricted column's answer where nothing better is held: n = 63's diagonal20 value equals the published 1451
    assert rows[63]["ours"]["value"] == rows[63]["published"] == 1451
    answer = client.get("/api/records/matchsticks/answer", params={"instance": "56"}).json()
    assert answer["verified"] and answer["source"] == MATCHSTICKS_SHIPPED and answer["verdict"]["value"] == 1216
    assert answer["published"]["value"] == 1217 and answer["text"].startswith("n=56: best score 1216")
    squares = next(e for e in answer["exports"] if e["format"] == "squares")
    exported = client.get(squares["url"]).text
    triples = [tuple(map(int, t.split(","))) for t in re.findall(r"\((\d+,\s*\d+,\s*\d+)\)", exported)]
    assert len(triples) == 56 and count_matches(triples) == 1216


# ------------------------------------------------------------ store results appear after a solve
def test_solved_answers_appear_on_the_dashboards(client, solved):
    before, jobs = solved
    tiling, hexagon, matchsticks = (dashboard(client, name) for name in ("tiling", "hexagon", "matchsticks"))
    coins, macmahon = dashboard(client, "coins", font="font5x7")["fonts"][0], dashboard(client, "macmahon")
    # before: nothing of this machine's; hexagon 3's grid ships with the package (ours, not local)
    assert before["tiling"]["ours"][2][4] is None
    shipped_3 = next(r for r in before["hexagon"]["rows"] if r["n"] == 3)
    assert shipped_3["local"] is None and shipped_3["ours"]["source"] != "store" and shipped_3["ours"]["value"] == 39
    # tiling 3 x 5: A219158(3, 5)
    assert tiling["ours"][2][4] == jobs["tiling"]["result"]["value"] == a219158_table()[(3, 5)]
    assert tiling["ours_status"][2][4] == "optimal" and tiling["ours_instance"][2][4] == "rect_3x5"
    # hexagon 3: the proven optimum, so our penalty is the published one
    row = next(r for r in hexagon["rows"] if r["n"] == 3)
    assert row["ours"]["value"] == row["published"] == jobs["hexagon"]["result"]["value"] and row["answer"]
    assert row["local"]["value"] == 39 and row["local"]["source"] == "store"  # this machine's, beside the shipped one
    assert row["ours_penalty"] == row["published_penalty"] and 3 in hexagon["ours_proven"] and 3 in hexagon["ours_reached"]
    # matchsticks 4: a(4) = 26, proven here
    row = next(r for r in matchsticks["rows"] if r["n"] == 4)
    assert row["ours"]["value"] == row["published"] == 26 and 4 in matchsticks["ours_proven"]
    # coins O -> C
    glyphs = coins["glyphs"]
    i, j = glyphs.index("O"), glyphs.index("C")
    assert coins["ours"][i][j] == jobs["coins"]["result"]["value"] and coins["ours_status"][i][j] == "optimal"
    assert coins["counts"]["solved"] >= 1 and coins["counts"]["disagree"] == 0
    # macmahon 2x3/free: the count and its classes from the certificate
    row = next(r for r in macmahon["rows"] if r["instance"] == "2x3/free")
    result = jobs["macmahon"]["result"]
    assert row["ours"]["value"] == result["value"]
    assert row["classes"] == {name: g["classes"] for name, g in result["solution"]["groups"].items()}
    # Burnside, with a group acting freely: classes x group order = the total
    assert all(row["classes"][g] * row["group_orders"][g] == result["value"] for g in row["classes"])


@pytest.mark.parametrize("puzzle,instance,key", JOBS)
def test_answers_are_served_rechecked_and_export_in_the_fields_format(client, solved, puzzle, instance, key):
    _, jobs = solved
    answer = client.get(f"/api/records/{puzzle}/answer", params={"instance": key}).json()
    assert answer["instance"] == key and answer["verified"] and answer["verdict"]["ok"] and answer["source"] == "store"
    assert answer["value"] == jobs[puzzle]["result"]["value"]
    owner = get(puzzle)
    loaded = owner.load(instance, local=False)
    formats = {e["format"]: e for e in answer["exports"]}
    field = client.get(formats[FIELD_FORMATS[puzzle]]["url"])
    assert field.status_code == 200 and "attachment" in field.headers["content-disposition"]
    text = field.text
    solution = json.loads(text) if field.headers["content-type"].startswith("application/json") else text
    verdict = owner.verify(loaded, solution)  # the export reads back through the checker
    assert verdict.ok and verdict.value == answer["value"], verdict.message
    report = client.get(formats["json"]["url"]).json()
    assert report["value"] == answer["value"] and report["instance"] == key
    svg = client.get(answer["svg"])
    assert svg.status_code == 200 and svg.text.startswith("<svg")
    by_job = client.get(f"/api/jobs/{jobs[puzzle]['id']}/answer").json()
    assert by_job["value"] == answer["value"] and by_job["source"] == "job"
    assert client.get(f"/api/jobs/{jobs[puzzle]['id']}/export/{FIELD_FORMATS[puzzle]}").text == text


def test_a_coin_answer_carries_its_moves_to_step_through(client, solved):
    _, jobs = solved
    answer = client.get("/api/records/coins/answer", params={"instance": "font5x7:O-C"}).json()
    steps = answer["steps"]
    assert steps["moves"] == jobs["coins"]["result"]["solution"]
    # replaying the moves on the start cells gives the target cells
    cells = {tuple(c) for c in steps["start"]}
    for x1, y1, x2, y2 in steps["moves"]:
        assert (x1, y1) in cells and (x2, y2) not in cells
        cells = (cells - {(x1, y1)}) | {(x2, y2)}
    assert cells == {tuple(c) for c in steps["target"]}
    assert "html" in {e["format"] for e in answer["exports"]}


def test_an_answer_by_catalog_name_or_text_finds_its_key(client, solved):
    assert client.get("/api/records/tiling/answer", params={"instance": "3x5"}).json()["instance"] == "rect_3x5"


# ------------------------------------------------------------ a second source of solved puzzles
def test_a_plugged_in_source_is_checked_and_shown(client, solved):
    good = get("coins").solve(get("coins").load("font5x7:C-O"), budget=60)
    entries = [SourcedAnswer("font5x7:C-O", good.value, good.solution, method="bfs"),
               SourcedAnswer("font5x7:A-B", 1, [[0, 0, 1, 1]], method="bfs")]  # wrong: dropped
    clear_answer_sources("coins")  # the shipped table holds these puzzles too: this test is about its own source
    register_answer_source("coins", "test table", lambda: entries)
    try:
        data = dashboard(client, "coins", font="font5x7")
        font = data["fonts"][0]
        glyphs = font["glyphs"]
        assert data["answer_sources"] == ["test table"]
        assert font["ours"][glyphs.index("C")][glyphs.index("O")] == good.value
        assert font["ours"][glyphs.index("A")][glyphs.index("B")] is None
        answer = client.get("/api/records/coins/answer", params={"instance": "font5x7:C-O"}).json()
        assert answer["source"] == "test table" and answer["verified"]
        assert client.get("/api/records/coins/answer", params={"instance": "font5x7:A-B"}).status_code == 404
    finally:
        clear_answer_sources("coins")
        register_shipped_sources()


# ------------------------------------------------------------ previews
def test_previews_draw_the_instance_without_solving(client):
    jobs_before = len(client.get("/api/jobs").json())
    for puzzle in ("tiling", "hexagon", "matchsticks", "coins", "macmahon"):
        owner = get(puzzle)
        data = client.post("/api/preview", json={"puzzle": puzzle, "instance": owner.tour_instance}).json()
        key = owner.instance_key(owner.catalog_instance(owner.tour_instance))
        assert data["instance"] == key and data["svg"].startswith("<svg") and data["description"] == owner.catalog()[key]
    coin = client.post("/api/preview", json={"puzzle": "coins", "instance": "font5x7:A-B"}).json()
    assert len(coin["board"]["start"]) == len(coin["board"]["target"]) == 12 and coin["board"]["moves"] == []
    big = client.post("/api/preview", json={"puzzle": "hexagon", "instance": "120"}).json()
    assert big["svg"] is None and "too large to draw" in big["note"]
    assert len(client.get("/api/jobs").json()) == jobs_before  # nothing was run


# ------------------------------------------------------------ long runs: progress figures kept
def test_progress_figures_are_kept_and_served_after_a_restart(client):
    job = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small", "options": {"slow": 0.2}, "budget": 3}).json()
    assert wait_for(client, job["id"], timeout=240)["state"] == "done"
    series = client.get(f"/api/jobs/{job['id']}/progress").json()
    points = series["points"]
    assert len(points) >= 5 and series["state"] == "done"
    ticks = [p["figures"]["done"] for p in points if "done" in p["figures"]]
    assert ticks == sorted(ticks) and ticks[0] >= 1
    for p in points:
        if "done" in p["figures"]:  # the toy's report: best = 100 - ticks, 'ticks' written as '1,000'
            assert p["figures"]["best"] == 100 - p["figures"]["done"] and p["figures"]["ticks"] == 1000 * p["figures"]["done"]
            assert "note" not in p["figures"] and p["phase"].startswith("wait")
    assert [p["t"] for p in points] == sorted(p["t"] for p in points) and points[-1]["t"] <= 3 + 5
    path = client.app.state.store.path
    with TestClient(create_app(workers=1, store_path=str(path), start_method="fork")) as again:
        assert again.get(f"/api/jobs/{job['id']}/progress").json()["points"] == points
    assert client.get("/api/jobs/nope/progress").status_code == 404


def test_a_series_is_thinned_evenly_past_its_bound():
    from puzzlelab.service.progress_log import MAX_POINTS, Series

    series = Series()
    for i in range(10 * MAX_POINTS):
        series.add(float(i), {"done": i, "stats": {"boards": f"{i:,}", "rate": "2.1M boards/s"}})
    assert len(series.points) <= MAX_POINTS
    times = [p[0] for p in series.points]
    assert times[0] == 0 and times[-1] == 10 * MAX_POINTS - 1 and times == sorted(times)
    gaps = {b - a for a, b in zip(times[:-2], times[1:-1])}
    assert len(gaps) == 1  # an even sample of the whole run
    assert series.points[-1][2] == {"done": 10 * MAX_POINTS - 1, "boards": 10 * MAX_POINTS - 1}


def test_an_answer_keyed_by_digest_is_rebuilt_from_its_job(client):
    """A grid of no catalog is stored under 'WxH:<digest>': its answer is drawn from
    the instance its job kept."""
    grid = "...#\n....\n#...\n...."
    job = wait_for(client, client.post("/api/jobs", json={"puzzle": "tiling", "instance": grid, "budget": 60}).json()["id"], timeout=240)
    key = job["instance"]
    assert job["state"] == "done" and ":" in key
    answer = client.get("/api/records/tiling/answer", params={"instance": key}).json()
    assert answer["instance"] == key and answer["verified"] and answer["value"] == job["result"]["value"]
    assert client.get(answer["svg"]).status_code == 200


def test_the_shipped_coins_table_is_on_the_dashboard_and_served_checked(client):
    """The service plugs in the shipped font5x7 table (service/sources.py): every puzzle
    of it is solved on the dashboard with the table's length, and its answer is served
    after the checker's replay."""
    from puzzlelab.puzzles.coins.optimal_table import load_table

    table = load_table("font5x7")
    font = next(f for f in dashboard(client, "coins")["fonts"] if f["font"] == "font5x7")
    index = {g: i for i, g in enumerate(font["glyphs"])}
    entries = list(table.entries())
    assert len(entries) == len(table) > 0
    for entry in entries:
        assert font["ours"][index[entry.start]][index[entry.target]] == entry.moves
    assert font["counts"]["solved"] >= len(entries)
    first = entries[0]
    answer = client.get("/api/records/coins/answer", params={"instance": first.key}).json()
    assert answer["value"] == first.moves and answer["verified"] and answer["source"] == COINS_TABLE
    moves = client.get("/api/records/coins/answer/export/moves", params={"instance": first.key})
    assert moves.status_code == 200 and json.loads(moves.text) == first.solution
