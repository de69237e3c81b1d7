"""The registry: puzzle name -> Puzzle object.

Each puzzle package exposes `PUZZLE`. Packages keep their imports light (solver
libraries are imported inside the methods), so loading the registry stays cheap for
the CLI. A listed package not yet present in this checkout is skipped; one that is
present but fails to import is an error, never skipped.

`PUZZLELAB_PLUGINS="module:attribute,..."` registers further Puzzle objects (or classes,
instantiated without arguments): how a user adds a puzzle of their own to the CLI, the
service and the web page, and how the service's tests run on a toy puzzle.
"""

from __future__ import annotations

import importlib
import importlib.util
import os

from puzzlelab.core.puzzle import InvalidInstance, Puzzle

__all__ = ["REGISTRY", "get", "names"]

_MODULES: tuple[str, ...] = (
    "puzzlelab.puzzles.tiling",
    "puzzlelab.puzzles.matchsticks",
    "puzzlelab.puzzles.hexagon",
    "puzzlelab.puzzles.coins",
    "puzzlelab.puzzles.macmahon",
)

REGISTRY: dict[str, Puzzle] = {}
for _module in _MODULES:
    _spec = importlib.util.find_spec(_module)
    if _spec is None or _spec.origin is None:  # absent, or a leftover folder of caches only
        continue
    _puzzle = importlib.import_module(_module).PUZZLE
    REGISTRY[_puzzle.name] = _puzzle


def _load_plugins(spec: str) -> None:
    for entry in filter(None, (part.strip() for part in spec.split(","))):
        module, _, attribute = entry.partition(":")
        try:
            obj = getattr(importlib.import_module(module), attribute or "PUZZLE")
        except (ImportError, AttributeError) as exc:
            raise ImportError(f"PUZZLELAB_PLUGINS entry {entry!r}: {exc}") from exc
        puzzle = obj() if isinstance(obj, type) else obj
        REGISTRY[puzzle.name] = puzzle


_load_plugins(os.environ.get("PUZZLELAB_PLUGINS", ""))


def names() -> list[str]:
    return list(REGISTRY)


def get(name: str) -> Puzzle:
    """The registered puzzle called `name`; InvalidInstance (404) listing the valid ones."""
    try:
        return REGISTRY[name]
    except KeyError:
        valid = ", ".join(REGISTRY) or "none registered yet"
        raise InvalidInstance(f"puzzle: no puzzle {name!r}; expected one of: {valid}", field="puzzle", status=404) from None
