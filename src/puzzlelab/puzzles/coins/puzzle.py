"""The coins `Puzzle`: parsing, catalog, methods, verification and pictures wired to the
project's contract (DESIGN.md). The search code lives in bidir.py and bfs.py."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.puzzle import Method, Option, Puzzle
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.coins import model
from puzzlelab.puzzles.coins.verify import verify as replay

__all__ = ["CoinsPuzzle"]

SOURCE = "coin-sliding puzzle site (Erik Demaine), optimal lengths by exhaustive search"


def _run_bidir(instance, *, budget, progress, seed, memory_mb=2048, dedup="auto") -> Result:
    from puzzlelab.puzzles.coins.bidir import bidirectional

    return bidirectional(instance, budget=budget, progress=progress, memory_mb=memory_mb, dedup=dedup)


def _run_bfs(instance, *, budget, progress, seed, workdir="", max_memory_gb=0.0, keep=False) -> Result:
    from puzzlelab.puzzles.coins.bfs import solve_one

    return solve_one(instance, budget=budget, progress=progress, workdir=workdir or None, max_memory_gb=max_memory_gb or None, keep=keep)


class CoinsPuzzle(Puzzle):
    name = "coins"
    title = "Coin-sliding font puzzles: fewest moves from one glyph to another"
    value_name = "moves"
    sense = "min"
    default_method = "bidir"
    default_budget = 120.0
    tour_instance = "font5x7:O-C"
    tour_budget = 20.0

    def __init__(self) -> None:
        super().__init__()
        self.add_method(
            Method(
                "bidir",
                "bidirectional BFS, forward from the start and backward from the target, smaller frontier first (optimal)",
                _run_bidir,
                (
                    Option("memory_mb", "int", 2048, "memory bound in MB; beyond it the search stops with a proven lower bound", minimum=16),
                    Option("dedup", "str", "auto", "duplicate detection: hash table, or two bits a ranked board", choices=("auto", "hash", "bits")),
                ),
                exact=True,
            )
        )
        self.add_method(
            Method(
                "bfs",
                "BFS from the start over all C(cells, coins) ranked boards, one byte each in a file-backed array (optimal)",
                _run_bfs,
                (
                    Option("workdir", "str", "", "folder for the level array and its checkpoint (default: a temporary folder)"),
                    Option("max_memory_gb", "float", 0.0, "refuse when the array needs more (default: the memory available)", minimum=0),
                    Option("keep", "bool", False, "keep the level array after the run (to resume or to reuse)"),
                ),
                exact=True,
            )
        )

    # ----------------------------------------------------------------- contract
    def parse(self, obj: Any) -> model.Instance:
        return model.parse_instance(obj)

    def format_instance(self, instance: model.Instance) -> dict[str, Any]:
        return model.format_instance(instance)

    def instance_key(self, instance: model.Instance) -> str:
        return model.instance_key(instance)

    def catalog(self) -> dict[str, str]:
        published = model.published_lengths()
        entries = {}
        for name in model.catalog_names():
            font, pair = name.split(":")
            start, target = pair[0], pair[2]
            extra = f"; published optimum {published[name]} moves" if name in published else ""
            entries[name] = f"{font}: glyph {start} to glyph {target}{extra}"
        return entries

    def catalog_instance(self, name: str) -> model.Instance:
        return model.parse_instance(name)

    def verify(self, instance: model.Instance, solution: Any) -> Verdict:
        return replay(instance, solution)

    def published(self, key: str) -> dict[str, Any] | None:
        value = model.published_lengths().get(key)
        if value is None:
            return None
        return {"value": value, "proven": True, "source": SOURCE}

    def render_svg(self, instance: model.Instance, result: Result | None) -> str:
        from puzzlelab.puzzles.coins.render import animated_svg, pair_svg

        if result is not None and result.solution is not None and result.verified:
            return animated_svg(instance, result.solution)
        return pair_svg(instance)

    def warm_up(self) -> None:
        """The level-array kernels (push, pull, path rebuilding; with every board and
        with one per orbit) and the two-bit array, on 4 x 4 boards (8,008 boards with
        6 coins, 12,870 with 8): the tour's bidir reaches none of them."""
        import tempfile

        from puzzlelab.puzzles.coins.bfs import LevelArrayRun
        from puzzlelab.puzzles.coins.kernels import forward_list, geometry, max_moves
        from puzzlelab.puzzles.coins.two_bit import TwoBitBfs

        start = model.rows_to_mask(["---o", "o---", "-o-o", "o-o-"], "start")[2]
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
        from puzzlelab.puzzles.coins.render import text_drawing

        return text_drawing(instance, None if result is None else result.solution)
