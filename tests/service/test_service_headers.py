"""The page's headers (service.headers): `X-Content-Type-Options: nosniff` on every
response, errors included; the strict Content-Security-Policy on all but FastAPI's
OpenAPI pages; exports as attachments with a safe file name; and the page's own files
hold nothing that policy would block (no inline script, style or handler), so the page
works under it (the browser tests run it there: test_page_browser.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from puzzlelab.service.app import create_app
from puzzlelab.service.errors import MAX_BODY_BYTES
from puzzlelab.service.headers import PAGE_POLICY
from puzzlelab.service.routes.page import STATIC
from support.job_waiting import wait_for


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(workers=1, store_path=str(tmp_path_factory.mktemp("headers") / "records.sqlite"), start_method="fork")
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def done_job(client):
    posted = client.post("/api/jobs", json={"puzzle": "toy", "instance": "small"})
    job = wait_for(client, posted.json()["id"])
    assert job["state"] == "done"
    return job


def test_every_kind_of_response_says_nosniff_and_the_policy(client, done_job):
    answers = [
        client.get("/"),
        client.get("/static/app.js"),
        client.get("/static/style.css"),
        client.get("/api/health"),
        client.get("/api/puzzles"),
        client.get("/api/jobs"),
        client.get(f"/api/jobs/{done_job['id']}/svg"),
        client.get(f"/api/jobs/{done_job['id']}/export/json"),
        client.get("/api/jobs/nosuchjob"),  # 404
        client.post("/api/jobs", json={"puzzle": "toy"}),  # 422
        client.post("/api/jobs", content=b"{" + b" " * MAX_BODY_BYTES + b"}", headers={"content-type": "application/json"}),  # 413
        client.get("/static/nosuch.js"),
        client.get("/openapi.json"),
    ]
    for answer in answers:
        where = f"{answer.request.method} {answer.request.url.path} -> {answer.status_code}"
        assert answer.headers.get("x-content-type-options") == "nosniff", where
        assert answer.headers.get("content-security-policy") == PAGE_POLICY, where
    assert [a.status_code for a in answers[8:12]] == [404, 422, 413, 404]


def test_the_policy_is_strict():
    rules = dict(rule.split(" ", 1) for rule in PAGE_POLICY.split("; "))
    assert rules["default-src"] == "'none'" and rules["script-src"] == "'self'" and rules["style-src"] == "'self'"
    assert "unsafe" not in PAGE_POLICY and "*" not in PAGE_POLICY and rules["frame-ancestors"] == "'none'"


def test_the_openapi_pages_keep_their_own_scripts(client):
    docs = client.get("/docs")
    assert docs.status_code == 200 and docs.headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" not in docs.headers  # Swagger UI: CDN scripts and an inline one


def test_exports_are_attachments_with_safe_names(client, done_job):
    for format in ("json", "svg"):
        answer = client.get(f"/api/jobs/{done_job['id']}/export/{format}")
        assert answer.status_code == 200
        disposition = answer.headers["content-disposition"]
        assert re.fullmatch(r'attachment; filename="[A-Za-z0-9_.-]+"', disposition), disposition
        assert disposition.endswith(f'.{format}"')
    record = client.get("/api/records/toy/answer/export/json", params={"instance": done_job["instance"]})
    assert record.status_code == 200 and record.headers["content-disposition"].startswith("attachment; filename=")


class _Inline(HTMLParser):
    """What in a page the policy would block: inline scripts and styles, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if tag == "script":
            self._in_script = True
            if not (names.get("src") or "").startswith("/static/"):
                self.found.append(f"<script src={names.get('src')!r}>")
        if tag == "link" and names.get("rel") == "stylesheet" and not (names.get("href") or "").startswith("/static/"):
            self.found.append(f"<link href={names.get('href')!r}>")
        for name, value in attrs:
            if name == "style" or name.startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=...>")

    def handle_endtag(self, tag):
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.found.append("inline script")


def test_the_page_has_nothing_inline():
    parser = _Inline()
    parser.feed((STATIC / "index.html").read_text())
    assert not parser.found, parser.found


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js")))
def test_the_scripts_write_no_inline_style_or_handler(script):
    """Markup the scripts build (innerHTML) and attributes they set: no style
    attribute, no on* handler, no javascript: URL, no eval."""
    text = (STATIC / script).read_text()
    patterns = [r"\sstyle\s*=", r"""setAttribute\(\s*["'](style|on\w+)""", r"""\son[a-z]+\s*=\s*["'`$\\]""", r"javascript:", r"\beval\(",
                r"new Function\("]
    found = [p for p in patterns if re.search(p, text)]
    assert not found, found


def test_the_styles_load_nothing_from_elsewhere():
    for sheet in STATIC.glob("*.css"):
        text = sheet.read_text()
        assert "@import" not in text and not re.search(r"url\(\s*['\"]?(https?:|//)", text), sheet.name


def test_an_unexpected_error_is_a_json_500_with_the_headers(tmp_path):
    """A route that raises what no handler expects: the last-resort handler's JSON 500
    (errors.py), with nosniff and the policy like every other answer."""
    app = create_app(workers=1, store_path=str(tmp_path / "records.sqlite"), start_method="fork")

    @app.get("/api/raises")
    def raises():
        raise RuntimeError("planted fault")

    with TestClient(app, raise_server_exceptions=False) as c:
        answer = c.get("/api/raises")
    assert answer.status_code == 500
    assert "planted fault" in answer.json()["detail"]
    assert answer.headers.get("x-content-type-options") == "nosniff"
    assert answer.headers.get("content-security-policy") == PAGE_POLICY
