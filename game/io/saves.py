"""Battle saves: a versioned JSON file (setup + seed + action log), written atomically.

Writing goes to a temporary file in the same folder, is flushed and fsync'ed, then
os.replace()d over the target: a crash or kill mid-write leaves the previous save intact.
Loading rebuilds the battle by replaying its actions; a corrupt, foreign or wrong-version
file gives one clear DataFileError and touches nothing else.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..core.battle import Battle
from ..core.errors import DataFileError, RulesError
from .toml_file import read_text

MAX_SAVE_BYTES = 64 * 1024 * 1024


def save_battle(battle: Battle, path: str | Path) -> Path:
    path = Path(path)
    data = battle.to_save_data()
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    write_atomically(path, text.encode("utf-8"))
    return path


def write_atomically(path: Path, payload: bytes) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def load_battle(path: str | Path) -> Battle:
    path = Path(path)
    text = read_text(path, MAX_SAVE_BYTES, what="save file", not_utf8="not a readable save (corrupt: not UTF-8 text)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise DataFileError(path, "", f"not a readable save (corrupt or truncated JSON: {err})") from None
    try:
        return Battle.from_save_data(data, str(path))
    except DataFileError:
        raise
    except RulesError as err:
        raise DataFileError(path, "", str(err).removeprefix(f"{path}: ")) from None
