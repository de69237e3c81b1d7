"""The campaign scripts kept in proofs/ (not part of the package), loaded as modules
for their tests; a test is skipped where proofs/ is not beside the tests."""

import importlib.util
from pathlib import Path

import pytest

PROOFS = Path(__file__).resolve().parents[2] / "proofs"


def load_campaign(folder: str, name: str, script: str = "campaign.py"):
    """proofs/FOLDER/SCRIPT as a module called `name`."""
    path = PROOFS / folder / script
    if not path.exists():
        pytest.skip("no proofs/ beside the tests (an installed copy)")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
