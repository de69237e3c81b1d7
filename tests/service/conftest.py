"""Service tests run the real app (forkserver workers and all) on the toy puzzle, which
the registry loads through PUZZLELAB_PLUGINS exactly as a user's own puzzle would be."""

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from support.ports import free_port

TESTS = Path(__file__).resolve().parents[1]
os.environ.setdefault("PUZZLELAB_PLUGINS", "support.toy_puzzle:Toy")
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))


@pytest.fixture
def store_path(tmp_path):
    return str(tmp_path / "service.sqlite")


class Served(str):
    """The URL of a running `puzzlelab serve`, with its process attached."""

    process: subprocess.Popen


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`puzzlelab serve` as a user starts it, on loopback, a private port and store.
    Yields its URL (a str with `.process`); stopped at the end of the module."""
    port = free_port()
    env = dict(os.environ)
    env["PUZZLELAB_DB"] = str(tmp_path_factory.mktemp("served") / "records.sqlite")
    env["PUZZLELAB_PLUGINS"] = "support.toy_puzzle:Toy"
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    process = subprocess.Popen(
        [sys.executable, "-m", "puzzlelab.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url + "/api/health", timeout=2)
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("server did not start: " + (process.stdout.read() if process.stdout else ""))
            time.sleep(0.3)
    served = Served(url)
    served.process = process
    yield served
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
