"""How much memory a tiling method may take, and what the set-partition models of a
grid would take, figured from the grid alone before anything is built
(refuse up front, with the figure, what cannot fit).

`memory_allowed(budget)` is the one figure every method compares with: the budget's
memory bound where it states one (`Budget.memory_bytes`, the service's per-job limit),
else half of this machine's memory. The model sizes come from the largest free square
at each cell (a square fits at (x, y) with every side up to that), computed here row
by row in numpy so that the answer for a 1000 x 1000 grid costs milliseconds and
allocates a few megabytes. The per-term and per-square figures were measured on
CP-SAT 9 and HiGHS 1.x builds of full and blocked grids (20x20 to 60x60: 25 to 65
bytes per covered cell in CP-SAT's peak, about 2 kB per square variable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.memory import format_bytes, share_of_machine

__all__ = [
    "MACHINE_SHARE",
    "memory_allowed",
    "format_bytes",
    "largest_squares",
    "ModelSize",
    "model_size",
    "require_model_fits",
]

MACHINE_SHARE = 0.5  # of this machine's memory, when the budget states no bound
CPSAT_BYTES_PER_TERM = 64  # one cell of one candidate square in an exactly-one constraint
CPSAT_BYTES_PER_SQUARE = 2048  # one Boolean variable and its bookkeeping
LP_BYTES_PER_TERM = 40  # int64 index + float value + HiGHS's own copy
LP_BYTES_PER_SQUARE = 64
BASE_BYTES = 100_000_000  # the solver libraries themselves


def memory_allowed(budget: Any = None) -> int:
    """Bytes one solve may take: the budget's memory bound when it states one, else
    `MACHINE_SHARE` of the machine's memory."""
    return share_of_machine(budget, MACHINE_SHARE)


def _count(number: int) -> str:
    """'333 million', '167 billion', '12,345' (a count for a message)."""
    for word, size in (("trillion", 10**12), ("billion", 10**9), ("million", 10**6)):
        if number >= size:
            return f"{number / size:,.0f} {word}"
    return f"{number:,}"


def largest_squares(free: np.ndarray) -> np.ndarray:
    """largest[y, x]: the side of the largest all-free square whose top-left cell is
    (x, y) (0 on a blocked cell); the same table as `kernels.max_square_table`, in
    numpy. Row y from row y + 1: with t[x] = 1 + min(below[x], below[x + 1]) on a free
    cell (0 on a blocked one), largest[y, x] = min over j >= x of (t[j] + j) - x, a
    running minimum from the right (a blocked cell j gives j, which no cell past it
    undercuts, so the minimum never reaches across it)."""
    free = np.asarray(free, dtype=bool)
    height, width = free.shape
    table = np.zeros((height, width), dtype=np.int32)
    below = np.zeros(width + 1, dtype=np.int64)
    columns = np.arange(width, dtype=np.int64)
    for y in range(height - 1, -1, -1):
        t = np.where(free[y], 1 + np.minimum(below[:-1], below[1:]), 0)
        reach = np.minimum.accumulate((t + columns)[::-1])[::-1]
        row = np.minimum(reach, width) - columns
        table[y] = np.where(free[y], row, 0)
        below[:-1] = table[y]
    return table


@dataclass(frozen=True)
class ModelSize:
    """The set-partition model of a grid: `squares` candidate squares (one variable
    each) whose cells add up to `terms` (the entries of its constraint matrix)."""

    squares: int
    terms: int

    def cpsat_bytes(self) -> int:
        return BASE_BYTES + self.squares * CPSAT_BYTES_PER_SQUARE + self.terms * CPSAT_BYTES_PER_TERM

    def lp_bytes(self) -> int:
        return BASE_BYTES + self.squares * LP_BYTES_PER_SQUARE + self.terms * LP_BYTES_PER_TERM

    def describe(self, nbytes: int) -> str:
        return (
            f"this grid has {_count(self.squares)} candidate squares covering {_count(self.terms)} cells in all "
            f"(about {format_bytes(nbytes)} of model)"
        )


def model_size(free: np.ndarray) -> ModelSize:
    """Squares and matrix entries of the set-partition model of `free`, without
    building it: a cell whose largest square has side L starts L squares, of
    1 + 4 + ... + L^2 = L(L+1)(2L+1)/6 cells."""
    largest = largest_squares(free).astype(np.int64)
    squares = int(largest.sum())
    terms = int((largest * (largest + 1) * (2 * largest + 1) // 6).sum())
    return ModelSize(squares, terms)


def require_model_fits(free: np.ndarray, method: str, budget: Any = None, advice: str = "use --method auto") -> ModelSize:
    """Refuse (InvalidInstance, status 413) a CP-SAT model that cannot fit the memory
    allowed, with the figures; return its size when it fits."""
    size = model_size(free)
    need, allowed = size.cpsat_bytes(), memory_allowed(budget)
    if need > allowed:
        raise InvalidInstance(
            f"{method}: {size.describe(need)}, more than the {format_bytes(allowed)} allowed; {advice}", "method", 413
        )
    return size
