"""A small declarative validator for data files (rulesets, scenarios).

A schema is a dict of key -> Field or nested dict (a TOML table). `validate` walks the data
and raises DataFileError naming the file, the dotted key, what is wrong and what is allowed.
Defaults fill in missing optional keys, so code reads complete, typed data.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import DataFileError

_MISSING = object()


@dataclass(frozen=True)
class Field:
    kind: str  # "int", "float", "bool", "str", "list[str]", "list[int]", "table", "list[table]"
    doc: str
    default: Any = _MISSING
    choices: tuple = ()
    minimum: float | None = None
    maximum: float | None = None
    # For kind "table": schema for each value of a free-keyed table (e.g. weapons by name).
    entry: dict | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.kind not in ("table", "list[table]")

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        parts = [self.kind_words()]
        if self.minimum is not None and self.maximum is not None:
            parts.append(f"from {_num(self.minimum)} to {_num(self.maximum)}")
        elif self.minimum is not None:
            parts.append(f"at least {_num(self.minimum)}")
        elif self.maximum is not None:
            parts.append(f"at most {_num(self.maximum)}")
        return " ".join(parts)

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


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "list[str]":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "list[int]":
        return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if kind == "table":
        return isinstance(value, dict)
    if kind == "list[table]":
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    raise AssertionError(kind)


def validate(data: Any, schema: dict, path: str, prefix: str = "") -> dict:
    """Return a complete copy of `data` checked against `schema` (defaults filled in)."""
    if not isinstance(data, dict):
        raise DataFileError(path, prefix or "(top level)", "expected a table of keys")
    unknown = sorted(set(data) - set(schema))
    if unknown:
        where = _join(prefix, unknown[0])
        known = ", ".join(sorted(schema))
        raise DataFileError(path, where, f"unknown key; allowed keys here: {known}")
    result: dict = {}
    for key, spec in schema.items():
        where = _join(prefix, key)
        if isinstance(spec, dict):
            result[key] = validate(data.get(key, {}), spec, path, where)
            continue
        if key not in data:
            if spec.kind == "table":
                result[key] = {}
            elif spec.kind == "list[table]":
                result[key] = []
            elif spec.required:
                raise DataFileError(path, where, f"missing required key ({spec.doc}); expected {spec.allowed()}")
            else:
                result[key] = spec.default
            continue
        result[key] = check_value(data[key], spec, path, where)
    return result


def check_value(value: Any, spec: Field, path: str, where: str) -> Any:
    if not _type_ok(spec.kind, value):
        raise DataFileError(path, where, f"wrong type {type(value).__name__} ({value!r}); expected {spec.allowed()}")
    if spec.kind == "table":
        if spec.entry is None:
            return dict(value)
        return {name: validate(entry, spec.entry, path, _join(where, name)) for name, entry in value.items()}
    if spec.kind == "list[table]":
        if spec.entry is None:
            return [dict(entry) for entry in value]
        return [validate(entry, spec.entry, path, f"{where}[{i + 1}]") for i, entry in enumerate(value)]
    if spec.choices:
        items = value if spec.kind.startswith("list") else [value]
        for item in items:
            if item not in spec.choices:
                raise DataFileError(path, where, f"{item!r} is not allowed; expected {spec.allowed()}")
    if spec.minimum is not None or spec.maximum is not None:
        items = value if spec.kind.startswith("list") else [value]
        for item in items:
            if (spec.minimum is not None and item < spec.minimum) or (spec.maximum is not None and item > spec.maximum):
                raise DataFileError(path, where, f"{item!r} is out of range; expected {spec.allowed()}")
    if spec.check is not None:
        problem = spec.check(value)
        if problem:
            raise DataFileError(path, where, problem)
    if spec.kind == "float":
        return float(value)
    return value


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
