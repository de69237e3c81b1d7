"""The `puzzlelab` command: one typer app with a group per registered puzzle (the
contract verbs of `cli.contract`, plus the puzzle's own verbs from `cli.<puzzle>`), and
the verbs that bind them (`cli.workbench`)."""

from __future__ import annotations

import importlib
import signal
from typing import Annotated, Any, Callable, Optional

import typer

from puzzlelab import __version__
from puzzlelab.cli.contract import puzzle_group
from puzzlelab.cli.errors import EXIT_BAD_INPUT, err, internal_error, one_line, out
from puzzlelab.cli.workbench import bench, records, serve, tour
from puzzlelab.core.puzzle import Puzzle
from puzzlelab.puzzles import PLUGIN_ERRORS, REGISTRY

__all__ = ["app", "build_app", "main", "PUZZLE_VERBS"]

# The module of each puzzle's own verbs; each exports COMMANDS (verb -> function).
PUZZLE_VERBS = {
    "tiling": "puzzlelab.cli.tiling",
    "matchsticks": "puzzlelab.cli.matchsticks",
    "hexagon": "puzzlelab.cli.hexagon",
    "coins": "puzzlelab.cli.coins",
    "macmahon": "puzzlelab.cli.macmahon",
}


def extra_verbs(name: str) -> dict[str, Callable[..., Any]]:
    """The puzzle's own verbs (none for a plugin puzzle)."""
    module = PUZZLE_VERBS.get(name)
    return dict(importlib.import_module(module).COMMANDS) if module else {}


def _version_callback(value: bool) -> None:
    if value:
        out.print(f"puzzlelab {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version_callback, is_eager=True, help="Print the version and exit.")
    ] = None,
) -> None:
    """puzzlelab: solve, reproduce, beat, prove and draw puzzle records."""


def build_app(registry: dict[str, Puzzle] | None = None) -> typer.Typer:
    """The whole command tree; a sub-command group per puzzle of `registry` (default:
    the registered puzzles; tests pass their own)."""
    registry = REGISTRY if registry is None else registry
    root = typer.Typer(
        name="puzzlelab",
        help="A workbench for combinatorial puzzle records: solve, reproduce, beat, prove, draw.\n\n"
        "Example: puzzlelab tour",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
    )
    root.callback()(_root)
    for puzzle in registry.values():
        root.add_typer(puzzle_group(puzzle, extra_verbs(puzzle.name)), name=puzzle.name)
    for command in (records, tour, serve, bench):
        root.command()(command)
    return root


app = build_app()


def main() -> None:
    """Console-script entry point."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `puzzlelab ... | head` ends quietly
    if PLUGIN_ERRORS:  # a PUZZLELAB_PLUGINS entry that did not load: one line, before any verb
        err.print(f"error: {one_line(PLUGIN_ERRORS[0])}", markup=False)
        raise SystemExit(EXIT_BAD_INPUT)
    try:
        app()
    except typer.Exit as exc:  # raised outside click's own handling (e.g. by internal_error)
        raise SystemExit(exc.exit_code) from None
    except Exception as exc:  # a verb without user_errors: still one line, never a traceback
        try:
            internal_error(exc)
        except typer.Exit as stop:
            raise SystemExit(stop.exit_code) from None


if __name__ == "__main__":  # pragma: no cover
    main()
