"""Checks across keys of a complete ruleset: what no single key's shape can say.

Each names the key to fix, what is wrong and what would do, in one DataFileError.
"""
from __future__ import annotations

from fractions import Fraction

from ..values.errors import DataFileError


def check_consistency(data: dict, path: str, section_fields: tuple = ()) -> None:
    """`section_fields`: (dotted key, default) of every key that names a section of the document."""
    _template_weapons(data, path)
    _citations_known(data, path, section_fields)
    _tables_in_use(data, path)
    _rising(data["critical_table"], "upto", "critical_table", path)
    _rising(data["fumble_table"], "upto", "fumble_table", path)
    _rising(data["attack"]["d100_critical_table"], "sc_upto", "attack.d100_critical_table", path)
    _thresholds(data["damage"]["thresholds"], path)
    charge = data["charge"]
    if charge["allowed"] and Fraction(charge["min_move_multiple"]) > Fraction(charge["max_move_multiple"]):
        raise DataFileError(path, "charge.min_move_multiple",
                            f"{charge['min_move_multiple']!r} is more than charge.max_move_multiple "
                            f"({charge['max_move_multiple']!r}): no charge could be made; the least must not exceed the greatest")
    rnd = data["round"]
    if rnd["reach_first_short_ft"] >= rnd["reach_first_long_ft"]:
        raise DataFileError(path, "round.reach_first_short_ft",
                            f"{rnd['reach_first_short_ft']} must be less than round.reach_first_long_ft ({rnd['reach_first_long_ft']})")


def _citations_known(data: dict, path: str, section_fields: tuple) -> None:
    """With the document's sections listed, every section cited must be one of them or a documented choice."""
    sections = data["document"]["sections"]
    if not sections:
        return
    known = set(sections) | {c["name"] for c in data["choices"]}
    cited: list[tuple[str, str]] = [(f"citations.{k}", v) for k, v in data["citations"].items() if v]
    for dotted, default in section_fields:
        section, key = dotted.split(".")
        value = data[section][key]
        if value and value != default:
            cited.append((dotted, value))
    for collection in ("conditions", "defenses"):
        for i, entry in enumerate(data[collection], start=1):
            cited.append((f"{collection}[{i}].rule", entry["rule"]))
    for where, value in cited:
        if value not in known:
            raise DataFileError(path, where, f"{value!r} is not a section of this ruleset's document (document.sections) "
                                "nor a documented choice ([[choices]] name); cite one of them")


def _template_weapons(data: dict, path: str) -> None:
    for name, template in data["templates"].items():
        for weapon in template["weapons"]:
            if weapon not in data["weapons"]:
                raise DataFileError(path, f"templates.{name}.weapons", f"unknown weapon {weapon!r}; "
                                    f"weapons in this ruleset: {', '.join(sorted(data['weapons']))}")


def _tables_in_use(data: dict, path: str) -> None:
    needs = (
        (data["attack"]["critical"] == "table", "critical_table", data["critical_table"], "attack.critical = \"table\""),
        (data["attack"]["fumble"] == "table", "fumble_table", data["fumble_table"], "attack.fumble = \"table\""),
        (data["attack"]["critical"] == "d100-table", "attack.d100_critical_table", data["attack"]["d100_critical_table"],
         "attack.critical = \"d100-table\""),
        (data["modifiers"]["into_melee"] == "table", "modifiers.into_melee_table", data["modifiers"]["into_melee_table"],
         "modifiers.into_melee = \"table\""),
    )
    for used, key, rows, why in needs:
        if used and not rows:
            raise DataFileError(path, key, f"no rows, but {why} rolls on it; add its rows or choose another rule")


def _rising(rows: list, field: str, key: str, path: str) -> None:
    for i in range(1, len(rows)):
        if rows[i][field] <= rows[i - 1][field]:
            raise DataFileError(path, f"{key}[{i + 1}].{field}",
                                f"{rows[i][field]} is not above the row before ({rows[i - 1][field]}); rows go from low to high")


def _thresholds(rows: list, path: str) -> None:
    for i in range(1, len(rows)):
        if rows[i]["at_or_below"] >= rows[i - 1]["at_or_below"]:
            raise DataFileError(path, f"damage.thresholds[{i + 1}].at_or_below",
                                f"{rows[i]['at_or_below']} is not below the row before ({rows[i - 1]['at_or_below']}); "
                                "thresholds go from the mildest (highest hit points) to the worst")
