"""Independent checker for MacMahon solutions and solution counts. Imports no solver and
not the board module: it rebuilds the geometry (which sides touch, which lie on the
border) and the board symmetries from the rules, by its own arithmetic.

A solution is a grid: rows (top to bottom) of [piece, rotation], the piece an index into
the instance's canonical piece list or its name, the rotation 0..k-1 quarter (or third)
turns clockwise. It is valid when it uses exactly the instance's multiset of pieces,
every border side has the border colour (unless the border is free) and every two
touching sides have the same colour.

A count is checked through its certificate (`{"kind": "count", ...}`, built by the
enumerator): every representative and example must be a valid solution; every listed
group element must map the instance onto itself and each subgroup must be closed; per
subgroup the orbit sizes must add up to the total and the class count must satisfy
Burnside's lemma (classes * |H| = sum of fixed points over H); and the fixed points of
every element are recounted here from the listed symmetric classes, whose orbits hold
every solution a non-identity element fixes. The total itself cannot be recomputed from
a certificate: it is cross-checked by independent methods in the tests.
"""

from __future__ import annotations

import math
from typing import Any

from puzzlelab.core.result import Verdict
from puzzlelab.puzzles.macmahon.model import Instance
from puzzlelab.puzzles.macmahon.tiles import rotate

__all__ = ["verify", "cell_geometry", "grid_colours", "element_action"]

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
    name = inst.board_name
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


def _touching(polys) -> dict[tuple[int, int], tuple[int, int] | None]:
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
                return None, f"{where}: expected [piece, rotation], got {entry!r}"
            piece, rot = entry
            if isinstance(piece, str):
                if piece.upper() not in names:
                    return None, f"{where}: unknown piece {piece!r} (names are canonical, e.g. {names[min(1, len(names) - 1)]})"
                piece = names.index(piece.upper())
            if isinstance(piece, bool) or not isinstance(piece, int) or not 0 <= piece < len(inst.tiles):
                return None, f"{where}: piece must be 0..{len(inst.tiles) - 1} or a piece name, got {piece!r}"
            if isinstance(rot, bool) or not isinstance(rot, int) or not 0 <= rot < k:
                return None, f"{where}: rotation must be 0..{k - 1}, got {rot!r}"
            used[piece] += 1
            colours.extend(rotate(inst.tiles[piece], rot))
    for p, (have, want) in enumerate(zip(used, inst.counts)):
        if have != want:
            return None, f"piece {names[p]} used {have} times, the instance has {want}"
    return tuple(colours), ""


def check_placement(inst: Instance, grid: Any) -> tuple[tuple[int, ...] | None, str]:
    """(side colours, '') for a valid solution; (None, the first broken rule) otherwise."""
    colours, why = grid_colours(inst, grid)
    if colours is None:
        return None, why
    rows, polys = cell_geometry(inst)
    k = len(polys[0])
    where = {c: (i, j) for i, cells in enumerate(rows) for j, c in enumerate(cells)}
    touch = _touching(polys)
    names = inst.colours
    for (c, s), other in sorted(touch.items()):
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


def element_action(inst: Instance, name: str) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
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
        raise ValueError(f"{name}: unknown board symmetry {board_part!r}")
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


def _apply(action, colours: tuple[int, ...]) -> tuple[int, ...]:
    perm, cmap, _ = action
    image = [0] * len(colours)
    for p, col in enumerate(colours):
        image[perm[p]] = cmap[col]
    return tuple(image)


def _preserves_instance(inst: Instance, action) -> bool:
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


# ----------------------------------------------------------------- verdicts


def verify(inst: Instance, solution: Any) -> Verdict:
    """Check a grid, {"grid": ...}, {"solutions": [grid, ...]} or a count certificate."""
    if isinstance(solution, dict) and solution.get("kind") == "count":
        return _verify_count(inst, solution)
    if isinstance(solution, dict) and "solutions" in solution:
        grids = solution["solutions"]
        if not isinstance(grids, list) or not grids:
            return Verdict(False, None, "solutions: expected a non-empty list of grids")
        seen = set()
        for n, grid in enumerate(grids):
            colours, why = check_placement(inst, grid)
            if colours is None:
                return Verdict(False, None, f"solution {n + 1}: {why}")
            if colours in seen:
                return Verdict(False, None, f"solution {n + 1} repeats an earlier one")
            seen.add(colours)
        return Verdict(True, len(grids), f"{len(grids)} different valid solutions")
    colours, why = check_placement(inst, solution)
    if colours is None:
        return Verdict(False, None, why)
    return Verdict(True, 1, "valid: every piece once as given, border and touching sides match")


def _verify_count(inst: Instance, cert: dict[str, Any]) -> Verdict:
    total = cert.get("total")
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        return Verdict(False, None, "count certificate: total must be a non-negative integer")
    complete = bool(cert.get("complete"))
    for label in ("examples", "symmetric"):
        for n, grid in enumerate(cert.get(label) or []):
            colours, why = check_placement(inst, grid)
            if colours is None:
                return Verdict(False, total, f"{label} {n + 1}: {why}")
    if total > 0 and not cert.get("examples"):
        return Verdict(False, total, "count certificate: a positive count needs an example solution")
    elements = cert.get("elements") or ["id"]
    try:
        actions = {name: element_action(inst, name) for name in elements}
    except ValueError as exc:
        return Verdict(False, total, f"count certificate: {exc}")
    for name, action in actions.items():
        if not _preserves_instance(inst, action):
            return Verdict(False, total, f"count certificate: {name} does not map the instance onto itself")
    identity = next((n for n, a in actions.items() if a[0] == tuple(sorted(a[0])) and a[1] == tuple(range(len(a[1])))), None)
    if identity is None:
        return Verdict(False, total, "count certificate: the identity is missing from the group")
    if not complete:
        return Verdict(True, total, "partial count (the search stopped early): a lower bound; examples valid")
    # recount fixed points from the symmetric classes
    fixed = {name: 0 for name in elements}
    fixed[identity] = total
    symmetric_complete = bool(cert.get("symmetric_complete"))
    seen_orbits: set = set()
    for n, grid in enumerate(cert.get("symmetric") or []):
        colours, _ = grid_colours(inst, grid)
        orbit = {_apply(a, colours) for a in actions.values()}
        if orbit & seen_orbits:
            return Verdict(False, total, f"symmetric class {n + 1} repeats an earlier class")
        seen_orbits |= orbit
        if len(orbit) == len(actions):
            return Verdict(False, total, f"symmetric class {n + 1} has no non-trivial symmetry")
        for image in orbit:
            for name, a in actions.items():
                if name != identity and _apply(a, image) == image:
                    fixed[name] += 1
    claimed_fixed = cert.get("fixed_points") or {}
    if symmetric_complete:
        for name in elements:
            if int(claimed_fixed.get(name, -1)) != fixed[name]:
                return Verdict(False, total, f"fixed points of {name}: certificate says {claimed_fixed.get(name)}, the symmetric classes give {fixed[name]}")
    else:
        fixed = {name: int(claimed_fixed.get(name, 0)) for name in elements}
        fixed[identity] = total
    keys = {name: (a[0], a[1]) for name, a in actions.items()}
    figures: dict[str, Any] = {}
    for gname, group in (cert.get("groups") or {}).items():
        members = group.get("members") or []
        if any(m not in actions for m in members) or identity not in members:
            return Verdict(False, total, f"group {gname}: members must be listed elements, identity included")
        member_keys = {keys[m] for m in members}
        for a in members:
            for b in members:
                pa, ca = keys[a]
                pb, cb = keys[b]
                if (tuple(pa[p] for p in pb), tuple(ca[c] for c in cb)) not in member_keys:
                    return Verdict(False, total, f"group {gname}: {a} after {b} is not in the group")
        classes = group.get("classes")
        burnside = sum(fixed[m] for m in members)
        if burnside != classes * len(members):
            return Verdict(False, total, f"group {gname}: {classes} classes of order {len(members)} contradict Burnside's lemma (fixed points sum to {burnside})")
        sizes = {int(s): int(v) for s, v in (group.get("orbit_sizes") or {}).items()}
        if sum(s * v for s, v in sizes.items()) != total or sum(sizes.values()) != classes:
            return Verdict(False, total, f"group {gname}: orbit sizes do not add up to the total and the class count")
        if any(len(members) % s for s in sizes):
            return Verdict(False, total, f"group {gname}: an orbit size does not divide the group order {len(members)}")
        figures[gname] = classes
    how = "fixed points recounted from the symmetric classes" if symmetric_complete else "fixed points as claimed (too many symmetric classes to list)"
    return Verdict(True, total, f"count certificate consistent: representatives valid, orbit sizes and Burnside's lemma agree ({how})", figures)
