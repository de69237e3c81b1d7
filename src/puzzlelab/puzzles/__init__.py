"""The registry: puzzle name -> Puzzle object.

Each puzzle package exposes `PUZZLE`. Packages keep their imports light (solver
libraries are imported inside the methods), so loading the registry stays cheap for
the CLI. A listed package not yet present in this checkout is skipped; one that is
present but fails to import is an error, never skipped.

`PUZZLELAB_PLUGINS="module:attribute,..."` registers further Puzzle objects (or classes,
instantiated without arguments): how a user adds a puzzle of their own to the CLI, the
service and the web page, and how the service's tests run on a toy puzzle. An entry
that does not load is named in one line (PLUGIN_ERRORS) and the CLI stops there.
"""

from __future__ import annotations

import importlib
import importlib.util
import os

from puzzlelab.core.inputs import shown
from puzzlelab.core.puzzle import InvalidInstance, Puzzle

__all__ = ["REGISTRY", "PLUGIN_ERRORS", "get", "names"]

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


PLUGIN_ERRORS: list[str] = []  # one line per PUZZLELAB_PLUGINS entry that did not load


def _load_plugins(spec: str) -> None:
    """Register each entry's Puzzle. An entry that does not load (no such module, a
    module that fails to import, no such attribute, not a Puzzle) is left out and its
    one-line reason kept in PLUGIN_ERRORS: the CLI refuses to start with it
    (`cli.app.main`), and importing this registry never raises for a user's file."""
    for entry in filter(None, (part.strip() for part in spec.split(","))):
        module, _, attribute = entry.partition(":")
        try:
            obj = getattr(importlib.import_module(module), attribute or "PUZZLE")
            puzzle = obj() if isinstance(obj, type) else obj
            name = puzzle.name
            if not isinstance(name, str) or not name:
                raise TypeError(f"{type(puzzle).__name__} has no puzzle name")
        except Exception as exc:  # noqa: BLE001 - any failure of a user's module is reported, not raised
            text = " ".join(str(exc).split())[:200]
            PLUGIN_ERRORS.append(f"PUZZLELAB_PLUGINS entry {shown(entry)}: {type(exc).__name__}: {text}; expected module:attribute naming a Puzzle")
            continue
        REGISTRY[name] = puzzle


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
