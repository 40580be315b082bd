"""Reading data files (TOML here, JSON saves too) with one clear message for every way it can fail."""
from __future__ import annotations

import tomllib
from pathlib import Path

from ..core.errors import DataFileError

MAX_DATA_FILE_BYTES = 4 * 1024 * 1024


def read_text(path: str | Path, max_bytes: int = MAX_DATA_FILE_BYTES, what: str = "file",
              not_utf8: str = "not UTF-8 text; save the file as UTF-8") -> str:
    """The file's UTF-8 text, or DataFileError: missing, a folder, unreadable, too large, not UTF-8."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DataFileError(path, "", f"{what} not found") from None
    except OSError as err:
        raise DataFileError(path, "", f"cannot read: {err.strerror}") from None
    if path.is_dir():
        raise DataFileError(path, "", "is a folder, not a file")
    if size > max_bytes:
        raise DataFileError(path, "", f"file is {size} bytes; a {what} may be at most {max_bytes}")
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise DataFileError(path, "", f"cannot read: {err.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataFileError(path, f"byte {err.start}", not_utf8) from None


def read_toml(path: str | Path) -> dict:
    text = read_text(path, what="data file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DataFileError(path, "", f"not valid TOML: {err}") from None
