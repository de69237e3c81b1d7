"""The write-up's integer model, as solver-neutral rows, for HiGHS and CP-SAT alike.

Variables: x[cell, piece, rotation] binary (1 when the piece sits in the cell in that
orientation) and y[cell, side, colour] (1 when that side carries that colour; continuous
in [0, 1] for the MIP, where it is integral anyway). Constraints:
- assignment: each piece used as often as the multiset says; each cell holds one piece;
- linking: y[cell, side, colour] = sum of the x whose orientation puts that colour there;
- border: y[cell, side, border colour] = 1 on every border side (unless free);
- touching: y[a, s, colour] = y[b, t, colour] for every two touching sides.
With `orientations="distinct"` each piece appears only in its distinct orientations (the
write-up's reduction: 324 instead of 384 entries of its table for the 24 squares), so
every solution of the model is exactly one solution of the puzzle.

Built from the board's neighbour table, so squares and triangles share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.puzzles.macmahon.model import Instance
from puzzlelab.puzzles.macmahon.search import SearchTables
from puzzlelab.puzzles.macmahon.tiles import distinct_rotations

__all__ = ["EdgeModel", "build_edge_model", "placements", "check_model_size", "MAX_PLACEMENTS"]

MAX_PLACEMENTS = 300_000  # x variables; the 70 squares on 7 x 10 need 19,600


@dataclass
class EdgeModel:
    n_x: int
    n_y: int
    orientations: list[tuple[int, int]]  # (piece, rotation) of each x column within a cell
    rows: list[tuple[list[int], list[float], float, float]] = field(default_factory=list)  # (cols, coefs, lo, hi)
    fixed_y: list[int] = field(default_factory=list)  # y columns fixed to 1 (border)
    cells: int = 0
    sides: int = 0
    colours: int = 0

    def x_index(self, cell: int, o: int) -> int:
        return cell * len(self.orientations) + o

    def y_index(self, cell: int, side: int, colour: int) -> int:
        return self.n_x + (cell * self.sides + side) * self.colours + colour

    @property
    def n_cols(self) -> int:
        return self.n_x + self.n_y

    def decode(self, values) -> list[int]:
        """Codes piece*k + rotation per cell from x values."""
        codes = []
        m = len(self.orientations)
        for cell in range(self.cells):
            block = values[cell * m : (cell + 1) * m]
            o = int(np.argmax(block))
            p, r = self.orientations[o]
            codes.append(p * self.sides + r)
        return codes

    def support(self, codes: list[int]) -> list[int]:
        """x columns equal to 1 in the solution `codes` (for a no-good cut)."""
        where = {p * self.sides + r: o for o, (p, r) in enumerate(self.orientations)}
        return [self.x_index(cell, where[code]) for cell, code in enumerate(codes)]


def placements(inst: Instance, orientations: str = "distinct") -> int:
    """The model's x variables: cells x (piece, orientation) pairs, counted without
    building anything."""
    k = inst.sides
    per_cell = sum((distinct_rotations(t) if orientations == "distinct" else k) for t, n in zip(inst.tiles, inst.counts) if n)
    return inst.board.cells * per_cell


def check_model_size(inst: Instance, x_variables: int, what: str = "the model") -> None:
    """Refuse up front (InvalidInstance, 413) a model too big to build: its rows are
    Python lists, then a solver's copy, so it would take minutes and gigabytes first."""
    if x_variables > MAX_PLACEMENTS:
        raise InvalidInstance(
            f"method: {what} of {inst.board.name} needs {x_variables:,} placement variables ({inst.board.cells} cells x "
            f"{x_variables // inst.board.cells:,} piece orientations), more than the {MAX_PLACEMENTS:,} a model may have; "
            "use --method first or enumerate",
            "method",
            413,
        )


def build_edge_model(inst: Instance, orientations: str = "distinct", inside_piece: int | None = None) -> EdgeModel:
    """The model's rows; `inside_piece` adds 'that piece sits in a cell with no border
    side' (to prove the write-up's remark that the all-white square never does)."""
    geometry = inst.board
    k, n, c = geometry.sides, geometry.cells, len(inst.colours)
    tables = SearchTables.build(inst, "rows")
    if orientations == "distinct":
        orient = list(tables.orientations)
    else:
        orient = [(p, r) for p in range(len(inst.tiles)) if inst.counts[p] for r in range(k)]
    m = len(orient)
    check_model_size(inst, n * m, "the model")
    model = EdgeModel(n * m, n * k * c, orient, cells=n, sides=k, colours=c)
    colour_of = [tables.code_colour[p * k + r] for p, r in orient]
    of_piece: dict[int, list[int]] = {}
    for o, (p, _) in enumerate(orient):
        of_piece.setdefault(p, []).append(o)
    for p in range(len(inst.tiles)):
        if inst.counts[p]:
            cols = [model.x_index(cell, o) for cell in range(n) for o in of_piece.get(p, [])]
            model.rows.append((cols, [1.0] * len(cols), float(inst.counts[p]), float(inst.counts[p])))
    for cell in range(n):
        cols = [model.x_index(cell, o) for o in range(m)]
        model.rows.append((cols, [1.0] * m, 1.0, 1.0))
    showing = [[[o for o in range(m) if colour_of[o][s] == col] for col in range(c)] for s in range(k)]
    for cell in range(n):
        for s in range(k):
            for col in range(c):
                xs = [model.x_index(cell, o) for o in showing[s][col]]
                model.rows.append(([model.y_index(cell, s, col)] + xs, [1.0] + [-1.0] * len(xs), 0.0, 0.0))
    for cell in range(n):
        for s in range(k):
            nb = int(geometry.neighbour[cell, s])
            if nb < 0:
                if inst.border is not None:
                    model.fixed_y.append(model.y_index(cell, s, inst.border))
            elif nb > cell * k + s:
                for col in range(c):
                    model.rows.append(([model.y_index(cell, s, col), model.y_index(nb // k, nb % k, col)], [1.0, -1.0], 0.0, 0.0))
    if inside_piece is not None:
        inside = [cell for cell in range(n) if (geometry.neighbour[cell] >= 0).all()]
        cols = [model.x_index(cell, o) for cell in inside for o in range(m) if orient[o][0] == inside_piece]
        model.rows.append((cols, [1.0] * len(cols), 1.0, float(n)))
    return model
