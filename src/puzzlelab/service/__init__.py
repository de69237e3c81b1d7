"""The web workbench: a FastAPI service running solver jobs in worker processes, with a
static page at `/`. Every registered puzzle is offered through its `Puzzle` contract
(methods, options, catalog, verify, render); the one puzzle-specific piece is
`contest_server.py`, the Cimpress contest's practice server (its rules stay in
`puzzles/tiling/contest.py`)."""
