"""The `sat` search's options and summary, typed.

`SatOptions` holds the method's options (ring, inner, allow_at, break, levels,
encoding, symmetry, target) and the two that only the portfolio sets (`lower_only`,
`ladder`). `SatSummary` is what a search reports while it runs and when it ends; the
portfolio, the batch driver and the method's Result read it. Options arrive as the
method's keyword form ({'ring': 4, 'break': 2}, what `solve --method sat` takes and
`reference.published_arguments` gives) and convert with `SatOptions.of` / `to_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from puzzlelab.puzzles.hexagon.cnf.solver import DEFAULT_ENCODING
from puzzlelab.puzzles.hexagon.fields import FieldsByName
from puzzlelab.puzzles.hexagon.model import edge_count

__all__ = ["SatOptions", "SatCall", "Asking", "SatSummary"]

# Options whose false value (0, '', ()) means their default, as the keyword form has
# always been read; None means the default for every option but `symmetry` (where it
# means "none", see sat_encoding.symmetry_mode).
_FALSE_IS_DEFAULT = ("inner", "allow_at", "break_", "levels", "encoding")


@dataclass(frozen=True)
class SatOptions(FieldsByName):
    """What one sat search is asked (see methods.SAT_OPTIONS for each option's meaning)."""

    ring: int | None = None
    inner: int = 0
    allow_at: tuple[int, ...] = ()
    break_: int = 0
    levels: int = 5
    encoding: str = DEFAULT_ENCODING
    symmetry: str | bool | None = "lex"
    target: int | None = None
    lower_only: bool = False  # levels < 5: stop at the proven level bound, enumerate nothing
    ladder: bool = True

    @classmethod
    def of(cls, options: "SatOptions | Mapping[str, Any] | None") -> "SatOptions":
        """Options from the method's keyword form ('break' for `break_`); unknown names
        are refused."""
        if isinstance(options, SatOptions):
            return options
        names = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in (options or {}).items():
            name = "break_" if key == "break" else key
            if name not in names:
                raise ValueError(f"sat option {key!r}: no such option")
            if (value is None and name != "symmetry") or (name in _FALSE_IS_DEFAULT and not value):
                continue
            values[name] = value
        for name in ("inner", "break_", "levels"):
            if name in values:
                values[name] = int(values[name])
        if "allow_at" in values:
            values["allow_at"] = tuple(int(d) for d in values["allow_at"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The keyword form, defaults left out ({} for an unrestricted whole-puzzle run)."""
        default = SatOptions()
        return {
            ("break" if f.name == "break_" else f.name): getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    def with_target(self, target: int | None) -> "SatOptions":
        return replace(self, target=target)

    @property
    def restricted(self) -> bool:
        """--ring or --break: what such a run proves holds only within its restrictions."""
        return self.ring is not None or bool(self.break_)

    def describe_restrictions(self) -> str:
        """The restrictions as flags, e.g. '--ring 4 --inner 1 --break 2' ('' for none)."""
        parts = []
        if self.ring is not None:
            parts.append(f"--ring {self.ring}")
        if self.inner:
            parts.append(f"--inner {self.inner}")
        if self.allow_at:
            parts.append("--allow-at " + ",".join(map(str, self.allow_at)))
        if self.break_:
            parts.append(f"--break {self.break_}")
        return " ".join(parts)

    def describe(self) -> str:
        """A setting's name in the portfolio and batch reports ('unrestricted' for none)."""
        text = self.describe_restrictions()
        if self.levels < 5:
            text = (text + f" --levels {self.levels}").strip()
        return text or "unrestricted"


@dataclass(frozen=True)
class SatCall(FieldsByName):
    """One SAT call of a search: its kind (first, target, descend, enumerate), the
    penalty bound asked (None: any grid), the answer (None: stopped unanswered), seconds."""

    kind: str
    bound: int | None
    sat: bool | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "bound": self.bound, "sat": self.sat, "seconds": self.seconds}


@dataclass(frozen=True)
class Asking(FieldsByName):
    """The SAT call in progress: its kind, bound, seconds and conflicts so far."""

    kind: str
    bound: int | None
    seconds: float
    conflicts: int


@dataclass
class SatSummary(FieldsByName):
    """A search's state as reported: the best full grid and its penalty, the least level
    penalty seen, `lower` (a proven lower bound on the level penalty, hence on the final
    one when unrestricted), `proven` ('optimal' | 'level' | 'restricted' | 'infeasible' |
    None), every SAT call, the formula's size, `final` (False for an interim report) and
    the call being asked."""

    n: int
    level: int
    restricted: bool
    grid: list[int] | None = None
    penalty: int | None = None
    level_penalty: int | None = None
    lower: int | None = None
    proven: str | None = None
    steps: list[SatCall] = field(default_factory=list)
    variables: int = 0
    clauses: int = 0
    card_clauses: int = 0
    rebuilds: int = 0
    final: bool = False
    asking: Asking | None = None
    seconds: float = 0.0

    @property
    def raw(self) -> int | None:
        """The raw score of the best grid (edges minus penalty edges)."""
        return None if self.penalty is None else edge_count(self.n) - self.penalty
