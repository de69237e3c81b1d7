"""The checkpoint of a split count (`enumerate --checkpoint FILE`, `count --checkpoint`):
the statistics of every finished subtree, in a JSON file rewritten atomically, so a
rerun of the same count skips them.

The file names its count (the instance, the counting options, the split depth), and a
file that is not such a checkpoint is never overwritten (as matchsticks and
hexagon prove do): a missing file is started, a checkpoint of this count is resumed, and
anything else -- a binary file, text that is not JSON, JSON of another kind, the
checkpoint of another count, a subtree entry of the wrong shape -- is refused with a
one-line message before any work is done.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.files import write_atomic
from puzzlelab.core.inputs import check_output_path, is_finite, is_whole, parse_json, read_text_file

__all__ = ["load_checkpoint", "save_checkpoint", "KIND"]

KIND = "macmahon-count"
MAX_BYTES = 1 << 30  # a long count's finished subtrees; the file is the user's own
_INTS = ("total", "nodes", "sym_count", "collect_count")
_LISTS = ("fix", "classes", "sym_reps", "collected", "examples")


def load_checkpoint(path: str | None, header: dict[str, Any], empty: dict[str, Any], cells: int, codes: int) -> dict[str, Any]:
    """The state to resume: `header` (the count's identity, as JSON) plus `done` (subtree
    name -> statistics). `empty` is the statistics of no subtree, the shape every
    finished one must have; its rows are `cells` codes below `codes`. InvalidInstance (field `checkpoint`) for a file that is not
    this count's checkpoint or cannot be written."""
    header = json.loads(json.dumps(header))
    fresh = dict(header, kind=KIND, done={})
    if not path:
        return fresh
    file = Path(path)
    where = f"option --checkpoint {file}"
    if not file.exists():
        check_output_path(file, "option --checkpoint")
        return fresh
    try:
        data = parse_json(read_text_file(file, "option --checkpoint", MAX_BYTES), where, limit=MAX_BYTES)
    except InvalidInstance as exc:
        raise _refused(where, str(exc).removeprefix(where + ": ")) from None
    if not isinstance(data, dict) or not isinstance(data.get("done"), dict) or data.get("kind", KIND) != KIND or "instance" not in data:
        raise _refused(where, "JSON of another kind")
    theirs = {k: data.get(k) for k in header}
    if theirs != header:
        differs = [k.replace("_", " ") for k in header if theirs[k] != header[k]]
        raise InvalidInstance(
            f"{where}: the checkpoint of another count (its {', '.join(differs)} {'differs' if len(differs) == 1 else 'differ'}); "
            "give a new file name, or the options of that count",
            "checkpoint",
        )
    for name, part in data["done"].items():
        why = _bad_part(part, empty, cells, codes)
        if why:
            raise InvalidInstance(f"{where}: subtree {name[:60]!r} {why} (a damaged checkpoint?); nothing was overwritten", "checkpoint")
    return dict(data, kind=KIND)


def save_checkpoint(path: str | None, state: dict[str, Any]) -> None:
    """Write `state` atomically (`core.files.write_atomic`: a full disk is one line
    naming the file, and the previous checkpoint is kept)."""
    if path:
        write_atomic(path, json.dumps(state), "option --checkpoint", "checkpoint")


def _refused(where: str, why: str) -> InvalidInstance:
    return InvalidInstance(
        f"{where}: not the checkpoint of a macmahon count ({why}); it was left as it is: give a new file name", "checkpoint"
    )


def _bad_part(part: Any, empty: dict[str, Any], cells: int, codes: int) -> str:
    """Why a finished subtree's statistics cannot be merged ('' when they can)."""
    if not isinstance(part, dict) or part.get("complete") is not True:
        return "is not a finished subtree's statistics"
    for key in _INTS:
        value = part.get(key)
        if not is_whole(value) or value < 0:
            return f"has {key} {str(value)[:20]}, not a count"
    if not is_finite(part.get("seconds")):
        return "has no seconds"
    for key in _LISTS:
        if not isinstance(part.get(key), list):
            return f"has no list {key}"
    for key in ("fix", "classes"):
        if len(part[key]) != len(empty[key]) or not all(is_whole(v) for v in part[key]):
            return f"has {key} of another group"
    for key in ("sym_reps", "collected", "examples"):
        for row in part[key]:
            if not isinstance(row, list) or len(row) != cells or not all(is_whole(v) and 0 <= v < codes for v in row):
                return f"has a malformed row in {key}"
    hist = part.get("hist")
    if not isinstance(hist, dict) or any(
        name not in empty["groups"] or not isinstance(h, dict) or not all(str(s).isascii() and str(s).isdigit() and is_whole(v) and v >= 0 for s, v in h.items())
        for name, h in hist.items()
    ):
        return "has a malformed orbit histogram"
    return ""
