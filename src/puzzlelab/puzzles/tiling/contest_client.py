"""The contest client (seed write-up, sections 4 and 5): fetch a puzzle from a server
speaking the Cimpress Tech Challenge API, solve it with `auto` under the 10-second
deadline less the round trip, post the verified squares, log the score, and save the
puzzle so it can be solved again later (`puzzlelab tiling solve <saved>.json`).

The rules the answers are scored by are in `contest.py`; a practice server speaking
the same API on loopback is `puzzlelab.service.contest_server`.

What a server sends is input like any other: its replies are read through
`core.inputs` (size, depth and number limits), and a puzzle id that is not a plain file
name (`../x`, a slash, a leading dot) does not name the saved file: the grid's digest
does.
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from puzzlelab.core.inputs import decode_bytes, parse_json, shown
from puzzlelab.core.result import Budget, Result
from puzzlelab.core.store import Store
from puzzlelab.puzzles.tiling.auto import run_auto
from puzzlelab.puzzles.tiling.catalog import instance_key
from puzzlelab.puzzles.tiling.contest import MODES, random_puzzle
from puzzlelab.puzzles.tiling.model import Grid, format_grid, format_solution, parse_grid, parse_squares
from puzzlelab.puzzles.tiling.verify import check_result

__all__ = ["ContestLog", "run_contest", "solve_checked", "warm_up", "saved_name"]

# The records store's names for this puzzle (TilingPuzzle.name and .sense).
PUZZLE_NAME, SENSE = "tiling", "min"
MAX_REPLY_BYTES = 8_000_000  # a 1000 x 1000 puzzle's JSON is about 7 MB
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


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
        raw = response.read(MAX_REPLY_BYTES + 1)
    return parse_json(decode_bytes(raw, f"reply from {url}", MAX_REPLY_BYTES), f"reply from {url}", limit=MAX_REPLY_BYTES)


def saved_name(grid: Grid) -> str:
    """The file a fetched puzzle is saved as: `<id>.json` when the id is a plain file
    name, else `<digest>.json` (a server never chooses a path)."""
    return f"{grid.id}.json" if _SAFE_NAME.fullmatch(grid.id) else f"{grid.digest()}.json"


def solve_checked(grid: Grid, seconds: float, workers: int = 0) -> Result:
    """`auto` on a puzzle within `seconds`, its tiling checked by the independent
    verifier (WrongAnswer otherwise: a wrong answer is never posted)."""
    return check_result(grid, run_auto(grid, budget=Budget(seconds), workers=workers))


def warm_up(workers: int = 0) -> None:
    """Solve one small grid first so kernel compilation and worker start-up are not
    charged to the first contest puzzle's ten seconds."""
    solve_checked(random_puzzle(random.Random("warm-up")), 8, workers)


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
    verified before it is posted (and kept in the records store); each puzzle is saved
    as `<save_dir>/<id>.json`. With `warm`, a practice grid is solved first, before any
    puzzle's clock starts."""
    if mode not in MODES:
        raise ValueError(f"mode: expected one of {', '.join(MODES)}, got {shown(mode)}")
    base = server.rstrip("/") + f"/{key}/{mode}"
    folder = Path(save_dir)
    folder.mkdir(parents=True, exist_ok=True)
    store = Store()
    logs: list[ContestLog] = []
    if warm:
        warm_up(workers)
    for _ in range(count):
        started = time.monotonic()
        grid = parse_grid(_http(base + "/puzzle"))
        saved = folder / saved_name(grid)
        saved.write_text(json.dumps(format_grid(grid)))
        allowed = deadline - margin - (time.monotonic() - started)
        if seconds is not None:
            allowed = min(allowed, seconds)
        result = solve_checked(grid, max(0.5, allowed), workers)
        squares = parse_squares(result.solution)
        answer = _http(base + "/solution", format_solution(grid, squares))
        posted = time.monotonic() - started
        store.add(PUZZLE_NAME, instance_key(grid), result, SENSE, instance_json=format_grid(grid))
        entry = ContestLog(grid.id, grid.width, grid.height, len(squares), str(result.status), round(posted, 3), answer, str(saved))
        logs.append(entry)
        with (folder / "contest-log.jsonl").open("a") as log:
            log.write(json.dumps(entry.as_dict()) + "\n")
        if on_answer:
            on_answer(entry)
    return logs
