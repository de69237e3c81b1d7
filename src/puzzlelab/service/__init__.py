"""The web workbench: a FastAPI service running solver jobs in worker processes, with a
static page at `/`. No puzzle-specific code lives here: every registered puzzle is
offered through its `Puzzle` contract (methods, options, catalog, verify, render)."""
