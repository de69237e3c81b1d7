"""The practice server of the tiling contest: a FastAPI app speaking the Cimpress Tech
Challenge API on loopback, so the contest loop (seed write-up, sections 4 and 5) can be
run and tested without the real contest.

    GET  /{key}/{trial|contest}/puzzle    a seeded random puzzle {"id", "width", "height", "puzzle"}
    POST /{key}/{mode}/solution           {"id", "squares": [{"X", "Y", "Size"}]}
                                          -> {"numberOfSquares", "timePenalty", "score", "errors"}

The puzzles and the scoring rules are the tiling puzzle's (`puzzles/tiling/contest.py`);
this module only serves them.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Optional

import uvicorn
from fastapi import Body, FastAPI, HTTPException
from pydantic import BaseModel

from puzzlelab.puzzles.tiling.contest import MODES, PracticeContest
from puzzlelab.puzzles.tiling.model import format_grid

__all__ = ["create_contest_app", "serve", "serve_in_thread", "ContestPuzzle", "ContestScore"]


class ContestPuzzle(BaseModel):
    """A puzzle as the contest issues it: rows top to bottom, true = a cell to cover."""

    id: str
    width: int
    height: int
    puzzle: list[list[bool]]


class ContestScore(BaseModel):
    """The contest's answer to a posted solution (None where the id was not valid)."""

    numberOfSquares: Optional[int]
    timePenalty: Optional[int]
    score: Optional[int]
    errors: list[str]


def create_contest_app(contest: PracticeContest | None = None) -> FastAPI:
    """The FastAPI app of the practice server (its state: `app.state.contest`)."""
    contest = contest or PracticeContest()
    app = FastAPI(title="puzzlelab practice contest (Cimpress Tech Challenge API)")
    app.state.contest = contest

    def _mode(mode: str) -> str:
        if mode not in MODES:
            raise HTTPException(404, f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        return mode

    @app.get("/{key}/{mode}/puzzle", response_model=ContestPuzzle)
    def get_puzzle(key: str, mode: str) -> dict[str, Any]:
        return format_grid(contest.issue(key, _mode(mode)))

    @app.post("/{key}/{mode}/solution", response_model=ContestScore)
    def post_solution(key: str, mode: str, answer: Any = Body(...)) -> dict[str, Any]:
        return contest.score(key, _mode(mode), answer)

    return app


def serve(contest: PracticeContest, host: str = "127.0.0.1", port: int = 8100) -> None:
    """Run the practice server in this thread until interrupted (`puzzlelab tiling contest-server`)."""
    uvicorn.run(create_contest_app(contest), host=host, port=port, log_level="warning")


def serve_in_thread(contest: PracticeContest | None = None, host: str = "127.0.0.1", port: int = 0):
    """Start the practice server on a background thread; returns (url, server) where
    `server.should_exit = True` stops it. Used by the tests and the benchmark."""
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
