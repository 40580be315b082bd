"""How numbers are written: feet in words, and plain numbers in JSON (the one place for both)."""
from __future__ import annotations


def feet(value) -> str:
    """Feet in a player's words: "30", "7.1" (whole feet without a point, else one decimal)."""
    value = float(value)
    return f"{int(value)}" if value.is_integer() else f"{value:.1f}"


def plain_number(value, places: int = 2):
    """A number for JSON and tables: an int when whole, else rounded to `places` decimals."""
    return int(value) if float(value).is_integer() else round(value, places)
