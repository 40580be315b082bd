"""A battle as save data and back: setup + seed + action log, replayed on load (docs/saves.md).
The file side (atomic writes, size limits) is game/io/saves.py; this module does no I/O."""
from __future__ import annotations

from dataclasses import replace

from ..values.actions import action_from_json
from ..values.battlemap import LAYER_KINDS, MAX_MAP_SIDE, BattleMap
from ..values.layer import BoolLayer
from ..values.errors import DataFileError, RulesError
from ..values.figure import Figure
from ..values.geometry import FACINGS
from ..values.refusals import ActionRefused
from ..ruleset import FLYER_KINDS, SIZES, Ruleset
from ..scenario import FIGURE_SCHEMA, TEMPLATE_FIELDS, figure_from_entry, seat_riders
from ..scenario_objectives import OBJECTIVE_SCHEMA, ROUND_LIMIT_FIELD, build_objectives
from ..ruleset.schema import MAX_FIGURE_WEAPONS, MAX_FIGURES, MAX_SAVED_ACTIONS, Field, check_value, key_text, validate
from .state import BattleSetup

SAVE_FORMAT = "fivefoot-battle"
SAVE_VERSION = 1
MAX_REJUDGED_DEPTH = 64      # ruleset switches kept in one save (each one nests the battle before it)
# A saved figure: the scenario's figure keys, every one given (the facing as 0..7).
SAVED_FIGURE_SCHEMA = {
    **{k: v for k, v in FIGURE_SCHEMA.items() if k not in ("template", "facing")},
    "facing": Field("int", "facing, 0 (N) to 7 (NW)", minimum=0, maximum=7),
    "move_ft": Field("int", "walking move per round", minimum=0, maximum=480),
    "turning_ft": Field("int", "turning distance", 0, minimum=0, maximum=120),
    "flyer": Field("str", "none, winged, floater or incorporeal", "none", choices=FLYER_KINDS),
    "size": Field("str", "size category", "medium", choices=SIZES),
    "weapons": Field("list[str]", "weapons; the first is ready", [], check=FIGURE_SCHEMA["weapons"].check,
                     most=MAX_FIGURE_WEAPONS),
}
MAP_LAYERS = tuple(LAYER_KINDS)
# A saved objective: the scenario's keys, its squares given as one flat list x0, y0, x1, y1, ...
SAVED_OBJECTIVE_SCHEMA = {
    **{k: v for k, v in OBJECTIVE_SCHEMA.items() if k not in ("square", "area", "edge")},
    "cells": Field("list[int]", "hold, reach: its squares, x then y of each", [], minimum=0),
}


def to_save_data(battle) -> dict:
    """Setup + seed + action log: everything needed to rebuild this battle exactly."""
    m = battle.map
    setup = battle.setup
    return {
        "format": SAVE_FORMAT, "version": SAVE_VERSION,
        "title": setup.title, "description": setup.description, "seed": setup.seed,
        "ruleset": battle.ruleset.data,
        "map": {
            "width": m.width, "height": m.height, "title": m.title, "description": m.description,
            "default_ruleset": m.default_ruleset, "source": m.source,
            "layers": {name: getattr(m, name).tolist() for name in MAP_LAYERS},
        },
        "figures": [figure_json(f) for f in setup.figures],
        "actions": [a.to_json() for a in battle.actions],
        "objectives": [_objective_json(o) for o in setup.objectives.items],
        "round_limit": setup.objectives.round_limit,
        "round": battle.round, "events": len(battle.events),
    }


# The top level of a save, checked like a scenario file (the ruleset, map and figures have their own checks).
SAVE_SCHEMA = {
    "format": Field("str", f"always {SAVE_FORMAT!r}", choices=(SAVE_FORMAT,)),
    "version": Field("int", "the save format's version", minimum=SAVE_VERSION, maximum=SAVE_VERSION),
    "title": Field("str", "the battle's title", ""),
    "description": Field("str", "what the battle is", ""),
    "seed": Field("int", "seed for the dice", minimum=0, maximum=2 ** 63 - 1),
    "ruleset": Field("table", "the whole ruleset the battle is played under"),
    "map": {
        "width": Field("int", "squares across", minimum=1, maximum=MAX_MAP_SIDE),
        "height": Field("int", "squares down", minimum=1, maximum=MAX_MAP_SIDE),
        "title": Field("str", "the map's title", ""),
        "description": Field("str", "the map's description", ""),
        "default_ruleset": Field("str", "the map's own ruleset", ""),
        "source": Field("str", "where the map came from", ""),
        "layers": Field("table", "every terrain layer, rows of squares"),
    },
    "figures": Field("list[table]", "the figures as the battle started", entry=SAVED_FIGURE_SCHEMA, most=MAX_FIGURES),
    "actions": Field("list[table]", "the action log", entry={}),
    "rejudged_from": Field("table", "the battle before a ruleset switch", None),
    "objectives": Field("list[table]", "what each side plays for", entry=SAVED_OBJECTIVE_SCHEMA),
    "round_limit": ROUND_LIMIT_FIELD,
    "round": Field("int", "the round when saved (informative)", 0, minimum=0),
    "events": Field("int", "the event count when saved (informative)", 0, minimum=0),
}
# What each map layer may hold (the rest of a square's values would make no map).
LAYER_RANGES = {"cover": (0, 4), "concealment": (0, 4), "elevation_ft": (-10_000, 10_000),
                "obstacle_height_ft": (-1, 10_000)}


def setup_from_save_data(data: dict, where: str = "save") -> tuple[BattleSetup, list]:
    """The setup and the action log of a save, validated exactly like a scenario; DataFileError
    naming the key, what is wrong and what is allowed if it is not one."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise DataFileError(where, "format", f"not a fivefoot battle save (a save says format = {SAVE_FORMAT!r})")
    if data.get("version") != SAVE_VERSION:
        raise DataFileError(where, "version", f"save version {data.get('version')!r} is not supported "
                                              f"(this fivefoot reads version {SAVE_VERSION})")
    for key in ("ruleset", "map", "figures"):  # tables and lists the schema would default to empty
        if key not in data:
            raise DataFileError(where, key, f"missing required key ({SAVE_SCHEMA[key].doc if key != 'map' else 'the map'}); "
                                            "a save holds the whole ruleset, map and figures")
    checked = validate({k: v for k, v in data.items() if k != "actions"} | {"actions": []}, SAVE_SCHEMA, where)
    ruleset = Ruleset.from_mapping(data["ruleset"], where)
    bmap = _map_from_save(checked["map"], where)
    figures = _figures_from_save(checked["figures"], data["figures"], ruleset, bmap, where)
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list) or len(raw_actions) > MAX_SAVED_ACTIONS:
        raise DataFileError(where, "actions", f"must be a list of at most {MAX_SAVED_ACTIONS} actions")
    actions = []
    for i, raw in enumerate(raw_actions, start=1):
        try:
            actions.append(action_from_json(raw))
        except RulesError as err:
            raise DataFileError(where, f"actions[{i}]", str(err)) from None
    objectives = _objectives_from_save(checked["objectives"], checked["round_limit"], bmap, figures, where)
    setup = BattleSetup(bmap, ruleset, figures, checked["seed"], checked["title"], checked["description"], objectives)
    return setup, actions


def _objective_json(o) -> dict:
    data = {k: v for k, v in o.to_json().items() if k != "squares"}
    data["cells"] = [c for sq in o.squares for c in sq]
    return data


def _objectives_from_save(entries: list, round_limit: int, bmap: BattleMap, figures, where: str):
    """The saved objectives through the scenario's checks (game/core/scenario_objectives.py)."""
    out = []
    for i, entry in enumerate(entries, start=1):
        cells = entry.pop("cells")
        if len(cells) % 2:
            raise DataFileError(where, f"objectives[{i}].cells", "an odd count of numbers; give x, y of each square")
        squares = [cells[j:j + 2] for j in range(0, len(cells), 2)]
        out.append({**entry, "square": None, "area": None, "edge": "", "squares": squares})
    return build_objectives(out, round_limit, bmap, figures, where)


def _map_from_save(md: dict, where: str) -> BattleMap:
    bmap = BattleMap.empty(md["width"], md["height"], title=md["title"], description=md["description"],
                           default_ruleset=md["default_ruleset"], source=md["source"])
    layers = md["layers"]
    for name in MAP_LAYERS:
        key = f"map.layers.{name}"
        rows = layers.get(name)
        if not isinstance(rows, list) or len(rows) != bmap.height or any(
                not isinstance(row, list) or len(row) != bmap.width for row in rows):
            raise DataFileError(where, key, f"must be {bmap.height} rows of {bmap.width} squares each")
        kind = LAYER_KINDS[name]
        boolean = issubclass(kind, BoolLayer)
        low, high = LAYER_RANGES.get(name, (0, 1))
        for y, row in enumerate(rows):
            for x, value in enumerate(row):
                ok = isinstance(value, bool) if boolean else (isinstance(value, int) and not isinstance(value, bool)
                                                              and low <= value <= high)
                if not ok:
                    allowed = "true or false" if boolean else f"a whole number from {low} to {high}"
                    raise DataFileError(where, f"{key}[{y + 1}][{x + 1}]", f"{value!r} is not {allowed}")
        setattr(bmap, name, kind.from_rows(rows))
    return bmap


def _figures_from_save(checked: list, raw: list, ruleset: Ruleset, bmap: BattleMap, where: str) -> tuple[Figure, ...]:
    """Each saved figure through the same checks a scenario's figure passes (ids, the map, walls,
    one figure a square, weapons and statistics the ruleset knows)."""
    if not checked:
        raise DataFileError(where, "figures", "no figures; a battle needs at least one")
    figures, seen_ids, seen_squares = [], set(), {}
    for i, entry in enumerate(checked, start=1):
        key = f"figures[{i}]"
        if entry["id"] in seen_ids:
            raise DataFileError(where, f"{key}.id", f"id {entry['id']!r} is used twice; ids must be unique")
        seen_ids.add(entry["id"])
        stats = dict(entry["stats"])
        given = _given_from_save(stats.pop("given", {}), where, f"{key}.stats.given")
        scenario_entry = {**entry, "facing": FACINGS[entry["facing"]], "template": str(stats.pop("template", "")),
                          "stats": stats}
        fig = figure_from_entry(scenario_entry, ruleset, bmap, where, key, seen_squares)
        # A save writes every movement number; which of them its scenario set itself is kept apart.
        kept = {k: v for k, v in fig.stats.items() if k != "given"}
        figures.append(replace(fig, name=entry["name"] or fig.name, stats={**kept, **({"given": given} if given else {})}))
    return tuple(seat_riders(figures, where, [f"figures[{i}]" for i in range(1, len(figures) + 1)]))


def _given_from_save(given, where: str, key: str) -> dict:
    """The template fields a figure's scenario set itself (figure_under keeps them under other rules)."""
    if not isinstance(given, dict):
        raise DataFileError(where, key, "expected a table of the fields the scenario set itself")
    out = {}
    for name, value in given.items():
        spec = FIGURE_SCHEMA.get(name)
        if name not in TEMPLATE_FIELDS or spec is None:
            raise DataFileError(where, f"{key}.{key_text(name)}", f"unknown field; allowed: {', '.join(TEMPLATE_FIELDS)}")
        out[name] = check_value(value, spec, where, f"{key}.{name}")
    return out


def replay(battle, actions: list, where: str = "save") -> None:
    for i, action in enumerate(actions):
        try:
            battle.apply(action)
        except ActionRefused as refusal:
            raise RulesError(f"{where}: action {i + 1} no longer replays: {refusal.reason}") from None


def figure_json(f: Figure) -> dict:
    return {"id": f.id, "side": f.side, "x": f.x, "y": f.y, "facing": f.facing, "name": f.name,
            "altitude_ft": f.altitude_ft, "move_ft": f.move_ft, "turning_ft": f.turning_ft, "flyer": f.flyer,
            "size": f.size, "weapons": list(f.weapons), "footprint": list(f.footprint), "running": f.running, "stats": dict(f.stats),
            **({"mount": f.mount} if f.mount else {})}


