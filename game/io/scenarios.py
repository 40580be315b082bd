"""Loading scenario files (TOML) and turning Tiled maps with spawns into scenarios."""
from __future__ import annotations

from pathlib import Path

from ..core.values.ascii_map import parse_ascii_map
from ..core.values.errors import DataFileError, RulesError
from ..core.scenario import Scenario, build_figures, validate_scenario_data
from ..core.ruleset.schema import MAX_FIGURES, shown
from .objectives import map_objectives
from .rulesets import load_ruleset
from .toml_file import read_toml

MAP_SUFFIXES = (".tmx", ".tmj", ".json")


def load_scenario(path: str | Path, asset_root: str | Path | None = None) -> Scenario:
    """A scenario file, or a map file played with the figures of its spawns. `asset_root` (the
    command line's --asset-root) is the folder the map's files are read from, for a map file or
    instead of a scenario's own `asset_root`."""
    path = Path(path)
    if path.suffix.lower() in MAP_SUFFIXES:
        return scenario_from_map(path, asset_root=asset_root)
    return scenario_from_data(read_toml(path), path, asset_root)


def scenario_from_data(data: dict, path: Path, asset_root: str | Path | None = None) -> Scenario:
    """A scenario from its file's tables (a scenario file's, or a lesson's inline [scenario]); paths in it
    are read from `path`'s folder."""
    checked = validate_scenario_data(data, str(path))
    bmap = _load_map(checked, path, asset_root)
    ruleset_id = checked["ruleset"] or bmap.default_ruleset
    if not ruleset_id:
        raise DataFileError(path, "ruleset", "no ruleset given and the map names none; set ruleset = \"bfrpg\" (or odnd, cnc, ch17, spelljammer)")
    ruleset = _ruleset(ruleset_id, path)
    figures = build_figures(checked, ruleset, bmap, str(path))
    objectives = map_objectives(checked["objectives"], checked["round_limit"], bmap, figures, path)
    if checked["actions"]:  # scripted actions are checked here, not first in `run`
        from ..core.script import parse_script  # the action types: only for scenarios that script some
        parse_script(checked["actions"], str(path), [f.id for f in figures])
    return Scenario(
        title=checked["title"] or bmap.title or path.stem,
        description=checked["description"] or bmap.description,
        ruleset=ruleset, map=bmap, figures=figures, seed=checked["seed"],
        actions=checked["actions"], source=str(path), objectives=objectives,
    )


def _ruleset(ruleset_id: str, path: Path):
    """A bundled ruleset by id, or a ruleset file by a path relative to the scenario's (or map's) folder."""
    if ruleset_id.endswith(".toml") or "/" in ruleset_id or "\\" in ruleset_id:
        candidate = path.parent / ruleset_id
        if not candidate.is_file():
            what = "a folder" if candidate.is_dir() else "no such file"
            raise DataFileError(path, "ruleset", f"{shown(ruleset_id)}: {what} ({candidate}); a ruleset path is relative to "
                                "this file's folder and names a .toml file")
        ruleset_id = str(candidate)
    try:
        return load_ruleset(ruleset_id)
    except DataFileError:
        raise
    except RulesError as err:
        raise DataFileError(path, "ruleset", str(err)) from None


def _load_map(checked: dict, path: Path, named_root=None):
    spec = checked["map"]
    if spec["ascii"]:
        try:
            return parse_ascii_map(spec["ascii"], title=checked["title"], description=checked["description"],
                                   source=str(path))
        except DataFileError:
            raise
        except RulesError as err:
            raise DataFileError(path, "map.ascii", str(err)) from None
    from .tiled import load_map
    from .tiled.files import resolve_path  # a link loop is a message, not a RuntimeError
    map_path = resolve_path(path.parent / spec["file"], str(path), "map.file", "map file")
    if map_path.is_dir():
        raise DataFileError(path, "map.file", f"{shown(spec['file'])} is a folder ({map_path}); name a Tiled map file "
                            f"({', '.join(MAP_SUFFIXES)}) relative to the scenario's folder")
    if not map_path.exists():
        raise DataFileError(path, "map.file", f"{shown(spec['file'])}: no such map file ({map_path}); the path is relative "
                            "to the scenario's folder")
    if map_path.suffix.lower() not in MAP_SUFFIXES:
        raise DataFileError(path, "map.file", f"{shown(spec['file'])} is not a Tiled map; expected a {', '.join(MAP_SUFFIXES)} file")
    root = resolve_path(path.parent / spec["asset_root"], str(path), "map.asset_root", "asset root") \
        if spec["asset_root"] else None
    if root is not None and not root.is_dir():
        raise DataFileError(path, "map.asset_root", f"{shown(spec['asset_root'])} is not a folder ({root}); the path is "
                            "relative to the scenario's folder")
    if root is not None and named_root is None:
        _check_scenario_root(root, path, map_path, spec["asset_root"])
    return load_map(map_path, asset_root=named_root if named_root is not None else root)


def _check_scenario_root(root: Path, path: Path, map_path: Path, written: str) -> None:
    """A scenario may set its map's asset root only within the folders a map maker expects: the
    scenario's own folder tree, or as far as the map's default root may reach anyway (its Tiled
    project's folder, or up to tiled/roots.MAX_CLIMB folders above the map, never home or /). A
    downloaded scenario naming "/" would let its map open any file; the command line's
    --asset-root, the user's own choice, may name any folder."""
    from .tiled.roots import default_root
    allowed = [path.parent.resolve(), default_root(map_path.resolve()).ceiling]
    if not any(root.is_relative_to(folder) for folder in allowed):
        raise DataFileError(
            path, "map.asset_root",
            f"{shown(written)} ({root}) lies outside the scenario's folder and the folders the map's files may come "
            f"from ({allowed[1]}); a scenario may not let its map read files there. Name the folder yourself "
            "with --asset-root DIR on the command line if you trust the scenario",
        )


def scenario_from_map(path: Path, ruleset_id: str | None = None, asset_root=None) -> Scenario:
    from .tiled import load_map
    bmap = load_map(path, asset_root)
    if len(bmap.spawns) > MAX_FIGURES:
        raise DataFileError(path, "spawns", f"{len(bmap.spawns):,} spawn objects; a battle has at most {MAX_FIGURES} "
                                            "figures, so that every command stays within seconds")
    ruleset = _ruleset(ruleset_id or bmap.default_ruleset or "bfrpg", path)
    entries = []
    counts: dict[str, int] = {}
    ids_by_name: dict[str, str] = {}
    for spawn in bmap.spawns:
        counts[spawn.side] = counts.get(spawn.side, 0) + 1
        template = spawn.template if ruleset.template(spawn.template) else "foot"
        fid = f"{spawn.side}{counts[spawn.side]}"
        if spawn.name:
            ids_by_name.setdefault(spawn.name, fid)
        entries.append({
            "id": fid, "side": spawn.side, "x": spawn.x, "y": spawn.y,
            "name": spawn.name, "template": template, "facing": spawn.facing,
            "altitude_ft": spawn.altitude_ft, "running": False, "stats": {},
            **{k: None for k in ("move_ft", "turning_ft", "flyer", "size", "weapons")},
            "footprint": None if tuple(spawn.footprint) == (1, 1) else list(spawn.footprint),
            "mount": spawn.mount,
        })
    for entry in entries:       # a spawn's `mount` names the spawn it rides; the figure rides that figure
        if entry["mount"]:
            if entry["mount"] not in ids_by_name:
                names = ", ".join(sorted(ids_by_name)) or "none"
                raise DataFileError(path, f"spawn {entry['name'] or entry['id']!r}.mount",
                                    f"no spawn named {entry['mount']!r} to ride (spawn names: {names})")
            entry["mount"] = ids_by_name[entry["mount"]]
            entry["x"] = entry["y"] = None      # it sits on its mount's front square
    if not entries:
        entries = _default_figures(bmap)
    if not entries:
        raise DataFileError(path, "", "the map has no spawn objects and too few open squares (not walls, water or "
                            "a drop) for default figures; add spawn objects in Tiled (maps/README.md, Spawns)")
    figures = build_figures({"figures": entries}, ruleset, bmap, str(path))
    return Scenario(title=bmap.title or path.stem, description=bmap.description, ruleset=ruleset,
                    map=bmap, figures=figures, source=str(path),
                    objectives=map_objectives([], 0, bmap, figures, path))


def _default_figures(bmap) -> list[dict]:
    """Two foot soldiers a side on open squares, facing each other across the map (io/placing)."""
    from .placing import default_positions
    entries, counts = [], {}
    for side, x, y, facing in default_positions(bmap):
        counts[side] = counts.get(side, 0) + 1
        entries.append({"id": f"{side}{counts[side]}", "side": side, "x": x, "y": y, "name": "",
                        "template": "foot", "facing": facing, "altitude_ft": 0, "running": False,
                        "stats": {}, **{k: None for k in ("move_ft", "turning_ft", "flyer", "size", "weapons", "footprint")}})
    return entries
