"""Runs hostile command lines (tests/support/fuzz_cases.py) through the `puzzlelab` CLI in this
process and sorts what comes back: the harness of tests/test_fuzz_cli.py and
benchmarks/bench_fuzz_cli.py.

The click command is built once (`typer.main.get_command`) and invoked with click's
test runner, standard error apart. Each run gets a fresh working folder holding its
files, and a watchdog thread that polls its wall time and resident memory (this process
and its children, from /proc) every 20 ms. The columns:

- ok: exit 0 or 1, and a verify's verdict as expected;
- clear errors: exit 2 with one `error:` line (click's usage block allowed above it),
  short, no traceback (or exit 4, the records store unusable, the same way);
- tracebacks: an exception out of the command, "Traceback" or "internal error" in the
  output, exit 5 (internal error) or 3 (a solver's answer failed its check);
- false valid: a verify (or coins animate) that accepted an answer mutated to be wrong;
- false invalid: a verify that rejected a real answer;
- unclear: anything else (exit 2 without one short error line, another exit status,
  a file that is no checkpoint of the search overwritten);
- over memory: the run's memory grew past the bound (it is interrupted like Ctrl-C);
- hangs: the run passed the time limit (interrupted the same way; one that still does
  not end `grace_s` later ends the process, after the report so far is printed).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable
from unittest import mock

import click.testing
import typer

import puzzlelab.core.memory as core_memory
from support.fuzz_cases import Case

__all__ = ["COLUMNS", "FAILURES", "Outcome", "Report", "run_cases", "command", "warm_up_cases"]

COLUMNS = ("tried", "ok", "clear errors", "tracebacks", "false valid", "false invalid", "unclear", "over memory", "hangs")
FAILURES = ("tracebacks", "false valid", "false invalid", "unclear", "over memory", "hangs")
PAGE = os.sysconf("SC_PAGE_SIZE")
_COMMAND = None


def command():
    """The whole `puzzlelab` click command, built once."""
    global _COMMAND
    if _COMMAND is None:
        from puzzlelab import cli

        _COMMAND = typer.main.get_command(cli.app)
    return _COMMAND


@dataclass
class Outcome:
    case: Case
    column: str
    why: str
    exit_code: int | None
    seconds: float
    grew_mb: float
    output: str = ""

    def shown(self) -> str:
        head = f"[{self.column}] {self.case.puzzle} {self.case.verb} ({self.case.kind}): {self.why}"
        return f"{head}\n  exit {self.exit_code}, {self.seconds:.1f} s, +{self.grew_mb:.0f} MB\n{self.case.shown()}"


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(COLUMNS, 0)
        counts["tried"] = len(self.outcomes)
        for outcome in self.outcomes:
            counts[outcome.column] += 1
        return counts

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.column in FAILURES]

    def table(self) -> str:
        counts = self.counts()
        widths = [max(len(c), 6) for c in COLUMNS]
        head = "  ".join(c.rjust(w) for c, w in zip(COLUMNS, widths))
        row = "  ".join(str(counts[c]).rjust(w) for c, w in zip(COLUMNS, widths))
        return f"{head}\n{row}"

    def by_verb(self) -> str:
        """Tried / failures per puzzle and verb."""
        rows: dict[tuple[str, str], list[int]] = {}
        for o in self.outcomes:
            entry = rows.setdefault((o.case.puzzle, o.case.verb), [0, 0, 0])
            entry[0] += 1
            entry[1] += o.column == "clear errors"
            entry[2] += o.column in FAILURES
        return "\n".join(f"  {p:12} {v:9} tried {t:5}  clear errors {c:5}  failures {f}" for (p, v), (t, c, f) in sorted(rows.items()))


# ---------------------------------------------------------------------------- memory


def _rss(pid: int | str = "self") -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _children(pid: int | str = "self") -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(p) for p in task.read_text().split()]
        except OSError:
            continue
    return found


def _pss(pid: int) -> int:
    """Proportional resident bytes of a process: pages it shares with this one (a forked
    worker) count in part, so a fork is not taken for a copy of this process."""
    try:
        match = re.search(r"^Pss:\s+(\d+) kB", Path(f"/proc/{pid}/smaps_rollup").read_text(), re.MULTILINE)
        return int(match.group(1)) * 1024 if match else _rss(pid)
    except OSError:
        return _rss(pid)


def _tree_rss() -> int:
    """Resident bytes of this process and all its descendants (theirs proportional)."""
    total, stack, seen = _rss(), _children(), set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += _pss(pid)
        stack += _children(pid)
    return total


def _reset_peak() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")  # resets VmHWM, the peak resident size
    except OSError:
        pass


def _own_peak() -> int:
    try:
        match = re.search(r"VmHWM:\s+(\d+)", Path("/proc/self/status").read_text())
        return int(match.group(1)) * 1024 if match else 0
    except OSError:
        return 0


# ---------------------------------------------------------------------------- the watchdog


class Watchdog(threading.Thread):
    """Watches the run in progress (see the module docstring); `on_abort` prints the
    report so far before a run that cannot be stopped ends the process."""

    def __init__(self, hang_s: float, memory_mb: float, grace_s: float, on_abort: Callable[[str], None]) -> None:
        super().__init__(daemon=True)
        self.hang_s, self.limit, self.grace_s, self.on_abort = hang_s, memory_mb * 2**20, grace_s, on_abort
        self.lock = threading.Lock()
        self.active = False
        self.flag = ""
        self.started = 0.0
        self.base_own = self.base_tree = self.grew = 0
        self.kicks = 0

    def begin(self) -> None:
        _reset_peak()
        with self.lock:
            # this process alone and with its descendants, each against its own baseline:
            # children already alive (a pool, a Ray worker) must not hide this one's growth
            self.base_own, self.base_tree, self.grew = _rss(), _tree_rss(), 0
            self.flag, self.kicks, self.started, self.active = "", 0, time.monotonic(), True

    def end(self) -> tuple[str, float]:
        with self.lock:
            self.active = False
        grew = max(self.grew, _own_peak() - self.base_own)
        return self.flag, max(grew, 0) / 2**20

    def _kick(self) -> None:
        self.kicks += 1
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)  # as Ctrl-C: the CLI cancels the budget

    def run(self) -> None:
        tick = 0
        while True:
            time.sleep(0.02)
            tick += 1
            with self.lock:
                if not self.active:
                    continue
                grew = _tree_rss() - self.base_tree if tick % 10 == 0 else _rss() - self.base_own  # children every 0.2 s
                self.grew = max(self.grew, grew)
                elapsed = time.monotonic() - self.started
                if self.grew > self.limit and not self.flag:
                    self.flag = "over memory"
                    self._kick()
                elif elapsed > self.hang_s and not self.flag:
                    self.flag = "hangs"
                    self._kick()
                elif self.flag and self.kicks == 1 and elapsed > self.hang_s + 10:
                    self._kick()  # a second Ctrl-C: the CLI gives up
                if self.flag and (elapsed > self.hang_s + self.grace_s or self.grew > 3 * self.limit):
                    self.on_abort(f"{self.flag}: the run did not stop; ending the fuzzing here")
                    os._exit(3)


# ---------------------------------------------------------------------------- sorting


def _verdict_word(stdout: str) -> str:
    text = stdout.strip()
    if text.startswith("{"):
        try:
            return "valid" if json.loads(text.splitlines()[0]).get("ok") else "not valid"
        except (json.JSONDecodeError, AttributeError):
            return "?"
    return text.split(":", 1)[0].split(" ", 1)[0] if text else ""


def classify(case: Case, code: int | None, stdout: str, stderr: str, exception: BaseException | None) -> tuple[str, str]:
    """(column, why) of one run (before the watchdog's flags, which win)."""
    both = stdout + stderr
    if exception is not None and not isinstance(exception, SystemExit):
        where = traceback.extract_tb(exception.__traceback__)[-1] if exception.__traceback__ else None
        at = f" at {Path(where.filename).name}:{where.lineno}" if where else ""
        return "tracebacks", f"uncaught {type(exception).__name__}: {str(exception)[:200]}{at}"
    if "Traceback (most recent call last)" in both or code in (3, 5) or "internal error" in stderr:
        line = next((s for s in stderr.splitlines() if "internal error" in s or "Error" in s), stderr[-200:])
        return "tracebacks", f"exit {code}: {line[:300]}"
    if code == 2 or code == 4 and stderr.startswith("error: records store"):  # 4: the store is unusable
        errors = [s for s in stderr.splitlines() if s.startswith(("error:", "Error:"))]
        others = [s for s in stderr.splitlines() if s.strip() and not s.startswith(("error:", "Error:", "Usage:", "Try ", "  "))]
        line = errors[0] if len(errors) == 1 else ""
        for arg in case.args:  # click quotes an unknown option or argument whole: the user's own word
            line = line.replace(arg, "<argument>") if len(arg) > 40 else line
        if len(errors) == 1 and not others and 12 <= len(line) <= 420:
            return "clear errors", errors[0][:200]
        return "unclear", f"exit 2 with {len(errors)} error line(s), {len(others)} other line(s): {stderr[:200]!r}"
    if code in (0, 1):
        word = _verdict_word(stdout)
        checking = case.verb in ("verify", "animate")
        if case.expect == "invalid" and checking and (code == 0 or word == "valid"):
            return "false valid", f"exit {code}: {stdout.strip()[:200]}"
        if case.expect == "valid" and case.verb == "verify" and (code != 0 or word != "valid"):
            return "false invalid", f"exit {code}: {stdout.strip()[:200]} {stderr.strip()[:200]}"
        if code == 0 and not stdout.strip():
            return "unclear", "exit 0 and nothing printed"
        return "ok", f"exit {code}"
    return "unclear", f"exit {code}: {stderr[:200]!r}"


# ---------------------------------------------------------------------------- running


def warm_up_cases() -> list[Case]:
    """Every method of every puzzle once on a tiny instance, and the own verbs: run
    before the fuzzing (not counted) so numba's compiling, cached on disk after the
    first time, is not taken for a hang."""
    from support.fuzz_inputs import TINY
    from support.fuzz_options import registry_methods

    warm = []
    for puzzle, tiny in TINY.items():
        for method in registry_methods(puzzle):
            for instance in tiny[:2]:
                warm.append(Case(puzzle, "solve", "warm-up", [puzzle, "solve", instance, "--method", method, "--budget", "2", "--no-store"]))
    warm += [
        Case("tiling", "table", "warm-up", ["tiling", "table", "--m", "1..3", "--n", "1..4", "--workers", "1", "--budget", "5"]),
        Case("matchsticks", "table", "warm-up", ["matchsticks", "table", "--n", "1..4", "--budget", "1", "--no-store"]),
        Case("hexagon", "table", "warm-up", ["hexagon", "table", "--orders", "3", "--budget", "2"]),
        Case("hexagon", "count", "warm-up", ["hexagon", "count", "3", "--budget", "5"]),
        Case("macmahon", "count", "warm-up", ["macmahon", "count", "2x3/free", "--budget", "5", "--no-store"]),
        Case("coins", "animate", "warm-up", ["coins", "animate", "font5x7:O-C", "--budget", "5", "--svg", "o.svg"]),
    ]
    return warm


def _invoke(runner: click.testing.CliRunner, case: Case):
    stdin = case.stdin if case.stdin is not None else b""
    result = runner.invoke(command(), case.args, input=stdin, env=case.env or None, catch_exceptions=True)
    return result.exit_code, result.stdout, result.stderr, result.exception


def run_case(case: Case, watchdog: Watchdog, folder: Path, runner: click.testing.CliRunner) -> Outcome:
    """One case in its own working folder, watched."""
    folder.mkdir()
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    home = os.getcwd()
    os.chdir(folder)
    started = time.perf_counter()
    code = exception = None
    stdout = stderr = ""
    try:
        watchdog.begin()
        try:
            code, stdout, stderr, exception = _invoke(runner, case)
        finally:
            flag, grew = watchdog.end()
    except KeyboardInterrupt:  # the watchdog's Ctrl-C, landing outside click (a user's goes on up)
        flag, grew = watchdog.end()
        if not flag:
            raise
    finally:
        os.chdir(home)
        changed = [name for name in case.keep if not (folder / name).is_file() or (folder / name).read_bytes() != case.files[name]]
        shutil.rmtree(folder, ignore_errors=True)
    seconds = time.perf_counter() - started
    column, why = classify(case, code, stdout, stderr, exception)
    if changed and column not in ("tracebacks",):
        column, why = "unclear", f"{changed[0]} (no checkpoint of this search) was overwritten or removed; {column}: {why}"
    if flag:
        column, why = flag, f"{flag} ({seconds:.1f} s, +{grew:.0f} MB); then {column}: {why}"
    return Outcome(case, column, why, code, seconds, grew, (stdout[-300:] + stderr[-300:]))


def run_cases(
    cases: Iterable[Case],
    *,
    hang_s: float = 20.0,
    memory_mb: float = 2048.0,
    grace_s: float = 60.0,
    on_outcome: Callable[[Report, Outcome], None] | None = None,
    on_abort: Callable[[Report, str], None] | None = None,
) -> Report:
    """Run every case; the records store is a private one in a temporary folder.
    `on_outcome(report so far, outcome)` follows each run; `on_abort(report so far,
    why)` comes before the process ends on a run that cannot be stopped."""
    report = Report()
    watchdog = Watchdog(hang_s, memory_mb, grace_s, lambda why: on_abort(report, why) if on_abort else None)
    watchdog.start()
    runner = click.testing.CliRunner()
    saved = os.environ.get("PUZZLELAB_DB")
    started = time.perf_counter()
    # The machine seen by the up-front memory checks (core/memory.py) has no more free
    # than the watchdog's bound, so a run that would need more is refused at once
    # instead of growing past it (a beam of width 10^7 fits a 24 GB machine now).
    real_available = core_memory.machine_available
    bounded = mock.patch.object(core_memory, "machine_available", lambda: min(real_available(), int(memory_mb * 2**20)))
    with tempfile.TemporaryDirectory(prefix="puzzlelab-fuzz-") as tmp, bounded:
        os.environ["PUZZLELAB_DB"] = str(Path(tmp) / "records.sqlite")
        try:
            for i, case in enumerate(cases):
                outcome = run_case(case, watchdog, Path(tmp) / f"case{i}", runner)
                report.outcomes.append(outcome)
                report.seconds = time.perf_counter() - started
                if on_outcome is not None:
                    on_outcome(report, outcome)
        finally:
            if saved is None:
                os.environ.pop("PUZZLELAB_DB", None)
            else:
                os.environ["PUZZLELAB_DB"] = saved
    return report
