"""The one door every input comes through: bytes, text, JSON, numbers, paths.

Whatever a user or a client sends -- a file that is not UTF-8, JSON nested 100,000 deep,
an integer of 5,000 digits, `NaN`, a path into a folder that does not exist -- comes out
of here either as a plain Python value within stated limits or as an `InvalidInstance`
whose one-line message names the field and what was expected. Each puzzle's own parser
then checks the puzzle's rules on values that are already sane.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from puzzlelab.core.errors import InvalidInstance

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_INT_DIGITS",
    "decode_bytes",
    "read_text_file",
    "parse_json",
    "decode_input",
    "json_depth",
    "is_whole",
    "is_finite",
    "check_int",
    "check_number",
    "check_output_path",
    "check_text",
    "shown",
]

MAX_INPUT_BYTES = 4_000_000
MAX_JSON_DEPTH = 64  # the deepest real input (a grid of rows of cells) is 3 or 4 deep
MAX_INT_DIGITS = 30  # no figure of these puzzles needs more; Python refuses over 4,300
# Seeds go to numpy's and Python's generators (any size) and to CP-SAT's random_seed,
# a 32-bit signed integer: every method takes the same range.
MAX_SEED = 2**31 - 1


def decode_bytes(data: bytes, where: str, limit: int = MAX_INPUT_BYTES) -> str:
    """UTF-8 text from bytes (a byte-order mark is dropped), or a clear error."""
    if len(data) > limit:
        raise InvalidInstance(f"{where}: larger than {limit} bytes", "instance", 413)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInstance(f"{where}: not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})", "instance") from None
    if "\x00" in text:
        raise InvalidInstance(f"{where}: not text (it holds a NUL byte)", "instance")
    return text


def read_text_file(path: str | os.PathLike, where: str, limit: int = MAX_INPUT_BYTES) -> str:
    """A file's text, checked before it is read: exists, a file, within `limit`, UTF-8."""
    file = Path(path)
    try:
        if not file.exists():
            raise InvalidInstance(f"{where} {file}: no such file", where)
        if not file.is_file():
            raise InvalidInstance(f"{where} {file}: not a file", where)
        size = file.stat().st_size
        if size > limit:
            raise InvalidInstance(f"{where} {file}: larger than {limit} bytes", where, 413)
        with file.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise InvalidInstance(f"{where} {file}: cannot be read ({exc.strerror or exc})", where) from None
    return decode_bytes(data, f"{where} {file}", limit)


def json_depth(text: str) -> int:
    """How deep the brackets of a JSON text nest (strings skipped), without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: JSON's grammar allows it, a float cannot hold it
        raise ValueError(f"{text[:20]}{'...' if len(text) > 20 else ''} is too large for a number")
    return value


def parse_json(text: str, where: str, *, max_depth: int = MAX_JSON_DEPTH, limit: int = MAX_INPUT_BYTES) -> Any:
    """JSON within limits: size, nesting depth, integer length; no NaN or Infinity,
    written as such or as a number too large for a float (1e400)."""
    if len(text) > limit:
        raise InvalidInstance(f"{where}: larger than {limit} bytes", where, 413)
    depth = json_depth(text)
    if depth > max_depth:
        raise InvalidInstance(f"{where}: JSON nested {depth} deep (at most {max_depth})", where)
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise InvalidInstance(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})", where) from None
    except (ValueError, RecursionError) as exc:
        raise InvalidInstance(f"{where}: not acceptable JSON ({exc})", where) from None


def decode_input(text: str, where: str, limit: int = MAX_INPUT_BYTES) -> Any:
    """JSON when the text is JSON, else the text itself (each puzzle parses its own).

    Text that starts like a JSON array but is not JSON goes to the puzzle's own parser;
    JSON that breaks a limit (too deep, a huge integer, NaN) is refused here."""
    if len(text) > limit:
        raise InvalidInstance(f"{where}: larger than {limit} bytes", "instance", 413)
    stripped = text.strip()
    if stripped[:1] in ("{", "[") or (stripped.lstrip("-").isdigit() and stripped.isascii()):
        if stripped[:1] == "[":
            try:
                json.loads(stripped, parse_int=lambda digits: 0, parse_constant=lambda name: 0) if json_depth(stripped) <= MAX_JSON_DEPTH else None
            except (json.JSONDecodeError, RecursionError):
                return text
        return parse_json(stripped, where, limit=limit)
    return text


# What no text field may hold: lone surrogates (no UTF-8 can carry them: a JSON answer
# or an SQLite row holding one cannot be written), and the characters XML forbids (C0
# controls other than tab, line feed and carriage return; U+FFFE, U+FFFF), which would
# make a picture or a page that shows the text unreadable.
_UNSAFE_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _unsafe_char(char: str) -> str:
    code = ord(char)
    if code == 0:
        return "a NUL character"
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate (U+{code:04X})"
    return f"the {'control ' if code < 0x20 else 'non-'}character U+{code:04X}"


def check_text(value: Any, field: str) -> None:
    """Refuse text that cannot be stored and shown again safely, anywhere in a JSON
    value (strings and object keys, at any depth): InvalidInstance naming the place
    ('instance.id', 'options.group', 'instance.colours[2]')."""
    stack: list[tuple[str, Any]] = [(field, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            found = _UNSAFE_TEXT.search(item)
            if found:
                raise InvalidInstance(
                    f"{where}: holds {_unsafe_char(found.group())} at character {found.start()}; "
                    "expected text without control characters or lone surrogates",
                    where,
                )
        elif isinstance(item, dict):
            for key, inner in item.items():
                check_text(key, f"{where} (a key)")
                stack.append((f"{where}.{key if len(str(key)) <= 40 else str(key)[:37] + '...'}", inner))
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{where}[{i}]", inner) for i, inner in enumerate(item))


def is_whole(value: Any) -> bool:
    """A whole number as JSON gives one: an int, and not True or False (which Python
    counts as ints). For readers that refuse rather than convert (checkpoints, records)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_finite(value: Any) -> bool:
    """A finite JSON number: an int or a float, not a boolean, not NaN or infinite."""
    return is_whole(value) or (isinstance(value, float) and math.isfinite(value))


def check_int(value: Any, field: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer in [minimum, maximum]; booleans, floats with a fraction, text and
    numbers out of range get a message naming `field`."""
    if isinstance(value, bool):
        raise InvalidInstance(f"{field}: expected an integer, got {value!r}", field)
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer() or abs(value) >= 10.0**MAX_INT_DIGITS:
            raise InvalidInstance(f"{field}: expected an integer, got {value!r}", field)
        value = int(value)
    elif isinstance(value, str):
        text = value.strip()
        if not text.lstrip("+-").isdigit() or not text.isascii() or len(text) > MAX_INT_DIGITS + 1:
            raise InvalidInstance(f"{field}: expected an integer, got {shown(value)}", field)
        value = int(text)
    elif not isinstance(value, int) or abs(value) >= 10**MAX_INT_DIGITS:
        raise InvalidInstance(f"{field}: expected an integer, got {shown(value)}", field)
    _check_range(value, field, minimum, maximum)
    return value


def check_number(value: Any, field: str, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """A finite number in [minimum, maximum] (not NaN, not infinite, not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidInstance(f"{field}: expected a number, got {shown(value)}", field)
    try:
        number = float(value) if not isinstance(value, int) or abs(value) < 10**MAX_INT_DIGITS else math.inf
    except (ValueError, OverflowError):
        raise InvalidInstance(f"{field}: expected a number, got {shown(value)}", field) from None
    if not math.isfinite(number):
        raise InvalidInstance(f"{field}: expected a finite number, got {shown(value)}", field)
    _check_range(number, field, minimum, maximum)
    return number


def check_output_path(path: str | os.PathLike, field: str) -> Path:
    """A file the user asked us to write: its folder must exist and it must not be a
    folder itself (checked before any work is done, so no answer is lost at the end)."""
    target = Path(path)
    if target.is_dir():
        raise InvalidInstance(f"{field} {target}: is a folder; expected a file name", field)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidInstance(f"{field} {target}: folder {folder} does not exist", field)
    if not os.access(folder, os.W_OK):
        raise InvalidInstance(f"{field} {target}: folder {folder} is not writable", field)
    return target


def _check_range(value: float, field: str, minimum: float | None, maximum: float | None) -> None:
    if minimum is not None and value < minimum:
        raise InvalidInstance(f"{field}: expected at least {minimum}, got {shown(value)}", field)
    if maximum is not None and value > maximum:
        raise InvalidInstance(f"{field}: expected at most {maximum}, got {shown(value)}", field)


def shown(value: Any, limit: int = 60) -> str:
    """A value for a one-line message: at most `limit` characters, and never an error
    itself (an integer of 5,000 digits has no decimal text in Python; a list nested
    100,000 deep has no repr)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_INT_DIGITS:
        if value.bit_length() < 14_000:
            return f"a number of {len(str(abs(value)))} digits"
        return f"a number of about {value.bit_length() * 0.30103:.0f} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."
