"""The coins `Puzzle`: parsing, catalog, methods, verification and pictures wired to the
project's contract (docs/architecture.md). The methods are declared in methods.py; the search code
lives in bidir/search.py and bfs/byte_bfs.py, the shipped table of optima in optimal_table.py (served by
table.py), the published optima in reference.py."""

from __future__ import annotations

import tempfile
from functools import cache
from typing import Any

from puzzlelab.core.puzzle import Puzzle
from puzzlelab.core.result import Budget, Result, Verdict
from puzzlelab.puzzles.coins import model
from puzzlelab.puzzles.coins.methods import METHODS
from puzzlelab.puzzles.coins.reference import SOURCE, published_lengths
from puzzlelab.puzzles.coins.render import animated_svg, pair_svg, text_drawing
from puzzlelab.puzzles.coins.verify import verify as replay

__all__ = ["CoinsPuzzle"]


class CoinsPuzzle(Puzzle):
    name = "coins"
    title = "Coin-sliding font puzzles: fewest moves from one glyph to another"
    value_name = "moves"
    sense = "min"
    default_method = "table"  # the shipped optima where they exist, else bidir
    default_budget = 120.0
    tour_instance = "font5x7:O-C"
    tour_budget = 20.0

    def __init__(self) -> None:
        super().__init__(METHODS)

    # ----------------------------------------------------------------- contract
    def parse(self, obj: Any) -> model.Instance:
        return model.parse_instance(obj)

    def format_instance(self, instance: model.Instance) -> dict[str, Any]:
        return model.format_instance(instance)

    def instance_key(self, instance: model.Instance) -> str:
        return model.instance_key(instance)

    def catalog(self) -> dict[str, str]:
        return dict(_catalog())  # a copy: the cached one is shared by every load

    def catalog_instance(self, name: str) -> model.Instance:
        return model.parse_instance(name)

    def verify(self, instance: model.Instance, solution: Any) -> Verdict:
        return replay(instance, solution)

    def published(self, key: str) -> dict[str, Any] | None:
        value = published_lengths().get(key)
        if value is None:
            return None
        return {"value": value, "proven": True, "source": SOURCE}

    def render_svg(self, instance: model.Instance, result: Result | None) -> str:
        if result is not None and result.solution is not None and result.verified:
            return animated_svg(instance, result.solution)
        return pair_svg(instance)

    def warm_up(self) -> None:
        """The level-array kernels (push, pull, path rebuilding; with every board and
        with one per orbit) and the two-bit array, on 4 x 4 boards (8,008 boards with
        6 coins, 12,870 with 8), and `bidir` (both duplicate checks, one and two
        threads) on a 4 x 4 puzzle: the tour answers from the table and reaches none of
        them."""
        from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun
        from puzzlelab.puzzles.coins.bfs.two_bit import TwoBitBfs
        from puzzlelab.puzzles.coins.bidir.search import bidirectional
        from puzzlelab.puzzles.coins.kernels import forward_list, geometry, max_moves

        start = model.rows_to_mask(["---o", "o---", "-o-o", "o-o-"], "start")[2]
        target = model.rows_to_mask(["o---", "---o", "o-o-", "-o-o"], "target")[2]
        for dedup in ("bits", "hash"):
            for threads in (1, 2):
                bidirectional(model.Instance(4, 4, start, target), budget=Budget(60), memory_mb=64, dedup=dedup, threads=threads)
        symmetric = model.rows_to_mask(["o--o", "-oo-", "-oo-", "o--o"], "start")[2]
        with tempfile.TemporaryDirectory(prefix="coins-warm-up-") as folder:
            for board in (start, symmetric):
                for mode in ("auto", "pull"):
                    run = LevelArrayRun(model.Start(4, 4, board), f"{folder}/{board}-{mode}")
                    run.run(stop_when_found=False, mode=mode)
                    run.moves(int(forward_list(board, geometry(4, 4), max_moves(16, 8))[0]))
                    run.kernels.count(2)
                    run.close()
        two_bit = TwoBitBfs(4, 4, start)
        two_bit.run()
        two_bit.moves(int(forward_list(start, geometry(4, 4), max_moves(16, 6))[0]))

    def render_text(self, instance: model.Instance, result: Result | None) -> str | None:
        return text_drawing(instance, None if result is None else result.solution)


@cache
def _catalog() -> dict[str, str]:
    """Built once a process: every key lookup (`instance_from_key`, the records page's
    1,332 table entries) asks whether its text is a catalog name, and building the
    2,664 descriptions took 1-3 ms a time."""
    published = published_lengths()
    entries = {}
    for name in model.catalog_names():
        font, pair = name.split(":")
        start, target = pair[0], pair[2]
        extra = f"; published optimum {published[name]} moves" if name in published else ""
        entries[name] = f"{font}: glyph {start} to glyph {target}{extra}"
    return entries
