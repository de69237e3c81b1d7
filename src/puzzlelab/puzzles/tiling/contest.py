"""A practice server speaking the Cimpress Tech Challenge API, and the contest client.

The tiling write-up (seed 001, sections 4 and 5) describes the contest loop: fetch a
puzzle, solve it in parallel under a 10-second deadline less the round trip, post the
squares, log the score, keep the puzzle to re-solve it later. The practice server lets
that loop be run and tested on loopback:

- `GET /{key}/{trial|contest}/puzzle` issues a seeded random puzzle (sides 20..40, about
  5% blocked cells) in the contest's JSON form `{"id", "width", "height", "puzzle"}`;
- `POST /{key}/{mode}/solution` with `{"id", "squares": [{"X", "Y", "Size"}]}` answers
  `{"numberOfSquares", "timePenalty", "score", "errors"}`.

Scoring of this practice server (the contest's exact penalty formula was never
published in the write-up, only that lateness and invalid squares cost): the score is
the number of squares plus the time penalty; the penalty is 0 up to `deadline` seconds
after issue and then `PENALTY_PER_SECOND` squares for every started second beyond; an
answer with any invalid square scores as the worst answer, one 1x1 square per free cell,
with every error listed. The answer is checked by the independent tiling verifier.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from puzzlelab.puzzles.tiling.model import Grid, format_grid, format_solution, parse_grid, parse_squares
from puzzlelab.puzzles.tiling.verify import verify_tiling

__all__ = [
    "MODES",
    "PENALTY_PER_SECOND",
    "PracticeContest",
    "create_contest_app",
    "random_puzzle",
    "ContestLog",
    "run_contest",
]

MODES = ("trial", "contest")
PENALTY_PER_SECOND = 10
MIN_SIDE, MAX_SIDE, BLOCKED_SHARE = 20, 40, 0.05


def random_puzzle(rng: random.Random) -> Grid:
    """A contest-like puzzle: sides drawn from 20..40, each cell blocked with chance 5%."""
    width, height = rng.randint(MIN_SIDE, MAX_SIDE), rng.randint(MIN_SIDE, MAX_SIDE)
    free = np.array([[rng.random() >= BLOCKED_SHARE for _ in range(width)] for _ in range(height)], dtype=bool)
    if not free.any():
        free[0, 0] = True
    digest = hashlib.sha1(free.tobytes() + bytes([width, height]) + rng.getrandbits(64).to_bytes(8, "big")).hexdigest()
    return Grid.from_array(free, id=digest[:24])


@dataclass
class _Issued:
    grid: Grid
    key: str
    mode: str
    issued: float
    answered: bool = False


@dataclass
class PracticeContest:
    """The server's state: puzzles issued, in order, from one seed; `clock` is
    injectable so tests can answer 'late' without waiting."""

    seed: int = 2015
    deadline: float = 10.0
    clock: Callable[[], float] = time.monotonic
    issued: dict[str, _Issued] = field(default_factory=dict)
    _counts: dict[tuple[str, str], int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def issue(self, key: str, mode: str) -> Grid:
        with self._lock:
            number = self._counts.get((key, mode), 0)
            self._counts[(key, mode)] = number + 1
            grid = random_puzzle(random.Random(f"{self.seed}:{key}:{mode}:{number}"))
            self.issued[grid.id] = _Issued(grid, key, mode, self.clock())
        return grid

    def score(self, key: str, mode: str, answer: Any) -> dict[str, Any]:
        """The contest's answer to a posted solution (see the module docstring)."""
        now = self.clock()
        if not isinstance(answer, dict) or not isinstance(answer.get("id"), str):
            return {"numberOfSquares": None, "timePenalty": None, "score": None, "errors": ["id: expected the puzzle's id string"]}
        ticket = self.issued.get(answer["id"])
        if ticket is None or ticket.key != key or ticket.mode != mode:
            return {"numberOfSquares": None, "timePenalty": None, "score": None, "errors": [f"id: no puzzle {answer['id']!r} was issued to this key in {mode} mode"]}
        errors: list[str] = []
        if ticket.answered:
            errors.append("id: this puzzle was already answered")
        ticket.answered = True
        late = max(0.0, now - ticket.issued - self.deadline)
        penalty = PENALTY_PER_SECOND * math.ceil(late) if late > 0 else 0
        verdict = verify_tiling(ticket.grid, answer)
        if verdict.ok and not errors:
            squares = int(verdict.value)
        else:
            if not verdict.ok:
                errors.append(verdict.message)
            squares = ticket.grid.free_cells
        return {"numberOfSquares": squares, "timePenalty": penalty, "score": squares + penalty, "errors": errors}


def create_contest_app(contest: PracticeContest | None = None):
    """The FastAPI app of the practice server."""
    from fastapi import Body, FastAPI, HTTPException

    contest = contest or PracticeContest()
    app = FastAPI(title="puzzlelab practice contest (Cimpress Tech Challenge API)")
    app.state.contest = contest

    def _mode(mode: str) -> str:
        if mode not in MODES:
            raise HTTPException(404, f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        return mode

    @app.get("/{key}/{mode}/puzzle")
    def get_puzzle(key: str, mode: str) -> dict[str, Any]:
        return format_grid(contest.issue(key, _mode(mode)))

    @app.post("/{key}/{mode}/solution")
    def post_solution(key: str, mode: str, answer: Any = Body(...)) -> dict[str, Any]:
        return contest.score(key, _mode(mode), answer)

    return app


# ---------------------------------------------------------------------------- client
@dataclass
class ContestLog:
    """One line of the client's log: what was fetched, found and scored."""

    id: str
    width: int
    height: int
    squares: int
    status: str
    seconds_to_post: float
    answer: dict[str, Any]
    saved: str

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def _http(url: str, body: Any = None, timeout: float = 10.0) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def warm_up(workers: int = 0) -> None:
    """Solve one small grid first so kernel compilation and worker start-up are not
    charged to the first contest puzzle's ten seconds."""
    from puzzlelab.core.result import Budget
    from puzzlelab.puzzles.tiling.puzzle import TilingPuzzle

    grid = random_puzzle(random.Random("warm-up"))
    TilingPuzzle().solve(grid, method="auto", budget=Budget(8), workers=workers)


def run_contest(
    server: str,
    key: str,
    count: int,
    *,
    mode: str = "trial",
    deadline: float = 10.0,
    margin: float = 1.5,
    seconds: float | None = None,
    save_dir: Path | str = "contest-puzzles",
    workers: int = 0,
    on_answer: Callable[[ContestLog], None] | None = None,
    warm: bool = True,
) -> list[ContestLog]:
    """Fetch, solve with `auto` and post `count` puzzles; the solve gets the deadline
    less `margin` (the post's round trip and the service's own overhead, write-up 2.4)
    less the time the fetch took, or `seconds` if that is smaller. Every answer is
    verified before it is posted; each puzzle is saved as `<save_dir>/<id>.json`.
    With `warm`, a practice grid is solved first, before any puzzle's clock starts."""
    from puzzlelab.core.result import Budget
    from puzzlelab.core.store import Store
    from puzzlelab.puzzles.tiling.puzzle import TilingPuzzle

    if mode not in MODES:
        raise ValueError(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
    base = server.rstrip("/") + f"/{key}/{mode}"
    folder = Path(save_dir)
    folder.mkdir(parents=True, exist_ok=True)
    puzzle = TilingPuzzle()
    store = Store()
    logs: list[ContestLog] = []
    if warm:
        warm_up(workers)
    for _ in range(count):
        started = time.monotonic()
        raw = _http(base + "/puzzle")
        grid = parse_grid(raw)
        saved = folder / f"{grid.id or grid.digest()}.json"
        saved.write_text(json.dumps(format_grid(grid)))
        allowed = deadline - margin - (time.monotonic() - started)
        if seconds is not None:
            allowed = min(allowed, seconds)
        result = puzzle.solve(grid, method="auto", budget=Budget(max(0.5, allowed)), workers=workers)
        squares = parse_squares(result.solution)
        answer = _http(base + "/solution", format_solution(grid, squares))
        posted = time.monotonic() - started
        store.add(puzzle.name, puzzle.instance_key(grid), result, puzzle.sense)
        entry = ContestLog(grid.id, grid.width, grid.height, len(squares), str(result.status), round(posted, 3), answer, str(saved))
        logs.append(entry)
        with (folder / "contest-log.jsonl").open("a") as log:
            log.write(json.dumps(entry.as_dict()) + "\n")
        if on_answer:
            on_answer(entry)
    return logs


def serve_in_thread(contest: PracticeContest | None = None, host: str = "127.0.0.1", port: int = 0):
    """Start the practice server on a background thread; returns (url, server) where
    `server.should_exit = True` stops it. Used by the tests and the benchmark."""
    import socket

    import uvicorn

    if port == 0:
        with socket.socket() as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_contest_app(contest), host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the practice contest server did not start")
        time.sleep(0.05)
    return f"http://{host}:{port}", server
