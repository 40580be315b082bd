"""How numbers are written: feet and chances in words, plain numbers in JSON (the one place for each)."""
from __future__ import annotations


def feet(value) -> str:
    """Feet in a player's words: "30", "7.1" (whole feet without a point, else one decimal)."""
    value = float(value)
    return f"{int(value)}" if value.is_integer() else f"{value:.1f}"


def plain_number(value, places: int = 2):
    """A number for JSON and tables: an int when whole, else rounded to `places` decimals."""
    return int(value) if float(value).is_integer() else round(value, places)


def percent(p: float) -> str:
    """A chance in words: whole per cents, but never 0% or 100% for what can still happen or fail."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{p:.0%}"
