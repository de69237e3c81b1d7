"""Every error of the CLI is one line of bounded length: a message that
quotes what the user gave -- an argument of 5,000 digits, a file's text, a submission
given where a file name was expected -- is cut and put on one line by `cli.errors.fail`,
whatever the puzzle's own message (found by tests/test_fuzz_cli.py)."""

from __future__ import annotations

import click.testing
import pytest
import typer

from puzzlelab import cli
from puzzlelab.cli.errors import MAX_MESSAGE, fail, one_line

COMMAND = typer.main.get_command(cli.app)


def test_one_line_joins_lines_and_cuts_long_messages():
    assert one_line("short") == "short"
    assert one_line("a\nb\r\nc\u2028d") == "a b c d"
    long = one_line("x" * 5000)
    assert len(long) <= MAX_MESSAGE and long.endswith("(5000 characters in all)")


def test_fail_prints_one_short_line(capsys):
    with pytest.raises(typer.Exit) as stop:
        fail("row 1:\n" + "9" * 5000)
    assert stop.value.exit_code == 2
    printed = capsys.readouterr().err
    assert printed.count("\n") == 1 and printed.startswith("error: row 1: 999") and len(printed) < MAX_MESSAGE + 20


@pytest.mark.parametrize(
    "args",
    [
        ["macmahon", "solve", "-1x-" + "9" * 5000, "--budget", "0.1", "--no-store"],  # the board was quoted whole
        ["macmahon", "verify", "x" * 100_000, "missing.json"],
    ],
)
def test_errors_quoting_huge_input_stay_one_short_line(args):
    result = click.testing.CliRunner().invoke(COMMAND, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and len(result.stderr) < MAX_MESSAGE + 20, result.stderr[:500]
