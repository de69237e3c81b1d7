"""Every text field of every registered puzzle, fuzzed through the whole path of a job:
submit, run, the job and the jobs list, its answer, picture and exports, the record it
left and that record's answer and picture; then every listing must still answer 200,
also after a restart on the same store. One job whose text cannot be stored or shown
again must never take a listing down for everyone.

The fields come from the registry: each string (or null) in the JSON form of a small
catalog instance ('instance.id', 'instance.colours[1]'), the instance as a whole, the
method, each text option of each method and an option's name. The oracle of safe text
is written here from the standards it answers to: UTF-8 must be able to carry it and
XML 1.0 must allow every character of it (tab, line feed, carriage return and
U+0020 up, less U+FFFE and U+FFFF). Text that is not safe is refused with 422 naming the
field; text that is safe and accepted is served back in well-formed JSON and SVG.
"""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from api_fuzz import DoorOnlyRunner
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlelab.core.store import Store
from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.app import create_app
from support.job_waiting import wait_for
from support.text_strategies import ALPHABET

BUDGET = 3.0
FUZZ_SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck), print_blob=True)


def safe_text(text: str) -> bool:
    """The oracle: UTF-8 can encode it and XML 1.0's Char production allows each character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return all(ch in "\t\n\r" or (0x20 <= ord(ch) <= 0xD7FF) or (0xE000 <= ord(ch) <= 0xFFFD) or ord(ch) >= 0x10000 for ch in text)


# ------------------------------------------------------------ the fields, from the registry
def _base_instance(name: str) -> tuple[str, Any]:
    """A small catalog instance of the puzzle (the shortest JSON form among the first
    twenty), by name and in its JSON form."""
    puzzle = REGISTRY[name]
    forms = {entry: puzzle.format_instance(puzzle.load(entry, local=False)) for entry in list(puzzle.catalog())[:20]}
    entry = min(forms, key=lambda e: len(json.dumps(forms[e])))
    return entry, forms[entry]


def _text_paths(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths of the strings and nulls of a JSON value (a null may be given as text)."""
    if isinstance(value, (str, type(None))):
        return [path]
    if isinstance(value, dict):
        return [p for key, inner in value.items() for p in _text_paths(inner, path + (key,))]
    if isinstance(value, list):
        return [p for i, inner in enumerate(value) for p in _text_paths(inner, path + (i,))]
    return []


def _field_name(path: tuple) -> str:
    head, *rest = path
    return head + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest)


def text_fields() -> list[tuple[str, str | None, tuple]]:
    """(puzzle, method, path) of every text field a client can send."""
    fields = []
    for name, puzzle in REGISTRY.items():
        if not list(puzzle.catalog()):
            continue
        _, form = _base_instance(name)
        fields += [(name, None, ("instance",)), (name, None, ("method",))]
        fields += [(name, None, ("instance",) + path) for path in _text_paths(form) if path]
        for method in puzzle.methods.values():
            fields.append((name, method.name, ("options key",)))
            fields += [(name, method.name, ("options", o.name)) for o in method.options if o.kind == "str" and not o.local_only]
    return fields


FIELDS = text_fields()
BASES = {name: _base_instance(name) for name in {f[0] for f in FIELDS}}

HOSTILE_CHARS = sorted(set(ALPHABET + "\ud800\udbff\udc00\udfff\ufffe\uffff\x01\x08\x0b\x0c\x1b<>&\"';]"))
PIECES = ["\ud800x", "a\x00b", "]]>", "<script>alert(1)</script>", "&amp;", "' onload='x", '"/><g>', "\u2028\u2029",
          "é漢字\U0001f600", "", " ", "\r\n", "%00", "\\u0000", "{{x}}", "${x}", "x" * 300]
fuzz_text = st.one_of(st.lists(st.sampled_from(HOSTILE_CHARS), max_size=24).map("".join), st.sampled_from(PIECES))


@st.composite
def requests(draw) -> tuple[str, tuple, dict, Any]:
    """A job body with one text field replaced: (puzzle, path, body, the text sent)."""
    name, method, path = draw(st.sampled_from(FIELDS))
    entry, form = BASES[name]
    body: dict[str, Any] = {"puzzle": name, "instance": json.loads(json.dumps(form)), "budget": BUDGET}
    if method is not None:
        body["method"] = method
    text = draw(fuzz_text)
    if path[0] == "instance" and len(path) > 1:
        holder = body["instance"]
        for step in path[1:-1]:
            holder = holder[step]
        old = holder[path[-1]] or ""
        holder[path[-1]] = draw(st.sampled_from([text, old + text, text + old]))
    elif path == ("instance",):
        body["instance"] = draw(st.sampled_from([text, entry + text, text + entry]))
    elif path == ("method",):
        body["method"] = draw(st.sampled_from([text, REGISTRY[name].default_method + text]))
    elif path == ("options key",):
        body["options"] = {text: 1}
    else:
        option = next(o for o in REGISTRY[name].methods[method].options if o.name == path[1])
        body["options"] = {path[1]: draw(st.sampled_from([text, str(option.default or "") + text, *option.choices[:1]]))}
    sent = _sent(body, path)
    return name, path, body, sent


def _sent(body: dict, path: tuple) -> Any:
    if path == ("options key",):
        return next(iter(body["options"]))
    value: Any = body
    for step in ("options", path[1]) if path[0] == "options" else path:
        value = value[step]
    return value


# ------------------------------------------------------------ the service and the checks
@pytest.fixture(scope="module")
def service(tmp_path_factory):
    path = tmp_path_factory.mktemp("text-fuzz") / "records.sqlite"
    with TestClient(create_app(workers=2, store_path=str(path), grace=1.0), raise_server_exceptions=False) as client:
        yield client, path


def _xml(text: str, what: str) -> None:
    try:
        ET.fromstring(text)
    except ET.ParseError as exc:
        raise AssertionError(f"{what}: not well-formed XML ({exc})") from None


def _ok(client, url: str, **kwargs):
    response = client.get(url, **kwargs)
    assert response.status_code == 200, f"GET {url} {kwargs}: {response.status_code} {response.text[:300]}"
    return response


def check_listings(client) -> None:
    """Every listing answers 200 with JSON (or the page)."""
    for url in ("/api/jobs?limit=2000", "/api/records", "/api/records/dashboards", "/api/health", "/api/puzzles"):
        json.loads(_ok(client, url).text)
    for entry in _ok(client, "/api/records/dashboards").json():
        _ok(client, f"/api/records/{entry['puzzle']}/dashboard")
    assert "<html" in _ok(client, "/").text


def _check_answer(client, base: str, view: dict, query: dict | None = None) -> None:
    """An answer view, its picture and each of its exports: 200, and readable."""
    assert view["verified"], view
    _xml(_ok(client, view["svg"].split("?")[0], params=query).text, view["svg"])
    for item in view["exports"]:
        text = _ok(client, item["url"].split("?")[0], params=query).text
        if item["media_type"] == "application/json":
            json.loads(text)
        elif item["media_type"] == "image/svg+xml":
            _xml(text, item["url"])


def check_job_path(client, name: str, job_id: str) -> dict:
    """A finished job through every route that shows it."""
    job = wait_for(client, job_id, timeout=90)
    assert _ok(client, f"/api/jobs/{job_id}").json()["id"] == job_id
    assert job_id in {j["id"] for j in _ok(client, "/api/jobs", params={"limit": 2000}).json()}
    if job["state"] == "done" and job["result"] and job["result"]["verified"]:
        _xml(_ok(client, f"/api/jobs/{job_id}/svg").text, "job svg")
        _check_answer(client, f"/api/jobs/{job_id}", _ok(client, f"/api/jobs/{job_id}/answer").json())
        query = {"instance": job["instance"]}
        record = _ok(client, f"/api/records/{name}/answer", params=query).json()
        _check_answer(client, f"/api/records/{name}/answer", record, query)
    return job


def run_one(client, name: str, path: tuple, body: dict, sent: Any) -> str:
    """One request through the whole path; returns what came of it ('refused', or the
    job's final state)."""
    response = client.post("/api/jobs", content=json.dumps(body), headers={"content-type": "application/json"})
    assert response.status_code in (202, 404, 413, 422), f"{response.status_code}: {response.text[:300]}"
    preview = client.post("/api/preview", content=json.dumps({"puzzle": name, "instance": body["instance"]}),
                          headers={"content-type": "application/json"})
    assert preview.status_code in (200, 404, 413, 422), f"preview {preview.status_code}: {preview.text[:300]}"
    if preview.status_code == 200 and preview.json()["svg"]:
        _xml(preview.json()["svg"], "preview svg")
    if isinstance(sent, str) and not safe_text(sent) and path[0] != "method":
        assert response.status_code == 422, f"unsafe text {sent!r} in {_field_name(path)} was not refused: {response.text[:300]}"
        want = "options (a key)" if path == ("options key",) else _field_name(path)
        assert response.json()["field"] == want, response.json()
    if response.status_code != 202:
        detail = response.json()["detail"]
        assert isinstance(detail, str) and "\n" not in detail and response.json().get("field"), response.json()
        return "refused"
    job = check_job_path(client, name, response.json()["id"])
    if name == "tiling" and path == ("instance", "id") and job["state"] == "done":
        exported = json.loads(_ok(client, f"/api/jobs/{job['id']}/export/contest").text)
        assert exported["id"] == sent  # the same text back, not a mangled copy
    return job["state"] + (" verified" if job["result"] and job["result"]["verified"] else "")


def test_every_text_field_of_every_puzzle_is_refused_or_served_safely(service):
    client, _ = service
    assert {f[0] for f in FIELDS} >= {"tiling", "coins", "macmahon", "hexagon", "matchsticks"}
    started = time.monotonic()

    @settings(max_examples=30, **FUZZ_SETTINGS)
    @given(request=requests())
    def one(request):
        run_one(client, *request)
        check_listings(client)

    one()
    check_listings(client)
    assert time.monotonic() - started < 120


SAFE_BUT_HOSTILE = "<b a='1'>&amp;\"]]> é漢字\U0001f600\u2028</b>"


def _with_text(name: str, method: str | None, path: tuple, text: str) -> dict:
    """The base body of the puzzle with `text` put into the field at `path` (after the
    field's own value, so a field that takes any text still reads)."""
    entry, form = BASES[name]
    body: dict[str, Any] = {"puzzle": name, "instance": json.loads(json.dumps(form)), "budget": BUDGET, "method": method}
    if path == ("instance",):
        body["instance"] = entry + text
    elif path[0] == "instance":
        holder = body["instance"]
        for step in path[1:-1]:
            holder = holder[step]
        holder[path[-1]] = (holder[path[-1]] or "") + text
    elif path == ("options key",):
        body["options"] = {text: 1}
    else:
        body["options"] = {path[1]: text}
    return body


def test_each_field_once_with_a_lone_surrogate_a_nul_and_markup(service):
    """Deterministically, not left to chance: each field gets the two texts that broke
    the jobs list (each answers 422 naming that field) and text full of markup (refused
    by the puzzle, or run and served back well-formed)."""
    client, _ = service
    came = {}
    for name, method, path in FIELDS:
        if path[0] == "method":
            continue
        for text in ("\ud800x", "a\x00b", SAFE_BUT_HOSTILE):
            body = _with_text(name, method, path, text)
            came[(name, _field_name(path), text)] = run_one(client, name, path, body, _sent(body, path))
    check_listings(client)
    assert came[("tiling", "instance.id", SAFE_BUT_HOSTILE)] == "done verified", came
    assert {v for k, v in came.items() if k[2] != SAFE_BUT_HOSTILE} == {"refused"}


def test_the_listings_answer_after_a_restart_on_the_same_store(service):
    client, path = service
    app = create_app(workers=1, store_path=str(path), start_method="fork")
    app.state.runner = DoorOnlyRunner(app.state.store, 1, start_method="fork")
    with TestClient(app, raise_server_exceptions=False) as again:
        check_listings(again)


@pytest.mark.slow
def test_every_text_field_of_every_puzzle_long(service):
    client, _ = service

    @settings(max_examples=400, **FUZZ_SETTINGS)
    @given(request=requests())
    def one(request):
        run_one(client, *request)

    one()
    check_listings(client)


# ------------------------------------------------------------ a store written before the door refused such text
def test_text_stored_before_the_door_refused_it_does_not_break_a_listing(tmp_path):
    """A jobs row and a record holding a lone surrogate and a NUL (as a store written
    before the door refused them holds): after a restart the jobs list, that job, the
    records and the dashboards answer 200; the job is failed and says why, and the
    record is passed over."""
    path = tmp_path / "records.sqlite"
    tiling = REGISTRY["tiling"]
    form = {"id": "\ud800x", "width": 2, "height": 2, "puzzle": [[True, True], [True, True]]}
    instance = tiling.parse(form)
    result = tiling.solve(instance, budget=10)
    assert result.verified and result.solution["id"] == "\ud800x"
    store = Store(path)
    key = tiling.instance_key(instance)
    store.add("tiling", key, result, tiling.sense, instance_json=tiling.format_instance(instance))
    DoorOnlyRunner(store, 1, start_method="fork").open_jobs()  # the jobs table
    report = json.dumps(tiling.report(instance, result), default=str)
    with store.connect() as db:
        for job_id, ident in (("surrogate", "\\ud800x"), ("nul", "a\\u0000b")):
            db.execute(
                "INSERT INTO jobs (id, puzzle, instance_key, instance, method, options, budget, seed, state, created, result)"
                " VALUES (?, 'tiling', ?, ?, 'auto', '{}', 5, 0, 'done', ?, ?)",
                (job_id, key, json.dumps(form).replace("\\ud800x", ident), time.time(), report.replace("\\ud800x", ident)),
            )
    app = create_app(workers=1, store_path=str(path), start_method="fork")
    app.state.runner = DoorOnlyRunner(app.state.store, 1, start_method="fork")
    with TestClient(app, raise_server_exceptions=False) as client:
        check_listings(client)
        for job_id in ("surrogate", "nul"):
            job = _ok(client, f"/api/jobs/{job_id}").json()
            assert job["state"] == "failed" and ("lone surrogate" in job["error"] or "NUL" in job["error"]), job
            assert job["result"] is None
        assert [r for r in _ok(client, "/api/records", params={"puzzle": "tiling"}).json() if r["instance"] == key] == []
        assert client.get("/api/records/tiling/answer", params={"instance": key}).status_code == 404
