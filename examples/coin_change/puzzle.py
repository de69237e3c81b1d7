"""The Puzzle object of coin change: what the registry, the CLI and the service see.

It implements the contract of `puzzlelab.core.puzzle.Puzzle` by delegating to the
modules below it (docs/architecture.md, "Contracts"): `parse`, `format_instance` and
`instance_key` to `model`, `catalog` and `published` to `reference`, `verify` to
`verify`, `render_svg` to `render`; `super().__init__(METHODS)` declares the methods.
The base class supplies the rest: `load` (catalog name, file, `-`, inline text),
`solve` (method lookup, option checking, the Budget, then the independent check: an
answer the checker rejects never leaves `solve`), `report` (the CLI's JSON) and
`describe` (the service's `/api/puzzles`).

Nothing below this module imports it (nor the package `__init__`): a solver that needs
the checker imports `verify` directly. That keeps the imports one-way, with no cycle.
"""

from __future__ import annotations

from typing import Any

from coin_change import model, reference
from coin_change.methods import METHODS
from coin_change.render import draw
from coin_change.verify import check
from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.result import Result, Verdict

__all__ = ["CoinChange", "PUZZLE"]


class CoinChange(Puzzle):
    """Pay a target with the fewest coins of given denominations."""

    name = "coin_change"  # the CLI verb group and the service's puzzle name
    title = "Coin change: pay a target with the fewest coins (the template puzzle)"
    value_name = "coins"  # what Result.value counts, as the CLI prints it: 'coins 2'
    sense = "min"  # fewer is better ('max' for scores, 'exact' for counts)
    default_method = "dp"
    default_budget = 5.0  # seconds, when the user gives none
    tour_instance = "small"  # what `puzzlelab tour` solves
    tour_budget = 2.0

    def __init__(self) -> None:
        super().__init__(METHODS)

    def parse(self, obj: Any) -> model.Change:
        return model.parse(obj)

    def format_instance(self, instance: model.Change) -> dict[str, Any]:
        return model.format_instance(instance)

    def instance_key(self, instance: model.Change) -> str:
        return model.instance_key(instance)

    def catalog(self) -> dict[str, str]:
        return {name: known.description for name, known in reference.known_instances().items()}

    def catalog_instance(self, name: str) -> model.Change:
        known = reference.known_instances().get(name)
        if known is None:
            raise InvalidInstance(f"instance: no catalog entry {name!r}", field="instance", status=404)
        return model.parse({"coins": list(known.coins), "target": known.target})

    def published(self, key: str) -> dict[str, Any] | None:
        """The known optimum of a catalog instance, by instance key ('11:1,5,6,9')."""
        for known in reference.known_instances().values():
            if model.instance_key(model.Change(known.coins, known.target)) == key and known.fewest is not None:
                return {"value": known.fewest, "proven": True, "source": known.source}
        return None

    def verify(self, instance: model.Change, solution: Any) -> Verdict:
        return check(instance, solution)

    def render_svg(self, instance: model.Change, result: Result | None) -> str:
        return draw(instance, result)


PUZZLE = CoinChange()
