"""Read a typed record's fields by name too.

The hexagon modules pass dataclasses to each other (a search's options and summary, a
proof's outcome); before, they passed string-keyed dicts. Scripts and tests written
against those dicts read `summary["grid"]`: a dataclass with this mixin answers that
as `summary.grid`, read-only, while the package itself reads attributes."""

from __future__ import annotations

from typing import Any

__all__ = ["FieldsByName"]


class FieldsByName:
    """`record[name]` is `record.name` for a field or property; KeyError otherwise."""

    def __getitem__(self, name: str) -> Any:
        if not isinstance(name, str) or name.startswith("_") or not hasattr(self, name):
            raise KeyError(name)
        value = getattr(self, name)
        if callable(value):
            raise KeyError(name)
        return value
