"""What every solver returns (`Result`), what every checker says (`Verdict`), and the
limits every solver runs under (`Budget`, progress callbacks).

A `Result` is JSON round-trippable so it can cross process boundaries, the records
store and the REST service unchanged. A `Budget` is a wall-clock deadline, a cancel
flag and, where the caller states one, a memory bound (`memory_bytes`: the service's
per-job limit) that a solver checks before it allocates (`require_memory`),
so work that cannot fit is refused up front with the figure. Deadline and cancel flag
are packed in a small int64 array (`Budget.control`) that numba kernels poll with
`should_stop(control)` every ~1e5 nodes, without coming back to Python:

    control[DEADLINE_NS]  CLOCK_MONOTONIC deadline in ns (NO_DEADLINE when unlimited)
    control[CANCEL]       non-zero once cancelled (set by another thread)
    control[NODES]        a kernel may publish its node / state count here
    control[BEST]         a kernel may publish its best value so far here
    control[EXTRA]        free for the kernel (depth, level, ...)

Kernels that poll the cancel flag should be compiled with `nogil=True` so the thread
that sets it (a CLI's Ctrl-C handler, a progress reporter) can run meanwhile.
"""

from __future__ import annotations

import json
import math
import time
import weakref
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Callable

import numba
import numpy as np

from puzzlelab.core.bits import monotonic_ns, volatile_load
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.memory import format_bytes

__all__ = [
    "Status",
    "Verdict",
    "Result",
    "Budget",
    "Progress",
    "ProgressFn",
    "should_stop",
    "no_progress",
    "throttle",
    "format_bytes",
    "DEADLINE_NS",
    "CANCEL",
    "NODES",
    "BEST",
    "EXTRA",
]


class Status(str, Enum):
    """How much a Result claims."""

    OPTIMAL = "optimal"  # value proven best possible (under the method's stated assumptions)
    FEASIBLE = "feasible"  # a valid answer, not proven optimal
    INFEASIBLE = "infeasible"  # proven to have no answer
    UNKNOWN = "unknown"  # nothing found within the budget

    def __str__(self) -> str:  # pragma: no cover - cosmetic
        return self.value


@dataclass
class Verdict:
    """An independent checker's judgement of one solution.

    `value` is the figure the checker recomputed from the solution alone (squares,
    matches, raw score, moves, ...); `figures` holds any other recomputed figures.
    `unchecked` says what the solution claims that the checker could not check (a
    count too large to recount, say); `ok` is True only when every claim was checked
    and holds, so a verdict with anything unchecked is never ok. Three outcomes, as
    `word` names them: valid (ok), INVALID (a claim is false: `rejected`) and
    UNCHECKED (nothing found false, something not checked).
    """

    ok: bool
    value: Any = None
    message: str = ""
    figures: dict[str, Any] = field(default_factory=dict)
    unchecked: str = ""

    def __post_init__(self) -> None:
        if self.unchecked:
            self.ok = False

    @property
    def rejected(self) -> bool:
        """A claim was checked and found false (not merely left unchecked)."""
        return not self.ok and not self.unchecked

    @property
    def word(self) -> str:
        """'valid', 'INVALID' or 'UNCHECKED': what a command line prints."""
        return "valid" if self.ok else ("UNCHECKED" if self.unchecked else "INVALID")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Verdict":
        return cls(
            ok=bool(data["ok"]),
            value=data.get("value"),
            message=data.get("message", ""),
            figures=dict(data.get("figures") or {}),
            unchecked=str(data.get("unchecked") or ""),
        )


@dataclass
class Result:
    """One solver run's answer.

    `value` is the figure the field quotes; `bound` the best proven bound on it (equal to
    `value` when optimal); `solution` is JSON-able; `verdict` is filled in by the
    puzzle's independent `verify` before the Result leaves `Puzzle.solve`.
    """

    value: Any
    solution: Any
    status: Status
    method: str
    bound: Any = None
    stats: dict[str, Any] = field(default_factory=dict)
    verdict: Verdict | None = None

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    @property
    def verified(self) -> bool:
        return self.verdict is not None and self.verdict.ok

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "solution": self.solution,
            "status": self.status.value,
            "method": self.method,
            "bound": self.bound,
            "stats": self.stats,
            "verdict": None if self.verdict is None else self.verdict.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Result":
        verdict = data.get("verdict")
        return cls(
            value=data.get("value"),
            solution=data.get("solution"),
            status=Status(data["status"]),
            method=data["method"],
            bound=data.get("bound"),
            stats=dict(data.get("stats") or {}),
            verdict=None if verdict is None else Verdict.from_dict(verdict),
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), default=_json_default)

    @classmethod
    def from_json(cls, text: str) -> "Result":
        return cls.from_dict(json.loads(text))


def _json_default(obj: Any) -> Any:
    """numpy scalars and arrays appear in solver output; make them plain JSON."""
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Enum):
        return obj.value
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


# ---------------------------------------------------------------------------------------
# Budget

DEADLINE_NS, CANCEL, NODES, BEST, EXTRA = 0, 1, 2, 3, 4
CONTROL_SLOTS = 8
NO_DEADLINE = np.iinfo(np.int64).max


@numba.njit(cache=True, nogil=True)
def should_stop(control):
    """True once the budget's deadline has passed or it was cancelled (kernel-side poll)."""
    return volatile_load(control, CANCEL) != 0 or monotonic_ns() >= control[DEADLINE_NS]


_FOREVER_S = 1e9  # a budget of over 31 years is no deadline (and nanoseconds past it overflow int64)


class Budget:
    """A wall-clock deadline and a cancel flag, shared by Python code and numba kernels,
    and an optional memory bound.

    `Budget(10)` gives ten seconds from now; `Budget()` is unlimited. Python code asks
    `budget.expired()`; kernels take `budget.control` and call `should_stop(control)`.
    `sub(seconds)` makes a budget for one phase: it ends at the earlier of the two
    deadlines, is cancelled with its parent and keeps its memory bound. A Budget
    pickles as the time it has left (and its memory bound), so a worker process (or
    another machine) gets the same remaining time.

    `Budget(10, memory_bytes=2e9)` also states how much memory the work may take (the
    service's job limit, which its worker processes also enforce); `None` states none.
    A solver that knows what it will allocate calls `budget.require_memory(nbytes,
    what)` first, and so refuses with the figure instead of running out of memory.
    """

    def __init__(self, seconds: float | None = None, *, memory_bytes: float | None = None):
        self.control = np.zeros(CONTROL_SLOTS, dtype=np.int64)
        if seconds is not None and seconds != seconds:  # NaN
            raise ValueError("budget seconds must be a number")
        if seconds is None or seconds >= _FOREVER_S:  # 1e300 s: unlimited, not an int64 overflow
            self.control[DEADLINE_NS] = NO_DEADLINE
        else:
            self.control[DEADLINE_NS] = time.monotonic_ns() + max(0, int(seconds * 1e9))
        if memory_bytes is not None and not (memory_bytes == memory_bytes and memory_bytes > 0):
            raise ValueError(f"budget memory_bytes must be a positive number or None, got {memory_bytes!r}")
        self.memory_bytes: int | None = None if memory_bytes is None or math.isinf(memory_bytes) else int(memory_bytes)
        self._children: weakref.WeakSet[Budget] = weakref.WeakSet()

    # -- reading
    @property
    def limited(self) -> bool:
        return int(self.control[DEADLINE_NS]) != NO_DEADLINE

    def seconds_left(self) -> float:
        """Seconds until the deadline (inf when unlimited, 0 when cancelled or past)."""
        if self.cancelled:
            return 0.0
        if not self.limited:
            return math.inf
        return max(0.0, (int(self.control[DEADLINE_NS]) - time.monotonic_ns()) / 1e9)

    def expired(self) -> bool:
        return self.cancelled or (self.limited and time.monotonic_ns() >= int(self.control[DEADLINE_NS]))

    @property
    def cancelled(self) -> bool:
        return bool(self.control[CANCEL])

    def allows_memory(self, nbytes: float) -> bool:
        """True when `nbytes` fits the memory bound (always, when there is none)."""
        return self.memory_bytes is None or nbytes <= self.memory_bytes

    def require_memory(self, nbytes: float, what: str, field: str = "instance") -> None:
        """Refuse up front work that cannot fit: InvalidInstance (status 413, as for an
        instance over the size limits) saying what needs how much, e.g. "tiling
        1000x1000 by cpsat: needs 6.1 GB, more than the 2.0 GB allowed"."""
        if not self.allows_memory(nbytes):
            raise InvalidInstance(
                f"{what}: needs {format_bytes(nbytes)}, more than the {format_bytes(self.memory_bytes)} allowed", field, 413
            )

    # -- acting
    def cancel(self) -> None:
        """Ask every solver using this budget (and its sub-budgets) to stop soon."""
        self.control[CANCEL] = 1
        for child in list(self._children):
            child.cancel()

    def sub(self, seconds: float | None = None, fraction: float | None = None) -> "Budget":
        """A budget for one phase: at most `seconds`, or `fraction` of what is left."""
        left = self.seconds_left()
        if fraction is not None:
            left = left * fraction
        if seconds is not None:
            left = min(left, seconds)
        child = Budget(left, memory_bytes=self.memory_bytes)
        if self.cancelled:
            child.cancel()
        self._children.add(child)
        return child

    # -- publishing kernel counters
    @property
    def nodes(self) -> int:
        return int(self.control[NODES])

    def __reduce__(self):
        left = self.seconds_left()
        return (_budget_from_state, (None if math.isinf(left) else left, self.cancelled, self.memory_bytes))

    def __repr__(self) -> str:
        left = self.seconds_left()
        memory = "" if self.memory_bytes is None else f", {format_bytes(self.memory_bytes)}"
        return f"Budget(unlimited{memory})" if math.isinf(left) else f"Budget({left:.3f}s left{memory})"


def _budget_from_state(seconds: float | None, cancelled: bool, memory_bytes: int | None = None) -> Budget:
    budget = Budget(seconds, memory_bytes=memory_bytes)
    if cancelled:
        budget.cancel()
    return budget


# ---------------------------------------------------------------------------------------
# Progress


@dataclass
class Progress:
    """One progress report from a long search.

    `phase` names the stage ("level 12", "orientation 3", "depth 7"); `done`/`total`
    give a fraction where one is known; `best` is the best value so far; `stats` any
    counters (nodes, states, rate).
    """

    phase: str = ""
    message: str = ""
    done: float | None = None
    total: float | None = None
    best: Any = None
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def fraction(self) -> float | None:
        if self.done is None or not self.total:
            return None
        return min(1.0, self.done / self.total)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["fraction"] = self.fraction
        return json.loads(json.dumps(data, default=_json_default))


ProgressFn = Callable[[Progress], None]


def no_progress(_: Progress) -> None:
    """The default progress callback: ignore."""


def throttle(progress: ProgressFn | None, every_seconds: float = 0.5) -> ProgressFn:
    """Wrap a callback so it fires at most once per `every_seconds` (the first call
    always passes). Solvers can then report from inner Python loops freely."""
    if progress is None:
        return no_progress
    last = [-math.inf]

    def report(event: Progress) -> None:
        now = time.monotonic()
        if now - last[0] >= every_seconds:
            last[0] = now
            progress(event)

    return report
