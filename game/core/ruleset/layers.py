"""Rulesets as layers: a file names a base and overrides it key by key (as OpenXcom mods do).

`merge_layers` takes the files of one ruleset from the deepest base to the file itself and
returns the merged data, still to be checked whole by Ruleset.from_mapping. How layers merge:

- a section ([grid], [round], ...) merges key by key; a plain value or a list replaces the base's;
- weapons and templates merge by name, field by field; a new name adds a record;
- [[defenses]] merge by style and [[conditions]] by name, field by field; a new one is added;
- `[remove]` drops weapons, templates, defenses or conditions the base has and this file does not.

Each layer is checked on its own first (every value's shape), so a bad value is reported in
the file that holds it. `origins` records which file set each value, for messages about the
merged whole.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from ..values.errors import DataFileError
from .sections import LAYER_KEYS, SCHEMA
from .schema import Field, shown, validate


@dataclass(frozen=True)
class Layer:
    """One ruleset file as read: its path and its data, not yet checked."""

    path: str
    data: dict  # the file's data as read, unchecked


# Collections merged record by record, and what names a record in each.
def _collections() -> dict[str, str]:
    out = {}
    for key, spec in SCHEMA.items():
        if isinstance(spec, Field) and spec.kind == "table" and spec.entry:
            out[key] = ""
        elif isinstance(spec, Field) and spec.kind == "list[table]" and spec.key:
            out[key] = spec.key
    return out


COLLECTIONS = _collections()  # weapons, templates (by table name); defenses (style), conditions (name)
OWN_KEYS = ("id", "name")  # a ruleset names itself: these are never taken from its base


def merge_layers(layers: list[Layer]) -> tuple[dict, dict[str, str]]:
    """The merged data of `layers` (deepest base first) and, per dotted key, the file that set it."""
    merged: dict = {}
    # A section's value or a plain key is set whole by the last layer giving it, so nothing is ever
    # recorded below one of these keys (records of collections get theirs after the layers, by name).
    origins: dict[str, str] = {}
    keyed: dict[tuple[str, str], dict[str, str]] = {}  # (collection, record name) -> field -> file
    top = layers[-1]
    if len(layers) > 1:
        for key in OWN_KEYS:
            if key not in top.data:
                raise DataFileError(top.path, key, f"missing required key ({SCHEMA[key].doc}); a ruleset with a base "
                                    f"still gives its own {key}")
    for depth, layer in enumerate(layers):
        checked = validate(layer.data, SCHEMA, layer.path, partial=True)
        _remove(merged, checked.get("remove", {}), layer.path, has_base=depth > 0, keyed=keyed)
        for key, value in checked.items():
            if key in LAYER_KEYS:
                continue
            spec = SCHEMA[key]
            if key in COLLECTIONS:
                _merge_collection(merged, key, value, layer, keyed)
            elif isinstance(spec, dict):
                section = merged.setdefault(key, {})
                for name, item in value.items():
                    section[name] = copy.deepcopy(item)
                    origins[f"{key}.{name}"] = layer.path
            else:
                merged[key] = copy.deepcopy(value)
                origins[key] = layer.path
    for (collection, name), fields in keyed.items():
        if COLLECTIONS[collection]:
            index = next(i for i, e in enumerate(merged[collection]) if e[COLLECTIONS[collection]] == name)
            prefix = f"{collection}[{index + 1}]"
        else:
            prefix = f"{collection}.{name}"
        for field_name, path in fields.items():
            origins[f"{prefix}.{field_name}" if field_name else prefix] = path
    return merged, origins


def origin_of(where: str, origins: dict[str, str]) -> str | None:
    """The file that set the value at dotted key `where`, or at the nearest key holding it."""
    while where:
        if where in origins:
            return origins[where]
        cut = max(where.rfind("."), where.rfind("["))
        where = where[:cut] if cut > 0 else ""
    return None


def _merge_collection(merged: dict, collection: str, value, layer: Layer, keyed: dict) -> None:
    spec = SCHEMA[collection]
    key = COLLECTIONS[collection]
    raw = layer.data[collection]
    if not key:  # a table of records by name
        records = merged.setdefault(collection, {})
        for name, record in value.items():
            if name not in records:
                validate(raw[name], spec.entry, layer.path, f"{collection}.{name}")  # a new record must be whole
                records[name] = {}
                keyed[(collection, name)] = {"": layer.path}
            for field_name, item in record.items():
                records[name][field_name] = copy.deepcopy(item)
                keyed[(collection, name)][field_name] = layer.path
        return
    entries = merged.setdefault(collection, [])
    for i, entry in enumerate(value, start=1):
        where = f"{collection}[{i}]"
        if key not in entry:
            raise DataFileError(layer.path, f"{where}.{key}", f"missing; each entry is matched to its base's by its {key} "
                                f"({spec.entry[key].doc})")
        name = entry[key]
        found = next((e for e in entries if e[key] == name), None)
        if found is None:
            validate(raw[i - 1], spec.entry, layer.path, where)  # a new entry must be whole
            found = {}
            entries.append(found)
            keyed[(collection, name)] = {"": layer.path}
        for field_name, item in entry.items():
            found[field_name] = copy.deepcopy(item)
            keyed[(collection, name)][field_name] = layer.path


def _remove(merged: dict, removals: dict, path: str, has_base: bool, keyed: dict) -> None:
    for collection, names in removals.items():
        if not names:
            continue
        if not has_base:
            raise DataFileError(path, f"remove.{collection}", "this file has no base to remove anything from")
        key = COLLECTIONS[collection]
        present = merged.get(collection, {} if not key else [])
        have = list(present) if not key else [e[key] for e in present]
        for name in names:
            if name not in have:
                raise DataFileError(path, f"remove.{collection}", f"{shown(name)} is not in the base; "
                                    f"its {collection}: {', '.join(sorted(have)) or 'none'}")
            keyed.pop((collection, name), None)
        if key:
            merged[collection] = [e for e in present if e[key] not in names]
        else:
            for name in names:
                del present[name]
