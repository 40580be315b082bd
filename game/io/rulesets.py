"""Loading rulesets from rulesets/*.toml (or any path), validated against core.ruleset.SCHEMA.

A ruleset file may name a `base` it overrides key by key (core/ruleset/layers.py says how
layers merge). The bundled rulesets all build on rulesets/base.toml, which is not a ruleset
itself. A base is a bundled name (`base`, `bfrpg`, ...) or a path relative to the file.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..core.values.errors import DataFileError, RulesError
from ..core.ruleset import Ruleset
from ..core.ruleset.layers import Layer, merge_layers, origin_of
from ..core.ruleset.schema import shown
from .paths import BASE_NAME, RULESETS_DIR, bundled_ruleset_ids  # noqa: F401 (bundled_ruleset_ids: callers import it from here)
from .toml_file import read_toml

MAX_LAYERS = 8


def load_ruleset_file(path: str | Path) -> Ruleset:
    path = Path(path)
    merged, origins = merge_layers(read_layers(path))
    try:
        ruleset = Ruleset.from_mapping(merged, str(path))
    except DataFileError as err:
        origin = origin_of(err.where, origins) if err.where else None
        if origin is None or origin == str(path):
            raise
        raise DataFileError(err.path, err.where, f"{err.problem} (this value comes from {origin})") from None
    if ruleset.id != path.stem:
        raise DataFileError(path, "id", f"id {ruleset.id!r} must match the file name {path.stem!r}")
    return ruleset


def read_layers(path: Path) -> list[Layer]:
    """The files of one ruleset: its base chain from the deepest base to `path` itself."""
    chain: list[Layer] = []
    seen: list[Path] = []
    current = path
    while True:
        resolved = current.resolve()
        if resolved in seen:
            loop = " -> ".join(str(p) for p in seen + [resolved])
            raise DataFileError(chain[-1].path, "base", f"the bases go round in a loop: {loop}")
        seen.append(resolved)
        data = read_toml(current)
        chain.append(Layer(str(current), data))
        base = data.get("base", "")
        if not isinstance(base, str):
            raise DataFileError(current, "base", f"wrong type ({type(base).__name__}); expected a string: "
                                "a bundled name like \"base\" or a path to a .toml file")
        if not base:
            return chain[::-1]
        if len(chain) >= MAX_LAYERS:
            raise DataFileError(path, "base", f"more than {MAX_LAYERS} files deep in bases; a ruleset builds on at most "
                                f"{MAX_LAYERS - 1} others")
        current = _base_path(base, current)


def _base_path(base: str, referrer: Path) -> Path:
    if "/" in base or "\\" in base or base.endswith(".toml"):
        candidate = referrer.parent / base
        if not candidate.is_file():
            raise DataFileError(referrer, "base", f"{shown(base)}: no such ruleset file ({candidate}); "
                                "a path is relative to the file that names it")
        return candidate
    candidate = RULESETS_DIR / f"{base}.toml"
    if not candidate.is_file():
        names = ", ".join([BASE_NAME] + bundled_ruleset_ids())
        raise DataFileError(referrer, "base", f"unknown base {shown(base)}; bundled: {names}; or a path to a .toml file "
                            "relative to this one")
    return candidate


@lru_cache(maxsize=None)
def load_ruleset(id_or_path: str) -> Ruleset:
    """A bundled ruleset by id (bfrpg, odnd, cnc, ch17, spelljammer) or a ruleset file path."""
    if id_or_path.endswith(".toml") or "/" in id_or_path:
        return load_ruleset_file(id_or_path)
    candidate = RULESETS_DIR / f"{id_or_path}.toml"
    if id_or_path == BASE_NAME:
        raise RulesError(f"{BASE_NAME!r} holds what the bundled rulesets share and is not a ruleset on its own: "
                         f"use one of {', '.join(bundled_ruleset_ids())}")
    if not candidate.exists():
        raise RulesError(f"unknown ruleset {shown(id_or_path)}: use one of {', '.join(bundled_ruleset_ids())} or a path to a .toml file")
    return load_ruleset_file(candidate)
