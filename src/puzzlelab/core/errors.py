"""The two errors every layer knows: bad input (`InvalidInstance`) and a solver's answer
that its independent checker rejects (`WrongAnswer`)."""

from __future__ import annotations

__all__ = ["InvalidInstance", "WrongAnswer"]


class InvalidInstance(ValueError):
    """Bad input. The message names the field and what was expected; `field` holds the
    field's name for programs (the REST service answers 422 with it)."""

    def __init__(self, message: str, field: str | None = None, status: int = 422):
        super().__init__(message)
        self.field = field
        self.status = status  # 422 malformed, 413 too large, 404 unknown name


class WrongAnswer(RuntimeError):
    """A solver produced a solution its puzzle's checker rejects. Never shown as an
    answer: this is the worst bug the project can have, reported as such."""
