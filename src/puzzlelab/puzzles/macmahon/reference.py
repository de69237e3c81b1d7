"""Published solution counts of MacMahon instances, each with its source: what the
independent checker compares a claimed total with where it cannot recount it itself.

Keys are instance texts as `parse_instance` reads them; a count is that of every
solution with the board held fixed (symmetric versions counted apart).
"""

from __future__ import annotations

__all__ = ["PUBLISHED_COUNTS"]

PUBLISHED_COUNTS: dict[str, tuple[int, str]] = {
    "4x6": (106_624, "CPLEX's solution pool in the write-up this puzzle comes from, symmetric versions included"),
}
