"""The practice contest server (Cimpress Tech Challenge API) and the contest client:
the server scores by the independent verifier, charges lateness and invalid squares;
the client answers 20 puzzles validly within the 10 seconds and saves each puzzle so
it can be solved again."""

import json
import random

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from puzzlelab.cli import app as cli_app
from puzzlelab.puzzles.tiling.contest import PENALTY_PER_SECOND, PracticeContest, random_puzzle
from puzzlelab.puzzles.tiling.contest_client import run_contest
from puzzlelab.puzzles.tiling.model import parse_grid
from puzzlelab.service.contest_server import create_contest_app, serve_in_thread


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def unit_squares(grid):
    free = grid.free()
    return [{"X": int(x), "Y": int(y), "Size": 1} for y, x in zip(*free.nonzero())]


@pytest.fixture
def contest():
    clock = FakeClock()
    practice = PracticeContest(seed=7, clock=clock)
    return practice, clock, TestClient(create_contest_app(practice))


def test_puzzles_are_contest_like_and_seeded():
    grids = [random_puzzle(random.Random(f"s:{i}")) for i in range(40)]
    assert all(20 <= g.width <= 40 and 20 <= g.height <= 40 for g in grids)
    blocked = sum(g.width * g.height - g.free_cells for g in grids) / sum(g.width * g.height for g in grids)
    assert 0.03 < blocked < 0.07
    again = [random_puzzle(random.Random(f"s:{i}")) for i in range(3)]
    assert [g.rows for g in again] == [g.rows for g in grids[:3]]
    assert len({g.id for g in grids}) == len(grids)


def test_a_valid_answer_scores_its_squares(contest):
    _, clock, client = contest
    raw = client.get("/me/trial/puzzle").json()
    assert set(raw) == {"id", "width", "height", "puzzle"}
    grid = parse_grid(raw)
    clock.now += 9.9
    answer = client.post("/me/trial/solution", json={"id": grid.id, "squares": unit_squares(grid)}).json()
    assert answer == {"numberOfSquares": grid.free_cells, "timePenalty": 0, "score": grid.free_cells, "errors": []}


def test_lateness_costs_per_started_second(contest):
    _, clock, client = contest
    grid = parse_grid(client.get("/me/contest/puzzle").json())
    clock.now += 12.3
    answer = client.post("/me/contest/solution", json={"id": grid.id, "squares": unit_squares(grid)}).json()
    assert answer["timePenalty"] == 3 * PENALTY_PER_SECOND
    assert answer["score"] == grid.free_cells + 3 * PENALTY_PER_SECOND


def test_invalid_squares_score_as_the_worst_answer(contest):
    _, _, client = contest
    grid = parse_grid(client.get("/me/trial/puzzle").json())
    squares = unit_squares(grid)
    squares[0] = {"X": squares[0]["X"], "Y": squares[0]["Y"], "Size": 2}  # overlaps or covers a blocked cell
    answer = client.post("/me/trial/solution", json={"id": grid.id, "squares": squares}).json()
    assert answer["errors"] and answer["numberOfSquares"] == grid.free_cells
    outside = client.post("/me/trial/solution", json={"id": grid.id, "squares": [{"X": grid.width, "Y": 0, "Size": 1}]}).json()
    assert any("already answered" in e for e in outside["errors"])


def test_unknown_ids_and_modes_are_named(contest):
    _, _, client = contest
    client.get("/me/trial/puzzle")
    wrong = client.post("/me/trial/solution", json={"id": "nope", "squares": []}).json()
    assert wrong["errors"] and "id" in wrong["errors"][0]
    other_key = client.get("/other/trial/puzzle").json()
    assert client.post("/me/trial/solution", json={"id": other_key["id"], "squares": []}).json()["errors"]
    response = client.get("/me/practice/puzzle")
    assert response.status_code == 404 and "trial" in response.json()["detail"]


def run_client_and_check(tmp_path, seed: int, count: int, seconds: float, workers: int):
    """Play `count` puzzles of a seeded practice contest; every answer valid, on time,
    scored as posted, saved and logged in order. Returns the log entries."""
    url, server = serve_in_thread(PracticeContest(seed=seed))
    try:
        logs = run_contest(url, "team", count, seconds=seconds, workers=workers, save_dir=tmp_path)
    finally:
        server.should_exit = True
    assert len(logs) == count
    for entry in logs:
        assert entry.answer["errors"] == [], entry.answer
        assert entry.answer["timePenalty"] == 0 and entry.seconds_to_post < 10
        assert entry.answer["numberOfSquares"] == entry.squares
        saved = parse_grid(json.loads(open(entry.saved).read()))
        assert saved.id == entry.id and (saved.width, saved.height) == (entry.width, entry.height)
        assert entry.squares >= saved.free_cells / min(saved.width, saved.height) ** 2  # a square covers at most side^2 cells
    lines = (tmp_path / "contest-log.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [e.id for e in logs]
    return logs


def test_client_answers_a_few_puzzles_validly_and_logs_them(tmp_path):
    """The default suite's short run of the client; the twenty-puzzle run is `slow`."""
    run_client_and_check(tmp_path, seed=5, count=3, seconds=1.0, workers=1)


@pytest.mark.slow  # tens of seconds; run with `make test-all`
def test_client_answers_twenty_puzzles_validly_within_ten_seconds(tmp_path):
    logs = run_client_and_check(tmp_path, seed=11, count=20, seconds=1.5, workers=2)
    # a saved puzzle solves again from its file
    result = CliRunner().invoke(cli_app, ["tiling", "solve", logs[0].saved, "--budget", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verified"] is True and data["value"] >= 1
