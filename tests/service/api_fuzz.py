"""Generated requests against the REST API and the judge of each answer, shared
by tests/service/test_service_fuzz.py and benchmarks/bench_fuzz_api.py.

Every route of the OpenAPI description gets requests built from hypothesis strategies:
job bodies that start valid (a catalog instance of a registered puzzle) and take 0-3
hostile mutations (NaN, Infinity, 1e400, 5,000-digit integers, booleans, wrong types,
deep nesting, odd text, options naming server files, unknown names), raw bodies that
are not JSON or not text, hexagon grids of order 2 (judged by a rule check written
here), and path and query values of every kind for the other routes.

Each mutation knows whether it makes the request invalid, so each answer is judged:
a 5xx, a status or body the OpenAPI does not document for that route, a 2xx for a
request that must be refused ("false valid"), a 4xx for one that must be accepted
("false refusal"), a 4xx whose detail is not one line, an answer slower than HANG_SECONDS.

The jobs are checked at the door but never run (`DoorOnlyRunner`): what is fuzzed
here is what a client can make the service do before a job starts.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import jsonschema
from hypothesis import strategies as st

from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.intake import option_name
from puzzlelab.service.jobs import JobRunner
from puzzlelab.service.models import MAX_BUDGET_SECONDS, MAX_SEED
from support.text_strategies import text

HANG_SECONDS = 15.0  # an answer slower than this counts as a hang (the door's own limit is 10 s)
KINDS = ("ok", "clear", "5xx", "schema", "false_valid", "false_refusal", "unclear", "hang")


# ------------------------------------------------------------ a runner that runs nothing
class DoorOnlyRunner(JobRunner):
    """Checks and writes jobs like the real runner, then cancels each at once: no
    worker process, so thousands of accepted jobs cost nothing."""

    def start(self) -> None:
        self.open_jobs()

    def stop(self) -> None:
        self._save()

    def submit(self, *args: Any) -> Any:
        job = super().submit(*args)
        with self._lock:
            self._set_state(job, "cancelled", error="not run: only the door is under test")
        self._save()
        return job


# ------------------------------------------------------------ JSON text with hostile values
@dataclass(frozen=True)
class Raw:
    """JSON text put into a body as it is: 1e400, NaN, a 5,000-digit integer, '[[[...'.
    `readable`: whether the service's JSON door (core.inputs.parse_json) reads it at
    all (False for 1e400, which a float cannot hold, for NaN and for integers of over
    30 digits; None when it depends on where it is put, as nesting does)."""

    text: str
    readable: bool | None = True


def encode(value: Any) -> str:
    """JSON text of `value`, with Raw pieces as they are and NaN/Infinity as Python's
    json module writes them (which JSON does not allow)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(encode(v) for v in value) + "]"
    return json.dumps(value, allow_nan=True)


def nested(depth: int) -> Raw:
    return Raw("[" * depth + "]" * depth, None)


HUGE_NUMBERS = [Raw("1e400", False), Raw("-1e400", False), Raw("1e-400"), Raw("NaN", False), Raw("Infinity", False),
                Raw("-Infinity", False),
                Raw("9" * 31, False), Raw("9" * 400, False), Raw("9" * 5000, False), Raw("-" + "9" * 5000, False),
                Raw("1" + "0" * 30 + ".5")]
ODD_TEXTS = ["", " ", "\x00", "small\x00", "100000x100000", "1000000000", "(" + "9" * 5000 + ")", "WWWR*²", "1x1/c1",
             "4x6/WWWR*²", "../../etc/passwd", "/etc/passwd", "-", "NaN", "1e400", "x" * 5000, "é" * 1000,
             "(1,1),(1,9,1),(1,1)", "(" * 3000, "[" * 70, "{" * 70, "font5x7:A-", "contest_0", "0", "-1", "64", "\u2028"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True), text(20), st.sampled_from(HUGE_NUMBERS),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text(8), inner, max_size=4),
    max_leaves=12,
)
hostile_values = st.one_of(
    json_values, st.sampled_from(ODD_TEXTS), st.sampled_from([nested(40), nested(63), nested(65), nested(3000)])
)


# ------------------------------------------------------------ requests
@dataclass
class Request:
    verb: str
    route: str  # the path as the OpenAPI names it
    path: str
    params: dict[str, str] | None = None
    body: bytes | None = None
    content_type: str | None = "application/json"
    expect: bool | None = None  # True: must be accepted, False: must be refused, None: either
    why: list[str] = field(default_factory=list)

    def send(self, client: Any) -> Any:
        headers = {"content-type": self.content_type} if self.content_type and self.body is not None else {}
        return client.request(self.verb, self.path, params=self.params, content=self.body, headers=headers)


def _catalog_names(name: str) -> list[str]:
    names = list(REGISTRY[name].catalog())
    return names[:3] + names[-2:] if names else []


PUZZLES = [name for name in REGISTRY if _catalog_names(name)]
SERVER_NAMES = ["checkpoint", "workdir", "backend", "address", "out", "path", "file", "dir", "--checkpoint", "Checkpoint",
                "out_file", "log_path", "cache_dir", "work-dir", "ray_address"]

# A mutation changes one field of a job body and says what that does to the request:
# False (must now be refused), None (either answer is right), True (no harm). The
# request's expectation is worked out from the verdict of each field as it ends up.


def _options(body: dict, verdicts: dict) -> dict:
    if not isinstance(body.get("options"), dict):
        body["options"] = {}
        verdicts.pop("options", None)
    return body["options"]


def _method_of(body: dict, puzzle: str):
    name = body.get("method") or REGISTRY[puzzle].default_method
    return REGISTRY[puzzle].methods.get(name) if isinstance(name, str) else None


def _bad_budget(draw, body, puzzle, verdicts):
    body["budget"] = draw(st.sampled_from([Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e400"), 0, -1, -1e-9,
                                            MAX_BUDGET_SECONDS + 1, True, False, [1], {}, "abc", "NaN", "1e400"]))
    verdicts["budget"] = False


def _odd_budget(draw, body, puzzle, verdicts):
    body["budget"] = draw(st.sampled_from(["10", " 5 ", "1e1", 1e-300, MAX_BUDGET_SECONDS]))
    verdicts["budget"] = None


def _bad_seed(draw, body, puzzle, verdicts):
    body["seed"] = draw(st.sampled_from([-1, MAX_SEED + 1, 2**63, 2**64, 10**29, True, False, 1.5, "x", None, [0],
                                          Raw("9" * 50), Raw("NaN"), Raw("1e400")]))
    verdicts["seed"] = False


def _bad_puzzle(draw, body, puzzle, verdicts):
    value = draw(hostile_values)
    body["puzzle"] = value
    verdicts["puzzle"] = None if isinstance(value, str) and value in REGISTRY else False


def _bad_method(draw, body, puzzle, verdicts):
    value = draw(hostile_values)
    body["method"] = value
    known = value in (None, "") or (isinstance(value, str) and value in REGISTRY[puzzle].methods)  # "" asks for the default
    verdicts["method"] = None if known else False


def _server_option(draw, body, puzzle, verdicts):
    value = draw(st.sampled_from(["/tmp/x.json", "../../x", "/", "local", "ray", "127.0.0.1:6379", "", 0, True, ["a"]]))
    name = draw(st.sampled_from(SERVER_NAMES))
    _options(body, verdicts)[name] = value
    verdicts["option " + name] = False


def _unknown_option(draw, body, puzzle, verdicts):
    method = _method_of(body, puzzle)
    name = draw(text(12))
    known = method is None or option_name(name) in {o.name for o in method.options}
    _options(body, verdicts)[name] = draw(json_values)
    verdicts["option " + name] = None if known else False


def _option_value(draw, body, puzzle, verdicts):
    method = _method_of(body, puzzle)
    if method is None or not method.options:
        return
    option = draw(st.sampled_from(method.options))
    _options(body, verdicts)[option.name] = draw(hostile_values)
    verdicts["option " + option.name] = None


def _bad_options(draw, body, puzzle, verdicts):
    body["options"] = draw(st.sampled_from([[], "checkpoint=/tmp/x", 5, True, Raw("NaN"), [["a", 1]]]))
    for key in [k for k in verdicts if k.startswith("option ")]:
        del verdicts[key]
    verdicts["options"] = False


def _odd_instance(draw, body, puzzle, verdicts):
    value = draw(hostile_values)
    body["instance"] = value
    verdicts["instance"] = False if value is None or value == "" else None


def _drop(draw, body, puzzle, verdicts):
    key = draw(st.sampled_from(["puzzle", "instance"]))
    body.pop(key, None)
    verdicts[key] = False


def _readable(value: Any) -> bool | None:
    """Whether the JSON door reads a value (no NaN, no Infinity, no 31-digit integers)."""
    if isinstance(value, Raw):
        return value.readable
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, (dict, list)):
        parts = [_readable(v) for v in (value.values() if isinstance(value, dict) else value)]
        return False if False in parts else None if None in parts else True
    return not isinstance(value, int) or isinstance(value, bool) or len(str(abs(value))) <= 30


def _extra(draw, body, puzzle, verdicts):
    """A field the model does not know: ignored, if the door reads the body at all."""
    key = draw(text(10))
    if key not in ("puzzle", "instance", "method", "options", "budget", "seed"):
        body[key] = draw(json_values)
        verdicts["extra " + key] = _readable(body[key])


MUTATIONS = [_bad_budget, _odd_budget, _bad_seed, _bad_puzzle, _bad_method, _server_option, _unknown_option,
             _option_value, _bad_options, _odd_instance, _drop, _extra]


def expectation(verdicts: dict) -> bool | None:
    values = list(verdicts.values())
    return False if False in values else None if None in values else True


@st.composite
def job_bodies(draw) -> tuple[dict, bool | None, list[str]]:
    """A job body, whether it must be accepted, and what was done to it."""
    puzzle = draw(st.sampled_from(PUZZLES))
    body: dict[str, Any] = {"puzzle": puzzle, "instance": draw(st.sampled_from(_catalog_names(puzzle)))}
    if draw(st.booleans()):
        body["method"] = draw(st.sampled_from(list(REGISTRY[puzzle].methods)))
    if draw(st.booleans()):
        body["budget"] = draw(st.one_of(st.integers(1, 600), st.floats(0.001, MAX_BUDGET_SECONDS)))
    if draw(st.booleans()):
        body["seed"] = draw(st.integers(0, MAX_SEED))
    verdicts: dict[str, bool | None] = {}
    why = []
    for mutation in draw(st.lists(st.sampled_from(MUTATIONS), max_size=3)):
        why.append(mutation.__name__.strip("_"))
        mutation(draw, body, puzzle, verdicts)
    return body, expectation(verdicts), why


# ------------------------------------------------------------ hexagon grids of order 2 and their oracle
HEX2_ROWS = (2, 3, 2)


def hex2_neighbours() -> dict[tuple[int, int], set[tuple[int, int]]]:
    """Cells of the order-2 hexagon (rows of 2, 3, 2) and their neighbours: along a row,
    and between rows, cell c of the shorter row touches cells c and c+1 of the longer."""
    cells = [(r, c) for r, n in enumerate(HEX2_ROWS) for c in range(n)]
    near: dict[tuple[int, int], set[tuple[int, int]]] = {cell: set() for cell in cells}

    def link(a, b):
        near[a].add(b)
        near[b].add(a)

    for r, n in enumerate(HEX2_ROWS):
        for c in range(n - 1):
            link((r, c), (r, c + 1))
    for upper, lower in ((0, 1), (2, 1)):
        for c in range(HEX2_ROWS[upper]):
            link((upper, c), (lower, c))
            link((upper, c), (lower, c + 1))
    return near


HEX2 = hex2_neighbours()


def hex2_valid(rows: list[list[int]]) -> bool:
    """The rule, checked here: a cell holding k has each of 1..k-1 among its neighbours."""
    for (r, c), near in HEX2.items():
        seen = {rows[nr][nc] for nr, nc in near}
        if any(k not in seen for k in range(1, min(rows[r][c], 8))) or rows[r][c] > 7:
            return False
    return True


@st.composite
def hexagon_grids(draw) -> tuple[dict, bool | None, list[str]]:
    rows = [[draw(st.integers(1, 4) | st.integers(1, 12)) for _ in range(n)] for n in HEX2_ROWS]
    form = draw(st.sampled_from(["text", "rows", "json"]))
    text_form = ", ".join("(" + ",".join(map(str, row)) + ")" for row in rows)
    instance = {"text": text_form, "rows": rows, "json": {"n": 2, "grid": text_form}}[form]
    body = {"puzzle": "hexagon", "instance": instance, "method": draw(st.sampled_from(["improve", "sat", "beam", None])), "budget": 5}
    return body, hex2_valid(rows), [f"hexagon grid ({form})"]


# ------------------------------------------------------------ the routes
RAW_BODIES = [b"", b"\xff\xfe\xfd", b'{"puzzle": "toy", "instance": "sm\xc3"}', b"NaN", b"null", b"[]", b"1",
              b'{"puzzle": "toy"', b"{" * 100_000, b'{"a": ' + b"9" * 5000 + b"}", b"\x00{}", b'"\\ud800"']


@st.composite
def post_job(draw) -> Request:
    kind = draw(st.sampled_from(["body", "body", "body", "grid", "raw", "text"]))
    content_type = "application/json"
    if kind in ("body", "grid"):
        body, expect, why = draw(job_bodies() if kind == "body" else hexagon_grids())
        data = encode(body).encode("utf-8", "surrogatepass")
        content_type = draw(st.sampled_from(["application/json"] * 6 + [None, "text/plain", "application/vnd.api+json"]))
        if content_type == "text/plain":
            expect, why = False, why + ["text/plain"]
        elif content_type is None and expect is True:
            expect = None
    elif kind == "raw":
        data, expect, why = draw(st.sampled_from(RAW_BODIES)), False, ["raw body"]
    else:
        data, expect, why = draw(text(200)).encode("utf-8", "surrogatepass"), False, ["text body"]
    return Request("POST", "/api/jobs", "/api/jobs", body=data, content_type=content_type, expect=expect, why=why)


def _segment(value: str) -> str:
    return quote(value, safe="")


def _one_segment(value: str) -> bool:
    """A value that stays one path segment ('/' would make another path, '.' and '..'
    are resolved away by the client)."""
    return "/" not in value and value.strip(".") != "" and value.strip() != ""


job_id_texts = text(24).filter(_one_segment)


@st.composite
def job_routes(draw, known_ids: list[str]) -> Request:
    suffix, verb = draw(st.sampled_from([("", "GET"), ("", "DELETE"), ("/svg", "GET"), ("/events", "GET"), ("/answer", "GET"),
                                         ("/export/{format}", "GET"), ("/progress", "GET")]))
    if suffix == "/export/{format}":
        name = draw(st.sampled_from(["json", "svg", "text"]) | text(12).filter(_one_segment))
        route = "/api/jobs/{job_id}/export/{format}"
        job_id = draw(st.sampled_from(known_ids)) if known_ids and draw(st.booleans()) else draw(job_id_texts)
        # door-only jobs have no answer to export
        return Request(verb, route, f"/api/jobs/{_segment(job_id)}/export/{_segment(name)}", expect=False, why=[f"{verb} {route}"])
    if known_ids and draw(st.booleans()):
        job_id, expect = draw(st.sampled_from(known_ids)), suffix not in ("/svg", "/answer")  # door-only jobs have no picture
    else:
        job_id, expect = draw(job_id_texts), False
    route = "/api/jobs/{job_id}" + suffix
    return Request(verb, route, f"/api/jobs/{_segment(job_id)}{suffix}", expect=expect, why=[f"{verb} {route}"])


query_values = st.one_of(text(12), st.sampled_from(["", "0", "1", "50", "2000", "2001", "-5", "1e400", "NaN", "9" * 40,
                                                    "true", " 7", "5.0", "0x10"]), st.integers(-10, 3000).map(str))


DASHBOARDS = ("matchsticks", "hexagon", "coins", "tiling", "macmahon")
FONTS = ("font5x7", "font5x9")


def _dashboard(draw) -> Request:
    """GET /api/records/{puzzle}/dashboard (and the coins font): 200 only for a puzzle
    with a dashboard and a shipped font."""
    name = draw(st.sampled_from(list(DASHBOARDS) + list(REGISTRY)) | text(16).filter(_one_segment))
    route = f"/api/records/{name}/dashboard" if name in DASHBOARDS else "/api/records/{puzzle}/dashboard"
    if name == "coins" and draw(st.booleans()):
        font = draw(st.sampled_from(FONTS) | query_values)
        return Request("GET", route, f"/api/records/{name}/dashboard", params={"font": font}, expect=font in FONTS, why=["coins font"])
    return Request("GET", route, f"/api/records/{_segment(name)}/dashboard", expect=name in DASHBOARDS, why=["dashboard"])


def _answer(draw) -> Request:
    """A record's answer, picture or export: never a 2xx for an unknown puzzle; either
    answer for a known one (what the store holds decides)."""
    puzzle = draw(st.sampled_from(list(REGISTRY)) | text(16).filter(_one_segment))
    instance = draw(st.sampled_from(_catalog_names(puzzle) if puzzle in REGISTRY and _catalog_names(puzzle) else ["3"])
                    | st.sampled_from(ODD_TEXTS) | text(30))
    suffix = draw(st.sampled_from(["", "/svg", "/export/json", "/export/text", "/export/{format}"]))
    path_suffix = suffix.replace("{format}", _segment(draw(text(12).filter(_one_segment))))
    route = "/api/records/{puzzle}/answer" + ("/export/{format}" if suffix.startswith("/export") else suffix)
    expect = False if puzzle not in REGISTRY or instance == "" else None
    return Request("GET", route, f"/api/records/{_segment(puzzle)}/answer{path_suffix}", params={"instance": instance}, expect=expect,
                   why=["answer" + suffix])


def _preview(draw) -> Request:
    """POST /api/preview: a catalog instance of a registered puzzle must be drawn; a
    hostile instance or puzzle may be refused (an unknown puzzle must be)."""
    puzzle = draw(st.sampled_from(PUZZLES))
    body: dict[str, Any] = {"puzzle": puzzle, "instance": draw(st.sampled_from(_catalog_names(puzzle)))}
    expect: bool | None = True
    if draw(st.booleans()):
        body["instance"] = draw(hostile_values)
        expect = False if body["instance"] is None or body["instance"] == "" else None
    if draw(st.integers(0, 4)) == 0:
        body["puzzle"] = draw(hostile_values)
        expect = None if isinstance(body["puzzle"], str) and body["puzzle"] in REGISTRY and expect is not False else False
    return Request("POST", "/api/preview", "/api/preview", body=encode(body).encode("utf-8", "surrogatepass"), expect=expect,
                   why=["preview"])


@st.composite
def other_routes(draw) -> Request:
    which = draw(st.sampled_from(["list", "catalog", "records", "health", "puzzles", "dashboard", "answer", "preview", "dashboards"]))
    if which == "dashboard":
        return _dashboard(draw)
    if which == "answer":
        return _answer(draw)
    if which == "preview":
        return _preview(draw)
    if which == "dashboards":
        return Request("GET", "/api/records/dashboards", "/api/records/dashboards", expect=True, why=["dashboards"])
    if which == "list":
        if draw(st.booleans()):
            return Request("GET", "/api/jobs", "/api/jobs", expect=True, why=["list"])
        limit = draw(query_values)
        clean = re.fullmatch(r"[0-9]+", limit) is not None
        expect = (1 <= int(limit) <= 2000) if clean else (None if re.search(r"[0-9]", limit) else False)
        return Request("GET", "/api/jobs", "/api/jobs", params={"limit": limit}, expect=expect, why=["list limit"])
    if which == "catalog":
        name = draw(st.sampled_from(list(REGISTRY)) | text(16).filter(_one_segment))
        return Request("GET", "/api/puzzles/{name}/catalog", f"/api/puzzles/{_segment(name)}/catalog", expect=name in REGISTRY,
                       why=["catalog"])
    if which == "records":
        if draw(st.booleans()):
            return Request("GET", "/api/records", "/api/records", expect=True, why=["records"])
        puzzle = draw(st.sampled_from(list(REGISTRY)) | text(16))
        return Request("GET", "/api/records", "/api/records", params={"puzzle": puzzle}, expect=puzzle in REGISTRY, why=["records of"])
    route = f"/api/{which}"
    return Request("GET", route, route, expect=True, why=[which])


def requests(known_ids: list[str]) -> st.SearchStrategy[Request]:
    """Requests over every documented route, half of them job submissions."""
    return st.one_of(post_job(), post_job(), job_routes(known_ids), other_routes())


# ------------------------------------------------------------ the judge
class Judge:
    """Judges each answer against the OpenAPI description of its route."""

    def __init__(self, spec: dict[str, Any]):
        self.spec = spec

    def _schema_problem(self, request: Request, response: Any) -> str | None:
        operation = self.spec["paths"][request.route][request.verb.lower()]
        documented = operation["responses"].get(str(response.status_code))
        if documented is None:
            return f"status {response.status_code} not documented for {request.verb} {request.route}"
        media = response.headers.get("content-type", "").split(";")[0].strip()
        content = documented.get("content", {})
        if media not in content:
            return f"content type {media!r} not documented for {response.status_code} of {request.verb} {request.route}"
        schema = content[media].get("schema")
        if media == "application/json" and schema:
            try:
                body = response.json()
            except ValueError:
                return "a JSON response that is not JSON"
            # the components beside the schema, so that its '#/components/...' references resolve
            validator = jsonschema.Draft202012Validator(dict(schema, components=self.spec.get("components", {})))
            error = jsonschema.exceptions.best_match(validator.iter_errors(body))
            if error is not None:
                return f"body does not match the documented schema: {error.message[:200]}"
        return None

    def judge(self, client: Any, request: Request) -> tuple[str, str]:
        """(kind, what) for one request: kind is one of KINDS."""
        started = time.monotonic()
        response = request.send(client)
        seconds = time.monotonic() - started
        status = response.status_code
        if status >= 500:
            return "5xx", f"{status}: {response.text[:300]}"
        problem = self._schema_problem(request, response)
        if problem:
            return "schema", problem
        if seconds > HANG_SECONDS:
            return "hang", f"{seconds:.1f} s"
        ok = 200 <= status < 300
        if ok and request.expect is False:
            return "false_valid", f"{status} for a request that must be refused"
        if not ok and request.expect is True:
            return "false_refusal", f"{status}: {response.text[:300]}"
        if not ok:
            detail = response.json().get("detail")
            if not isinstance(detail, str) or "\n" in detail or not detail.strip() or len(detail) > 2000:
                return "unclear", repr(detail)[:300]
            return "clear", ""
        return "ok", ""


def describe(request: Request) -> str:
    body = "" if request.body is None else request.body[:200].decode("utf-8", "replace")
    return f"{request.verb} {request.path[:80]} {request.params or ''} {' + '.join(request.why)} body={body!r}"

