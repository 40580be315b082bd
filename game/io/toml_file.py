"""Reading data files (TOML here, JSON saves too) with one clear message for every way it can fail."""
from __future__ import annotations

import math
import re
import stat
import tomllib
from pathlib import Path

from ..core.values.errors import DataFileError
from ..core.ruleset.schema import key_text

MAX_DATA_FILE_BYTES = 4 * 1024 * 1024
MAX_NESTING = 16  # tables and lists inside each other; real files nest 5 deep at most
BOM = "\ufeff"


def read_text(path: str | Path, max_bytes: int = MAX_DATA_FILE_BYTES, what: str = "file",
              not_utf8: str = "not UTF-8 text; save the file as UTF-8") -> str:
    """The file's UTF-8 text (a leading byte-order mark dropped), or DataFileError: missing,
    a folder or other non-file (a pipe would wait for ever), unreadable, too large, not UTF-8."""
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise DataFileError(path, "", f"{what} not found") from None
    except OSError as err:
        raise DataFileError(path, "", f"cannot read: {err.strerror}") from None
    except ValueError as err:  # a NUL byte in the name
        raise DataFileError(path, "", f"cannot read: {err}") from None
    if stat.S_ISDIR(info.st_mode):
        raise DataFileError(path, "", "is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise DataFileError(path, "", "is not a regular file (a pipe, socket or device); give a file")
    if info.st_size > max_bytes:
        raise DataFileError(path, "", f"file is {info.st_size} bytes; a {what} may be at most {max_bytes}")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as err:
        raise DataFileError(path, "", f"cannot read: {err.strerror}") from None
    if len(raw) > max_bytes:  # it grew after the size check
        raise DataFileError(path, "", f"file is over {max_bytes} bytes; a {what} may be at most {max_bytes}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataFileError(path, f"byte {err.start}", not_utf8) from None
    return text[1:] if text.startswith(BOM) else text


# Table headers ([x] and [[x]] lines) one data file may hold, counted before the file is parsed: a
# bundled ruleset has a few hundred, a 400-figure scenario under a thousand; 10^5 weapons would
# take seconds to parse before their count could be refused.
MAX_TOML_TABLES = 5_000
_TABLE_HEADER = re.compile(r"^[ \t]*\[", re.MULTILINE)


def read_toml(path: str | Path) -> dict:
    text = read_text(path, what="data file")
    tables = len(_TABLE_HEADER.findall(text))
    if tables > MAX_TOML_TABLES:
        raise DataFileError(path, "", f"has {tables:,} table headers ([...] lines); a data file holds at most "
                                      f"{MAX_TOML_TABLES:,} (docs/cli.md, Limits), so that every command stays "
                                      "within seconds")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DataFileError(path, "", f"not valid TOML: {err}") from None
    except RecursionError:
        raise DataFileError(path, "", f"tables or lists nested too deeply; a data file nests at most {MAX_NESTING} levels") from None
    check_plain_data(data, path)
    return data


def check_plain_data(data, path: str | Path) -> None:
    """Refuse nesting deeper than MAX_NESTING and numbers that are not finite (nan, inf), anywhere."""
    stack = [(data, 0, None)]    # value, depth, trail: (the parent's trail, key or list index) or None
    while stack:
        value, depth, trail = stack.pop()
        if depth > MAX_NESTING:
            key = re.sub(r"\[\d+\]", "", _where(trail))  # the key holding it, not the dozens of list indices
            raise DataFileError(path, key, f"tables or lists nested too deeply; a data file nests at most {MAX_NESTING} levels")
        if isinstance(value, float) and not math.isfinite(value):
            raise DataFileError(path, _where(trail) or "(top level)", f"{value!r} is not a number that can be played; "
                                "give a finite number")
        if isinstance(value, dict):
            stack.extend((v, depth + 1, (trail, k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, depth + 1, (trail, i)) for i, v in enumerate(value))


def _where(trail) -> str:
    """The dotted key of a trail (worked out only for a message: most values never need one)."""
    steps = []
    while trail is not None:
        trail, step = trail
        steps.append(step)
    where = ""
    for step in reversed(steps):
        if isinstance(step, int):
            where += f"[{step + 1}]"
        else:
            where = f"{where}.{key_text(step)}" if where else key_text(step)
    return where
