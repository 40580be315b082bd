"""Reading a TOML data file into a dict, with one clear message for every way it can fail."""
from __future__ import annotations

import tomllib
from pathlib import Path

from ..core.errors import DataFileError

MAX_DATA_FILE_BYTES = 4 * 1024 * 1024


def read_toml(path: str | Path) -> dict:
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DataFileError(path, "", "file not found") from None
    except OSError as err:
        raise DataFileError(path, "", f"cannot read: {err.strerror}") from None
    if path.is_dir():
        raise DataFileError(path, "", "is a folder, not a file")
    if size > MAX_DATA_FILE_BYTES:
        raise DataFileError(path, "", f"file is {size} bytes; data files may be at most {MAX_DATA_FILE_BYTES}")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataFileError(path, f"byte {err.start}", "not UTF-8 text; save the file as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DataFileError(path, "", f"not valid TOML: {err}") from None
