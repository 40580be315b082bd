"""A scenario's objectives: its `[[objectives]]` tables and its map's objective objects (Tiled),
checked together against the map and the figures (game/core/scenario_objectives.py)."""
from __future__ import annotations

from pathlib import Path

from ..core.ruleset.schema import validate
from ..core.scenario_objectives import OBJECTIVE_SCHEMA, build_objectives
from ..core.values.objectives import Objectives


def map_objectives(entries: list[dict], round_limit: int, bmap, figures, path: Path) -> Objectives:
    """The scenario's objectives, then the map's; the scenario's round limit, else the map's."""
    from_map = []
    for raw in bmap.objectives:
        where = raw["where"]
        fields = {k: v for k, v in raw.items() if k not in ("where", "squares")}
        checked = validate(fields, OBJECTIVE_SCHEMA, bmap.source or str(path), where)
        from_map.append({**checked, "where": where, "squares": raw.get("squares")})
    shown = str(path)
    if from_map and not entries:
        shown = bmap.source or shown
    return build_objectives(list(entries) + from_map, round_limit or bmap.round_limit, bmap, figures, shown)
