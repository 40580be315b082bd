"""Everything one map load pulls in from other files, each file loaded once and counted.

`Assets` owns the asset root, the caches (a tileset or template used twice is read
once), the caps on how many files a map may pull in, and the warning list.
"""
from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from ...core.values.errors import DataFileError
from .files import MAX_FILE_BYTES, FileRef, parse_xml, read_capped, resolve_reference
from .images import image_size
from .objects import Template, parse_template
from .properties import short
from .roots import AssetRoot
from .tilesets import Tileset, parse_tileset

MAX_IMAGE_FILES = 2048
MAX_TEMPLATE_FILES = 1024
MAX_EXTERNAL_TILESETS = 256
MAX_WARNINGS = 100
# Pixels of all the images a map uses, decoded by the renderer at 4 bytes each: 256 MiB.
MAX_IMAGE_PIXELS = 8192 * 8192
# The files a map may name as tilesets and templates (images are known by their headers).
TILESET_KINDS = (".tsx", ".tsj", ".json", ".xml")
TEMPLATE_KINDS = (".tx", ".tj", ".json", ".xml")
# Totals over one load: the map and every tileset and template it reads (each distinct file once; a
# link or a copy of one is the same file: its device and inode). Each file has its own caps too
# (tiled/files); these bound what a map can make fivefoot read and parse in all.
MAX_LOAD_BYTES = 64 * 1024 * 1024
MAX_LOAD_ELEMENTS = 250_000
MAX_OBJECTS = 10_000                # objects of the map and its templates, each parsed and placed
MAX_POINTS = 65_536                 # polygon and polyline points of all objects (4,096 in one)
MAX_TEMPLATE_BYTES = 1024 * 1024    # a template is one object: its properties and shape
_OBJECT_TAG = re.compile(rb"<object[\s/>]")


class LoadBudget:
    """What one map load may still read and parse: bytes, XML elements (or JSON items), objects."""

    def __init__(self, map_shown: str):
        self.map_shown = map_shown
        self.bytes_left = MAX_LOAD_BYTES
        self.elements_left = MAX_LOAD_ELEMENTS
        self.objects_left = MAX_OBJECTS
        self.points_left = MAX_POINTS

    def read(self, ref: FileRef, where: str = "", limit: int = MAX_FILE_BYTES) -> bytes:
        """The file's bytes, refused before reading when they would take the load over its total (or
        the file over `limit`)."""
        try:
            size = os.stat(ref.real).st_size
        except OSError as err:
            raise DataFileError(ref.shown, where, f"cannot be read: {err.strerror or err}") from None
        if size > self.bytes_left and size <= limit:
            self._over(ref.shown, f"its files hold more than {MAX_LOAD_BYTES // (1024 * 1024)} MiB in all")
        data = read_capped(ref, where, limit)  # a file over the cap of one file is refused as that
        self.bytes_left -= len(data)
        if self.bytes_left < 0:  # it grew while read
            self._over(ref.shown, f"its files hold more than {MAX_LOAD_BYTES // (1024 * 1024)} MiB in all")
        return data

    def before_parsing(self, ref: FileRef, data: bytes) -> None:
        self.count_objects(len(_OBJECT_TAG.findall(data)), ref.shown)

    def count_objects(self, count: int, shown: str) -> None:
        self.objects_left -= count
        if self.objects_left < 0:
            self._over(shown, f"it has more than {MAX_OBJECTS:,} objects (counting its templates')")

    def count_points(self, count: int, shown: str) -> None:
        self.points_left -= count
        if self.points_left < 0:
            self._over(shown, f"its polygons and polylines have more than {MAX_POINTS:,} points in all")

    def count_instance(self, size: int, shown: str) -> None:
        """An object made from a template of `size` elements: as much work as reading them again."""
        self.elements_left -= size
        if self.elements_left < 0:
            self._over(shown, f"its files, with each object's template counted again for each object made from "
                              f"it, hold more than {MAX_LOAD_ELEMENTS:,} XML elements (or JSON items) in all")

    def too_many_elements(self, ref: FileRef) -> None:
        self._over(ref.shown, f"its files hold more than {MAX_LOAD_ELEMENTS:,} XML elements (or JSON items) in all")

    def _over(self, shown: str, what: str) -> None:
        where = "" if shown == self.map_shown else f"reading {shown}"
        raise DataFileError(self.map_shown, where, f"{what}; fivefoot refuses maps this big (see the limits in "
                                                   "maps/README.md). Split or simplify the map")


class Assets:
    def __init__(self, root: AssetRoot, map_shown: str):
        self.root = root            # may widen while loading (tiled/roots)
        self.map_shown = map_shown
        self.warnings: list[str] = []
        self._warned: set[str] = set()
        self.unlisted_warnings = 0
        self.image_pixels = 0
        self.budget = LoadBudget(map_shown)
        # Keyed by the file itself (device, inode): a hard link or a second path to a file read already is
        # not read again. `_paths` keeps the real path of each, in the order they were read.
        self._images: dict[object, tuple[FileRef, tuple[int, int]]] = {}
        self.transparent: dict[Path, tuple[int, int, int]] = {}   # an image's colour drawn as see-through
        self._tilesets: dict[object, Tileset] = {}
        self._templates: dict[object, Template] = {}
        self._paths: dict[str, list[Path]] = {"tileset": [], "template": [], "image": []}

    def warn(self, message: str, file: str | None = None) -> None:
        """Record a warning; `file` is named only when it is not the map itself (a tileset, say)."""
        if file and file != self.map_shown:
            message = f"{file}: {message}"
        if message in self._warned:
            return
        if len(self.warnings) > MAX_WARNINGS:  # a map may warn about each of 100,000 objects
            self.unlisted_warnings += 1
            return
        self._warned.add(message)
        self.warnings.append(message)

    def final_warnings(self) -> tuple[str, ...]:
        if len(self.warnings) <= MAX_WARNINGS:
            return tuple(self.warnings)
        extra = len(self.warnings) - MAX_WARNINGS + self.unlisted_warnings
        return (*self.warnings[:MAX_WARNINGS], f"... and {extra} more warnings")

    def files(self) -> list[str]:
        """Every tileset, template and image file read so far (their real paths)."""
        return [str(path) for kind in ("tileset", "template", "image") for path in self._paths[kind]]

    def see_through(self, image: FileRef, trans: str | None, referrer: FileRef, where: str) -> None:
        """Tiled's `trans` colour of an image (rrggbb, '#' optional): drawn as see-through. One Tiled
        cannot have written is said and ignored, as Tiled itself draws the image whole then."""
        if not trans:
            return
        text = trans.strip().removeprefix("#")
        if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
            self.warn(f"{where}: transparent colour {short(trans)!r} is not rrggbb; the image is drawn whole",
                      referrer.shown)
            return
        self.transparent[image.real] = (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))

    def image(self, source: str | None, referrer: FileRef, where: str) -> tuple[FileRef, tuple[int, int]]:
        ref = resolve_reference(source, referrer, self.root, where, "image")
        key = file_key(ref)
        if key not in self._images:
            if len(self._images) >= MAX_IMAGE_FILES:
                raise DataFileError(referrer.shown, where, f"the map uses more than {MAX_IMAGE_FILES} image files")
            size = image_size(ref, referrer.shown, where, source)
            self.image_pixels += size[0] * size[1]
            if self.image_pixels > MAX_IMAGE_PIXELS:
                alone = size[0] * size[1] > MAX_IMAGE_PIXELS
                raise DataFileError(
                    referrer.shown, where,
                    f"the image '{short(source)}' is {size[0]}x{size[1]} pixels, "
                    + ("" if alone else "which with the map's other images is ")
                    + f"more than fivefoot draws for one map ({MAX_IMAGE_PIXELS:,} pixels in all, "
                    "8192x8192: 256 MiB once decoded); scale the images down or use only the part of "
                    "the tileset the map needs",
                )
            self._images[key] = (ref, size)
            self._paths["image"].append(ref.real)
        return self._images[key]

    def tileset(self, element, referrer: FileRef, firstgid: int, where: str) -> Tileset:
        """The tileset a `<tileset>` element stands for: embedded, or loaded from its source."""
        source = element.get("source")
        if source is None:
            return dataclasses.replace(parse_tileset(element, referrer, self, where), firstgid=firstgid)
        ref = resolve_reference(source, referrer, self.root, where, "tileset", TILESET_KINDS)
        key = file_key(ref)
        if key not in self._tilesets:
            if len(self._tilesets) >= MAX_EXTERNAL_TILESETS:
                raise DataFileError(referrer.shown, where, f"the map uses more than {MAX_EXTERNAL_TILESETS} tileset files")
            root = load_tree(ref, "tileset", "tileset", self.budget)
            self._tilesets[key] = dataclasses.replace(
                parse_tileset(root, ref, self, "tileset"), source=ref.real
            )
            self._paths["tileset"].append(ref.real)
        return dataclasses.replace(self._tilesets[key], firstgid=firstgid)

    def template(self, source: str, referrer: FileRef, where: str) -> Template:
        ref = resolve_reference(source, referrer, self.root, where, "object template", TEMPLATE_KINDS)
        key = file_key(ref)
        if key not in self._templates:
            if len(self._templates) >= MAX_TEMPLATE_FILES:
                raise DataFileError(referrer.shown, where, f"the map uses more than {MAX_TEMPLATE_FILES} templates")
            tree = load_tree(ref, "template", "object template", self.budget, MAX_TEMPLATE_BYTES)
            self._templates[key] = parse_template(tree, ref, self)
            self._paths["template"].append(ref.real)
        return self._templates[key]


def file_key(ref: FileRef) -> object:
    """The file itself, whatever path names it: (device, inode), or its real path if it cannot be asked."""
    try:
        found = os.stat(ref.real)
    except OSError:
        return ref.real
    return (found.st_dev, found.st_ino)


def load_tree(ref: FileRef, expected_root: str, what: str, budget: LoadBudget | None = None,
              limit: int = MAX_FILE_BYTES):
    """Read a Tiled file into an XML element tree: .tmx/.tsx/.tx directly, JSON by translation; with
    `budget`, its bytes, elements and objects count against the whole load's."""
    data = read_capped(ref, limit=limit) if budget is None else budget.read(ref, limit=limit)
    suffix = ref.real.suffix.lower()
    if suffix in (".tmj", ".tsj", ".tj", ".json"):
        from .json_map import json_to_tree

        return json_to_tree(ref, data, expected_root, what, budget)
    return parse_xml(ref, data, expected_root, what, budget)
