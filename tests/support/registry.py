"""The puzzles the contract tests run on -- every registered puzzle (the toy puzzle
among them, through PUZZLELAB_PLUGINS in tests/conftest.py) and the template puzzle of
`examples/coin_change` -- and the few instances of each they use, picked from the
puzzle's own catalog."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from puzzlelab.core.puzzle import Puzzle
from puzzlelab.puzzles import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

import coin_change  # noqa: E402  (examples/ is on sys.path only now)

BUILT_IN = ("tiling", "matchsticks", "hexagon", "coins", "macmahon")
TEMPLATE = coin_change.PUZZLE

PUZZLES: dict[str, Puzzle] = {**REGISTRY, TEMPLATE.name: REGISTRY.get(TEMPLATE.name, TEMPLATE)}


def spread(names: list[str], count: int) -> list[str]:
    """At most `count` names, evenly spaced, the first and the last among them."""
    if len(names) <= count:
        return list(names)
    return [names[round(i * (len(names) - 1) / (count - 1))] for i in range(count)]


def _small_candidates(puzzle: Puzzle, names: list[str]) -> list[str]:
    """Catalog names worth sizing: all of them, or for a catalog of thousands (coins:
    2,664 puzzles, all on the same board) a hundred of them and the tour instance."""
    return list(dict.fromkeys(spread(names, 100) + [puzzle.tour_instance]))


def contract_instances(puzzle: Puzzle) -> list[str]:
    """The smallest catalog instance (by the length of its JSON form, the tour instance
    first among equals), then the tour instance when that is another one."""
    names = list(puzzle.catalog())
    sizes = {name: len(json.dumps(puzzle.format_instance(puzzle.catalog_instance(name)))) for name in _small_candidates(puzzle, names)}
    smallest = min(sizes, key=lambda name: (sizes[name], name != puzzle.tour_instance, names.index(name)))
    return list(dict.fromkeys([smallest, puzzle.tour_instance]))


def smallest_instance(puzzle: Puzzle) -> str:
    """The catalog name of the puzzle's smallest instance."""
    return contract_instances(puzzle)[0]


# The methods that cannot answer a small instance within a couple of seconds, or that
# ignore their budget, with the reason: the contract's solving rules pass them over.
NOT_CHEAP = {
    ("coins", "bfs"): "one byte per ranked board, C(35,12) = 834 million of them, whatever the puzzle: minutes and 834 MB",
    ("toy", "sleepy"): "deaf to its budget on purpose (the job runner's termination test)",
}


def cheap_methods(puzzle: Puzzle) -> list[str]:
    return [name for name in puzzle.methods if (puzzle.name, name) not in NOT_CHEAP]
