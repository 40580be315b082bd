"""The map maker's loop: `play` notices when a map's file (or a tileset, template or image it
uses) changes on disk, reads it again and goes on with the figures where they still fit.

The window asks `MapWatch.changed()` every frame; the files are looked at (their modification
time and size, one `stat` each) at most once every POLL_S seconds, so polling costs nothing
worth measuring and needs no thread. A reload starts the battle again on the new map, each
figure on its square if that is still open (else on the nearest open square), and says what
changed: how many squares, the size, who had to move.
"""
from __future__ import annotations

import dataclasses
import os
import time

from ..core.battle import Battle
from ..core.values.bodies import cells
from ..core.values.errors import DataFileError

POLL_S = 1.0
TERRAIN = ("blocks_move", "blocks_sight", "cover", "concealment", "difficult", "water", "door",
           "elevation_ft", "obstacle_height_ft")


def file_stamps(files) -> tuple:
    stamps = []
    for name in files:
        try:
            info = os.stat(name)
            stamps.append((info.st_mtime_ns, info.st_size))
        except OSError:
            stamps.append(None)
    return tuple(stamps)


class MapWatch:
    """Which files a map was read from, and whether any changed since it was read."""

    def __init__(self, bmap, clock=time.monotonic):
        self.clock = clock
        self.follow(bmap)

    def follow(self, bmap) -> None:
        self.files = tuple(bmap.files)
        self.stamps = file_stamps(self.files)
        self.due = self.clock() + POLL_S

    def changed(self) -> bool:
        if not self.files or self.clock() < self.due:
            return False
        self.due = self.clock() + POLL_S
        stamps = file_stamps(self.files)
        if stamps == self.stamps:
            return False
        self.stamps = stamps
        return True


def reload_battle(scenario, battle) -> tuple[object, Battle, str]:
    """(scenario, battle, what changed) on the map as it is on disk now; a DataFileError (a RulesError)
    when it cannot be read, the battle then going on as it was."""
    from ..io.scenarios import load_scenario
    old = battle.map
    try:
        fresh = load_scenario(scenario.source)
    except DataFileError:
        if not old.asset_root:
            raise
        fresh = load_scenario(scenario.source, asset_root=old.asset_root)  # it was read with a named root
    bmap = fresh.map
    figures, moved = _kept(battle, bmap)
    scenario = dataclasses.replace(fresh, figures=figures, ruleset=battle.ruleset, seed=battle.setup.seed)
    return scenario, Battle.from_scenario(scenario), _change_words(old, bmap, moved)


def _kept(battle, bmap) -> tuple[list, list[str]]:
    """The battle's figures where they stand now, each moved to the nearest open square if its own no
    longer fits (off the map, or on a square that blocks movement, or taken)."""
    taken: set[tuple[int, int]] = set()
    figures, moved = [], []
    for figure in battle.setup.figures:
        now = battle.figures.get(figure.id, figure)
        kept = dataclasses.replace(figure, x=now.x, y=now.y, facing=now.facing, mount=figure.mount)
        if figure.mount:  # a rider sits on its mount: the resolver places it
            figures.append(kept)
            continue
        if not _fits(bmap, kept, taken):
            square = _nearest(bmap, kept, taken)
            if square is None:
                raise DataFileError(battle.map.source, "", f"no open square is left for {figure.label}")
            kept = dataclasses.replace(kept, x=square[0], y=square[1])
            moved.append(f"{figure.label} to ({square[0]}, {square[1]})")
        taken.update(cells(kept.x, kept.y, kept.facing, kept.footprint))
        figures.append(kept)
    return figures, moved


def _fits(bmap, figure, taken) -> bool:
    return all(bmap.passable(x, y) and (x, y) not in taken
               for x, y in cells(figure.x, figure.y, figure.facing, figure.footprint))


def _nearest(bmap, figure, taken) -> tuple[int, int] | None:
    x0 = min(max(figure.x, 0), bmap.width - 1)
    y0 = min(max(figure.y, 0), bmap.height - 1)
    for ring in range(max(bmap.width, bmap.height)):
        for y in range(y0 - ring, y0 + ring + 1):
            for x in range(x0 - ring, x0 + ring + 1):
                if max(abs(x - x0), abs(y - y0)) == ring and \
                        _fits(bmap, dataclasses.replace(figure, x=x, y=y), taken):
                    return x, y
    return None


def _change_words(old, new, moved: list[str]) -> str:
    name = os.path.basename(new.source) or "the map"
    parts = []
    if (old.width, old.height) != (new.width, new.height):
        parts.append(f"now {new.width} x {new.height} squares (was {old.width} x {old.height})")
    else:
        changed = set()
        for key in TERRAIN:
            before, after = getattr(old, key).numpy(), getattr(new, key).numpy()
            changed.update(zip(*(before != after).nonzero()))
        parts.append(f"{len(changed)} square{'s' if len(changed) != 1 else ''} changed" if changed
                     else "no square changed (only its pictures)")
    parts.append("moved " + ", ".join(moved) if moved else "every figure kept its square")
    return f"{name} reloaded: " + "; ".join(parts)
