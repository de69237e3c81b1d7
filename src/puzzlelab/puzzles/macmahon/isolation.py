"""Run HiGHS or CP-SAT in a fresh process when the other one is already loaded here.

The wheels installed with this project (ortools 9.15, highspy 1.15) both carry HiGHS
symbols; once one is loaded, importing the other in the same process fails with an
undefined symbol (in either order). A command line run uses one of them, but a test
run, the `facts` verb or a benchmark uses both: then the second runs in a child
Python process (`python -m puzzlelab.puzzles.macmahon.isolation`, JSON in and out; not
a fork, which would inherit the conflicting library, and not multiprocessing's spawn,
which re-runs the caller's main script).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from typing import Any

from puzzlelab.core.lifeline import PARENT_ENV, die_with_parent

__all__ = ["highs_loaded", "ortools_loaded", "call_isolated"]


def highs_loaded() -> bool:
    return "highspy._core" in sys.modules


def ortools_loaded() -> bool:
    return any(name.startswith("ortools.") for name in sys.modules)


def call_isolated(target: str, *args: Any, timeout: float | None = None) -> Any:
    """`module:function`(*args) in a child process; arguments and result JSON-able."""
    payload = json.dumps({"target": target, "args": list(args)})
    done = subprocess.run(
        [sys.executable, "-m", "puzzlelab.puzzles.macmahon.isolation"],
        env=dict(os.environ, **{PARENT_ENV: str(os.getpid())}),
        input=payload,
        capture_output=True,
        text=True,
        timeout=None if timeout is None else timeout + 120.0,
    )
    if done.returncode != 0:
        raise RuntimeError(f"isolated {target} failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _main() -> None:
    die_with_parent(int(os.environ[PARENT_ENV]) if os.environ.get(PARENT_ENV, "").isdigit() else None)
    request = json.loads(sys.stdin.read())
    module, _, name = request["target"].partition(":")
    result = getattr(importlib.import_module(module), name)(*request["args"])
    print(json.dumps(result, default=lambda o: o.tolist() if hasattr(o, "tolist") else int(o)))


if __name__ == "__main__":
    _main()
