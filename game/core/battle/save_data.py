"""A battle as save data and back: setup + seed + action log, replayed on load (docs/saves.md).
The file side (atomic writes, size limits) is game/io/saves.py; this module does no I/O."""
from __future__ import annotations

import numpy as np

from ..actions import action_from_json
from ..battlemap import BattleMap
from ..errors import RulesError
from ..refusals import ActionRefused
from ..figure import Figure
from ..ruleset import Ruleset
from .state import BattleSetup

SAVE_FORMAT = "fivefoot-battle"
SAVE_VERSION = 1
MAX_REJUDGED_DEPTH = 64      # ruleset switches kept in one save (each one nests the battle before it)
MAP_LAYERS = ("blocks_move", "blocks_sight", "cover", "concealment", "difficult", "water", "door",
              "elevation_ft", "obstacle_height_ft")


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
        "round": battle.round, "events": len(battle.events),
    }


def setup_from_save_data(data: dict, where: str = "save") -> tuple[BattleSetup, list]:
    """The setup and the action log of a save; RulesError in plain words if it is not one."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise RulesError(f"{where}: not a fivefoot battle save")
    if data.get("version") != SAVE_VERSION:
        raise RulesError(f"{where}: save version {data.get('version')!r} is not supported "
                         f"(this fivefoot reads version {SAVE_VERSION})")
    try:
        ruleset = Ruleset.from_mapping(data["ruleset"], where)
        md = data["map"]
        bmap = BattleMap.empty(md["width"], md["height"], title=md.get("title", ""),
                               description=md.get("description", ""), default_ruleset=md.get("default_ruleset", ""),
                               source=md.get("source", ""))
        for name in MAP_LAYERS:
            layer = np.array(md["layers"][name], dtype=getattr(bmap, name).dtype)
            if layer.shape != getattr(bmap, name).shape:
                raise RulesError(f"{where}: map layer {name} has the wrong size")
            setattr(bmap, name, layer)
        figures = tuple(figure_from_json(f) for f in data["figures"])
        setup = BattleSetup(bmap, ruleset, figures, int(data["seed"]), data.get("title", ""), data.get("description", ""))
        actions = [action_from_json(a) for a in data["actions"]]
    except RulesError:
        raise
    except (KeyError, TypeError, ValueError) as err:
        raise RulesError(f"{where}: damaged save ({type(err).__name__}: {err})") from None
    return setup, actions


def replay(battle, actions: list, where: str = "save") -> None:
    for i, action in enumerate(actions):
        try:
            battle.apply(action)
        except ActionRefused as refusal:
            raise RulesError(f"{where}: action {i + 1} no longer replays: {refusal.reason}") from None


def figure_json(f: Figure) -> dict:
    return {"id": f.id, "side": f.side, "x": f.x, "y": f.y, "facing": f.facing, "name": f.name,
            "altitude_ft": f.altitude_ft, "move_ft": f.move_ft, "turning_ft": f.turning_ft, "flyer": f.flyer,
            "size": f.size, "weapons": list(f.weapons), "running": f.running, "stats": dict(f.stats)}


def figure_from_json(d: dict) -> Figure:
    return Figure(id=str(d["id"]), side=str(d["side"]), x=int(d["x"]), y=int(d["y"]), facing=int(d["facing"]),
                  name=str(d.get("name", "")), altitude_ft=int(d.get("altitude_ft", 0)), move_ft=int(d["move_ft"]),
                  turning_ft=int(d.get("turning_ft", 0)), flyer=str(d.get("flyer", "none")),
                  size=str(d.get("size", "medium")), weapons=tuple(d.get("weapons", ())),
                  running=bool(d.get("running", False)), stats=dict(d.get("stats", {})))
