"""The rules of MacMahon's puzzle as the independent checker sees them: the geometry of
the board (which sides touch, which lie on the border) and its symmetries, rebuilt here
from coordinates by the checker's own arithmetic (not the solvers' board tables), and the
check of one placement.

A placement is a grid: rows (top to bottom) of [piece, rotation], the piece an index into
the instance's canonical piece list or its name, the rotation 0..k-1 quarter (or third)
turns clockwise. It is a solution when it uses exactly the instance's multiset of pieces,
every border side has the border colour (unless the border is free) and every two
touching sides have the same colour. A symmetry element is named like 'rot180',
'mirror90+WBR' (a board move, then a colour permutation written as the images of the
colour letters) or 'WBR' (colours only); its action is a permutation of the flattened
(cell, side) positions, a colour map and whether it turns pieces over.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from puzzlelab.core.inputs import is_whole, shown
from puzzlelab.puzzles.macmahon.model import Instance
from puzzlelab.puzzles.macmahon.tiles import rotate
from puzzlelab.puzzles.macmahon.verify.claims import show

__all__ = [
    "cell_geometry",
    "touching",
    "grid_colours",
    "check_placement",
    "element_action",
    "apply_action",
    "preserves_instance",
    "Action",
]

Action = tuple[tuple[int, ...], tuple[int, ...], bool]  # (side permutation, colour map, reflection)

_SQRT3_2 = math.sqrt(3) / 2


# ----------------------------------------------------------------- geometry, rebuilt here


def _hexagon_rows(n: int) -> list[list[list[tuple[int, int]]]]:
    """Triangles of the hexagon of side n, rows top to bottom, each as its vertex list
    (X in half units, Y in row lines), clockwise starting with the horizontal side."""
    rows = []
    for i in range(2 * n):
        top_w, bot_w = n + min(i, 2 * n - i), n + min(i + 1, 2 * n - i - 1)
        row = []
        up_first = i < n
        for t in range(2 * min(top_w, bot_w) + 1):
            up = (t % 2 == 0) == up_first
            if up:
                u = t // 2
                left = -bot_w + 2 * u
                row.append([(left + 2, i + 1), (left, i + 1), (left + 1, i)])
            else:
                u = t // 2
                left = -top_w + 2 * u
                row.append([(left, i), (left + 2, i), (left + 1, i + 1)])
        rows.append(row)
    return rows


def cell_geometry(inst: Instance) -> tuple[list[list[int]], list[list[tuple[float, float]]]]:
    """(cell indices by row, vertex coordinates of each cell centred on the board)."""
    return _board_geometry(inst.board_name)


@lru_cache(maxsize=16)
def _board_geometry(name: str) -> tuple[list[list[int]], list[list[tuple[float, float]]]]:
    """cell_geometry by board name, computed once per board (callers only read it)."""
    if name.startswith("hex"):
        n = int(name[3:])
        rows, polys = [], []
        for row in _hexagon_rows(n):
            rows.append(list(range(len(polys), len(polys) + len(row))))
            polys += [[(x / 2, (y - n) * _SQRT3_2) for x, y in tri] for tri in row]
        return rows, polys
    r, c = (int(v) for v in name.split("x"))
    rows = [list(range(i * c, (i + 1) * c)) for i in range(r)]
    polys = [[(j - c / 2, i - r / 2), (j + 1 - c / 2, i - r / 2), (j + 1 - c / 2, i + 1 - r / 2), (j - c / 2, i + 1 - r / 2)] for i in range(r) for j in range(c)]
    return rows, polys


def _edge_key(a, b) -> tuple:
    return (round((a[0] + b[0]) * 5e5), round((a[1] + b[1]) * 5e5))  # the midpoint, rounded


def touching(polys) -> dict[tuple[int, int], tuple[int, int] | None]:
    """(cell, side) -> the (cell, side) it touches, or None on the border."""
    by_mid: dict[tuple, list[tuple[int, int]]] = {}
    for c, poly in enumerate(polys):
        k = len(poly)
        for s in range(k):
            by_mid.setdefault(_edge_key(poly[s], poly[(s + 1) % k]), []).append((c, s))
    touch = {}
    for sides in by_mid.values():
        if len(sides) == 1:
            touch[sides[0]] = None
        else:
            a, b = sides
            touch[a], touch[b] = b, a
    return touch


# ----------------------------------------------------------------- one placement


def grid_colours(inst: Instance, grid: Any) -> tuple[tuple[int, ...] | None, str]:
    """The colour on every (cell, side), flattened, or None and why the grid is malformed
    (shape, piece, rotation, multiset)."""
    rows, polys = cell_geometry(inst)
    k = len(polys[0])
    names = inst.tile_names()
    if isinstance(grid, dict):
        grid = grid.get("grid")
    if not isinstance(grid, list) or len(grid) != len(rows):
        return None, f"expected {len(rows)} rows of [piece, rotation]"
    colours: list[int] = []
    used = [0] * len(inst.tiles)
    for i, (row, cells) in enumerate(zip(grid, rows)):
        if not isinstance(row, list) or len(row) != len(cells):
            return None, f"row {i + 1}: expected {len(cells)} entries [piece, rotation]"
        for j, entry in enumerate(row):
            where = f"row {i + 1} position {j + 1}"
            if not isinstance(entry, (list, tuple)) or len(entry) != 2:
                return None, f"{where}: expected [piece, rotation], got {show(entry)}"
            piece, rot = entry
            if isinstance(piece, str):
                if piece.upper() not in names:
                    return None, f"{where}: unknown piece {show(piece)} (names are canonical, e.g. {names[min(1, len(names) - 1)]})"
                piece = names.index(piece.upper())
            if not is_whole(piece) or not 0 <= piece < len(inst.tiles):
                return None, f"{where}: piece must be 0..{len(inst.tiles) - 1} or a piece name, got {show(piece)}"
            if not is_whole(rot) or not 0 <= rot < k:
                return None, f"{where}: rotation must be 0..{k - 1}, got {show(rot)}"
            used[piece] += 1
            colours.extend(rotate(inst.tiles[piece], rot))
    for p, (have, want) in enumerate(zip(used, inst.counts)):
        if have != want:
            return None, f"piece {names[p]} used {have} times, the instance has {want}"
    return tuple(colours), ""


@lru_cache(maxsize=16)
def _placement_tables(name: str) -> tuple[int, dict[int, tuple[int, int]], list]:
    """(sides per cell, cell -> (row, position), every (cell, side) with what it touches,
    in order) of a board, computed once per board."""
    rows, polys = _board_geometry(name)
    where = {c: (i, j) for i, cells in enumerate(rows) for j, c in enumerate(cells)}
    return len(polys[0]), where, sorted(touching(polys).items())


def check_placement(inst: Instance, grid: Any) -> tuple[tuple[int, ...] | None, str]:
    """(side colours, '') for a valid solution; (None, the first broken rule) otherwise."""
    colours, why = grid_colours(inst, grid)
    if colours is None:
        return None, why
    k, where, sides = _placement_tables(inst.board_name)
    names = inst.colours
    for (c, s), other in sides:
        mine = colours[c * k + s]
        i, j = where[c]
        if other is None:
            if inst.border is not None and mine != inst.border:
                return None, f"row {i + 1} position {j + 1}: side {s} lies on the border but is {names[mine]}, not {names[inst.border]}"
        else:
            theirs = colours[other[0] * k + other[1]]
            if mine != theirs:
                i2, j2 = where[other[0]]
                return None, f"row {i + 1} position {j + 1} side {s} is {names[mine]} but it touches row {i2 + 1} position {j2 + 1} side {other[1]}, {names[theirs]}"
    return colours, ""


# ----------------------------------------------------------------- symmetries, rebuilt here


def element_action(inst: Instance, name: str) -> Action:
    """(flat side permutation, colour map, reflection) of a named element such as
    'rot180', 'mirror90+WBR' or 'WBR'; ValueError if it is not a board symmetry."""
    letters = inst.letters
    board_part, colour_part = name, ""
    if "+" in name:
        board_part, colour_part = name.split("+", 1)
    elif name and all(ch in letters for ch in name) and len(name) == len(letters) and not name.startswith(("rot", "mirror", "id")):
        board_part, colour_part = "id", name
    cmap = tuple(range(len(letters)))
    if colour_part:
        if sorted(colour_part) != sorted(letters):
            raise ValueError(f"{name}: colour part must be a permutation of {letters}")
        cmap = tuple(letters.index(ch) for ch in colour_part)
    if board_part == "id":
        angle, reflect = 0.0, False
    elif board_part.startswith("rot"):
        angle, reflect = float(board_part[3:]), False
    elif board_part.startswith("mirror"):
        angle, reflect = float(board_part[6:]), True
    else:
        raise ValueError(f"{name}: unknown board symmetry {shown(board_part)}")
    _, polys = cell_geometry(inst)
    k = len(polys[0])

    def move(p):
        x, y = p
        if reflect:
            t = math.radians(2 * angle)
            return (x * math.cos(t) + y * math.sin(t), x * math.sin(t) - y * math.cos(t))
        t = math.radians(angle)
        return (x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t))

    def centre(poly):
        return (round(sum(p[0] for p in poly) / k * 1e6), round(sum(p[1] for p in poly) / k * 1e6))

    cell_at = {centre(poly): c for c, poly in enumerate(polys)}
    perm = []
    for c, poly in enumerate(polys):
        moved = [move(p) for p in poly]
        target = cell_at.get(centre(moved))
        if target is None:
            raise ValueError(f"{name} does not map the board onto itself")
        sides_of_target = {_edge_key(polys[target][s], polys[target][(s + 1) % k]): s for s in range(k)}
        for s in range(k):
            s2 = sides_of_target.get(_edge_key(moved[s], moved[(s + 1) % k]))
            if s2 is None:
                raise ValueError(f"{name} does not map the board onto itself")
            perm.append(target * k + s2)
    return tuple(perm), cmap, reflect


def apply_action(action: Action, colours: tuple[int, ...]) -> tuple[int, ...]:
    """The image of a solution (flat side colours) under an element."""
    perm, cmap, _ = action
    image = [0] * len(colours)
    for p, col in enumerate(colours):
        image[perm[p]] = cmap[col]
    return tuple(image)


def preserves_instance(inst: Instance, action: Action) -> bool:
    """Whether the element maps the instance onto itself: the border colour to itself and
    the piece multiset onto itself (pieces recoloured, and turned over by a reflection)."""
    _, cmap, reflect = action
    if inst.border is not None and cmap[inst.border] != inst.border:
        return False
    k = inst.sides
    counts = {}
    for t, n in zip(inst.tiles, inst.counts):
        counts[min(rotate(t, r) for r in range(k))] = n
    for t, n in zip(inst.tiles, inst.counts):
        image = [cmap[c] for c in t]
        if reflect:
            image.reverse()
        if counts[min(rotate(tuple(image), r) for r in range(k))] != n:
            return False
    return True
