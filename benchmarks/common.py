"""Shared by the benchmark scripts: timing by median of repeats, and one JSON file of
results per benchmark under benchmarks/out/ (machines here are noisy: quote medians
and ratios, never single runs)."""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

OUT = Path(__file__).resolve().parent / "out"


def git_commit() -> str | None:
    """The short hash of the checkout's HEAD, for results that say which code made
    them; None where git is missing or this is not a checkout."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def median_seconds(fn: Callable[[], Any], repeats: int = 5) -> tuple[float, Any]:
    """Median wall time of `repeats` calls of fn, and fn's last return value."""
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def export_ref(ref: str) -> Path:
    """The `src/` of git revision `ref` under benchmarks/out/ref-<commit>/ (exported once with
    `git archive` and kept, its numba cache too): an earlier version of the package to
    run beside this tree's, in a subprocess with PYTHONPATH pointing there."""
    import tarfile
    import tempfile

    root = Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "rev-parse", "--short", ref], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    target = OUT / f"ref-{commit}"  # by commit, not by name: a name (HEAD) moves
    if not (target / "src").exists():
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile() as archive:
            subprocess.run(["git", "archive", commit, "src"], cwd=root, stdout=archive, check=True)
            archive.seek(0)
            with tarfile.open(fileobj=archive) as tar:
                tar.extractall(target, filter="data")
    return target / "src"


def write_json(name: str, payload: dict[str, Any]) -> Path:
    OUT.mkdir(exist_ok=True)
    payload = dict(payload)
    payload.setdefault("machine", {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()})
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, default=str))
    print(f"wrote {path}")
    return path
