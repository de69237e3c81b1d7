"""The hexagon methods and their declared options (the CLI, the service and the web
page offer them from these declarations). Each run function is a lazy
"module:function" reference: pysat and numba stay unloaded until a method runs."""

from __future__ import annotations

from puzzlelab.core.puzzle import Method, Option
from puzzlelab.puzzles.hexagon.cnf.encoding import SYMMETRY_CHOICES
from puzzlelab.puzzles.hexagon.cnf.solver import DEFAULT_ENCODING, ENCODINGS

__all__ = ["METHODS", "BEAM_STATE_BYTES", "SAT_OPTIONS", "BEAM_OPTIONS", "LEVELS_OPTIONS", "IMPROVE_OPTIONS", "PORTFOLIO_OPTIONS"]

CELL_ORDERS = ("clock", "spiral", "rows")
# The least a beam holds per kept state, on any order and level (beam.beam_bytes: the
# cells, two frontiers, penalty, hash and candidates); what the service caps widths by.
BEAM_STATE_BYTES = 100

SAT_OPTIONS = (
    Option("ring", "int", None, "penalties only at edge distance < d (ring a + ring b; ring 1 = perimeter)", minimum=2),
    Option("inner", "int", 0, "with --ring: up to x penalties at distance >= d", minimum=0),
    Option("allow_at", "ints", (), "with --ring: one penalty allowed at each listed edge distance", minimum=2),
    Option("break", "int", 0, "fix two 1s near the centre: 1 = centre and one 3 away, 2 = a centre neighbour and one more (not sound for proofs)", choices=(0, 1, 2)),
    Option("levels", "int", 5, "search the values 1..k only (level-k penalty), complete the rest; k = 5 is the whole puzzle", minimum=1, maximum=5),
    Option("encoding", "str", DEFAULT_ENCODING, "PySAT cardinality encoding of the penalty bound", choices=ENCODINGS),
    Option("symmetry", "str", "lex", "sound symmetry breaking: lex = one grid per orbit of the 12 symmetries (lex-leader), centre = the centre or its right neighbour holds 1, none; off with --break", choices=SYMMETRY_CHOICES),
    Option("target", "int", None, "stop once this raw score is reached", minimum=0),
    Option(
        "published_start",
        "bool",
        True,
        "unrestricted runs of order 7 and up first run the published arguments (ring, inner, break) and go on from their grid (n = 7: 325 in seconds); off: from the first SAT answer",
    ),
)

BEAM_OPTIONS = (
    Option("width", "int", 2000, "beam width (states kept per step; refused up front, with the figure, when the beam's arrays would not fit in memory: cells packed 1-3 bits: about 0.6 bytes per cell per state plus 0.5 kB)", minimum=1, maximum=10_000_000,
           resource="memory", unit_bytes=BEAM_STATE_BYTES),
    Option("order", "str", "spiral", "cell order: clock (by angle), spiral (rings from the centre, then by angle), rows", choices=CELL_ORDERS),
    Option("spiral_radius", "int", 3, "spiral order: rings from the centre taken ring by ring before the clock sweep", minimum=0),
    Option("levels", "int", 5, "assign values 1..k (k+1 = 'more'); 5 = the whole puzzle", minimum=1, maximum=5),
    Option("restarts", "int", 0, "repeat with new seeds while time is left (0 = until the budget ends, when width allows)", minimum=0),
)

LEVEL_METHODS = ("beam", "sat", "dlx", "ilp")  # as level_solvers.LEVEL_METHODS (not imported: keeps solvers unloaded)

LEVELS_OPTIONS = (
    Option("width", "int", 3000, "beam width for levels 1-2 (refused up front when it would not fit in memory)", minimum=1, maximum=10_000_000,
           resource="memory", unit_bytes=BEAM_STATE_BYTES),
    Option("order", "str", "spiral", "beam cell order", choices=CELL_ORDERS),
    Option("keep", "int", 16, "level-2 grids completed (beam's best; the exact level methods give one)", minimum=1),
    Option("low", "str", "beam", "levels 1-2 by: beam (heuristic), sat, dlx (dancing links) or ilp (HiGHS): the exact three give a least-penalty level-2 grid", choices=LEVEL_METHODS),
    Option("high", "str", "sat", "levels 3-4 on each level-2 grid by: sat (every level-4 grid of its descent completed), dlx, ilp or beam (the least level-4 grid completed)", choices=LEVEL_METHODS),
)

IMPROVE_OPTIONS = (
    Option("radius", "int", 3, "blank a hexagonal region of this radius around a random cell", minimum=1),
    Option("rounds", "int", 0, "regions to try (0 = until the budget ends)", minimum=0),
    Option("sideways", "float", 0.0, "chance that a region already at its best is refilled another way at the same penalty (a plateau step)",
           minimum=0.0, maximum=1.0),
)

PORTFOLIO_OPTIONS = (
    Option("workers", "int", 0, "worker processes (0 = PUZZLELAB_WORKERS or the CPU count)", minimum=0, maximum=256, resource="processes"),
    Option("target", "int", None, "stop once this raw score is reached (default: never before the budget ends or a proof)", minimum=0),
)

METHODS: tuple[Method, ...] = (
    Method("auto", "sat for n <= 6 (proves optimal), improve for a given grid, else the portfolio", "puzzlelab.puzzles.hexagon.auto:run_auto", exact=True),
    Method("sat", "penalty-edge SAT (CaDiCaL 1.9.5), bound tightened until UNSAT; ring/levels restrictions", "puzzlelab.puzzles.hexagon.sat.search:run_sat", SAT_OPTIONS, exact=True),
    Method(
        "backtrack",
        "depth-first backtracking in row order, penalty bound raised from 1 until a grid fits (exact; n <= 4 in seconds)",
        "puzzlelab.puzzles.hexagon.rowdp.backtrack:run_backtrack",
        exact=True,
    ),
    Method("beam", "beam search over cells (clock or spiral order), fitness = penalty edges", "puzzlelab.puzzles.hexagon.beam.search:run_beam", BEAM_OPTIONS),
    Method(
        "levels",
        "levels 1-2 then 3-4, each by beam, sat, dlx or ilp (default beam, then sat), linear-time 5s, 6s and 7s",
        "puzzlelab.puzzles.hexagon.levels.pipeline:run_levels",
        LEVELS_OPTIONS,
    ),
    Method(
        "improve",
        "blank a region of a grid (the given one, else a beam result) and re-solve it with SAT; repeat",
        "puzzlelab.puzzles.hexagon.sat.improve:run_improve",
        IMPROVE_OPTIONS,
    ),
    Method(
        "portfolio",
        "several sat settings (the published arguments first) in parallel worker processes; first proven or best wins",
        "puzzlelab.puzzles.hexagon.sat.portfolio:run_portfolio",
        PORTFOLIO_OPTIONS,
        exact=True,
    ),
)
