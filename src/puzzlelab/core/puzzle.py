"""The contract every puzzle follows (docs/architecture.md, "Contracts"), written once.

A puzzle package builds one `Puzzle` subclass instance: it implements `parse`,
`format_instance`, `instance_key`, `catalog`, `verify` and `render_svg`, and lists its
`methods`. This base class supplies what must be the same everywhere:

- `solve()` runs a method under a Budget and then the puzzle's independent `verify`;
  a solution that fails it raises `WrongAnswer` (a bug) instead of leaving the solver;
  one whose claims the checker could not all check comes back not `verified`.
- `load()` turns what a user typed (catalog name, file, `-`, inline text) into an
  instance, with `InvalidInstance` errors that say what was expected.
- Method options are declared (`Option`), so the CLI, the REST service and the web page
  all offer and check them without puzzle-specific code.

The shape follows networkx's "the algorithm is an argument with a sane default" and
PySAT's one front class dispatching to backends by name.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from puzzlelab.core.errors import InvalidInstance, WrongAnswer
from puzzlelab.core.inputs import MAX_SEED, check_int, check_number, decode_bytes, decode_input, read_text_file, shown
from puzzlelab.core.loading import load_object
from puzzlelab.core.result import Budget, ProgressFn, Result, Verdict, no_progress

__all__ = [
    "InvalidInstance",
    "WrongAnswer",
    "Option",
    "RESOURCES",
    "Method",
    "Puzzle",
    "parse_range",
    "names_a_file",
]


_KINDS = ("int", "float", "str", "bool", "ints")
# What an option's value multiplies, for those a shared server must cap (`resource`):
# "processes": worker processes or threads a run starts (0, where allowed, means as
# many as the machine allows); "memory": value x `unit_bytes` is at least what the run
# holds (an amount of MB, a beam's width, a count of planned subtrees).
RESOURCES = ("", "processes", "memory")


@dataclass(frozen=True)
class Option:
    """One option of a method, e.g. Option("ring", "int", None, "penalties only at edge
    distance < d"). `kind` is int, float, str, bool or ints (a comma-separated list).

    `local_only` marks an option that names something on the machine that runs the
    search (a checkpoint file, a cluster address, a backend): the command line takes it
    from its user, the REST service never from a client (a client must not
    choose where the server writes).

    `resource` marks an option whose value multiplies what a run takes (RESOURCES,
    with `unit_bytes` for memory): the REST service caps each such option at the
    capacity its operator set, declared here once rather than listed in the service."""

    name: str
    kind: str
    default: Any = None
    help: str = ""
    choices: tuple = ()
    minimum: float | None = None
    maximum: float | None = None
    local_only: bool = False
    resource: str = ""
    unit_bytes: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"Option {self.name}: kind must be one of {_KINDS}")
        if self.resource not in RESOURCES or (self.resource == "memory") != (self.unit_bytes > 0):
            raise ValueError(f"Option {self.name}: resource must be one of {RESOURCES}, with unit_bytes > 0 exactly for memory")

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def coerce(self, raw: Any) -> Any:
        """The option's value from CLI text or JSON; InvalidInstance naming it if bad
        (numbers go through `core.inputs`: finite, no booleans, no 5,000-digit integers)."""
        if raw is None:
            return None
        try:
            value = self._convert(raw)
        except InvalidInstance as exc:
            raise InvalidInstance(str(exc), field=self.name) from None
        if self.choices and value not in self.choices:
            raise InvalidInstance(
                f"option {self.flag}: expected one of {', '.join(map(str, self.choices))}, got {shown(raw)}", field=self.name
            )
        for v in value if self.kind == "ints" else (value,):
            if self.minimum is not None and isinstance(v, (int, float)) and v < self.minimum:
                raise InvalidInstance(f"option {self.flag}: expected at least {self.minimum}, got {shown(v)}", field=self.name)
            if self.maximum is not None and isinstance(v, (int, float)) and v > self.maximum:
                raise InvalidInstance(f"option {self.flag}: expected at most {self.maximum}, got {shown(v)}", field=self.name)
        return value

    def _convert(self, raw: Any) -> Any:
        field_name = f"option {self.flag}"
        if self.kind == "int":
            return check_int(raw, field_name)
        if self.kind == "float":
            return check_number(raw, field_name)
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            word = str(raw).lower() if isinstance(raw, (str, int)) else None
            if word in ("1", "true", "yes", "on"):
                return True
            if word in ("0", "false", "no", "off"):
                return False
            raise InvalidInstance(f"{field_name}: expected true or false, got {shown(raw)}", field=self.name)
        if self.kind == "ints":
            if isinstance(raw, (list, tuple)):
                items = list(raw)
            elif isinstance(raw, (str, int)) and not isinstance(raw, bool):
                items = [p for p in str(raw).replace(" ", "").split(",") if p]
            else:
                raise InvalidInstance(f"{field_name}: expected a comma-separated list of integers, got {shown(raw)}", field=self.name)
            if len(items) > 10_000:
                raise InvalidInstance(f"{field_name}: expected at most 10000 integers, got {len(items)}", field=self.name)
            return tuple(check_int(x, field_name) for x in items)
        if not isinstance(raw, (str, int, float)) or isinstance(raw, bool):
            raise InvalidInstance(f"{field_name}: expected text, got {shown(raw)}", field=self.name)
        return str(raw)

    def to_dict(self) -> dict[str, Any]:
        default = list(self.default) if isinstance(self.default, tuple) else self.default
        return {
            "name": self.name,
            "flag": self.flag,
            "kind": self.kind,
            "default": default,
            "help": self.help,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "local_only": self.local_only,
            "resource": self.resource,
        }


@dataclass(frozen=True)
class Method:
    """A named way to solve a puzzle: `run(instance, *, budget, progress, seed,
    **options) -> Result`; `exact` is true when it can prove optimality.

    `run` is the function itself or, the way every puzzle of the package declares its
    methods (`<puzzle>/methods.py`), a `"module:function"` reference imported on first
    use (`core.loading`), so loading the registry never pulls in numba or a solver."""

    name: str
    summary: str
    run: Callable[..., Result] | str
    options: tuple[Option, ...] = ()
    exact: bool = False

    @property
    def function(self) -> Callable[..., Result]:
        """The run function, imported now if it was declared as a reference."""
        return load_object(self.run) if isinstance(self.run, str) else self.run

    def parse_options(self, raw: dict[str, Any] | None, *, remote: bool = False) -> dict[str, Any]:
        """Check and convert options; every declared option gets a value (its default).
        `remote` (the REST service): options marked `local_only` are refused unless they
        hold their default (the page sends every option, `backend: "local"` included)."""
        if raw is not None and not isinstance(raw, dict):
            raise InvalidInstance(f"options: expected an object of option names and values, got {type(raw).__name__}", field="options")
        raw = dict(raw or {})
        known = {o.name: o for o in self.options}
        for key in raw:
            name = str(key).lstrip("-").replace("-", "_")
            if remote and name in known and known[name].local_only and raw[key] is not None and raw[key] != known[name].default:
                raise InvalidInstance(
                    f"option {known[name].flag}: names a file or machine on the server; the service takes it from its operator, "
                    "not from a request (use the command line)",
                    field=name,
                )
            if name not in known:
                valid = ", ".join(o.flag for o in self.options) or "none"
                if not name:  # '' or '--': no name to quote, and no field to name but the options
                    raise InvalidInstance(f"options: an option without a name (method {self.name!r} has: {valid})", field="options")
                raise InvalidInstance(
                    f"option --{' '.join(name.replace('_', '-').split())[:60]}: method {self.name!r} has no such option (its options: {valid})",
                    field=name,
                )
        values = {}
        normalised = {str(k).lstrip("-").replace("-", "_"): v for k, v in raw.items()}
        for option in self.options:
            values[option.name] = option.coerce(normalised[option.name]) if normalised.get(option.name) is not None else option.default
        return values

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "exact": self.exact,
            "options": [o.to_dict() for o in self.options],
        }


class Puzzle:
    """Base class of the five puzzles; see the module docstring for the contract."""

    name: str = ""
    title: str = ""
    value_name: str = "value"  # what `Result.value` counts: squares, matches, moves ...
    sense: str = "min"  # 'min' / 'max': which values are better; 'exact' for counts
    default_method: str = "auto"
    default_budget: float = 10.0
    tour_instance: str = ""  # the catalog instance `puzzlelab tour` solves
    tour_budget: float = 5.0
    max_input_bytes: int = 4_000_000

    def __init__(self, methods: Iterable[Method] = ()) -> None:
        self.methods: dict[str, Method] = {}
        for method in methods:
            self.add_method(method)

    # ------------------------------------------------------------ to implement
    def parse(self, obj: Any) -> Any:
        """An instance from text (str), parsed JSON (dict / list) or a number."""
        raise NotImplementedError

    def format_instance(self, instance: Any) -> Any:
        """JSON-able form of an instance with parse(format_instance(x)) == x: how
        instances travel to worker processes, cluster nodes and the web page."""
        raise NotImplementedError

    def instance_key(self, instance: Any) -> str:
        """Short stable name of an instance for the records store ('16', 'font5x7:A-B')."""
        raise NotImplementedError

    def catalog(self) -> dict[str, str]:
        """The named instances of the field: name -> one-line description."""
        return {}

    def instance_from_key(self, key: str) -> Any | None:
        """The instance a records-store key names, where the key alone says which
        ('16', 'contest_3', 'font5x7:A-B'); None where it does not (a key holding a
        digest of the instance). What is rebuilt must give the same key back."""
        try:
            instance = self.load(key, local=False)
        except (InvalidInstance, ValueError, RecursionError):
            return None
        return instance if self.instance_key(instance) == key else None

    def catalog_instance(self, name: str) -> Any:
        """The instance a catalog name stands for (default: parse the name)."""
        return self.parse(name)

    def verify(self, instance: Any, solution: Any) -> Verdict:
        """Independent checker: recompute the value from the solution alone."""
        raise NotImplementedError

    def render_svg(self, instance: Any, result: Result | None) -> str:
        raise NotImplementedError

    def render_text(self, instance: Any, result: Result | None) -> str | None:
        """A text drawing where the field draws in text (ASCII art); None otherwise."""
        return None

    def published(self, key: str) -> dict[str, Any] | None:
        """The published figure for an instance key: {'value', 'proven', 'source'}."""
        return None

    def warm_up(self) -> None:
        """Compile, into numba's on-disk cache, the kernels that solving the tour
        instance does not reach, on tiny inputs (`puzzlelab tour --warm-up`, which
        `make install` runs), so a fresh install's first search of that kind does not
        spend its budget compiling. Nothing by default."""

    # ------------------------------------------------------------ provided
    def check_options(self, instance: Any, method: str, options: dict[str, Any]) -> None:
        """Checks of options that need the instance too (a symmetry the instance must
        have, a size it must allow): InvalidInstance naming the option, raised before a
        run starts or a job is queued, so a request is refused at the door instead of
        failing later. `options` are `Method.parse_options`'s values. None by default."""

    def method(self, name: str | None) -> Method:
        name = name or self.default_method
        if name not in self.methods:
            raise InvalidInstance(
                f"method: {self.name} has no method {name!r}; expected one of {', '.join(self.methods)}",
                field="method",
                status=404,
            )
        return self.methods[name]

    def add_method(self, method: Method) -> Method:
        self.methods[method.name] = method
        return method

    def load(self, spec: str | Any, *, local: bool = True) -> Any:
        """An instance from what a user gave: a catalog name, a file path, '-' (standard
        input), or the instance itself as text or JSON. `local=False` (the web service)
        never reads files or standard input: a remote user names no server file."""
        if not isinstance(spec, str):
            return self.parse(spec)
        if spec == "-" and local:
            stream = getattr(sys.stdin, "buffer", None)
            raw = stream.read(self.max_input_bytes + 1) if stream is not None else sys.stdin.read(self.max_input_bytes + 1).encode()
            text = decode_bytes(raw, "standard input", self.max_input_bytes)
            return self.parse(decode_input(text, "standard input", self.max_input_bytes))
        if spec in self.catalog():
            return self.catalog_instance(spec)
        if local and names_a_file(spec):
            text = read_text_file(Path(spec), "instance file", self.max_input_bytes)
            return self.parse(decode_input(text, spec, self.max_input_bytes))
        try:
            return self.parse(decode_input(spec, "instance", self.max_input_bytes))
        except InvalidInstance as exc:
            names = list(self.catalog())
            hint = f" (catalog names include {', '.join(names[:6])}{' ...' if len(names) > 6 else ''})" if names else ""
            raise InvalidInstance(f"instance {spec[:60]!r}: not a catalog name or file, and {exc}{hint}", "instance", exc.status) from exc

    def solve(
        self,
        instance: Any,
        method: str | None = None,
        *,
        budget: Budget | float | None = None,
        progress: ProgressFn | None = None,
        seed: int = 0,
        **options: Any,
    ) -> Result:
        """Solve with a method under a budget, then verify. Returns a Result whose
        `verdict` is the checker's; raises WrongAnswer if the checker rejects it."""
        chosen = self.method(method)
        values = chosen.parse_options(options)
        self.check_options(instance, chosen.name, values)
        seed = check_int(seed, "seed", minimum=0, maximum=MAX_SEED)
        if not isinstance(budget, Budget):
            budget = Budget(self.default_budget if budget is None else float(budget))
        started = time.perf_counter()
        result = chosen.function(instance, budget=budget, progress=progress or no_progress, seed=seed, **values)
        result.stats.setdefault("seconds", round(time.perf_counter() - started, 6))
        result.method = result.method or chosen.name
        return self.check(instance, result)

    def check(self, instance: Any, result: Result) -> Result:
        """Attach the independent verdict to a result. A verdict that rejects the solution
        raises WrongAnswer (a bug); one that leaves a claim unchecked is attached without
        raising, and the result is then not `verified` (found, but not checked).
        Results without a solution (unknown, infeasible) get a verdict saying so."""
        if result.solution is None:
            result.verdict = Verdict(ok=False, value=None, message="no solution to check")
            return result
        verdict = self.verify(instance, result.solution)
        if not verdict.rejected and result.value is not None and verdict.value != result.value:
            verdict = Verdict(
                ok=False,
                value=verdict.value,
                message=f"solver claims {self.value_name} = {result.value}, checker counts {verdict.value}",
                figures=verdict.figures,
            )
        result.verdict = verdict
        if verdict.rejected:
            raise WrongAnswer(f"{self.name}: method {result.method!r} returned a rejected solution: {verdict.message}")
        return result

    def report(self, instance: Any, result: Result) -> dict[str, Any]:
        """The JSON object of the CLI contract (docs/architecture.md, "Formats") (also the service's result)."""
        return {
            "puzzle": self.name,
            "instance": self.instance_key(instance),
            "value": result.value,
            "status": result.status.value,
            "bound": result.bound,
            "method": result.method,
            "solution": result.solution,
            "stats": result.stats,
            "verified": result.verified,
            "verdict": None if result.verdict is None else result.verdict.to_dict(),
        }

    def describe(self) -> dict[str, Any]:
        """The puzzle, its methods and their options (for `GET /api/puzzles`)."""
        return {
            "name": self.name,
            "title": self.title,
            "value_name": self.value_name,
            "sense": self.sense,
            "default_method": self.default_method,
            "default_budget": self.default_budget,
            "methods": [m.to_dict() for m in self.methods.values()],
        }


def names_a_file(spec: str) -> bool:
    """Whether the text a user gave names a file here; False for text that cannot be a
    path at all (an inline instance with a newline or NUL, or of over 255 characters,
    which is ENAMETOOLONG that `Path.is_file` raises)."""
    if len(spec) >= 4096 or "\n" in spec or "\x00" in spec:
        return False
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):
        return False


def parse_range(text: str, field: str = "range") -> list[int]:
    """'1..46' -> [1, ..., 46]; '5' -> [5]; '1,3,7..9' -> [1, 3, 7, 8, 9]."""
    values: list[int] = []
    for part in str(text).replace(" ", "").split(","):
        match = re.fullmatch(r"(-?\d+)(?:\.\.(-?\d+))?", part)
        if not match:
            raise InvalidInstance(f"{field}: expected a number or a range like 1..46, got {shown(part)}", field)
        lo = int(match.group(1))
        hi = int(match.group(2)) if match.group(2) is not None else lo
        if hi < lo:
            raise InvalidInstance(f"{field}: range {part} is empty (end before start)", field)
        values.extend(range(lo, hi + 1))
    return values

