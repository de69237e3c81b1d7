"""One set of exit codes and one error handler for every verb (docs/architecture.md, "Formats").

Exit status: 0 an answer was found and verified, 1 none was found within the budget (or
a given solution was rejected), 2 bad input, 3 a solver's answer failed verification (a
bug, never shown as an answer), 4 the records store is unusable, 5 an internal error (a
bug in the project, reported in one line), 130 interrupted twice. A file that cannot be
written (a full disk, a path an output may not replace) counts as bad input: exit 2.
Errors are one line on standard error (no wrapping), never a traceback; set
PUZZLELAB_DEBUG=1 to see the traceback of an internal error.
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from typing import Iterator, NoReturn

import click
import typer
from rich.console import Console

from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.store import StoreError

__all__ = [
    "EXIT_OK",
    "EXIT_NO_ANSWER",
    "EXIT_BAD_INPUT",
    "EXIT_WRONG_ANSWER",
    "EXIT_STORE",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "out",
    "err",
    "fail",
    "user_errors",
    "internal_error",
    "one_line",
]

EXIT_OK, EXIT_NO_ANSWER, EXIT_BAD_INPUT, EXIT_WRONG_ANSWER, EXIT_STORE = 0, 1, 2, 3, 4
EXIT_INTERNAL = 5
EXIT_INTERRUPTED = 130

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

# A write the disk refused (raised where no writer of core.files turned it into a line).
_DISK_ERRORS = {errno.ENOSPC: "no space left on the disk", errno.EDQUOT: "disk quota exceeded", errno.EROFS: "read-only file system"}

MAX_MESSAGE = 400  # characters of an error message shown; the rest is counted, not printed


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """`message` on one line (line breaks become spaces) and at most about `limit`
    characters: a message that quotes what the user gave (a file's text, an argument
    of 5,000 digits) never floods the terminal."""
    text = " ".join(str(message).splitlines())
    if len(text) <= limit:
        return text
    return f"{text[: limit - 30]}... ({len(text)} characters in all)"


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print `error: message` (on one line, cut to MAX_MESSAGE) on standard error and
    exit with `code`."""
    err.print(f"error: {one_line(message)}", markup=False)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the project's expected errors into a one-line message and an exit status."""
    try:
        yield
    except InvalidInstance as exc:
        fail(str(exc), EXIT_BAD_INPUT)
    except WrongAnswer as exc:
        err.print(f"internal error (please report): {one_line(str(exc))}", markup=False)
        raise typer.Exit(EXIT_WRONG_ANSWER) from None
    except StoreError as exc:
        fail(str(exc), EXIT_STORE)
    except (typer.Exit, typer.Abort, typer.exceptions.TyperException, click.exceptions.Exit, click.exceptions.ClickException, click.exceptions.Abort):
        raise  # typer >= 0.2x vendors its own click: both kinds of Exit pass through
    except OSError as exc:
        if exc.errno not in _DISK_ERRORS:
            internal_error(exc)
        where = f"{exc.filename}: " if exc.filename else ""
        fail(f"{where}cannot be written ({_DISK_ERRORS[exc.errno]})", EXIT_BAD_INPUT)
    except MemoryError:
        fail("out of memory: this instance and these settings need more memory than the process may use", EXIT_BAD_INPUT)
    except RecursionError:
        fail("input nested too deeply to read", EXIT_BAD_INPUT)
    except Exception as exc:
        internal_error(exc)


def internal_error(exc: BaseException) -> NoReturn:
    """A bug: one line naming it (the traceback with PUZZLELAB_DEBUG=1), exit 5."""
    if os.environ.get("PUZZLELAB_DEBUG"):
        raise exc
    text = " ".join(str(exc).split())[:300]
    err.print(f"internal error (please report): {type(exc).__name__}: {text}", markup=False)
    raise typer.Exit(EXIT_INTERNAL) from None
