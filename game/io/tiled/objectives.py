"""Objective objects of a Tiled map (class `objective`, maps/README.md, Objectives): the squares
the object covers and its properties, as the raw objective tables a scenario's `[[objectives]]`
would give; game/io/objectives.py checks them with the scenario's own rules once the figures are
known. The map property `round_limit` is read here too."""
from __future__ import annotations

from ...core.values.errors import DataFileError
from .properties import as_int, as_text, short
from .shapes import covered

OBJECTIVE = "objective"
TEXT_KEYS = ("kind", "side", "figure", "edge", "label", "id")
INT_KEYS = ("rounds", "count", "points")
OBJECTIVE_KEYS = TEXT_KEYS + INT_KEYS


def read_objective(obj, layer, grid, shown: str) -> dict:
    """One objective object as an objective table, with the squares its shape covers."""
    entry: dict = {"where": obj.where}
    unknown = sorted(k for k in obj.properties if k not in OBJECTIVE_KEYS)
    if unknown:
        raise DataFileError(shown, obj.where, f"objective property '{short(unknown[0])}' is unknown; "
                            f"objective properties: {', '.join(OBJECTIVE_KEYS)}")
    for key in TEXT_KEYS:
        if key in obj.properties:
            entry[key] = as_text(obj.properties[key], shown, obj.where).strip()
    for key in INT_KEYS:
        if key in obj.properties:
            entry[key] = as_int(obj.properties[key], shown, obj.where, 0, 10_000)
    if "id" not in entry and obj.name:
        entry["id"] = obj.name.strip()
    if entry.get("kind") in ("hold", "reach") and not entry.get("edge"):
        squares = sorted(covered(obj, layer.offset, grid).squares(), key=lambda sq: (sq[1], sq[0]))
        if not squares:
            raise DataFileError(shown, obj.where, "objective object covers no square centre of the map; draw a "
                                "rectangle over the squares to hold or reach")
        entry["squares"] = [list(sq) for sq in squares[:10_000]]
    return entry


def round_limit(props, shown: str) -> int:
    return as_int(props["round_limit"], shown, "map properties", 0, 1000) if "round_limit" in props else 0
