import pytest


@pytest.fixture(autouse=True)
def _private_records_store(tmp_path, monkeypatch):
    """Every test writes to its own records store, never the user's."""
    monkeypatch.setenv("PUZZLELAB_DB", str(tmp_path / "records.sqlite"))
