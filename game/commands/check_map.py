"""`fivefoot check-map MAP`: load a Tiled map and print what the engine understood."""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.values.battlemap import BattleMap


def register(subparsers) -> None:
    from .common import add_asset_root_arg
    parser = subparsers.add_parser(
        "check-map",
        help="check a Tiled map and show what fivefoot understood from it",
        description="Load a Tiled map (.tmx) with the fivefoot convention (see maps/README.md) and print "
        "its title, size, terrain counts, spawns and warnings. Exit status 2 if the map cannot be used.",
    )
    parser.add_argument("map", metavar="MAP", help="the map file (.tmx, or Tiled JSON .tmj)")
    add_asset_root_arg(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)


def run(args) -> int:
    from ..io.tiled import load_map
    battle = load_map(args.map, args.asset_root)
    report = map_report(battle)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


def map_report(battle: BattleMap) -> dict:
    """BattleMap.summary() plus what a map maker wants to double-check."""
    from ..core.values.layer import count_both
    report = battle.summary()
    levels = sorted(set(battle.elevation_ft.cells))
    report.update(
        source=battle.source,
        ruleset=battle.default_ruleset,
        description=battle.description,
        closed_doors=count_both(battle.door, battle.blocks_move),
        cover_blocking=count_both(battle.cover, battle.blocks_move),
        elevation_range_ft=[levels[0], levels[-1]],
        elevation_levels_ft=levels,
        spawn_list=[asdict(spawn) for spawn in battle.spawns],
        asset_root=battle.asset_root,
        inferred=[{**asdict(inference), "text": inference.text} for inference in battle.inferred],
        notes=list(battle.notes),
    )
    return report


TITLE_SHOWN = 200          # characters of a title, name or side the text report shows
DESCRIPTION_SHOWN = 2000   # characters of the description


def shown(text: str, limit: int = TITLE_SHOWN) -> str:
    """`text` cut for the terminal: a map may hold a megabyte-long title (--json gives it whole)."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters in all)"


def format_report(report: dict) -> str:
    width, height = report["width"], report["height"]
    low, high = report["elevation_range_ft"]
    spawns = ", ".join(f"{shown(side)} {count}" for side, count in sorted(report["spawns"].items())) or "none"
    levels = ", ".join(f"{v} ft" for v in report["elevation_levels_ft"][:12])
    lines = [
        report["source"],
        f"  title:        {shown(report['title']) or '(none: add a map property title)'}",
        f"  ruleset:      {report['ruleset'] or '(none)'}",
        f"  size:         {width} x {height} squares ({width * 5} x {height * 5} ft)",
        f"  blocking:     {report['blocking']} squares ({report['sight_blocking']} block sight)",
        f"  cover:        {report['cover']} squares (and {report['cover_blocking']} that also block movement)",
        f"  concealment:  {report['concealment']} squares",
        f"  difficult:    {report['difficult']} squares",
        f"  water:        {report['water']} squares",
        f"  doors:        {report['doors']} ({report['closed_doors']} closed)",
        f"  elevated:     {report['elevated']} squares (floor heights: {levels})"
        if high != low or high else f"  elevated:     {report['elevated']} squares",
        f"  spawns:       {spawns}",
    ]
    for spawn in report["spawn_list"]:
        label = shown(spawn["name"] or spawn["template"] or "?")
        altitude = f", {spawn['altitude_ft']} ft up" if spawn["altitude_ft"] else ""
        template = f" [{shown(spawn['template'])}]" if spawn["template"] and spawn["name"] else ""
        lines.append(f"    {shown(spawn['side']):>6}: {label}{template} at ({spawn['x']}, {spawn['y']}) "
                     f"facing {spawn['facing']}{altitude}")
    if report["description"]:
        lines.append(f"  description:  {shown(report['description'], DESCRIPTION_SHOWN)}")
    if report["asset_root"]:
        lines.append(f"  files from:   {report['asset_root']}")
    read = [inference["text"] for inference in report["inferred"]] + report["notes"]
    if read:
        lines.append("  read from the map's own conventions:" if report["inferred"] else "  notes:")
        lines.extend(f"    - {line}" for line in read)
    warnings = report["warnings"]
    lines.append(f"  warnings:     {len(warnings) or 'none'}")
    lines.extend(f"    - {warning}" for warning in warnings)
    return "\n".join(lines)
