"""The command-line layer: the typer app (`app`), built from every registered puzzle."""

from puzzlelab.cli.app import app, build_app, main

__all__ = ["app", "build_app", "main"]
