"""CP-SAT's search settings on field puzzles, one thread each, from the `auto` CP-SAT
member's start tiling (issue 28, section 1: why the member's tiling stays where it
starts on the field's sparse losses).

For each puzzle of `bench_tiling_field.field()` named, the start tiling is built once
before any clock (the member's: beam in orientation 0 at the first sweep setting, one
round of stripes), then CP-SAT runs from it (hint and upper bound) under each setting
for `--seconds`; printed: when each better tiling came, the last value, the bound, the
status. Every tiling is checked by the puzzle's verifier. The settings:
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
from puzzlelab.puzzles.tiling.auto import CPSAT_PARAMETERS, SWEEPS
from puzzlelab.puzzles.tiling.beam import oriented_beam
from puzzlelab.puzzles.tiling.cpsat import cpsat_tiling
from puzzlelab.puzzles.tiling.model import format_solution
from puzzlelab.puzzles.tiling.stripes import improve_by_stripes

SETTINGS = {
    "tree": dict(CPSAT_PARAMETERS),
    "default": {"linearization_level": 2},
    "light": {"linearization_level": 2, "cp_model_probing_level": 0, "symmetry_level": 0},
}


def start_tiling(free):
    """The CP-SAT member's start (`auto.cpsat_member`), without its clock."""
    margin, deviation, width = SWEEPS[0]
    _, squares, _ = oriented_beam(free, 0, margin, deviation, width, Budget(seconds=5.0), hard=Budget(seconds=10.0))
    squares, _ = improve_by_stripes(free, squares, budget=Budget(seconds=5.0), rounds=1)
    return squares


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
        start = start_tiling(free)
        for setting in settings:
            found: list[tuple[float, int]] = []
            began = time.perf_counter()

            def on_solution(count, squares, bound, began=began, found=found) -> None:
                found.append((round(time.perf_counter() - began, 2), count))

            status, count, squares, bound, _ = cpsat_tiling(
                free, budget=Budget(seconds=args.seconds), threads=1, hint=start, upper_bound=len(start),
                seed=args.seed, on_solution=on_solution, parameters=SETTINGS[setting],
            )  # fmt: skip
            value = len(start)
            if squares is not None and count < value:
                verdict = PUZZLE.verify(grid, format_solution(grid, [tuple(map(int, s)) for s in squares]))
                if not verdict.ok or verdict.value != count:
                    raise SystemExit(f"{name} {setting}: CP-SAT's tiling does not verify ({verdict.message})")
                value = count
            seconds = round(time.perf_counter() - began, 2)
            times = ", ".join(f"{c} at {t} s" for t, c in found) or "none"
            print(
                f"{name:<11} {setting:<8} start {len(start):>4}  end {value:>4}  bound {bound:>4}  {status.value:<9} {seconds:>5} s  better tilings: {times}",
                flush=True,
            )
            rows.append(
                {
                    "puzzle": name,
                    "setting": setting,
                    "start": len(start),
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
