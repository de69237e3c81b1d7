"""Every documented maximum of an option that sizes tables fits the memory bound, or
the bound refuses it up front: one line naming the option, the estimated bytes and the
bound, exit 2. With no bound stated (a command-line run without --memory-mb) the bound
is half of the machine's memory (`core.memory.available_to`), so one option at its
maximum cannot take the whole machine (`hexagon solve 27 --method beam --width
10000000` reached 6.2 GB before anything stopped it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core import memory as core_memory
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.memory import available_to
from puzzlelab.core.result import Budget

runner = CliRunner()
SRC = Path(__file__).resolve().parents[2] / "src"
WIDEST_BEAM = ["hexagon", "solve", "27", "--method", "beam", "--width", "10000000", "--no-store"]


@pytest.fixture
def machine_of_16_gb(monkeypatch):
    monkeypatch.setattr(core_memory, "machine_memory", lambda: 16 * 10**9)
    monkeypatch.setattr(core_memory, "machine_available", lambda: 15 * 10**9)


def refused(result, *words: str) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (result.exit_code, result.output)
    assert all(word in lines[0] for word in words), lines[0]
    return lines[0]


def test_the_bound_without_a_stated_one_is_half_the_machine(machine_of_16_gb):
    assert available_to(None) == (8 * 10**9, "allowed (half of this machine's memory)")
    assert available_to(Budget(memory_bytes=2e9)) == (2 * 10**9, "allowed")
    assert available_to(Budget(memory_bytes=40e9)) == (15 * 10**9, "available")  # never more than is free


def test_the_widest_documented_beam_is_refused_up_front_by_the_default_bound(machine_of_16_gb):
    started = time.perf_counter()
    line = refused(runner.invoke(cli.app, WIDEST_BEAM), "beam width 10000000 on order 27", "needs 17.3 GB", "8.0 GB allowed (half of this machine's memory)")
    assert time.perf_counter() - started < 15, line  # refused, not started


def test_memory_mb_states_the_bound_of_a_run(machine_of_16_gb):
    refused(runner.invoke(cli.app, [*WIDEST_BEAM, "--memory-mb", "1000"]), "beam width 10000000", "17.3 GB", "1.0 GB allowed")
    refused(runner.invoke(cli.app, ["hexagon", "solve", "27", "--method", "levels", "--width", "10000000", "--no-store", "--memory-mb", "2000"]),
            "beam width 10000000 on order 27", "2.0 GB allowed")  # fmt: skip
    small = runner.invoke(cli.app, ["hexagon", "solve", "4", "--method", "beam", "--width", "100", "--budget", "3", "--no-store", "--quiet", "--json", "--memory-mb", "1000"])
    assert small.exit_code == 0 and json.loads(small.stdout)["verified"] is True  # what fits runs


@pytest.mark.parametrize("method", ["beam", "levels"])
def test_every_hexagon_width_at_its_maximum_is_refused_under_a_small_bound(method):
    from puzzlelab.puzzles import REGISTRY

    puzzle = REGISTRY["hexagon"]
    [width] = [o for o in puzzle.methods[method].options if o.name == "width"]
    with pytest.raises(InvalidInstance, match=r"needs .* more than the 1.0 GB allowed") as caught:
        puzzle.solve(puzzle.parse("27"), method, budget=Budget(5, memory_bytes=1e9), width=width.maximum)
    assert caught.value.field == "width" and caught.value.status == 413


@pytest.mark.slow
def test_the_tiling_beam_at_its_maxima_stays_within_the_bound():
    """width, margin and deviation at their documented maxima: the sweep stops at the
    bound (its fallback is the greedy tiling) instead of growing past it (it reached
    1.5 GB under a 300 MB bound: the sweep's hard stop dropped the bound)."""
    script = (
        "import json, resource\n"
        "from puzzlelab.puzzles import REGISTRY\n"
        "from puzzlelab.core.result import Budget\n"
        "p = REGISTRY['tiling']\n"
        "options = {o.name: o.maximum for o in p.methods['beam'].options if o.name in ('width', 'margin', 'deviation')}\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024\n"
        "r = p.solve(p.parse('60x60'), 'beam', budget=Budget(5, memory_bytes=300e6), **options)\n"
        "print(json.dumps({'verified': r.verified, 'base': base, 'peak': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, 'options': options}))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH", "")])))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["options"] == {"width": 10_000_000, "margin": 50, "deviation": 1000}
    assert report["verified"] and report["peak"] - report["base"] < 300e6, report
