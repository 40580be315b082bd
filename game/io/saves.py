"""Battle saves: a versioned JSON file (setup + seed + action log), written atomically.

Writing goes to a temporary file in the same folder, is flushed and fsync'ed, then
os.replace()d over the target: a crash or kill mid-write leaves the previous save intact, and
the next save into that folder removes a temporary file such a kill left behind. A save over an
existing file keeps that file's permissions; a file the user made read-only is refused, never
replaced. Loading validates the save exactly like a scenario and rebuilds the battle by
replaying its actions; a corrupt, foreign or wrong-version file gives one clear DataFileError
and touches nothing else.
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from ..core.battle import Battle
from ..core.values.errors import DataFileError, RulesError
from .toml_file import check_plain_data, read_text

MAX_SAVE_BYTES = 64 * 1024 * 1024
TEMP_SUFFIX = ".tmp"
# A temporary save file older than this is a leftover of a writer that was killed, not one at work.
STALE_TEMP_SECONDS = 60


def save_battle(battle: Battle, path: str | Path) -> Path:
    path = Path(path)
    data = battle.to_save_data()
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    write_atomically(path, text.encode("utf-8"))
    return path


@contextmanager
def folder_lock(folder: Path, name: str = ".lock"):
    """Hold an exclusive lock on `folder` (a lock file in it) while the body runs: two processes that
    read, change and write the same index one after the other instead of at once (POSIX flock;
    where there is none, no lock)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: saves stay atomic, only concurrent index updates may race
        yield
        return
    handle = open(folder / name, "a+b")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock


def write_atomically(path: Path, payload: bytes) -> None:
    """Write the whole payload or nothing; errors name the save, never the temporary file."""
    folder = path.parent if str(path.parent) else Path(".")
    mode = _mode_to_keep(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale_temporaries(folder, path.name)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=folder)
    except OSError as err:
        raise DataFileError(path, "", f"cannot save here: {err.strerror or err} (folder {folder})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException as err:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise DataFileError(path, "", f"could not save: {err.strerror or err}; the previous save is "
                                          f"untouched") from None
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def _mode_to_keep(path: Path) -> int:
    """The permissions the saved file will have: the existing file's, or the usual for a new file."""
    try:
        info = path.stat()
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
    except OSError as err:
        raise DataFileError(path, "", f"cannot save here: {err.strerror or err}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DataFileError(path, "", "is not a regular file; choose another name to save to")
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        # Write bits cleared by the user mean "keep this file", even for an all-powerful user.
        raise DataFileError(path, "", "is read-only; make it writable or choose another name to save to")
    return stat.S_IMODE(info.st_mode)


def _remove_stale_temporaries(folder: Path, name: str) -> None:
    """Temporary files of earlier saves of `name` that a killed writer left behind."""
    now = time.time()
    for leftover in folder.glob(f".{name}.*{TEMP_SUFFIX}"):
        try:
            if now - leftover.stat().st_mtime > STALE_TEMP_SECONDS:
                leftover.unlink()
        except OSError:
            pass


def load_battle(path: str | Path) -> Battle:
    path = Path(path)
    text = read_text(path, MAX_SAVE_BYTES, what="save file", not_utf8="not a readable save (corrupt: not UTF-8 text)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise DataFileError(path, "", f"not a readable save (corrupt or truncated JSON: {err})") from None
    except RecursionError:
        raise DataFileError(path, "", "not a readable save: lists or tables nested too deeply") from None
    check_plain_data(data, path)
    try:
        return Battle.from_save_data(data, str(path))
    except DataFileError:
        raise
    except RulesError as err:
        raise DataFileError(path, "", str(err).removeprefix(f"{path}: ")) from None
