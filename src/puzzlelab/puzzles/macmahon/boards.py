"""Board geometry for edge matching: cells, their sides, which sides touch, which lie on
the border, and the board's symmetries. One description serves squares on a rectangle
and MacMahon's triangles on a hexagon, so the enumerator, the MIP, CP-SAT and the
pictures all work on both (the general edge-matching core).

Conventions (the solution format relies on them):
- Screen coordinates, y pointing down. Each cell is a polygon whose vertices are listed
  clockwise on screen; side s runs from vertex s to vertex s+1.
- Rectangle `RxC`: cell (r, c) has index r*C + c; sides top, right, bottom, left.
- Hexagon `hexN` (side N, 6N^2 unit triangles, flat top and bottom): cells in rows top to
  bottom, left to right within a row; each triangle's sides clockwise starting with its
  horizontal side (the base of a triangle pointing up, the top of one pointing down).
- A board symmetry maps (cell, side) to (cell', side'); reflections turn pieces over.
  Names: `rotD` turns the board D degrees clockwise; `mirrorA` reflects it in the line
  through its centre at A degrees clockwise from horizontal (`mirror0` swaps top and
  bottom, `mirror90` swaps left and right).

Everything is built from vertex coordinates, so the adjacency and the symmetry group are
derived, not hand-listed. `verify/checker.py` rebuilds what it needs on its own.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from puzzlelab.core.inputs import shown

__all__ = ["Board", "BoardSymmetry", "board", "parse_board_name", "MAX_CELLS"]

MAX_CELLS = 2048
_H = math.sqrt(3) / 2


@dataclass(frozen=True)
class BoardSymmetry:
    name: str
    perm: tuple[int, ...]  # flat (cell*k + side) -> flat index of its image
    reflection: bool
    rotation: bool  # a rotation of the board (reflection is False)


@dataclass(frozen=True, eq=False)
class Board:
    """A board: `cells` polygons with `sides` sides each. `neighbour[cell, side]` is the
    flat index (cell'*sides + side') of the side it touches, or -1 on the border."""

    name: str
    sides: int
    polygons: np.ndarray  # (cells, sides, 2) float, clockwise
    neighbour: np.ndarray  # (cells, sides) int64
    rows: tuple[tuple[int, ...], ...]  # cell indices by display row
    symmetries: tuple[BoardSymmetry, ...]  # identity first

    @property
    def cells(self) -> int:
        return int(self.polygons.shape[0])

    @property
    def shape(self) -> str:
        return "rect" if self.sides == 4 else "hexagon"

    def centroids(self) -> np.ndarray:
        return self.polygons.mean(axis=1)

    def border_sides(self) -> list[tuple[int, int]]:
        return [(int(c), int(s)) for c, s in zip(*np.nonzero(self.neighbour < 0))]

    def symmetry(self, name: str) -> BoardSymmetry:
        for sym in self.symmetries:
            if sym.name == name:
                return sym
        valid = ", ".join(s.name for s in self.symmetries)
        raise KeyError(f"board {self.name} has no symmetry {shown(name)}; it has {valid}")


def parse_board_name(text: str) -> tuple[str, int, int]:
    """'4x6' -> ('rect', 4, 6); 'hex2' -> ('hexagon', 2, 0). ValueError otherwise."""
    text = text.strip().lower()
    match = re.fullmatch(r"([0-9]{1,30})\s*[x×]\s*([0-9]{1,30})", text)
    if match:
        return "rect", int(match.group(1)), int(match.group(2))
    match = re.fullmatch(r"hex(?:agon)?\s*([0-9]{1,30})", text)
    if match:
        return "hexagon", int(match.group(1)), 0
    raise ValueError(f"expected a board like 4x6 (rows x columns) or hex2 (hexagon of side 2), got {shown(text)}")


def _key(x: float, y: float) -> tuple[int, int]:
    return (round(x * 1e6), round(y * 1e6))


def _rect_polygons(rows: int, cols: int) -> np.ndarray:
    polys = np.zeros((rows * cols, 4, 2))
    for r in range(rows):
        for c in range(cols):
            polys[r * cols + c] = [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
    return polys


def _hexagon_polygons(n: int) -> np.ndarray:
    """Unit triangles of the lattice whose centroids lie inside the flat-topped hexagon
    of side n centred at the origin, sorted into rows (by their top edge or apex) and
    then by x."""
    triangles = []
    for m in range(-n - 1, n + 1):
        for j in range(-2 * n - 2, 2 * n + 3):
            apex = (j + m / 2, m * _H)
            up = [(j + (m + 1) / 2, (m + 1) * _H), (j - 1 + (m + 1) / 2, (m + 1) * _H), apex]  # base first
            down = [apex, (j + 1 + m / 2, m * _H), (j + (m + 1) / 2, (m + 1) * _H)]  # top first
            for tri in (up, down):
                cx = sum(p[0] for p in tri) / 3
                cy = sum(p[1] for p in tri) / 3
                if abs(cy) <= n * _H and abs(cx) * _H + abs(cy) / 2 <= n * _H + 1e-9:
                    top = min(p[1] for p in tri)
                    triangles.append((round(top * 1e6), round(cx * 1e6), tri))
    triangles.sort(key=lambda t: (t[0], t[1]))
    return np.array([t[2] for t in triangles], dtype=float)


def _neighbours(polys: np.ndarray) -> np.ndarray:
    cells, k, _ = polys.shape
    owner: dict[frozenset, list[int]] = {}
    for c in range(cells):
        for s in range(k):
            a, b = polys[c, s], polys[c, (s + 1) % k]
            owner.setdefault(frozenset((_key(*a), _key(*b))), []).append(c * k + s)
    neighbour = np.full((cells, k), -1, dtype=np.int64)
    for flats in owner.values():
        if len(flats) == 2:
            p, q = flats
            neighbour[p // k, p % k] = q
            neighbour[q // k, q % k] = p
        elif len(flats) > 2:  # pragma: no cover - impossible for a planar tiling
            raise ValueError("an edge shared by more than two cells")
    return neighbour


def _symmetries(polys: np.ndarray, order: int) -> tuple[BoardSymmetry, ...]:
    """The rotations by multiples of 360/order degrees and the reflections that map the
    board onto itself, as permutations of (cell, side)."""
    cells, k, _ = polys.shape
    centre = polys.reshape(-1, 2).mean(axis=0)
    local = polys - centre
    cell_at = {_key(*p): i for i, p in enumerate(local.mean(axis=1))}
    side_at = {}
    for c in range(cells):
        for s in range(k):
            side_at[(c, frozenset((_key(*local[c, s]), _key(*local[c, (s + 1) % k]))))] = s
    found = []
    for reflect in (False, True):
        for t in range(order):
            if reflect:
                phi = math.pi * t / order  # axis angle; a reflection is rot(2 phi) after mirror0
                cos2, sin2 = math.cos(2 * phi), math.sin(2 * phi)
                matrix = np.array([[cos2, sin2], [sin2, -cos2]])
                name = f"mirror{round(180 * t / order)}"
            else:
                theta = 2 * math.pi * t / order
                matrix = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
                name = "id" if t == 0 else f"rot{round(360 * t / order)}"
            image = local @ matrix.T
            perm = []
            ok = True
            for c in range(cells):
                target = cell_at.get(_key(*image[c].mean(axis=0)))
                if target is None:
                    ok = False
                    break
                for s in range(k):
                    edge = frozenset((_key(*image[c, s]), _key(*image[c, (s + 1) % k])))
                    s2 = side_at.get((target, edge))
                    if s2 is None:
                        ok = False
                        break
                    perm.append(target * k + s2)
                if not ok:
                    break
            if ok:
                found.append(BoardSymmetry(name, tuple(perm), reflect, not reflect))
    return tuple(found)


@lru_cache(maxsize=32)
def board(name: str) -> Board:
    """The board called `name` ('4x6', 'hex2'); ValueError for a malformed or oversized one."""
    shape, a, b = parse_board_name(name)
    if shape == "rect":
        if a < 1 or b < 1:
            raise ValueError(f"board {name}: rows and columns must be at least 1")
        if a * b > MAX_CELLS:
            raise ValueError(f"board {name}: {a * b} cells, more than the {MAX_CELLS} allowed")
        polys = _rect_polygons(a, b)
        rows = tuple(tuple(range(r * b, (r + 1) * b)) for r in range(a))
        canonical_name, order = f"{a}x{b}", 4
    else:
        if a < 1:
            raise ValueError(f"board {name}: the hexagon's side must be at least 1")
        if 6 * a * a > MAX_CELLS:
            raise ValueError(f"board {name}: {6 * a * a} cells, more than the {MAX_CELLS} allowed")
        polys = _hexagon_polygons(a)
        ys = np.round(polys.min(axis=1)[:, 1], 6)
        levels = sorted(set(ys.tolist()))
        rows = tuple(tuple(int(i) for i in np.nonzero(ys == y)[0]) for y in levels)
        canonical_name, order = f"hex{a}", 6
    return Board(canonical_name, polys.shape[1], polys, _neighbours(polys), rows, _symmetries(polys, order))
