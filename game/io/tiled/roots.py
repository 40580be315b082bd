"""The asset root: the one folder a map may read its tilesets, templates and images from.

Tiled finds a map's files wherever its relative paths lead; a game keeps its maps in
`maps/` and its tilesets in `../tilesets/`. So the default root is found as a map maker
would expect (maps/README.md, *Files a map may read*):

- a map shipped in fivefoot's own maps/ folder: the fivefoot folder (its tileset is in assets/);
- else the Tiled project's folder: the nearest folder at or above the map's holding a
  `*.tiled-project` or `*.world` file, looking at most MAX_CLIMB folders up;
- else the map's own folder.

A default root is widened while loading, when the map refers to a file above it, to the
nearest folder that holds that file too, at most MAX_CLIMB folders above the map's: so it
ends as the nearest folder that holds every file the map uses.

The climb never reaches the filesystem root or the home folder itself, and a named root
(`--asset-root`, a scenario's `asset_root`) is never widened. Everything read must still be a
regular file inside the root once every symbolic link is followed.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..paths import MAPS_DIR, PROJECT_ROOT

MAX_CLIMB = 4                     # folders above the map's own folder the root may reach
PROJECT_SUFFIXES = (".tiled-project", ".world")
MAX_ENTRIES_LOOKED_AT = 5000      # per folder, when looking for a project file

NAMED, SHIPPED, PROJECT, MAP_FOLDER, WIDENED = "named", "shipped", "project", "map folder", "widened"
HOW_SAID = {
    NAMED: "named with --asset-root (or a scenario's asset_root)",
    SHIPPED: "the fivefoot folder (a map shipped in maps/)",
    PROJECT: "the Tiled project's folder",
    MAP_FOLDER: "the map's folder",
    WIDENED: "the nearest folder above the map that holds every file it uses",
}


@dataclass
class AssetRoot:
    """The folder files must lie in (`folder`) and how high it may still widen (`ceiling`)."""

    folder: Path
    ceiling: Path
    how: str

    def admits(self, real: Path) -> bool:
        """Whether `real` lies inside the root, widening it up to the ceiling to take it in."""
        if real.is_relative_to(self.folder):
            return True
        if self.ceiling == self.folder:
            return False
        try:
            common = Path(os.path.commonpath([self.folder, real]))
        except ValueError:  # another drive
            return False
        if common.is_relative_to(self.ceiling):
            self.folder, self.how = common, WIDENED
            return True
        return False

    @property
    def said(self) -> str:
        return HOW_SAID[self.how]


def named_root(folder: Path) -> AssetRoot:
    return AssetRoot(folder, folder, NAMED)


def default_root(real_map: Path) -> AssetRoot:
    """The default asset root of the map file at `real_map` (every link followed)."""
    folder = real_map.parent
    if real_map.is_relative_to(MAPS_DIR):
        return AssetRoot(PROJECT_ROOT, PROJECT_ROOT, SHIPPED)
    climb = climbable(folder)
    for candidate in climb:
        if _holds_project(candidate):
            return AssetRoot(candidate, climb[-1], PROJECT)
    return AssetRoot(folder, climb[-1], MAP_FOLDER)


def climbable(folder: Path) -> list[Path]:
    """`folder` and the folders above it the root may reach: at most MAX_CLIMB up, and never the
    filesystem root or the home folder (nor anything above them)."""
    stops = {Path(folder.anchor)}
    try:
        stops.add(Path.home().resolve())
    except (RuntimeError, OSError, KeyError):
        pass
    found = [folder]
    for parent in list(folder.parents)[:MAX_CLIMB]:
        if parent in stops:
            break
        found.append(parent)
    return found


def _holds_project(folder: Path) -> bool:
    try:
        with os.scandir(folder) as entries:
            for number, entry in enumerate(entries):
                if number >= MAX_ENTRIES_LOOKED_AT:
                    return False
                if entry.name.endswith(PROJECT_SUFFIXES) and entry.is_file():
                    return True
    except OSError:
        return False
    return False
