"""The REST API's request and response bodies, as pydantic models: FastAPI validates the
responses against them and `/docs` (the OpenAPI) shows them.

The responses mirror what the core objects write (`Puzzle.describe`, `Job.to_dict`,
`Puzzle.report`, `Record.to_dict`); each model accepts further fields, so a puzzle that
reports more than the contract asks is passed through, not cut. Numbers a puzzle may
give as an int or a float are typed `int | float`, so an int stays an int on the wire.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from puzzlelab.core.inputs import MAX_SEED

__all__ = [
    "MAX_BUDGET_SECONDS",
    "MAX_SEED",
    "JobRequest",
    "OptionView",
    "MethodView",
    "PuzzleView",
    "CatalogEntry",
    "VerdictView",
    "SolveReport",
    "JobView",
    "RecordView",
    "ProgressPoint",
    "ProgressSeries",
    "Health",
    "ErrorBody",
]

MAX_BUDGET_SECONDS = 24 * 3600.0
MAX_NAME_LENGTH = 100

Number = int | float


class JobRequest(BaseModel):
    """A job: which puzzle, which instance (a catalog name, the instance's text, or its
    JSON), which method with which options, and how many seconds it may take."""

    puzzle: str = Field(max_length=MAX_NAME_LENGTH, description="Puzzle name, e.g. 'tiling'.")
    instance: Any = Field(description="Catalog name, instance text, or instance JSON.")
    method: str | None = Field(None, max_length=MAX_NAME_LENGTH, description="Method name; the puzzle's default when omitted.")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Method options by name. Options naming a file, folder or machine of the server (checkpoint, workdir, "
        "backend, address ...) are the operator's: a request that sets one is refused (422).",
    )
    budget: float | None = Field(
        None, gt=0, le=MAX_BUDGET_SECONDS, allow_inf_nan=False, description="Seconds (a finite number); the puzzle's default when omitted."
    )
    seed: int = Field(0, ge=0, le=MAX_SEED, description=f"Random seed, 0..{MAX_SEED}.")

    @field_validator("budget", "seed", mode="before")
    @classmethod
    def _not_a_boolean(cls, value: Any) -> Any:
        """JSON `true` is not the number 1 here (pydantic would take it as 1)."""
        if isinstance(value, bool):
            raise ValueError(f"expected a number, got {str(value).lower()}")
        return value


class _Open(BaseModel):
    """A response body that passes through fields beyond the declared ones."""

    model_config = ConfigDict(extra="allow")


class OptionView(_Open):
    """One option of a method (`Option.to_dict`)."""

    name: str
    flag: str = Field(description="The CLI flag, e.g. '--time-limit'.")
    kind: str = Field(description="int, float, bool, str, ...")
    default: Any = None
    help: str = ""
    choices: list[Any] = Field(default_factory=list)
    minimum: Number | None = None
    maximum: Number | None = None


class MethodView(_Open):
    """One method of a puzzle (`Method.to_dict`)."""

    name: str
    summary: str
    exact: bool = Field(description="True when the method can prove optimality.")
    options: list[OptionView]


class PuzzleView(_Open):
    """A registered puzzle (`Puzzle.describe`) and the catalog instance the tour solves."""

    name: str
    title: str
    value_name: str = Field(description="What a result's value counts: squares, matches, moves ...")
    sense: str = Field(description="'min' or 'max' (which values are better), 'exact' for counts.")
    default_method: str
    default_budget: Number
    methods: list[MethodView]
    tour_instance: str


class CatalogEntry(BaseModel):
    """A named instance of a puzzle."""

    name: str
    description: str


class VerdictView(_Open):
    """The independent checker's judgement of a solution (`Verdict.to_dict`)."""

    ok: bool
    value: Any = None
    message: str = ""
    figures: dict[str, Any] = Field(default_factory=dict)


class SolveReport(_Open):
    """A verified result (`Puzzle.report`): the JSON object of the CLI's `solve --json`."""

    puzzle: str
    instance: str
    value: Any = Field(None, description="The figure the field quotes (squares, matches, raw score, moves ...).")
    status: str = Field(description="optimal, feasible, infeasible or unknown.")
    bound: Any = Field(None, description="The best proven bound.")
    method: str | None = None
    solution: Any = None
    stats: dict[str, Any] = Field(default_factory=dict)
    verified: bool
    verdict: VerdictView | None = None


class JobView(_Open):
    """A job as the runner knows it (`Job.to_dict`)."""

    id: str
    puzzle: str
    instance: str = Field(description="The instance's key.")
    method: str
    options: dict[str, Any]
    budget: Number = Field(description="Seconds.")
    seed: int
    state: str = Field(description="queued, running, done, failed, cancelled or interrupted.")
    created: Number
    started: Number | None = None
    finished: Number | None = None
    progress: dict[str, Any] | None = Field(None, description="The latest progress report of a running job.")
    result: SolveReport | None = Field(None, description="The verified result of a finished job.")
    error: str = ""
    worker_pid: int | None = None
    svg: str | None = Field(None, description="Where the picture of the verified result is, once there is one.")


class ProgressPoint(BaseModel):
    """One progress report of a job as a chart takes it."""

    t: Number = Field(description="Seconds since the job started.")
    phase: str = ""
    figures: dict[str, Number] = Field(default_factory=dict, description="Its numeric figures: done, total, fraction, best, counters.")


class ProgressSeries(BaseModel):
    """A job's progress over time (at most 1,000 points, evenly thinned), kept beside the
    jobs so that it can be drawn again after a restart."""

    id: str
    state: str
    started: Number | None = None
    points: list[ProgressPoint]


class RecordView(_Open):
    """The best stored result of one instance (`Record.to_dict` without the solution),
    beside the published value."""

    id: int
    puzzle: str
    instance: str
    sense: str
    value: Any = None
    status: str
    bound: Any = None
    method: str
    stats: dict[str, Any] = Field(default_factory=dict)
    seconds: Number | None = None
    version: str = ""
    host: str = ""
    created: Number
    published: Any = Field(None, description="The published figure for this instance, where there is one.")
    value_name: str = ""


class Health(_Open):
    """Liveness, the puzzles served, how many jobs wait or run and how many may wait,
    and the caps the operator set on one job."""

    ok: bool
    version: str
    puzzles: list[str]
    queued: int
    running: int
    max_queued: int = Field(description="The most jobs that may wait; past it a new job gets 503 with Retry-After.")
    jobs_in_memory: int = Field(description="Jobs held in memory: every unfinished one and the most recent finished ones.")
    job_memory_bytes: int | None = Field(None, description="The memory limit of each job (its worker processes together).")
    capacity: dict[str, Any] = Field(
        description="What one job may take: job_processes (processes or threads it starts), job_memory_bytes, max_budget "
        "(seconds), max_queued, finished_kept (finished jobs kept in memory; the store keeps them all)."
    )


class ErrorBody(_Open):
    """What every error answers: the problem in words, and the field it concerns."""

    detail: str
    field: str | None = None
