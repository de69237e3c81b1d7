"""The MacMahon squares puzzle object: instances, methods, checker, pictures, verbs.

MacMahon (New Mathematical Pastimes, 1921): the 24 squares whose edges carry three
colours, all colourings up to rotation, placed on a 4 x 6 board so that touching edges
match and the border is one colour. The seed write-up (issue 7) models it as a MIP and
asks how many solutions there are; this package counts them exactly, with symmetry
classes, for any board, colour count and piece multiset, and for MacMahon's triangles.
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.puzzle import Method, Option, Puzzle
from puzzlelab.core.result import Result, Verdict

from . import methods
from .model import Instance, format_instance, instance_key, parse_instance

__all__ = ["MacMahon"]

_CATALOG = {
    "4x6": "MacMahon's 24 three-colour squares on 4 x 6, white border (the write-up's puzzle)",
    "3x8": "the same 24 squares on 3 x 8, white border",
    "2x12": "the same 24 squares on 2 x 12, white border",
    "6x4": "the 24 squares on 6 x 4 (the 4 x 6 board turned), white border",
    "hex2": "MacMahon's 24 four-colour triangles on a hexagon of side 2, white border",
    "2x3/free": "the 6 two-colour squares on 2 x 3, free border",
    "7x10": "the 70 four-colour squares on 7 x 10, white border (MIP or first solution)",
}


class MacMahon(Puzzle):
    name = "macmahon"
    title = "MacMahon squares: edge-matching pieces, one-colour border"
    value_name = "solutions"
    sense = "exact"
    default_method = "enumerate"
    default_budget = 60.0
    tour_instance = "2x3/free"  # counted in a fraction of a second; 4x6 takes 10-20 s of CPU
    tour_budget = 10.0

    def __init__(self) -> None:
        super().__init__()
        order = Option("order", "str", "mrv", "cell order: mrv (fewest candidates first) or a fixed ring / rows / greedy", choices=("mrv", "ring", "rows", "greedy"))
        self.add_method(
            Method(
                "enumerate",
                "exact count of every solution (numba), with symmetry classes",
                methods.run_enumerate,
                (
                    Option("workers", "int", 1, "worker processes (subtrees in parallel)", minimum=1, maximum=256),
                    Option("split_depth", "int", 3, "extra cells fixed per subtree when split for workers", minimum=0, maximum=64),
                    order,
                    Option("symmetry", "bool", True, "classify the solutions under the symmetry group"),
                    Option("group", "str", "", "extra subgroup from generators, e.g. rot180,WBR"),
                    Option("checkpoint", "str", "", "file keeping finished subtrees (resume a long count)"),
                    Option("backend", "str", "local", "where subtrees run: local worker processes or a ray cluster", choices=("local", "ray")),
                    Option("address", "str", "", "ray cluster address (default: $RAY_ADDRESS)"),
                ),
                exact=True,
            )
        )
        self.add_method(Method("first", "the first solution of the enumerator's search", methods.run_first, (order,)))
        self.add_method(
            Method(
                "mip",
                "the write-up's MIP model on HiGHS; k different solutions with no-good cuts",
                _run_mip,
                (
                    Option("solutions", "int", 1, "different solutions to find (no-good cuts)", minimum=1, maximum=10000),
                    Option("orientations", "str", "distinct", "orientations of each piece in the model", choices=("distinct", "all")),
                ),
            )
        )
        self.add_method(
            Method(
                "cpsat",
                "the same model on CP-SAT; k solutions, or all of them with --all",
                _run_cpsat,
                (
                    Option("solutions", "int", 1, "different solutions to find", minimum=1, maximum=10000),
                    Option("all", "bool", False, "enumerate every solution (an exact count)"),
                    Option("threads", "int", 1, "CP-SAT search workers (one solution only)", minimum=1, maximum=64),
                ),
            )
        )
        self.add_method(Method("backtrack", "plain-Python backtracking count (small boards; the naive peer)", methods.run_backtrack, exact=True))

    # -------------------------------------------------------------- instances
    def parse(self, obj: Any) -> Instance:
        return parse_instance(obj)

    def format_instance(self, instance: Instance) -> dict[str, Any]:
        return format_instance(instance)

    def instance_key(self, instance: Instance) -> str:
        return instance_key(instance)

    def catalog(self) -> dict[str, str]:
        return dict(_CATALOG)

    def catalog_instance(self, name: str) -> Instance:
        return parse_instance(name)

    # -------------------------------------------------------------- checking, pictures
    def verify(self, instance: Instance, solution: Any) -> Verdict:
        from .verify import verify

        return verify(instance, solution)

    def render_svg(self, instance: Instance, result: Result | None) -> str:
        from .render import render_svg

        return render_svg(instance, result)

    def render_text(self, instance: Instance, result: Result | None) -> str | None:
        from .render import render_text

        return render_text(instance, result)


def _run_mip(instance, **kwargs):
    from .mip import run_mip

    return run_mip(instance, **kwargs)


def _run_cpsat(instance, **kwargs):
    from .cpsat import run_cpsat

    return run_cpsat(instance, **kwargs)
