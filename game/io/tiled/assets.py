"""Everything one map load pulls in from other files, each file loaded once and counted.

`Assets` owns the asset root, the caches (a tileset or template used twice is read
once), the caps on how many files a map may pull in, and the warning list.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ...core.values.errors import DataFileError
from .files import FileRef, parse_xml, read_capped, resolve_reference
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


class Assets:
    def __init__(self, root: AssetRoot, map_shown: str):
        self.root = root            # may widen while loading (tiled/roots)
        self.map_shown = map_shown
        self.warnings: list[str] = []
        self._warned: set[str] = set()
        self.unlisted_warnings = 0
        self.image_pixels = 0
        self._images: dict[Path, tuple[FileRef, tuple[int, int]]] = {}
        self.transparent: dict[Path, tuple[int, int, int]] = {}   # an image's colour drawn as see-through
        self._tilesets: dict[Path, Tileset] = {}
        self._templates: dict[Path, Template] = {}

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
        return [str(path) for path in (*self._tilesets, *self._templates, *self._images)]

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
        if ref.real not in self._images:
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
            self._images[ref.real] = (ref, size)
        return self._images[ref.real]

    def tileset(self, element, referrer: FileRef, firstgid: int, where: str) -> Tileset:
        """The tileset a `<tileset>` element stands for: embedded, or loaded from its source."""
        source = element.get("source")
        if source is None:
            return dataclasses.replace(parse_tileset(element, referrer, self, where), firstgid=firstgid)
        ref = resolve_reference(source, referrer, self.root, where, "tileset", TILESET_KINDS)
        if ref.real not in self._tilesets:
            if len(self._tilesets) >= MAX_EXTERNAL_TILESETS:
                raise DataFileError(referrer.shown, where, f"the map uses more than {MAX_EXTERNAL_TILESETS} tileset files")
            root = load_tree(ref, "tileset", "tileset")
            self._tilesets[ref.real] = dataclasses.replace(
                parse_tileset(root, ref, self, "tileset"), source=ref.real
            )
        return dataclasses.replace(self._tilesets[ref.real], firstgid=firstgid)

    def template(self, source: str, referrer: FileRef, where: str) -> Template:
        ref = resolve_reference(source, referrer, self.root, where, "object template", TEMPLATE_KINDS)
        if ref.real not in self._templates:
            if len(self._templates) >= MAX_TEMPLATE_FILES:
                raise DataFileError(referrer.shown, where, f"the map uses more than {MAX_TEMPLATE_FILES} templates")
            self._templates[ref.real] = parse_template(load_tree(ref, "template", "object template"), ref, self)
        return self._templates[ref.real]


def load_tree(ref: FileRef, expected_root: str, what: str):
    """Read a Tiled file into an XML element tree: .tmx/.tsx/.tx directly, JSON by translation."""
    suffix = ref.real.suffix.lower()
    if suffix in (".tmj", ".tsj", ".tj", ".json"):
        from .json_map import json_to_tree

        return json_to_tree(ref, read_capped(ref), expected_root, what)
    return parse_xml(ref, read_capped(ref), expected_root, what)
