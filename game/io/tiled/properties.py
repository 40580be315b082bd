"""Tiled custom properties and XML attributes, read into checked Python values.

Every conversion failure becomes a DataFileError naming the file, the element and the
value, with what Tiled setting gives an acceptable value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...core.values.cover import COVER_INDEX
from ...core.values.errors import DataFileError

def short(text: str, limit: int = 60) -> str:
    """User text for a message: hostile files can have megabyte-long names and values."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


TILED_TYPES = ("string", "int", "float", "bool", "color", "file", "object", "class")
_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


@dataclass(frozen=True)
class Prop:
    """One custom property as written in the file: the checks happen when it is used."""

    name: str
    type: str
    value: str
    members: tuple = ()  # (name, Prop) pairs of a class-typed property


def read_properties(element, shown: str, where: str) -> dict[str, Prop]:
    """The `<properties>` of an element, by name. Later duplicates win, as in Tiled."""
    found: dict[str, Prop] = {}
    holder = element.find("properties")
    if holder is None:
        return found
    for node in holder.findall("property"):
        name = node.get("name")
        if not name:
            raise DataFileError(shown, where, "has a custom property without a name")
        kind = node.get("type") or "string"
        if kind not in TILED_TYPES:
            kind = "string"
        if kind == "class":
            members = tuple(read_properties(node, shown, f"{where}, property '{short(name)}'").items())
            found[name] = Prop(name, kind, "", members)
            continue
        value = node.get("value")
        if value is None:
            value = node.text or ""  # multi-line strings are stored as element text
        found[name] = Prop(name, kind, value)
    return found


def as_bool(prop: Prop, shown: str, where: str) -> bool:
    _refuse_class(prop, shown, where, "true or false")
    text = prop.value.strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise DataFileError(
        shown, where,
        f"property '{short(prop.name)}' is '{short(prop.value)}'; it must be true or false "
        "(in Tiled add it as a bool property)",
    )


def as_int(prop: Prop, shown: str, where: str, low: int, high: int, unit: str = "") -> int:
    _refuse_class(prop, shown, where, "a whole number")
    try:
        text = ascii_number(prop.value)
        number = float(text) if prop.type == "float" else int(text)
    except ValueError:
        number = None
    if number is None or not math.isfinite(number) or number != int(number):
        raise DataFileError(
            shown, where,
            f"property '{short(prop.name)}' is '{short(prop.value)}'; it must be a whole number{unit} "
            f"from {low} to {high} "
            "(in Tiled add it as an int property)",
        )
    number = int(number)
    if not low <= number <= high:
        raise DataFileError(shown, where, f"property '{prop.name}' is {number}; it must be from {low} to {high}{unit}")
    return number


def as_degree(prop: Prop, shown: str, where: str) -> int:
    """A cover or concealment degree, as its battlemap.COVER_INDEX."""
    _refuse_class(prop, shown, where, "a degree")
    text = prop.value.strip().lower()
    if text not in COVER_INDEX:
        allowed = ", ".join(f'"{name}"' for name in COVER_INDEX)
        raise DataFileError(
            shown, where, f"property '{short(prop.name)}' is '{short(prop.value)}'; it must be one of {allowed}"
        )
    return COVER_INDEX[text]


def as_text(prop: Prop, shown: str, where: str) -> str:
    _refuse_class(prop, shown, where, "text")
    return prop.value


def _refuse_class(prop: Prop, shown: str, where: str, wanted: str) -> None:
    if prop.type == "class":
        raise DataFileError(shown, where, f"property '{short(prop.name)}' is a class-typed property; it must be {wanted}")


# --- XML attributes ---------------------------------------------------------------

def ascii_number(text: str) -> str:
    """`text` stripped, if it may be a number as Tiled writes one: ASCII, no '_' (Python's int() and
    float() would also take other scripts' digits, '1_000' and full-width signs); else ValueError."""
    text = text.strip()
    if not text.isascii() or "_" in text:
        raise ValueError(text)
    return text


def int_attr(element, name: str, shown: str, where: str, low: int, high: int, default: int | None = None) -> int:
    text = element.get(name)
    if text is None:
        if default is None:
            raise DataFileError(shown, where, f"has no '{name}' attribute")
        return default
    try:
        value = int(ascii_number(text))
    except ValueError:
        raise DataFileError(shown, where, f"{name}='{text[:40]}' is not a whole number (digits 0-9)") from None
    if not low <= value <= high:
        raise DataFileError(shown, where, f"{name}={value} is out of range: it must be from {low} to {high}")
    return value


def float_attr(element, name: str, shown: str, where: str, default: float = 0.0, limit: float = 1e7) -> float:
    text = element.get(name)
    if text is None:
        return default
    try:
        value = float(ascii_number(text))
    except ValueError:
        raise DataFileError(shown, where, f"{name}='{text[:40]}' is not a number (digits 0-9)") from None
    if not math.isfinite(value) or abs(value) > limit:
        raise DataFileError(shown, where, f"{name}={text[:40]} is out of range (at most {limit:g} in size)")
    return value


def bool_attr(element, name: str, default: bool = True) -> bool:
    text = element.get(name)
    if text is None:
        return default
    return text.strip() not in ("0", "false")


def element_class(element) -> str:
    """Tiled 1.9 writes `class`, other versions `type`: either names the object's class."""
    return (element.get("type") or element.get("class") or "").strip()


MAX_POINTS = 4096


def parse_points(text: str | None, tag: str, shown: str, where: str) -> tuple[tuple[float, float], ...]:
    """A polygon's or polyline's points attribute, checked."""
    pairs = (text or "").split()
    if len(pairs) > MAX_POINTS:
        raise DataFileError(shown, where, f"its {tag} has {len(pairs)} points; at most {MAX_POINTS} are allowed")
    points = []
    for pair in pairs:
        try:
            x, y = (float(ascii_number(v)) for v in pair.split(","))
        except ValueError:
            raise DataFileError(shown, where, f"its {tag} has a bad point '{pair[:40]}'; expected x,y") from None
        if not (abs(x) <= 1e7 and abs(y) <= 1e7):
            raise DataFileError(shown, where, f"its {tag} has an out-of-range point '{pair[:40]}'")
        points.append((x, y))
    if len(points) < (3 if tag == "polygon" else 2):
        raise DataFileError(shown, where, f"its {tag} has too few points ({len(points)})")
    return tuple(points)
