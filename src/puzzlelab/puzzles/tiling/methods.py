"""The tiling methods: names, summaries, options, and their run functions as lazy
`"module:function"` references (imported on first run: the solver modules pull in
numba kernels, OR-Tools or HiGHS)."""

from __future__ import annotations

from puzzlelab.core.puzzle import Method, Option

__all__ = ["METHODS", "BEAM_OPTIONS", "BEAM_STATE_BYTES"]

# What one partial tiling the beam keeps holds at least (sweep.STATE_BYTES, not imported
# here: it would load numba); a width times it is what the service caps widths by.
BEAM_STATE_BYTES = 12

BEAM_OPTIONS = (
    Option("margin", "int", 4, "Cost Margin: keep partial tilings within this many squares of a column's best", minimum=0, maximum=50),
    Option("deviation", "int", 2, "Size Deviation: try squares up to this much smaller than the largest that fits", minimum=0, maximum=1000),
    Option("width", "int", 100000, "most partial tilings kept per column (beam width)", minimum=1, maximum=10_000_000,
           resource="memory", unit_bytes=BEAM_STATE_BYTES),
    Option("orientation", "int", 0, "which of the 8 turns/flips of the grid to sweep (0 = as given)", minimum=0, maximum=7),
    Option("stripes", "bool", False, "afterwards re-solve stripes of the answer exactly (write-up 2.2)"),
)

METHODS: tuple[Method, ...] = (
    Method(
        "auto",
        "portfolio: beam + stripe re-solving on the 8 orientations, exact DP when the short side allows, "
        "CP-SAT seeded with the best tiling; optimal when proven",
        "puzzlelab.puzzles.tiling.auto:run_auto",
        (
            Option("workers", "int", 0, "worker processes (0 = PUZZLELAB_WORKERS or the CPU count)", minimum=0, maximum=256,
                   resource="processes"),
            Option("margin", "int", 4, "the beam's starting Cost Margin (shrinks as the clock runs)", minimum=0, maximum=50),
            Option(
                "cpsat",
                "bool",
                None,
                "a CP-SAT member (hinted with a quick heuristic tiling) in the portfolio; unset: when the short side is "
                "above 15, 2+ workers and a model of at most 200,000 terms; --no-cpsat: never",
            ),
        ),
        exact=True,
    ),
    Method(
        "prove",
        "a proof of optimality past the DP's reach: auto's tiling, the grid split into independent groups "
        "along blocked cells, each group by the exact DP or CP-SAT hinted with it and its LP bound; "
        "out of time: the best tiling and the best proven bound",
        "puzzlelab.puzzles.tiling.prove:run_prove",
        (
            Option("threads", "int", 0, "CP-SAT search workers (0 = PUZZLELAB_WORKERS or the CPU count)", minimum=0, maximum=64,
                   resource="processes"),
            Option("workers", "int", 0, "worker processes of the first search (0 = PUZZLELAB_WORKERS or the CPU count)", minimum=0,
                   maximum=256, resource="processes"),
            Option("search", "float", 10.0, "seconds of auto's search for the first tiling (at most half the budget)", minimum=0),
        ),
        exact=True,
    ),
    Method(
        "dp",
        "exact column DP (write-up section 1): packed uint64 states up to height 15, wider states beyond",
        "puzzlelab.puzzles.tiling.dp_fallback:run_dp",
        (
            Option("max_memory_mb", "float", 2000.0, "stop when the DP's states pass this many MB (never more than half the machine's memory)",
                   minimum=1, resource="memory", unit_bytes=1e6),
        ),
        exact=True,
    ),
    Method(
        "beam",
        "the write-up's heuristic column DP (Cost Margin, Size Deviation, MinSquares)",
        "puzzlelab.puzzles.tiling.beam:run_beam",
        BEAM_OPTIONS,
    ),
    Method(
        "cpsat",
        "set partition in OR-Tools CP-SAT: a Boolean per square that fits, each free cell covered once",
        "puzzlelab.puzzles.tiling.cpsat:run_cpsat",
        (
            Option("threads", "int", 0, "CP-SAT search workers (0 = PUZZLELAB_WORKERS or the CPU count)", minimum=0, maximum=64,
                   resource="processes"),
            Option("hint", "bool", True, "start from the beam's greedy tiling (hint and upper bound)"),
        ),
        exact=True,
    ),
)
