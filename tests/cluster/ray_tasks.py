"""Task functions for the Ray backend tests: module-level so Ray workers import them by
name (the test cluster is started with tests/ on PYTHONPATH)."""

import os
import signal
import time


def square(x):
    return x * x


def die_once_then(marker, value):
    """Kills its own worker process the first time it runs (a lost worker), returns
    `value` when Ray runs it again."""
    if not os.path.exists(marker):
        with open(marker, "w") as f:
            f.write(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return value


def sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def spin_forever():
    """Deaf to signals' Python handlers in spirit: loops until killed."""
    x = 0
    while True:
        x = (x * 31 + 7) % 1000003


def node_of(_):
    import socket

    return os.environ.get("RAY_NODE_NAME_FOR_TEST", ""), socket.gethostname(), os.getpid()


def files_here(driver_file, name):
    """What a task sees of the files around it: its node, its cwd and TMPDIR, whether
    the driver's file `driver_file` is there, and the path of a file it wrote in its
    own working folder (which the driver must not see, on a cluster of two hosts)."""
    import ray

    time.sleep(0.5)  # long enough that the batch's tasks overlap and use both nodes
    written = os.path.abspath(f"written-by-{name}.txt")
    with open(written, "w") as f:
        f.write(name)
    return {
        "node": ray.get_runtime_context().get_node_id(),
        "cwd": os.getcwd(),
        "tmpdir": os.environ.get("TMPDIR", ""),
        "sees_driver_file": os.path.exists(driver_file),
        "written": written,
    }
