"""What the service checks at the door, before a job is queued: a job that
is accepted (202) can run; one that cannot is refused now, with the field and what was
expected, never a 500 and never a job that fails later for a reason known today.

- The options: those naming a file, folder or machine of the server are the operator's,
  never a client's. Two walls: the method's own marking (`Option.local_only`, refused
  by `Method.parse_options(..., remote=True)`), and, independent of it, any option
  whose name says it is a path or a machine (`is_server_option`).
- Text, in the instance and the options: what could not be stored and shown again
  safely (lone surrogates, NUL and the other control characters XML forbids) is
  refused with the place it was found ('instance.id'), before anything is parsed.
- The capacity: options that multiply processes or memory, and the budget, within the
  operator's caps (`service.capacity`); above a cap is 422 naming it.
- The instance: parsed here (`Puzzle.load`, never reading a server file). Whatever a
  puzzle's parser raises becomes a 4xx: its InvalidInstance with its own status (413
  for an instance over the size limits), anything else 422 with a one-line message,
  logged as a bug of that parser.
- A grid the instance carries (hexagon's start grid, JSON field `grid`) must keep the
  puzzle's rule: checked now by the puzzle's independent checker, in a child process
  under the job memory limit and DOOR_CHECK_SECONDS, so no grid can make the service
  itself spend unbounded memory or time (a checker's cost grows with the values in
  the grid, which the client chooses).
"""

from __future__ import annotations

import json
import logging
import multiprocessing as mp
import os
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from puzzlelab.core.inputs import check_text
from puzzlelab.core.lifeline import die_with_parent
from puzzlelab.core.parallel.memory import limit_process_memory
from puzzlelab.core.puzzle import InvalidInstance, Method, Puzzle
from puzzlelab.core.result import format_bytes
from puzzlelab.puzzles import get
from puzzlelab.service.capacity import Capacity
from puzzlelab.service.models import JobRequest

__all__ = ["Admitted", "admit", "is_server_option", "SERVER_OPTION_NAMES", "client_options"]

log = logging.getLogger("puzzlelab.service")

SERVER_OPTION_NAMES = frozenset({"checkpoint", "workdir", "backend", "address", "out", "path", "file", "dir", "folder", "host"})
SERVER_OPTION_SUFFIXES = ("_path", "_file", "_dir", "_folder", "_address")
DOOR_CHECK_SECONDS = 10.0


@dataclass
class Admitted:
    """A job request that passed the door: what the runner needs to queue it."""

    puzzle: Puzzle
    method: Method
    options: dict[str, Any]
    instance: Any
    instance_key: str
    instance_json: Any
    budget: float
    seed: int


def option_name(key: Any) -> str:
    """An option's name as `Method.parse_options` reads it ('--work-dir' -> 'work_dir')."""
    return str(key).lstrip("-").replace("-", "_").lower()


def is_server_option(name: str) -> bool:
    """True for an option name that says it is a file, a folder or a machine."""
    name = option_name(name)
    return name in SERVER_OPTION_NAMES or name.endswith(SERVER_OPTION_SUFFIXES)


def client_options(method: Method) -> list[Any]:
    """The options of `method` a client may set (for the service's listing)."""
    return [o for o in method.options if not o.local_only and not is_server_option(o.name)]


def refuse_server_options(options: dict[str, Any]) -> None:
    """422 for an option naming a path or a machine of the server, whatever the method
    says of it (null, which asks for the default, passes: as `parse_options` does for
    options marked `local_only`)."""
    for key, value in options.items():
        name = option_name(key)
        if not is_server_option(name) or value is None:
            continue
        flag = "--" + name.replace("_", "-")
        raise InvalidInstance(
            f"option {flag}: names a file, folder or machine of the server; the service takes it from its operator, "
            "not from a request (run the command line for it)",
            name,
        )


def _status_kept(exc: InvalidInstance) -> InvalidInstance:
    """`Puzzle.load` rewords a parse error as one about the instance; keep the status
    the puzzle gave (413: over the size limits)."""
    cause = exc.__cause__
    if exc.status == 422 and isinstance(cause, InvalidInstance) and cause.status != 422:
        return InvalidInstance(str(exc), exc.field, cause.status)
    return exc


def _unexpected(puzzle: Puzzle, doing: str, exc: BaseException) -> InvalidInstance:
    """A parser's exception that is not InvalidInstance: a bug of that parser, logged,
    answered as 422 with one line."""
    log.error("bug: %s's %s raised %s instead of InvalidInstance", puzzle.name, doing, type(exc).__name__, exc_info=exc)
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return InvalidInstance(f"instance: cannot be read by {puzzle.name}'s parser ({type(exc).__name__}: {text})", "instance")


def load_instance(puzzle: Puzzle, spec: Any) -> tuple[Any, str, Any]:
    """The instance of a request, its key and its JSON form; every error a 4xx."""
    if spec is None or spec == "":
        raise InvalidInstance("instance: expected a catalog name, the instance text or its JSON", "instance")
    size = len(spec) if isinstance(spec, str) else len(json.dumps(spec))
    if size > puzzle.max_input_bytes:
        raise InvalidInstance(f"instance: larger than {puzzle.max_input_bytes} bytes", "instance", 413)
    check_text(spec, "instance")
    try:
        instance = puzzle.load(spec, local=False)
        return instance, puzzle.instance_key(instance), puzzle.format_instance(instance)
    except InvalidInstance as exc:
        raise _status_kept(exc) from None
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - any parser failure is the client's 4xx, and our bug
        raise _unexpected(puzzle, "parse", exc) from None


def _verify_grid_here(conn: Connection, puzzle_name: str, instance_json: Any, memory_bytes: int | None, parent_pid: int | None = None) -> None:
    """The child process of `check_given_grid`: the verdict (or the error) goes back
    through `conn` as a tuple of plain values; it ends with the service, however that ends."""
    die_with_parent(parent_pid)
    if memory_bytes is not None:
        limit_process_memory(memory_bytes)
    try:
        puzzle = get(puzzle_name)
        verdict = puzzle.verify(puzzle.parse(instance_json), instance_json["grid"])
        conn.send(("verdict", bool(verdict.ok), str(verdict.message), 422))
    except InvalidInstance as exc:
        conn.send(("invalid", False, str(exc), exc.status))
    except MemoryError:
        conn.send(("memory", False, "", 422))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which logs it as a bug
        conn.send(("error", False, f"{type(exc).__name__}: {exc}", 422))


def check_given_grid(
    puzzle: Puzzle, instance_json: Any, *, start_method: str = "fork", memory_bytes: int | None = None, seconds: float = DOOR_CHECK_SECONDS
) -> None:
    """422 when the instance carries a grid (JSON field `grid`) its checker rejects, or
    that cannot be checked within `seconds` and `memory_bytes`."""
    if not isinstance(instance_json, dict) or instance_json.get("grid") is None:
        return
    ctx = mp.get_context(start_method)
    reader, writer = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_verify_grid_here, args=(writer, puzzle.name, instance_json, memory_bytes, os.getpid()), daemon=True)
    child.start()
    writer.close()
    try:
        answer = reader.recv() if reader.poll(seconds) else ("time", False, "", 422)
    except (EOFError, OSError):
        answer = ("died", False, "", 422)
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)
        reader.close()
    _judge_grid(puzzle, answer, seconds, memory_bytes)


def _judge_grid(puzzle: Puzzle, answer: tuple, seconds: float, memory_bytes: int | None) -> None:
    kind, ok, message, status = answer
    if kind == "verdict" and ok:
        return
    if kind == "verdict":
        raise InvalidInstance(f"grid: breaks the rule of {puzzle.name}: {message}", "grid")
    if kind == "invalid":
        raise InvalidInstance(f"grid: {message}", "grid", status)
    if kind == "time":
        raise InvalidInstance(f"grid: could not be checked within {seconds:g} s", "grid")
    if kind in ("memory", "died"):
        limit = f" ({format_bytes(memory_bytes)})" if memory_bytes is not None else ""
        raise InvalidInstance(f"grid: checking it needs more memory than a job may hold{limit}", "grid")
    raise _unexpected(puzzle, "verify", RuntimeError(message))


def admit(
    request: JobRequest, *, start_method: str = "fork", memory_bytes: int | None = None, capacity: Capacity | None = None
) -> Admitted:
    """The checked job of a request, or InvalidInstance with the status to answer. A
    grid the instance carries is checked in a child process started by `start_method`
    under `memory_bytes` (the runner's); options and budget within `capacity`."""
    capacity = capacity or Capacity(job_memory_bytes=memory_bytes)
    puzzle = get(request.puzzle)
    method = puzzle.method(request.method)
    check_text(request.options, "options")
    refuse_server_options(request.options)
    options = capacity.options(method, request.options, method.parse_options(request.options, remote=True))
    budget = min(puzzle.default_budget, capacity.max_budget) if request.budget is None else capacity.budget(request.budget)
    instance, key, instance_json = load_instance(puzzle, request.instance)
    puzzle.check_options(instance, method.name, options)
    check_given_grid(puzzle, instance_json, start_method=start_method, memory_bytes=memory_bytes)
    return Admitted(puzzle, method, options, instance, key, instance_json, float(budget), int(request.seed))
