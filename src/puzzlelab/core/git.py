"""git's answers for provenance records: which commit a result was computed or shipped
from. Scripts that write shipped data (proofs/*/campaign.py) call it; a machine without
git, or a copy outside a checkout, gets None, and the record says null."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git_output(repo: Path, *args: str) -> str | None:
    """`git -C repo ARGS`'s output, stripped; None without git, outside a checkout, or on failure."""
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None
