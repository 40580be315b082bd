"""Scenarios: a ruleset, a map and the figures on it. Validated as a whole or not at all.

The file format is documented in docs/scenarios.md; the schema below is what is checked.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .values.battlemap import UNBOUNDED_HEIGHT_FT, BattleMap
from .values.errors import DataFileError, RulesError
from .values.figure import Figure
from .values.objectives import Objectives
from .values.geometry import FACINGS, parse_facing
from .mounts import seated, too_small_words
from .values.bodies import SHAPES_WORDS, cells, footprint_problem, occupancy
from .ruleset import COMBAT_STAT_FIELDS, CONDITION_NAMES, FLYER_KINDS, SIZES, Ruleset
from .ruleset.schema import MAX_FIGURE_WEAPONS, MAX_FIGURES, Field, check_value, key_text, plain_name, validate
from .scenario_objectives import OBJECTIVE_SCHEMA, ROUND_LIMIT_FIELD

_UNSET = None


def _one_line(value: str) -> str | None:
    return plain_name(value) if value else None


def _names(values: list) -> str | None:
    for value in values:
        problem = plain_name(value)
        if problem:
            return problem
    return None


FIGURE_SCHEMA = {
    "id": Field("str", "unique id used on the command line, e.g. hero", check=plain_name),
    "side": Field("str", "which side it fights for, e.g. red or blue", check=plain_name),
    "x": Field("int", "column, from 0 at the left (a rider may leave it out: it sits on its mount)", None, minimum=0),
    "y": Field("int", "row, from 0 at the top (a rider may leave it out: it sits on its mount)", None, minimum=0),
    "name": Field("str", "display name", "", check=_one_line),
    "template": Field("str", "a template from the ruleset's bestiary", "", check=_one_line),
    "facing": Field("str", "facing", "N", choices=FACINGS),
    "altitude_ft": Field("int", "altitude above the floor in feet (flyers)", 0, minimum=0, maximum=2000),
    "move_ft": Field("int", "walking move per round (overrides the template)", _UNSET, minimum=0, maximum=480),
    "turning_ft": Field("int", "turning distance (overrides the template)", _UNSET, minimum=0, maximum=120),
    "flyer": Field("str", "none, winged, floater or incorporeal (overrides the template)", _UNSET, choices=FLYER_KINDS),
    "size": Field("str", "size category (overrides the template)", _UNSET, choices=SIZES),
    "weapons": Field("list[str]", "weapons; the first is ready (overrides the template)", _UNSET, check=_names,
                     most=MAX_FIGURE_WEAPONS),
    "footprint": Field("list[int]", "squares the body covers, [across, along] the facing (overrides the template)",
                       _UNSET, lengths=(2,), check=footprint_problem, words=SHAPES_WORDS),
    "running": Field("bool", "has already run this round (no sidestep)", False),
    "mount": Field("str", "id of the figure it rides (a rider that starts mounted): it sits on that figure's front "
                   "square and moves with it", "", check=lambda v: plain_name(v) if v else None),
    "stats": Field("table", "combat statistics overriding the template's (keys: see FIGURE_STAT_FIELDS)"),
}

# What a figure's `stats` table may hold: any template combat statistic, plus these.
FIGURE_STAT_FIELDS = {
    **COMBAT_STAT_FIELDS,
    "group": Field("str", "initiative group where a side rolls per group (default: its side)", "", check=_one_line),
    "conditions": Field("list[str]", "conditions it starts the battle in", [], choices=CONDITION_NAMES),
    "wounds": Field("int", "hit points it is down when the battle starts (wounds carried from an earlier battle "
                    "of a campaign); it starts with at least 1", 0, minimum=0, maximum=10000),
}

# One [[actions]] table: an action's JSON form (game/core/values/actions.py) plus `wait`.
ACTION_ENTRY_SCHEMA = {
    "action": Field("str", "what to do: move, turn, charge, set, attack, aim, defend, disengage, hold, stand, grapple, trip, push, overbear, escape, release, mount, dismount, end-turn", check=plain_name),
    "figure": Field("str", "id of the figure acting", check=plain_name),
    "to": Field("list[int]", "destination square [x, y] (move, disengage)", None, lengths=(2,), minimum=0),
    "mode": Field("str", "movement mode: walk, jog, run, withdraw, sidestep", None, check=plain_name),
    "facing": Field("str", "facing at the end (move) or to turn to (turn)", None, check=plain_name),
    "altitude_ft": Field("int", "altitude at the end of a flyer's move", None, minimum=0, maximum=2000),
    "exit": Field("bool", "move: leave the battle over the map edge", None),
    "target": Field("str", "id of the figure attacked, charged or aimed at", None, check=plain_name),
    "weapon": Field("str", "weapon to attack with (default: the ready one)", None, check=plain_name),
    "subdue": Field("bool", "attack: strike to subdue", None),
    "careful": Field("bool", "attack: a careful shot into a melee", None),
    "unhorse": Field("bool", "attack: a polearm's try to pull a rider off its mount (odnd)", None),
    "mount": Field("str", "mount: the figure to get on", None, check=plain_name),
    "style": Field("str", "defend: parry, dodge, ...; disengage: retreat, hasty, fighting", None, check=plain_name),
    "amount": Field("int", "defend (defending): strike chance traded for defense", None, minimum=0, maximum=1000),
    "until": Field("str", "hold: the figure to wait for", None, check=plain_name),
    "wait": Field("bool", "pass the turns of those acting first until this figure's turn (default true)", None),
}

SCENARIO_SCHEMA = {
    "title": Field("str", "shown in the game and the CLI", ""),
    "description": Field("str", "what the scenario demonstrates", ""),
    "ruleset": Field("str", "ruleset id or path; default: the map's ruleset property", ""),
    "seed": Field("int", "seed for the dice", 1, minimum=0),
    "map": {
        "file": Field("str", "a Tiled .tmx map, relative to the scenario file", ""),
        "ascii": Field("str", "an inline ASCII map (legend in docs/scenarios.md)", ""),
        "asset_root": Field("str", "folder the map may read tilesets from, relative to the scenario", ""),
    },
    "figures": Field("list[table]", "the figures on the map", entry=FIGURE_SCHEMA, most=MAX_FIGURES),
    "actions": Field("list[table]", "scripted actions (see docs/scenarios.md, Scripted actions)", entry=ACTION_ENTRY_SCHEMA),
    "objectives": Field("list[table]", "what each side plays for (see docs/scenarios.md, Objectives)",
                        entry=OBJECTIVE_SCHEMA),
    "round_limit": ROUND_LIMIT_FIELD,
}

TEMPLATE_FIELDS = ("move_ft", "turning_ft", "flyer", "size", "weapons", "footprint")


@dataclass
class Scenario:
    """A battle to play: the map, the ruleset, the figures and any scripted actions."""

    title: str
    description: str
    ruleset: Ruleset
    map: BattleMap
    figures: list[Figure]
    seed: int = 1
    actions: list = field(default_factory=list)
    source: str = ""
    objectives: Objectives = Objectives()

    def figure(self, figure_id: str) -> Figure:
        for fig in self.figures:
            if fig.id == figure_id:
                return fig
        raise RulesError(f"no figure {figure_id!r} in this scenario; figures: {', '.join(f.id for f in self.figures)}")

    def occupants(self, excluding: str | None = None) -> dict[tuple[int, int], Figure]:
        return occupancy(self.figures, excluding)


_FIELD_WORDS = {"move_ft": "move {} ft", "turning_ft": "turning distance {} ft", "flyer": "flying {}",
                "size": "size {}", "weapons": "weapons {}", "footprint": "footprint {} squares"}


def _field_words(key: str, value) -> str:
    if key == "footprint":
        return _FIELD_WORDS[key].format(" x ".join(str(v) for v in value))
    return _FIELD_WORDS[key].format(", ".join(value) if key == "weapons" else value)


def figure_under(fig: Figure, ruleset: Ruleset) -> tuple[Figure, list[str]]:
    """The figure as `ruleset` gives it: its template's numbers there (move, turning distance, flying,
    size, weapons) with the values the scenario set itself on top, and plain notes of what was kept
    and why. Its place, facing, name and combat statistics' overrides stay as they are (the combat
    numbers are read from the ruleset's template by combat_profile)."""
    template_name = fig.stats.get("template", "")
    if not template_name:
        return fig, []
    who = fig.label if fig.label == fig.id else f"{fig.label} ({fig.id})"
    template = ruleset.template(template_name)
    if template is None:
        return fig, [f"{ruleset.id} has no template {template_name!r}: {who} keeps the numbers it had "
                     f"({_field_words('move_ft', fig.move_ft)}, {_field_words('weapons', fig.weapons)})"]
    values = {key: template[key] for key in TEMPLATE_FIELDS}
    kept = []
    for key, value in fig.stats.get("given", {}).items():
        ours = list(values[key]) if key in ("weapons", "footprint") else values[key]
        value = list(value) if key in ("weapons", "footprint") else value
        if ours != value:
            kept.append(f"{_field_words(key, value)} (the {ruleset.id} {template_name} has {_field_words(key, ours)})")
        values[key] = value
    if fig.altitude_ft > 0 and values["flyer"] == "none" and fig.flyer != "none":
        kept.append(f"flying {fig.flyer} (it is {fig.altitude_ft} ft up; the {ruleset.id} {template_name} does not fly)")
        values["flyer"] = fig.flyer
    notes = [f"{who}: the scenario sets its own {'; '.join(kept)}: kept under {ruleset.id}"] if kept else []
    moved = replace(fig, move_ft=values["move_ft"], turning_ft=values["turning_ft"], flyer=values["flyer"],
                    size=values["size"], weapons=tuple(values["weapons"]), footprint=tuple(values["footprint"]))
    return moved, notes


def figures_under(figures, ruleset: Ruleset) -> tuple[list[Figure], list[str]]:
    """Every figure under `ruleset` (figure_under) and the notes of what was kept (weapons_missing_from
    says which weapons kept have no numbers there)."""
    out, notes = [], []
    for fig in figures:
        moved, why = figure_under(fig, ruleset)
        out.append(moved)
        notes.extend(why)
    return out, notes


def weapons_missing_from(figures, ruleset: Ruleset) -> list[str]:
    """Plain words for each figure weapon a ruleset has no numbers for (it fights unarmed with it)."""
    notes = []
    for fig in figures:
        missing = [w for w in fig.weapons if ruleset.weapon(w) is None]
        if missing:
            notes.append(f"{ruleset.id} has no {', '.join(missing)}: {fig.label} cannot use "
                         f"{'it' if len(missing) == 1 else 'them'} under these rules")
    return notes


def validate_scenario_data(data: dict, path: str) -> dict:
    checked = validate(data, SCENARIO_SCHEMA, path)
    has_file, has_ascii = bool(checked["map"]["file"]), bool(checked["map"]["ascii"])
    if has_file == has_ascii:
        raise DataFileError(path, "map", "give exactly one of map.file (a Tiled map) or map.ascii (an inline map)")
    if not checked["figures"]:
        raise DataFileError(path, "figures", "no figures; a scenario needs at least one [[figures]] entry")
    return checked


def build_figures(checked: dict, ruleset: Ruleset, bmap: BattleMap, path: str) -> list[Figure]:
    figures: list[Figure] = []
    seen_ids: dict[str, int] = {}
    seen_squares: dict[tuple[int, int], str] = {}
    for i, entry in enumerate(checked["figures"], start=1):
        where = f"figures[{i}]"
        fid = entry["id"]
        if fid in seen_ids:
            raise DataFileError(path, f"{where}.id", f"id {fid!r} is already used by figures[{seen_ids[fid]}]; ids must be unique")
        seen_ids[fid] = i
        figures.append(figure_from_entry(entry, ruleset, bmap, path, where, seen_squares))
    return seat_riders(figures, path, [f"figures[{i}]" for i in range(1, len(figures) + 1)])


def seat_riders(figures: list[Figure], path: str, keys: list[str]) -> list[Figure]:
    """Each rider on its mount's saddle square (game/core/mounts.py), or one clear message: a mount that
    is no figure here, the rider itself, a rider, a foe, not a size larger, or carries two riders."""
    by_id = {f.id: f for f in figures}
    carried: dict[str, str] = {}
    out = []
    for fig, key in zip(figures, keys):
        if not fig.mount:
            out.append(fig)
            continue
        where = f"{key}.mount"
        mount = by_id.get(fig.mount)
        why = ""
        if mount is None:
            why = f"no figure {fig.mount!r} to ride; figures: {', '.join(by_id)}"
        elif mount.id == fig.id:
            why = "a figure cannot ride itself"
        elif mount.mount:
            why = f"{mount.id!r} rides {mount.mount!r} itself; a mount carries a rider, it is not one"
        elif mount.side != fig.side:
            why = f"{mount.id!r} is on side {mount.side!r} and {fig.id!r} on {fig.side!r}: a rider starts on a mount of its own side"
        elif mount.id in carried:
            why = f"{mount.id!r} already carries {carried[mount.id]!r}; a mount carries one rider"
        elif too_small_words(fig, mount):
            why = too_small_words(fig, mount)
        elif fig.id in {f.mount for f in figures}:
            why = f"{fig.id!r} carries a rider itself, so it cannot ride"
        if why:
            raise DataFileError(path, where, why)
        carried[mount.id] = fig.id
        sat = seated(fig, mount)
        given = fig.stats.get("placed")
        if given is not None and tuple(given) != sat.pos:
            raise DataFileError(path, key, f"{fig.id!r} rides {mount.id!r}, whose front square is {sat.x},{sat.y}: put "
                                f"it there or leave out x and y (it is placed on {given[0]},{given[1]})")
        out.append(replace(sat, stats={k: v for k, v in sat.stats.items() if k != "placed"}))
    return out


def figure_from_entry(entry: dict, ruleset: Ruleset, bmap: BattleMap, path: str, where: str,
                      seen_squares: dict) -> Figure:
    values = {"move_ft": 40, "turning_ft": 0, "flyer": "none", "size": "medium", "weapons": ["sword"], "name": "",
              "footprint": [1, 1]}
    if entry["template"]:
        template = ruleset.template(entry["template"])
        if template is None:
            names = ", ".join(sorted(ruleset.section("templates")))
            raise DataFileError(path, f"{where}.template", f"unknown template {entry['template']!r}; {ruleset.id} has: {names}")
        values.update(template)
    for key in TEMPLATE_FIELDS:
        if entry.get(key) is not None:
            values[key] = entry[key]
    for weapon in values["weapons"]:
        if ruleset.weapon(weapon) is None:
            raise DataFileError(path, f"{where}.weapons", f"unknown weapon {weapon!r}; {ruleset.id} has: "
                                f"{', '.join(sorted(ruleset.section('weapons')))}")
    x, y = entry["x"], entry["y"]
    facing = parse_facing(entry["facing"])
    if entry.get("mount"):      # a rider covers no square of its own: seat_riders puts it on its mount
        return _rider_from_entry(entry, values, ruleset, path, where, facing)
    for key in ("x", "y"):
        if entry[key] is None:
            raise DataFileError(path, f"{where}.{key}", f"missing required key ({FIGURE_SCHEMA[key].doc})")
    footprint = tuple(values["footprint"])
    body = cells(x, y, facing, footprint)
    big = "" if len(body) == 1 else f" (its {footprint[0]} x {footprint[1]} body facing {FACINGS[facing]} covers {_squares_words(body)})"
    for cx, cy in body:
        if not bmap.in_bounds(cx, cy):
            raise DataFileError(path, where, f"position {cx},{cy} is off the map ({bmap.width} x {bmap.height} squares){big}")
    for cx, cy in body:
        if bmap.blocks_move[cy, cx]:
            _check_over_obstacle(bmap, cx, cy, values["flyer"], entry["altitude_ft"], path, where)
    if entry["altitude_ft"] and values["flyer"] == "none":
        raise DataFileError(path, f"{where}.altitude_ft", "only flyers have an altitude; set flyer or use 0")
    for key in body:
        if key in seen_squares:
            raise DataFileError(path, where, f"position {key[0]},{key[1]} is already taken by {seen_squares[key]}{big}")
    for key in body:
        seen_squares[key] = entry["id"]
    # The template fields the scenario sets itself: under another ruleset they are kept, the rest
    # come from that ruleset's template (figure_under).
    given = {key: list(entry[key]) if key in ("weapons", "footprint") else entry[key]
             for key in TEMPLATE_FIELDS if entry.get(key) is not None}
    stats = {"template": entry["template"], **({"given": given} if given else {})}
    stats.update(_checked_stats(entry, path, where))
    return Figure(
        id=entry["id"], side=entry["side"], x=x, y=y, facing=facing, footprint=footprint,
        name=entry["name"] or values.get("name") or entry["id"], altitude_ft=entry["altitude_ft"],
        move_ft=values["move_ft"], turning_ft=values["turning_ft"], flyer=values["flyer"], size=values["size"],
        weapons=tuple(values["weapons"]), running=entry["running"], stats=stats,
    )


def _rider_from_entry(entry: dict, values: dict, ruleset: Ruleset, path: str, where: str, facing: int) -> Figure:
    """A figure that starts on its mount: everything but its square, which its mount gives."""
    given = {key: list(entry[key]) if key in ("weapons", "footprint") else entry[key]
             for key in TEMPLATE_FIELDS if entry.get(key) is not None}
    stats = {"template": entry["template"], **({"given": given} if given else {})}
    stats.update(_checked_stats(entry, path, where))
    placed = (entry["x"], entry["y"])
    if None not in placed:
        stats["placed"] = placed     # checked against the saddle square by seat_riders, then dropped
    return Figure(id=entry["id"], side=entry["side"], x=placed[0] or 0, y=placed[1] or 0, facing=facing,
                  footprint=tuple(values["footprint"]), name=entry["name"] or values.get("name") or entry["id"],
                  move_ft=values["move_ft"], turning_ft=values["turning_ft"], flyer=values["flyer"], size=values["size"],
                  weapons=tuple(values["weapons"]), running=entry["running"], stats=stats, mount=entry.get("mount", ""))


def _checked_stats(entry: dict, path: str, where: str) -> dict:
    stats = {}
    for stat, value in entry["stats"].items():
        spec = FIGURE_STAT_FIELDS.get(stat)
        if spec is None:
            raise DataFileError(path, f"{where}.stats.{key_text(stat)}", "unknown statistic; allowed: "
                                + ", ".join(sorted(FIGURE_STAT_FIELDS)))
        stats[stat] = check_value(value, spec, path, f"{where}.stats.{stat}")
    return stats


def _squares_words(body) -> str:
    return " ".join(f"{cx},{cy}" for cx, cy in body)


def _check_over_obstacle(bmap: BattleMap, x: int, y: int, flyer: str, altitude_ft: int, path: str, where: str) -> None:
    """A figure on a blocking square must be a flyer above it, as the planner lets flyers pass over."""
    height = int(bmap.obstacle_height_ft[y, x])
    if flyer == "none":
        raise DataFileError(path, where, f"position {x},{y} is inside a wall or obstacle")
    if height <= 0 or height >= UNBOUNDED_HEIGHT_FT:
        raise DataFileError(path, where, f"position {x},{y} is inside a wall: no figure can be there, flying or not")
    if altitude_ft < height:
        raise DataFileError(path, f"{where}.altitude_ft", f"{altitude_ft} ft puts the {flyer} flyer inside the {height} ft "
                            f"obstacle at {x},{y}; fly it at least {height} ft up or place it elsewhere")
