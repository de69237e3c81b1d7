"""The MacMahon methods: names, options and their run functions as lazy references, so
loading the registry imports no numba kernel, HiGHS or OR-tools (the functions live in
count_results.py for the enumerator and the backtracking, in mip.py and cpsat.py for the
models).

Options that name a file or a machine of the server (`checkpoint`, `backend`, `address`)
are `local_only`: the REST service refuses them from a client."""

from __future__ import annotations

from puzzlelab.core.puzzle import Method, Option

__all__ = ["METHODS"]

_RUNNERS = "puzzlelab.puzzles.macmahon.count_results"

ORDER = Option("order", "str", "mrv", "cell order: mrv (fewest candidates first) or a fixed ring / rows / greedy", choices=("mrv", "ring", "rows", "greedy"))

METHODS: tuple[Method, ...] = (
    Method(
        "enumerate",
        "exact count of every solution (numba), with symmetry classes",
        f"{_RUNNERS}:run_enumerate",
        (
            Option("workers", "int", 1, "worker processes (subtrees in parallel)", minimum=1, maximum=256, resource="processes"),
            Option("split_depth", "int", 3, "extra cells fixed per subtree when split for workers", minimum=0, maximum=64),
            ORDER,
            Option("symmetry", "bool", True, "classify the solutions under the symmetry group"),
            Option("group", "str", "", "extra subgroup from generators, e.g. rot180,WBR"),
            Option("checkpoint", "str", "", "file keeping finished subtrees (resume a long count)", local_only=True),
            Option("backend", "str", "local", "where subtrees run: local worker processes or a ray cluster", choices=("local", "ray"), local_only=True),
            Option("address", "str", "", "ray cluster address (default: $RAY_ADDRESS)", local_only=True),
        ),
        exact=True,
    ),
    Method("first", "the first solution of the enumerator's search", f"{_RUNNERS}:run_first", (ORDER,)),
    Method(
        "mip",
        "the write-up's MIP model on HiGHS; k different solutions with no-good cuts",
        "puzzlelab.puzzles.macmahon.mip:run_mip",
        (
            Option("solutions", "int", 1, "different solutions to find (no-good cuts)", minimum=1, maximum=10000),
            Option("orientations", "str", "distinct", "orientations of each piece in the model", choices=("distinct", "all")),
        ),
    ),
    Method(
        "cpsat",
        "the same model on CP-SAT; k solutions, or all of them with --all",
        "puzzlelab.puzzles.macmahon.cpsat:run_cpsat",
        (
            Option("solutions", "int", 1, "different solutions to find", minimum=1, maximum=10000),
            Option("all", "bool", False, "enumerate every solution (an exact count)"),
            Option("threads", "int", 1, "CP-SAT search workers (one solution only)", minimum=1, maximum=64, resource="processes"),
        ),
    ),
    Method("backtrack", "plain-Python backtracking count (small boards; the naive peer)", f"{_RUNNERS}:run_backtrack", exact=True),
)
