"""Imported by a fork server, first of its preloaded modules (`core.lifeline.
fork_server_preload`): the fork server asks for SIGKILL when the process that started it
ends, so the workers it forked (each asking the same of it) end too. Anywhere else the
import does nothing: only a process whose parent is the one named in
PUZZLELAB_FORK_SERVER_PARENT is that fork server."""

from __future__ import annotations

import os

from puzzlelab.core.lifeline import FORK_SERVER_PARENT_ENV, die_with_parent

_parent = os.environ.get(FORK_SERVER_PARENT_ENV, "")
if _parent.isdigit() and int(_parent) == os.getppid():
    die_with_parent(int(_parent))
