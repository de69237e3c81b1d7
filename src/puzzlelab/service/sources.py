"""The answer sources the service plugs in at start-up (`answers.register_answer_source`):
what the package ships that this project computed, each row checked by its puzzle's
checker first (`service.shipped`). The verified rows become answers that can be
opened, drawn and exported: the font5x7 table of coin optima (each proven by a full
BFS), the matchsticks proofs for n = 0..38, the new records and restricted columns
(found, not proofs: served as feasible), the hexagon grids of the best scores, the
contest tilings and the A219158 rows past the published table, and the MacMahon
counts. `answers` replays every entry with the checker again on first use, as it
does for any source; a file that cannot be read is logged and yields nothing, so the
dashboards and the search methods go on without it."""

from __future__ import annotations

from puzzlelab.service.shipped import coins, matchsticks, register_shipped_sources

__all__ = ["COINS_TABLE", "MATCHSTICKS_SHIPPED", "MATCHSTICKS_PROOFS", "register_shipped_sources"]

COINS_TABLE = coins.TABLE
MATCHSTICKS_SHIPPED = matchsticks.SHIPPED
MATCHSTICKS_PROOFS = matchsticks.PROOFS
