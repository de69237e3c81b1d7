"""CP-SAT's search settings on field puzzles, one thread each, from the `auto` CP-SAT
member's start tiling (why the member's tiling stays where it
starts on the field's sparse losses).

For each puzzle of `bench_tiling_field.field()` named, the start tiling is built once
before any clock (the member's: beam in orientation 0 at the first sweep setting, one
round of stripes), then CP-SAT runs from it (hint and upper bound) under each setting
for `--seconds`; printed: when each tiling came, the last value, the bound, the
status. Every tiling (the start, each one CP-SAT finds) is checked by the puzzle's verifier
before it is counted. The settings:
- `tree`: the member's own (linearization level 2, the LP-bound tree search);
- `default`: linearization level 2 and CP-SAT's default search;
- `light`: `default` with probing and symmetry detection off (a shorter presolve).

Run: python benchmarks/bench_tiling_cpsat_settings.py [--names sparse-7,sparse-4,sparse-0,contest-32]
     [--settings tree,default,light] [--seconds 9] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

from bench_tiling_field import field
from common import write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.tiling import PUZZLE
from puzzlelab.puzzles.tiling.auto import CPSAT_PARAMETERS, cpsat_start_tiling
from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling
from puzzlelab.puzzles.tiling.model import format_solution

SETTINGS = {
    "tree": dict(CPSAT_PARAMETERS),
    "default": {"linearization_level": 2},
    "light": {"linearization_level": 2, "cp_model_probing_level": 0, "symmetry_level": 0},
}


def checked_count(name: str, grid, squares) -> int:
    """The number of squares, once the puzzle's verifier has confirmed the tiling."""
    verdict = PUZZLE.verify(grid, format_solution(grid, [tuple(map(int, s)) for s in squares]))
    if not verdict.ok or verdict.value != len(squares):
        raise SystemExit(f"{name}: a tiling does not verify ({verdict.message})")
    return len(squares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--names", default="sparse-7,sparse-4,sparse-0,contest-32")
    parser.add_argument("--settings", default="tree,default,light")
    parser.add_argument("--seconds", type=float, default=9.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    grids = dict(field())
    unknown = [n for n in args.names.split(",") if n not in grids]
    settings = args.settings.split(",")
    if unknown or any(s not in SETTINGS for s in settings):
        raise SystemExit(f"--names: field puzzles expected (unknown: {unknown}); --settings: some of {sorted(SETTINGS)}")
    rows = []
    for name in args.names.split(","):
        grid = grids[name]
        free = grid.free()
        start = cpsat_start_tiling(free, Budget(seconds=10.0))  # the member's start, before any clock
        start_count = checked_count(name, grid, start)
        for setting in settings:
            found: list[tuple[float, int]] = []
            began = time.perf_counter()

            def on_solution(count, squares, bound, began=began, found=found) -> None:
                seconds = round(time.perf_counter() - began, 2)
                found.append((seconds, checked_count(name, grid, squares)))

            status, count, squares, bound, _ = cpsat_tiling(
                free, budget=Budget(seconds=args.seconds), threads=1, hint=start, upper_bound=len(start),
                seed=args.seed, on_solution=on_solution, parameters=SETTINGS[setting],
            )  # fmt: skip
            value = start_count
            if count is not None and count < value:
                value = checked_count(name, grid, squares)
            seconds = round(time.perf_counter() - began, 2)
            times = ", ".join(f"{c} at {t} s" for t, c in found) or "none"
            print(
                f"{name:<11} {setting:<8} start {start_count:>4}  end {value:>4}  bound {bound:>4}  {status.value:<9} {seconds:>5} s  tilings found: {times}",
                flush=True,
            )
            rows.append(
                {
                    "puzzle": name,
                    "setting": setting,
                    "start": start_count,
                    "value": value,
                    "bound": int(bound),
                    "status": status.value,
                    "seconds": seconds,
                    "found": found,
                }
            )
    write_json("tiling_cpsat_settings", {"benchmark": "tiling_cpsat_settings", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
