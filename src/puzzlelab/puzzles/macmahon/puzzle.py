"""The MacMahon squares puzzle object: instances, methods, checker, pictures.

MacMahon (New Mathematical Pastimes, 1921): the 24 squares whose edges carry three
colours, all colourings up to rotation, placed on a 4 x 6 board so that touching edges
match and the border is one colour. The seed write-up models it as a MIP and
asks how many solutions there are; this package counts them exactly, with symmetry
classes, for any board, colour count and piece multiset, and for MacMahon's triangles.
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.result import Result, Verdict
from puzzlelab.puzzles.macmahon import render
from puzzlelab.puzzles.macmahon.methods import METHODS
from puzzlelab.puzzles.macmahon.model import Instance, format_instance, group_generators, instance_key, parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import verify

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
        super().__init__(METHODS)

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

    def check_options(self, instance: Instance, method: str, options: dict[str, Any]) -> None:
        """`group` names symmetries of this instance, so it is checked here, before a job
        is queued, with the instance's own list of symmetries in the message."""
        generators = group_generators(options.get("group") or "")
        if not generators:
            return
        if options.get("symmetry") is False:
            raise InvalidInstance("group: counting without symmetry gives the total only; drop the group or keep symmetry on", "group")
        from puzzlelab.puzzles.macmahon.symmetry import instance_group, subgroup_from  # numpy: only when a group is asked

        subgroup_from(instance_group(instance), generators)

    # -------------------------------------------------------------- checking, pictures
    def verify(self, instance: Instance, solution: Any) -> Verdict:
        return verify(instance, solution)

    def render_svg(self, instance: Instance, result: Result | None) -> str:
        return render.render_svg(instance, result)

    def render_text(self, instance: Instance, result: Result | None) -> str | None:
        return render.render_text(instance, result)

