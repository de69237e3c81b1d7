"""Lazy references: `"package.module:attribute"` strings imported on first use.

Puzzles declare their methods as such references (`<puzzle>/methods.py`) so that
loading the registry, the CLI or the service imports no numba kernel or solver library
until a method runs; and an optional dependency that is missing gives one clear
message naming the extra to install (docs/architecture.md, "Style")."""

from __future__ import annotations

import functools
import importlib
from typing import Any

__all__ = ["load_object", "MissingDependency"]

# The optional extras of pyproject.toml, by the top-level module they provide.
_EXTRAS = {"ray": "cluster", "playwright": "dev"}


class MissingDependency(ImportError):
    """An optional dependency is not installed; the message names the extra."""


@functools.lru_cache(maxsize=None)
def load_object(reference: str) -> Any:
    """The object `reference` ("package.module:attribute") names, imported now."""
    module_name, sep, attribute = reference.partition(":")
    if not sep or not attribute:
        raise ValueError(f"reference {reference!r}: expected 'package.module:attribute'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        top = (exc.name or "").split(".")[0]
        if top in _EXTRAS:
            raise MissingDependency(
                f"{reference} needs {top}, which is not installed: pip install 'puzzlelab[{_EXTRAS[top]}]'"
            ) from exc
        raise
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise ImportError(f"reference {reference!r}: module {module_name} has no {attribute!r}") from None
