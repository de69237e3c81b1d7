"""The hexagon methods and their declared options (the CLI, the service and the web
page offer them from these declarations). Solver modules are imported inside the run
functions: pysat and numba stay unloaded until a method runs."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.puzzle import Method, Option
from puzzlelab.core.result import Result
from puzzlelab.puzzles.hexagon.sat_encoding import SYMMETRY_CHOICES

ENCODING_CHOICES = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer", "ladder")

SAT_OPTIONS = (
    Option("ring", "int", None, "penalties only at edge distance < d (ring a + ring b; ring 1 = perimeter)", minimum=2),
    Option("inner", "int", 0, "with --ring: up to x penalties at distance >= d", minimum=0),
    Option("allow_at", "ints", (), "with --ring: one penalty allowed at each listed edge distance", minimum=2),
    Option("break", "int", 0, "fix two 1s near the centre: 1 = centre and one 3 away, 2 = a centre neighbour and one more (not sound for proofs)", choices=(0, 1, 2)),
    Option("levels", "int", 5, "search the values 1..k only (level-k penalty), complete the rest; k = 5 is the whole puzzle", minimum=1, maximum=5),
    Option("encoding", "str", "totalizer", "PySAT cardinality encoding of the penalty bound", choices=ENCODING_CHOICES),
    Option("symmetry", "str", "lex", "sound symmetry breaking: lex = one grid per orbit of the 12 symmetries (lex-leader), centre = the centre or its right neighbour holds 1, none; off with --break", choices=SYMMETRY_CHOICES),
    Option("target", "int", None, "stop once this raw score is reached", minimum=0),
)

BEAM_OPTIONS = (
    Option("width", "int", 2000, "beam width (states kept per step)", minimum=1, maximum=10_000_000),
    Option("order", "str", "spiral", "cell order: clock (by angle), spiral (rings from the centre, then by angle), rows", choices=("clock", "spiral", "rows")),
    Option("spiral_radius", "int", 3, "spiral order: rings from the centre taken ring by ring before the clock sweep", minimum=0),
    Option("levels", "int", 5, "assign values 1..k (k+1 = 'more'); 5 = the whole puzzle", minimum=1, maximum=5),
    Option("restarts", "int", 0, "repeat with new seeds while time is left (0 = until the budget ends, when width allows)", minimum=0),
)


def _run_sat(instance, *, budget, progress, seed, **options) -> Result:
    from puzzlelab.puzzles.hexagon.sat import run_sat

    return run_sat(instance, budget=budget, progress=progress, seed=seed, **options)


def _run_beam(instance, *, budget, progress, seed, **options) -> Result:
    from puzzlelab.puzzles.hexagon.beam import run_beam

    return run_beam(instance, budget=budget, progress=progress, seed=seed, **options)


def _run_levels(instance, *, budget, progress, seed, **options) -> Result:
    from puzzlelab.puzzles.hexagon.levels import run_levels

    return run_levels(instance, budget=budget, progress=progress, seed=seed, **options)


def _run_improve(instance, *, budget, progress, seed, **options) -> Result:
    from puzzlelab.puzzles.hexagon.improve import run_improve

    return run_improve(instance, budget=budget, progress=progress, seed=seed, **options)


def _run_portfolio(instance, *, budget, progress, seed, **options) -> Result:
    from puzzlelab.puzzles.hexagon.portfolio import run_portfolio

    return run_portfolio(instance, budget=budget, progress=progress, seed=seed, **options)


def _run_auto(instance, *, budget, progress, seed, **options: Any) -> Result:
    """Small orders: unrestricted SAT (proves optimality); a given grid: improve it;
    larger orders: the portfolio of published SAT settings."""
    if instance.start is not None:
        return _run_improve(instance, budget=budget, progress=progress, seed=seed, rounds=0, radius=3)
    if instance.n <= 6:
        return _run_sat(instance, budget=budget, progress=progress, seed=seed)
    return _run_portfolio(instance, budget=budget, progress=progress, seed=seed, workers=0, target=None)


def register(puzzle) -> None:
    puzzle.add_method(Method("auto", "sat for n <= 6 (proves optimal), improve for a given grid, else the portfolio", _run_auto, exact=True))
    puzzle.add_method(Method("sat", "penalty-edge SAT (CaDiCaL 1.9.5), bound tightened until UNSAT; ring/levels restrictions", _run_sat, SAT_OPTIONS, exact=True))
    puzzle.add_method(Method("beam", "beam search over cells (clock or spiral order), fitness = penalty edges", _run_beam, BEAM_OPTIONS))
    puzzle.add_method(
        Method(
            "levels",
            "beam search for levels 1-2, SAT for levels 3-5, linear-time 6s and 7s",
            _run_levels,
            (
                Option("width", "int", 3000, "beam width for levels 1-2", minimum=1, maximum=10_000_000),
                Option("order", "str", "spiral", "beam cell order", choices=("clock", "spiral", "rows")),
                Option("keep", "int", 16, "level-2 grids completed by SAT", minimum=1),
            ),
        )
    )
    puzzle.add_method(
        Method(
            "improve",
            "blank a region of a grid (the given one, else a beam result) and re-solve it with SAT; repeat",
            _run_improve,
            (
                Option("radius", "int", 3, "blank a hexagonal region of this radius around a random cell", minimum=1),
                Option("rounds", "int", 0, "regions to try (0 = until the budget ends)", minimum=0),
            ),
        )
    )
    puzzle.add_method(
        Method(
            "portfolio",
            "several sat settings (the published arguments first) in parallel worker processes; first proven or best wins",
            _run_portfolio,
            (
                Option("workers", "int", 0, "worker processes (0 = PUZZLELAB_WORKERS or the CPU count)", minimum=0),
                Option("target", "int", None, "stop once this raw score is reached (default: never before the budget ends or a proof)", minimum=0),
            ),
            exact=True,
        )
    )
