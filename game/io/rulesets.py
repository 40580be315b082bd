"""Loading rulesets from rulesets/*.toml (or any path), validated against core.ruleset.SCHEMA."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..core.errors import DataFileError, RulesError
from ..core.ruleset import Ruleset
from .paths import RULESETS_DIR
from .toml_file import read_toml


def bundled_ruleset_ids() -> list[str]:
    return sorted(p.stem for p in RULESETS_DIR.glob("*.toml"))


def load_ruleset_file(path: str | Path) -> Ruleset:
    path = Path(path)
    data = read_toml(path)
    ruleset = Ruleset.from_mapping(data, str(path))
    if ruleset.id != path.stem:
        raise DataFileError(path, "id", f"id {ruleset.id!r} must match the file name {path.stem!r}")
    return ruleset


@lru_cache(maxsize=None)
def load_ruleset(id_or_path: str) -> Ruleset:
    """A bundled ruleset by id (bfrpg, odnd, cnc, ch17, spelljammer) or a ruleset file path."""
    if id_or_path.endswith(".toml") or "/" in id_or_path:
        return load_ruleset_file(id_or_path)
    candidate = RULESETS_DIR / f"{id_or_path}.toml"
    if not candidate.exists():
        raise RulesError(f"unknown ruleset {id_or_path!r}: use one of {', '.join(bundled_ruleset_ids())} or a path to a .toml file")
    return load_ruleset_file(candidate)
