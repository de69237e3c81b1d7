import os
import sys
from pathlib import Path

import pytest

# The toy puzzle (tests/support/toy_puzzle.py) joins the registry through PUZZLELAB_PLUGINS, as a
# user's own puzzle would. Set here, before any test module imports the registry.
TESTS = Path(__file__).resolve().parent
os.environ.setdefault("PUZZLELAB_PLUGINS", "support.toy_puzzle:Toy")
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
# ... and in the child processes that tests start (service workers, isolated solvers).
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture(autouse=True)
def _private_records_store(tmp_path, monkeypatch):
    """Every test writes to its own records store, never the user's."""
    monkeypatch.setenv("PUZZLELAB_DB", str(tmp_path / "records.sqlite"))
