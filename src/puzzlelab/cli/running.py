"""What every verb shares: method options from the command line, the method list in
`--help`, progress on standard error, Ctrl-C that keeps the best answer so far, printing
and storing a verified result."""

from __future__ import annotations

import json
import re
import time
from typing import Any, Callable

import typer

from puzzlelab.cli.errors import EXIT_INTERRUPTED, err, out
from puzzlelab.core.inputs import shown
from puzzlelab.core.interrupt import run_in_thread
from puzzlelab.core.puzzle import InvalidInstance, Method, Puzzle, parse_range
from puzzlelab.core.result import Budget, Progress, Result
from puzzlelab.core.store import Store

__all__ = [
    "parse_method_options",
    "method_help",
    "progress_printer",
    "run_interruptibly",
    "print_result",
    "store_result",
    "bounded_range",
]


def parse_method_options(method: Method, args: list[str]) -> dict[str, Any]:
    """`--ring 4 --allow-at 4,5,7 --count-solutions --no-roam` against the method's
    declared options; unknown or malformed ones raise InvalidInstance naming them.
    `--name=VALUE` takes VALUE even when empty; `--no-NAME` is for true/false options
    and takes no value (`--no-hint=true` said the opposite of what it set)."""
    known = {o.flag: o for o in method.options}
    values: dict[str, Any] = {}
    i = 0
    while i < len(args):
        token = args[i]
        if not token.startswith("--"):
            raise InvalidInstance(f"unexpected argument {shown(token)}: method options look like --name value", field="options")
        flag, given, inline = token.partition("=")
        negated = flag.startswith("--no-") and flag not in known and "--" + flag[5:] in known
        option = known.get("--" + flag[5:] if negated else flag)
        if option is None:
            valid = ", ".join(known) or "none"
            short = " ".join(flag.split())[:60]
            raise InvalidInstance(f"option {short}: method {method.name!r} has no such option (its options: {valid})", field=flag[2:])
        if negated and (option.kind != "bool" or given):
            what = "takes no value" if option.kind == "bool" else f"is not a true/false option; give {option.flag} VALUE"
            raise InvalidInstance(f"option {flag}: {what}", field=option.name)
        if option.kind == "bool":
            values[option.name] = (not negated) if not given else option.coerce(inline)
            i += 1
            continue
        if given:
            values[option.name] = inline
            i += 1
        elif i + 1 < len(args):
            values[option.name] = args[i + 1]
            i += 2
        else:
            raise InvalidInstance(f"option {flag}: expected a value after it", field=option.name)
    return values


def method_help(puzzle: Puzzle) -> str:
    lines = ["Methods (--method NAME) and their options:"]
    for method in puzzle.methods.values():
        default = " (default)" if method.name == puzzle.default_method else ""
        lines.append(f"  {method.name}{default}: {method.summary}")
        for option in method.options:
            kind = "" if option.kind == "bool" else f" {option.kind.upper()}"
            lines.append(f"      {option.flag}{kind}: {option.help} [default: {option.default}]")
    return "\b\n" + "\n".join(lines)  # \b: click keeps these lines as they are


def progress_printer(quiet: bool) -> Callable[[Progress], None]:
    """Progress to stderr, at most once a second (live on a terminal)."""
    last = [0.0]

    def report(event: Progress) -> None:
        now = time.monotonic()
        if quiet or now - last[0] < 1.0:
            return
        last[0] = now
        parts = [p for p in (event.phase, event.message) if p]
        if event.fraction is not None:
            parts.append(f"{100 * event.fraction:.1f}%")
        if event.best is not None:
            parts.append(f"best {event.best}")
        parts += [f"{k} {v}" for k, v in event.stats.items()]
        err.print("  " + "  ".join(str(p) for p in parts), end="\r" if err.is_terminal else "\n")

    return report


def run_interruptibly(work: Callable[[], Result], budget: Budget) -> Result:
    """Run `work` in a thread; the first Ctrl-C cancels the budget so the solver returns
    its best so far, a second one gives up at once (exit 130)."""

    def on_interrupt(count: int) -> None:
        if count > 1:
            err.print("\ninterrupted again: giving up")
            raise typer.Exit(EXIT_INTERRUPTED)
        err.print("\ninterrupted: stopping the search and keeping what was found (Ctrl-C again to quit)")
        budget.cancel()

    return run_in_thread(work, on_interrupt)


def read_back_note(result: Result, done: str) -> str:
    """' (k of N subtrees read back from the checkpoint, not <done> now)' when a resumed
    run took k finished subtrees from its checkpoint (stats.resumed_subtrees), else ''."""
    resumed = result.stats.get("resumed_subtrees")
    return f" ({resumed} of {result.stats.get('subtrees', '?')} subtrees read back from the checkpoint, not {done} now)" if resumed else ""


def print_result(puzzle: Puzzle, instance: Any, result: Result, as_json: bool) -> None:
    if as_json:
        out.print_json(json.dumps(puzzle.report(instance, result), default=str), indent=None)
        return
    drawing = puzzle.render_text(instance, result) if result.solution is not None else None
    if drawing:
        out.print(drawing, markup=False)
    verdict = result.verdict
    check = "verified" if result.verified else f"NOT verified ({verdict.message if verdict else 'no verdict'})"
    bound = "" if result.bound is None or result.bound == result.value else f"  bound {result.bound}"
    read_back = read_back_note(result, "searched")
    read_back = " " + read_back if read_back else ""
    out.print(
        f"{puzzle.name} {puzzle.instance_key(instance)}: {puzzle.value_name} {result.value}  "
        f"[{result.status.value}]{bound}  method {result.method}  {result.stats.get('seconds', 0):.2f} s  {check}{read_back}",
        markup=False,
    )


def store_result(puzzle: Puzzle, instance: Any, result: Result) -> None:
    if result.verified:
        Store().add(puzzle.name, puzzle.instance_key(instance), result, puzzle.sense, instance_json=puzzle.format_instance(instance))


def bounded_range(text: str, field: str, low: int, high: int) -> list[int]:
    """`core.puzzle.parse_range` for values that lie in low..high, every number checked
    before any list is built ('1..10000000000' would otherwise fill the memory): one
    past `high` is too large (413), one below `low` malformed (422)."""
    text = str(text)
    if len(text) > 10_000:
        raise InvalidInstance(f"{field}: {len(text)} characters; expected a short list of numbers and ranges", field, 413)
    for number in re.findall(r"-?[0-9]+", text):
        value = int(number) if len(number.lstrip("-")) <= 9 else (-1 if number.startswith("-") else 1) * 10**9
        if value > high:
            raise InvalidInstance(f"{field}: values run {low}..{high}, got {number[:12]}{'...' if len(number) > 12 else ''}", field, 413)
        if value < low:
            raise InvalidInstance(f"{field}: values run {low}..{high}, got {number[:12]}{'...' if len(number) > 12 else ''}", field)
    return parse_range(text, field)

