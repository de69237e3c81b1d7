"""MacMahon's pieces, generated rather than typed in: every colouring of the edges of a
k-gon (squares k = 4, triangles k = 3) with c colours, up to rotation.

A piece is stored by its canonical edge tuple: of its k rotations, the lexicographically
smallest tuple of colour indices, edges listed clockwise (for a square: top, right,
bottom, left). The set is listed in increasing order of those tuples, so with colour 0 =
white the all-white piece comes first. A piece's name is its canonical tuple written in
colour letters ("WWRB").

Rotation r turns a piece r steps clockwise: the edge listed at position e moves to
position e + r, so the colour on side s of the cell is `edges[(s - r) % k]`. A piece
whose colouring repeats after p steps has only p distinct orientations (the one-colour
square has one, a square like red-white-red-white has two): the solvers place each piece
only in those, which is the write-up's reduction of its model from 384 to 324 entries.

The count of pieces follows Burnside's lemma over the k rotations: a rotation by j steps
fixes the c^gcd(j, k) colourings that repeat with period gcd(j, k), so the count is
(1/k) * sum_j c^gcd(j, k); for squares (c^4 + c^2 + 2c)/4 = c(c+1)(c^2-c+2)/4 (MacMahon
1921; the formula the write-up asks about), for triangles (c^3 + 2c)/3.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import gcd

__all__ = [
    "DEFAULT_COLOURS",
    "COLOUR_HEX",
    "burnside_count",
    "square_count_formula",
    "triangle_count_formula",
    "rotate",
    "canonical",
    "distinct_rotations",
    "tile_set",
    "tile_name",
    "mirror",
]

# Colour names in order; their first letters name pieces ("WRBB"). White first: the
# classic puzzle's border colour.
DEFAULT_COLOURS = ("white", "red", "blue", "green", "yellow", "orange", "purple", "cyan")
COLOUR_HEX = {
    "white": "#ffffff",
    "red": "#e15759",
    "blue": "#4e79a7",
    "green": "#59a14f",
    "yellow": "#edc948",
    "orange": "#f28e2b",
    "purple": "#b07aa1",
    "cyan": "#76b7b2",
}


def burnside_count(colours: int, sides: int) -> int:
    """Colourings of a k-gon's edges up to rotation: (1/k) sum_j c^gcd(j, k)."""
    total = sum(colours ** gcd(j, sides) for j in range(sides))
    assert total % sides == 0
    return total // sides


def square_count_formula(colours: int) -> int:
    """MacMahon's c(c+1)(c^2-c+2)/4, the write-up's formula for squares."""
    c = colours
    return c * (c + 1) * (c * c - c + 2) // 4


def triangle_count_formula(colours: int) -> int:
    """(c^3 + 2c)/3: the identity fixes c^3 colourings, each of the two turns c."""
    c = colours
    return (c**3 + 2 * c) // 3


def rotate(edges: tuple[int, ...], r: int) -> tuple[int, ...]:
    """The edge tuple after turning the piece r steps clockwise."""
    k = len(edges)
    return tuple(edges[(s - r) % k] for s in range(k))


def canonical(edges: tuple[int, ...]) -> tuple[int, ...]:
    """The lexicographically smallest rotation: the piece's canonical tuple."""
    return min(rotate(edges, r) for r in range(len(edges)))


def mirror(edges: tuple[int, ...]) -> tuple[int, ...]:
    """The canonical tuple of the piece turned over (edges in reverse order): what a
    reflection of the board makes of it."""
    return canonical(tuple(reversed(edges)))


def distinct_rotations(edges: tuple[int, ...]) -> int:
    """Number of distinct orientations: the period of the colouring under rotation
    (1, a divisor of k, or k). Orientations 0 .. period-1 are the distinct ones."""
    k = len(edges)
    for p in range(1, k + 1):
        if k % p == 0 and rotate(edges, p) == edges:
            return p
    return k  # pragma: no cover - p = k always matches


@lru_cache(maxsize=64)
def tile_set(colours: int, sides: int = 4) -> tuple[tuple[int, ...], ...]:
    """All pieces with `sides` edges and `colours` colours, canonical tuples in order."""
    if colours < 1 or sides < 3:
        raise ValueError("need at least one colour and three sides")
    found = {canonical(edges) for edges in product(range(colours), repeat=sides)}
    return tuple(sorted(found))


def tile_name(edges: tuple[int, ...], letters: str) -> str:
    """'WWRB' for (0, 0, 1, 2) with letters 'WRB...'."""
    return "".join(letters[c] for c in edges)
