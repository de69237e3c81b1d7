"""Hostile input on the routes of the dashboards, answers, exports and previews: an
unknown puzzle, instance, job or format is 404, a bad parameter or instance 422 naming
its field, an oversized one 413; never a 500, and every error a one-line detail."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from puzzlelab.service.app import create_app

ODD = ["", " ", "\x00", "../../etc/passwd", "%2e%2e", "NaN", "1e400", "9" * 400, "é" * 300, "x" * 4000, "(" * 3000,
       "[" * 70, "{\"n\": 1e400}", "font5x7:A-", "rect_100000x100000", "100000x100000", "contest_0", "-1", "64", "\u2028"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(workers=1, store_path=str(tmp_path_factory.mktemp("hostile26") / "records.sqlite"), start_method="fork")
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def refused(response, status, field=None):
    assert response.status_code == status, (response.status_code, response.text[:300])
    body = response.json()
    assert isinstance(body["detail"], str) and "\n" not in body["detail"] and body["detail"].strip()
    if field is not None:
        assert body["field"] == field, body


@pytest.mark.parametrize("name", ["nope", "toy", "TILING", "a.b", "x" * 200, "\u2028", "tiling%00"])
def test_a_puzzle_without_a_dashboard_is_404(client, name):
    refused(client.get(f"/api/records/{name}/dashboard"), 404, "puzzle")


@pytest.mark.parametrize("font", ["", "font5x8", "FONT5X7", "x" * 101, "\x00", "font5x7 "])
def test_an_unknown_coin_font_is_422(client, font):
    refused(client.get("/api/records/coins/dashboard", params={"font": font}), 422, "font")


@pytest.mark.parametrize("puzzle", ["tiling", "hexagon", "matchsticks", "coins", "macmahon", "toy"])
@pytest.mark.parametrize("instance", ODD)
def test_odd_answer_requests_are_404_or_422_never_500(client, puzzle, instance):
    for suffix in ("", "/svg", "/export/json"):
        response = client.get(f"/api/records/{puzzle}/answer{suffix}", params={"instance": instance})
        assert response.status_code in (404, 422), (suffix, response.status_code, response.text[:300])
        refused(response, response.status_code)


def test_answer_routes_name_what_is_wrong(client):
    refused(client.get("/api/records/tiling/answer"), 422, "instance")  # no instance
    refused(client.get("/api/records/tiling/answer", params={"instance": "x" * 5000}), 422, "instance")
    refused(client.get("/api/records/nope/answer", params={"instance": "3"}), 404, "puzzle")
    refused(client.get("/api/records/hexagon/answer", params={"instance": "40"}), 404, "instance")  # nothing stored or shipped
    refused(client.get("/api/jobs/nope/answer"), 404, "id")
    refused(client.get("/api/jobs/nope/export/json"), 404, "id")


def test_unknown_export_formats_and_unfinished_jobs_are_404(client):
    job = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small", "method": "sleepy", "budget": 30}).json()
    refused(client.get(f"/api/jobs/{job['id']}/answer"), 404, "id")
    refused(client.get(f"/api/jobs/{job['id']}/export/json"), 404, "id")
    client.delete(f"/api/jobs/{job['id']}")
    done = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"}).json()
    for _ in range(600):
        if client.get(f"/api/jobs/{done['id']}").json()["state"] == "done":
            break
        time.sleep(0.1)
    assert client.get(f"/api/jobs/{done['id']}/export/json").status_code == 200
    for name in ("nope", "contest", "JSON", "x" * 300, "a..b", "%00"):
        refused(client.get(f"/api/jobs/{done['id']}/export/{name}"), 404, "format")


@pytest.mark.parametrize(
    "body,status,field",
    [
        ({"puzzle": "nope", "instance": "3"}, 404, "puzzle"),
        ({"puzzle": "hexagon"}, 422, "instance"),
        ({"instance": "3"}, 422, "puzzle"),
        ({"puzzle": "hexagon", "instance": ""}, 422, "instance"),
        ({"puzzle": "hexagon", "instance": "(1,1),(1,9,1),(1,1)"}, 422, "instance"),
        ({"puzzle": "hexagon", "instance": "99999"}, 413, "instance"),
        ({"puzzle": "tiling", "instance": "100000x100000"}, 413, "instance"),
        ({"puzzle": "tiling", "instance": "x" * 8_000_001}, 413, "body"),
        ({"puzzle": "coins", "instance": "font5x7:A-"}, 422, "instance"),
        ({"puzzle": "coins", "instance": {"start": ["ooo"], "target": ["o"]}}, 422, None),
        ({"puzzle": "matchsticks", "instance": 1e300}, 413, "n"),
        ({"puzzle": "matchsticks", "instance": 2.5}, 422, "n"),
        ({"puzzle": ["tiling"], "instance": "3x5"}, 422, "puzzle"),
        ({"puzzle": "x" * 101, "instance": "3x5"}, 422, "puzzle"),
    ],
)
def test_bad_previews_name_the_field(client, body, status, field):
    refused(client.post("/api/preview", json=body), status, field)


@pytest.mark.parametrize("raw,status", [(b"\xff\xfe", 400), (b"NaN", 422), (b"{" * 100_000, 422), (b"", 422), (b"[]", 422)])
def test_preview_bodies_that_are_not_acceptable_json(client, raw, status):
    refused(client.post("/api/preview", content=raw, headers={"content-type": "application/json"}), status)


@pytest.mark.parametrize("puzzle", ["tiling", "hexagon", "matchsticks", "coins", "macmahon", "toy"])
@pytest.mark.parametrize("instance", ODD)
def test_odd_preview_instances_are_4xx_never_500(client, puzzle, instance):
    response = client.post("/api/preview", json={"puzzle": puzzle, "instance": instance})
    assert response.status_code in (200, 404, 413, 422), (response.status_code, response.text[:300])
    if response.status_code != 200:
        refused(response, response.status_code)
