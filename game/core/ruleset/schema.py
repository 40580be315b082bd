"""A small declarative validator for data files (rulesets, scenarios).

A schema is a dict of key -> Field or nested dict (a TOML table). `validate` walks the data
and raises DataFileError naming the file, the dotted key, what is wrong and what is allowed.
Defaults fill in missing optional keys, so code reads complete, typed data. Every shape a
key may take is in its Field: type, range or choices of each value, list lengths, and a
check for what those cannot say (dice, fractions, names).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..values.errors import DataFileError
from ..values.numbers import plain_number

_MISSING = object()

SHOWN_CHARS = 60  # a value quoted in a message is cut to this many characters
_SPACE = re.compile(r"\s")                  # what str.isspace() calls a space
_QUOTED_KEY_CHARS = re.compile(r"[\s.\[\]\"']")  # a key holding one is quoted in a dotted path


# Caps on what data files may hold, so that every command stays within seconds (docs/cli.md, "Limits").
MAX_FIGURES = 400               # figures in one battle: 200 a side (a scenario, a map's spawns, a save)
MAX_WEAPONS = 1_000             # weapons, and templates, in one ruleset file or layer
MAX_FIGURE_WEAPONS = 20         # weapons one figure carries
MAX_SAVED_ACTIONS = 100_000     # actions a save replays on loading


@dataclass(frozen=True)
class Field:
    """What one key of a data file may hold, and its default."""

    kind: str  # "int", "float", "bool", "str", "list[str]", "list[int]", "table", "list[table]"
    doc: str
    default: Any = _MISSING
    choices: tuple = ()
    minimum: float | None = None
    maximum: float | None = None
    # For kind "table": schema for each value of a free-keyed table (e.g. weapons by name).
    # For kind "list[table]": schema for each entry.
    entry: dict | None = None
    # Lists: the lengths allowed (empty: any length).
    lengths: tuple = ()
    # list[table]: the entry key that names an entry (unique; ruleset layers merge entries by it).
    key: str = ""
    # What the check accepts, in words, where the kind and range cannot say it (dice, fractions).
    words: str = ""
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
    # Tables and lists: at most this many entries (a cap that keeps every command within seconds).
    most: int | None = None

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.kind not in ("table", "list[table]")

    def allowed(self) -> str:
        if self.words:
            return self.words
        if self.kind.startswith("list[") and self.kind != "list[table]":
            return self._list_words()
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return " ".join([self.kind_words()] + self._range_words())

    def _range_words(self) -> list[str]:
        if self.minimum is not None and self.maximum is not None:
            return [f"from {plain_number(self.minimum)} to {plain_number(self.maximum)}"]
        if self.minimum is not None:
            return [f"at least {plain_number(self.minimum)}"]
        if self.maximum is not None:
            return [f"at most {plain_number(self.maximum)}"]
        return []

    def _list_words(self) -> str:
        item = "strings" if self.kind == "list[str]" else "whole numbers"
        if self.choices:
            item = "values each one of " + ", ".join(repr(c) for c in self.choices)
        else:
            item = " ".join([item] + self._range_words())
        lengths = sorted(self.lengths)
        if not lengths:
            return f"a list of {item}"
        if len(lengths) > 2 and lengths == list(range(lengths[0], lengths[-1] + 1)):
            low, high = lengths[0], lengths[-1]
            return f"a list of at most {high} {item}" if low == 0 else f"a list of {low} to {high} {item}"
        counts = [n for n in lengths if n]
        words = f"a list of {' or '.join(str(n) for n in counts)} {item}" if counts else "an empty list"
        if 0 in lengths and counts:
            words = "an empty list or " + words
        return words

    def kind_words(self) -> str:
        return {
            "int": "a whole number",
            "float": "a number",
            "bool": "true or false",
            "str": "a string",
            "list[str]": "a list of strings",
            "list[int]": "a list of whole numbers",
            "table": "a table",
            "list[table]": "a list of tables ([[...]] entries)",
        }[self.kind]


def shown(value: Any) -> str:
    """A value as a message quotes it: repr, cut short (a 4 MB string is not repeated back)."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def key_text(key: Any) -> str:
    """A key as a dotted path shows it: as written when it is a plain word, else quoted."""
    text = str(key)
    if text and len(text) <= SHOWN_CHARS and text.isprintable() and not _QUOTED_KEY_CHARS.search(text):
        return text
    return shown(text)


def plain_name(value: str) -> str | None:
    """A name used in commands and messages: not empty, one line, no control characters."""
    if not value.strip():
        return "must not be empty"
    if not value.isprintable():
        return f"{shown(value)} holds a line break or control character; a name is one line of text"
    if value != value.strip():
        return f"{shown(value)} starts or ends with spaces"
    if len(value) > 64:
        return f"{shown(value)} is {len(value)} characters long; a name has at most 64"
    return None


def section_name(value: str) -> str | None:
    """A section of a source document cited in events: one word such as parting-shot or 17.0.2."""
    problem = plain_name(value)
    if problem:
        return problem
    if _SPACE.search(value):
        return f"{shown(value)} has spaces; cite a section as one word, like parting-shot"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# What each kind of value must be (by its type alone), looked up once per value checked.
_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": _is_int,
    "float": _is_number,
    "bool": lambda value: isinstance(value, bool),
    "str": lambda value: isinstance(value, str),
    "list[str]": lambda value: isinstance(value, list) and all(isinstance(v, str) for v in value),
    "list[int]": lambda value: isinstance(value, list) and all(_is_int(v) for v in value),
    "table": lambda value: isinstance(value, dict),
    "list[table]": lambda value: isinstance(value, list) and all(isinstance(v, dict) for v in value),
}


def _type_ok(kind: str, value: Any) -> bool:
    check = _TYPE_CHECKS.get(kind)
    if check is None:
        raise AssertionError(kind)
    return check(value)


def validate(data: Any, schema: dict, path: str, prefix: str = "", partial: bool = False) -> dict:
    """Return a complete copy of `data` checked against `schema` (defaults filled in).

    With `partial`, missing keys stay missing (no defaults, nothing required): the check of one
    layer of a ruleset, whose other keys come from its base.
    """
    if not isinstance(data, dict):
        raise DataFileError(path, prefix or "(top level)", f"expected a table of keys, not {_kind_of(data)}")
    if not data.keys() <= schema.keys():
        unknown = sorted((k for k in data if k not in schema), key=str)
        where = _join(prefix, key_text(unknown[0]))
        known = ", ".join(sorted(schema))
        raise DataFileError(path, where, f"unknown key; allowed keys here: {known}")
    result: dict = {}
    for key, spec in schema.items():
        if key in data:
            if isinstance(spec, dict):
                result[key] = validate(data[key], spec, path, _join(prefix, key), partial)
            else:
                result[key] = check_value(data[key], spec, path, _join(prefix, key), partial)
        elif not partial:
            if isinstance(spec, dict):
                result[key] = validate({}, spec, path, _join(prefix, key), partial)
            elif spec.kind == "table":
                result[key] = {}
            elif spec.kind == "list[table]":
                result[key] = []
            elif spec.required:
                raise DataFileError(path, _join(prefix, key),
                                    f"missing required key ({spec.doc}); expected {spec.allowed()}")
            else:
                result[key] = spec.default
    return result


def check_value(value: Any, spec: Field, path: str, where: str, partial: bool = False) -> Any:
    if not _type_ok(spec.kind, value):
        raise DataFileError(path, where, f"wrong type: {_kind_of(value)} ({shown(value)}); expected {spec.allowed()}")
    if spec.lengths and len(value) not in spec.lengths:
        raise DataFileError(path, where, f"{len(value)} entries ({shown(value)}); expected {spec.allowed()}")
    if spec.most is not None and len(value) > spec.most:
        raise DataFileError(path, where, f"{len(value):,} entries; at most {spec.most:,} are allowed ({spec.doc}), "
                                         "so that every command stays within seconds")
    if spec.kind == "table":
        if spec.entry is None:
            return dict(value)
        out = {}
        for name, entry in value.items():
            problem = plain_name(name)
            if problem:
                raise DataFileError(path, _join(where, key_text(name)), f"bad name: {problem}")
            out[name] = validate(entry, spec.entry, path, _join(where, name), partial)
        return out
    if spec.kind == "list[table]":
        if spec.entry is None:
            return [dict(entry) for entry in value]
        # Keyed entries of a layer may be partial (they merge with the base's); other lists replace
        # the base's whole, so their entries are always complete.
        entries_partial = partial and bool(spec.key)
        entries = [validate(entry, spec.entry, path, f"{where}[{i + 1}]", entries_partial) for i, entry in enumerate(value)]
        if spec.key:
            _check_unique(entries, spec.key, path, where)
        return entries
    items = value if spec.kind.startswith("list") else [value]
    if spec.kind == "float":
        for item in items:
            if not math.isfinite(item):
                raise DataFileError(path, where, f"{item!r} is not a number you can play with; expected {spec.allowed()}")
    if spec.choices:
        for item in items:
            if item not in spec.choices:
                raise DataFileError(path, where, f"{shown(item)} is not allowed; expected {spec.allowed()}")
    if spec.minimum is not None or spec.maximum is not None:
        for item in items:
            if (spec.minimum is not None and item < spec.minimum) or (spec.maximum is not None and item > spec.maximum):
                raise DataFileError(path, where, f"{shown(item)} is out of range; expected {spec.allowed()}")
    if spec.check is not None:
        problem = spec.check(value)
        if problem:
            raise DataFileError(path, where, problem)
    if spec.kind == "float":
        return float(value)
    return value


def _check_unique(entries: list[dict], key: str, path: str, where: str) -> None:
    seen: dict = {}
    for i, entry in enumerate(entries, start=1):
        name = entry.get(key)
        if name is None:
            continue
        if name in seen:
            raise DataFileError(path, f"{where}[{i}].{key}", f"{shown(name)} is already used by {where}[{seen[name]}]; "
                                f"each {key} appears once")
        seen[name] = i


def _kind_of(value: Any) -> str:
    return {bool: "true/false", int: "a whole number", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def describe(schema: dict, prefix: str = "") -> list[tuple[str, Field]]:
    """Every key of a schema with its field, dotted, in declaration order (for docs)."""
    rows: list[tuple[str, Field]] = []
    for key, spec in schema.items():
        name = _join(prefix, key)
        if isinstance(spec, dict):
            rows.extend(describe(spec, name))
        else:
            rows.append((name, spec))
            if spec.kind == "table" and spec.entry:
                rows.extend(describe(spec.entry, name + ".<name>"))
            if spec.kind == "list[table]" and spec.entry:
                rows.extend(describe(spec.entry, name + "[]"))
    return rows
