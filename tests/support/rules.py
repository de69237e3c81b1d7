"""The rules every puzzle follows on hostile input, as the assertions the tests share
(docs/architecture.md, "Layers and how the shape is checked"): written once here, at the
strictest level any puzzle's tests held them to, so that no puzzle's tests drift to a
looser one.

- A refusal is one short line: an `InvalidInstance` with a message, no line break,
  at most REFUSAL_CHARACTERS, and a status the service can answer (404, 413 or 422).
- A verdict is one short line too, and always a `Verdict` (a checker never raises).
- The CLI's output is clean: nothing escapes but the exit, the exit status is 0, 1 or
  2, no traceback and no "internal error"; exit 2 prints exactly one `error:` line, of
  bounded length, and nothing else on standard error (where a test allows click's own
  usage mistakes: its one `Error:` line and its usage lines); exits 0 and 1 print no
  error line.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from puzzlelab.cli.errors import MAX_MESSAGE
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Verdict

__all__ = [
    "REFUSAL_CHARACTERS",
    "REFUSAL_STATUSES",
    "assert_one_line_refusal",
    "instance_or_refusal",
    "assert_one_line_verdict",
    "error_lines",
    "assert_clean_cli",
    "assert_cli_refuses",
]

# A refusal (and a verdict) fits on the CLI's one error line uncut (cli.errors.MAX_MESSAGE).
REFUSAL_CHARACTERS = MAX_MESSAGE
REFUSAL_STATUSES = (404, 413, 422)  # unknown name, too large, malformed: what the service answers with


def assert_one_line_refusal(exc: InvalidInstance) -> None:
    """`exc` names what is wrong in one short line, with a status the service can answer."""
    message = str(exc)
    assert message and "\n" not in message and len(message) <= REFUSAL_CHARACTERS, message[:2000]
    assert exc.status in REFUSAL_STATUSES, (exc.status, message)


def instance_or_refusal(thunk: Callable[[], Any]) -> Any:
    """What `thunk` returns, or the `InvalidInstance` it raises once checked to be a
    one-line refusal; any other exception escapes (and fails the test)."""
    try:
        return thunk()
    except InvalidInstance as exc:
        assert_one_line_refusal(exc)
        return exc


def assert_one_line_verdict(verdict: Any) -> None:
    """A checker's answer: a Verdict whose message says why in one short line."""
    assert isinstance(verdict, Verdict), verdict
    message = verdict.message
    assert isinstance(message, str) and message and "\n" not in message and len(message) <= REFUSAL_CHARACTERS, message[:2000]


def error_lines(output: str) -> list[str]:
    """Our `error:` lines, and click's own `Error:` (a usage mistake: an unknown option)."""
    return [line for line in output.splitlines() if line.startswith(("error:", "Error:"))]


def assert_clean_cli(result: Any, *, usage_mistake_ok: bool = False) -> None:
    """A click test runner's result is clean output (the rules in the module docstring).
    With `usage_mistake_ok` (for command lines that may hold a word click takes for an
    option, such as `-0`), a usage mistake click catches itself is also clean: its one
    `Error:` line under its `Usage:` and `Try ... --help` lines, and nothing else."""
    output = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), (result.exit_code, output[-2000:])
    assert "Traceback" not in output and "internal error" not in output, output[-2000:]
    errors = error_lines(output)
    if result.exit_code != 2:
        assert not errors, output[-2000:]
        return
    assert len(errors) == 1, output[-2000:]
    printed = [line for line in result.stderr.splitlines() if line.strip()]
    if errors[0].startswith("error:"):
        assert printed == errors and len(errors[0]) <= len("error: ") + MAX_MESSAGE, result.stderr[-2000:]
    else:
        usage = [line for line in printed if line.startswith(("Usage:", "Try "))]
        assert usage_mistake_ok and usage and sorted(printed) == sorted(usage + errors), result.stderr[-2000:]


def assert_cli_refuses(result: Any, words: str, *, started: float | None = None, seconds: float = 20.0) -> None:
    """A clean refusal of ours (exit 2, one `error:` line) that says `words`, within
    `seconds` of `started` (a `time.perf_counter()` reading) when given."""
    assert_clean_cli(result)
    assert result.exit_code == 2 and result.stderr.startswith("error:") and words in result.output, result.output[-2000:]
    if started is not None:
        assert time.perf_counter() - started < seconds, time.perf_counter() - started
