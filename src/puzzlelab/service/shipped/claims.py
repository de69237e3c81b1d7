"""A shipped row before and after the service's check: `Claim` is what a puzzle's
reader offers (the figure, its solution, how it was computed, and the reader's own
verdict), `Shipped` what is shown, with the outcome of checking the claim again with
the puzzle's independent checker (`check_claim`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from puzzlelab.core.inputs import decode_input
from puzzlelab.core.puzzle import InvalidInstance, Puzzle

__all__ = ["Claim", "Shipped", "check_claim", "VERIFIED", "FAILED", "RECORDED"]

VERIFIED, FAILED, RECORDED = "verified", "failed", "recorded"


@dataclass(frozen=True)
class Claim:
    """One shipped result as its file gives it. `instance` is what the puzzle loads (a
    catalog name or instance text); `solution` None means there is nothing to check
    (a recorded figure); `problem` is the reader's reason for rejecting the row.
    `source` names the shipped file; `answers` the answer source a verified row is
    served through (`service.answers`; empty: none, it has no solution to serve)."""

    instance: str
    label: str
    value: Any
    status: str
    claim: str
    source: str
    method: str
    provenance: dict[str, Any]
    solution: Any = None
    problem: str | None = None
    figures: dict[str, Any] = field(default_factory=dict)
    kind: str = "answer"
    answers: str = ""


@dataclass(frozen=True)
class Shipped:
    """A shipped row as shown: `check` is verified, failed or recorded and `reason`
    says why (the checker's message, what failed, or what could not be checked)."""

    puzzle: str
    instance: str
    load_as: str
    label: str
    value: Any
    status: str
    claim: str
    source: str
    method: str
    provenance: dict[str, Any]
    check: str
    reason: str
    figures: dict[str, Any]
    kind: str
    solution: Any = None
    answers: str = ""

    @property
    def ours(self) -> bool:
        """Shown as ours: verified, or a recorded figure (never a failed one)."""
        return self.check != FAILED

    def view(self) -> dict[str, Any]:
        """What a dashboard row and `records --json` carry (no solution)."""
        return {
            "instance": self.instance, "label": self.label, "value": self.value, "status": self.status, "claim": self.claim,
            "source": self.source, "method": self.method, "check": self.check, "reason": self.reason, "kind": self.kind,
            "provenance": self.provenance, "figures": self.figures, "answers": self.answers,
        }


def _shipped(puzzle: Puzzle, claim: Claim, key: str, check: str, reason: str) -> Shipped:
    solution = claim.solution if check == VERIFIED else None
    return Shipped(puzzle.name, key, claim.instance, claim.label, claim.value, claim.status, claim.claim, claim.source, claim.method,
                   claim.provenance, check, reason, claim.figures, claim.kind, solution, claim.answers)


def _instance(puzzle: Puzzle, spec: str, catalog: dict[str, str]) -> Any:
    """What `puzzle.load(spec, local=False)` gives, with the catalog built once for all
    the rows (a coin font's catalog has 2,664 names: building it per row cost 7 ms)."""
    if spec in catalog:
        return puzzle.catalog_instance(spec)
    return puzzle.parse(decode_input(spec, "instance", puzzle.max_input_bytes))


def check_claim(puzzle: Puzzle, claim: Claim, catalog: dict[str, str] | None = None) -> Shipped:
    """The claim checked by the puzzle's checker: verified only when the checker passes
    its solution and its value is the checker's; recorded when the checker could not
    check it in full (or there is nothing to check); failed otherwise. `catalog`: the
    puzzle's catalog, when the caller checks many rows."""
    try:
        instance = _instance(puzzle, claim.instance, puzzle.catalog() if catalog is None else catalog)
        key = puzzle.instance_key(instance)
    except InvalidInstance as exc:
        return _shipped(puzzle, claim, claim.instance, FAILED, f"its instance {claim.instance!r} does not load: {exc}")
    if claim.problem:
        return _shipped(puzzle, claim, key, FAILED, claim.problem)
    if claim.solution is None:
        return _shipped(puzzle, claim, key, RECORDED, "a recorded figure: nothing ships that a checker could check again")
    try:
        verdict = puzzle.verify(instance, claim.solution)
    except InvalidInstance as exc:
        return _shipped(puzzle, claim, key, FAILED, f"the checker cannot read its solution: {exc}")
    if verdict.ok and verdict.value == claim.value:
        proof = "" if claim.status != "optimal" or claim.kind != "answer" else "; optimality: the recorded proof, not run again here"
        return _shipped(puzzle, claim, key, VERIFIED, f"{puzzle.name} checker: {verdict.message}{proof}")
    if verdict.ok or verdict.rejected:
        why = verdict.message if not verdict.ok else f"the checker counts {verdict.value}, the row claims {claim.value}"
        return _shipped(puzzle, claim, key, FAILED, f"{puzzle.name} checker: {why}")
    if verdict.value is not None and verdict.value != claim.value:
        return _shipped(puzzle, claim, key, FAILED, f"{puzzle.name} checker: it counts {verdict.value}, the row claims {claim.value}")
    return _shipped(puzzle, claim, key, RECORDED, f"{puzzle.name} checker: {verdict.message}")
