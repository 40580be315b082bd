"""Tiled's JSON formats (.tmj maps, .tsj tilesets, .tj templates) translated to TMX trees.

The JSON is checked field by field and rebuilt as the XML elements Tiled would have
written to a .tmx/.tsx/.tx, so one reader (tiled/document) handles both formats with
the same limits.
"""
from __future__ import annotations

import json
import math
from xml.etree.ElementTree import Element, SubElement

from ...core.values.errors import DataFileError
from .files import MAX_ITEM_BYTES, MAX_XML_DEPTH, MAX_XML_ELEMENTS, FileRef
from .properties import short

_LAYER_TAGS = {"tilelayer": "layer", "objectgroup": "objectgroup", "imagelayer": "imagelayer", "group": "group"}
_MAP_ATTRS = ("orientation", "renderorder", "width", "height", "tilewidth", "tileheight", "infinite",
              "staggeraxis", "staggerindex", "hexsidelength", "class", "version", "tiledversion")
_LAYER_ATTRS = ("id", "name", "class", "visible", "opacity", "offsetx", "offsety", "width", "height", "draworder",
                "repeatx", "repeaty")
_OBJECT_ATTRS = ("id", "name", "type", "class", "x", "y", "width", "height", "rotation", "gid", "visible", "template")
_TILESET_ATTRS = ("firstgid", "source", "name", "class", "tilewidth", "tileheight", "spacing", "margin",
                  "tilecount", "columns", "objectalignment")
_BOOL_ATTRS = ("infinite", "visible", "repeatx", "repeaty")  # the fields Tiled writes as true/false
_TILE_ATTRS = ("id", "type", "class", "x", "y", "width", "height")


def json_to_tree(ref: FileRef, data: bytes, expected_root: str, what: str, budget=None) -> Element:
    _refuse_amplification(ref, data)
    if budget is not None:
        budget.before_parsing(ref, data)
    try:
        document = json.loads(data)
    except UnicodeDecodeError:
        raise DataFileError(ref.shown, "", "is not UTF-8 text; re-save it from Tiled") from None
    except RecursionError:
        raise DataFileError(ref.shown, "", "nests JSON too deeply; is it really a Tiled file?") from None
    except ValueError as err:
        raise DataFileError(
            ref.shown, f"line {getattr(err, 'lineno', '?')}",
            f"is not valid JSON ({getattr(err, 'msg', err)}); the file may be truncated. Re-save it from Tiled.",
        ) from None
    translator = _Translator(ref, what, budget)
    try:
        root = translator.root(document, expected_root)
    except (TypeError, AttributeError, KeyError, IndexError) as err:  # a field of a kind no check foresaw
        raise DataFileError(ref.shown, "", f"holds a value of a kind Tiled never writes ({type(err).__name__}: "
                                           f"{str(err)[:80]}); re-save it from Tiled") from None
    if budget is not None:
        budget.elements_left -= translator.count
    return root


# What json.loads may build from one file, counted in its bytes before it builds anything: every JSON
# array or object is a '[' or '{' (one in a string only makes the count an overestimate), every value
# at most a ',' or ':' more. 32 MiB of '[],' would otherwise be 10 million lists, 850 MB.
MAX_JSON_CONTAINERS = 1_000_000
MAX_JSON_VALUES = 17_000_000        # a tile number each: the 16 million tiles a map may hold, and room


def _refuse_amplification(ref: FileRef, data: bytes) -> None:
    containers = data.count(b"[") + data.count(b"{")
    values = data.count(b",") + data.count(b":")
    if containers > MAX_JSON_CONTAINERS or values > MAX_JSON_VALUES:
        raise DataFileError(
            ref.shown, "",
            f"holds more than {MAX_JSON_CONTAINERS:,} JSON arrays and objects or {MAX_JSON_VALUES:,} values; "
            "fivefoot refuses files this complex (a Tiled map holds far fewer). Is it really a Tiled file?",
        )


class _Translator:
    def __init__(self, ref: FileRef, what: str, budget=None):
        self.shown = ref.shown
        self.what = what
        self.count = 0
        self.budget = budget
        self.limit = MAX_XML_ELEMENTS if budget is None else min(MAX_XML_ELEMENTS, budget.elements_left)

    def root(self, document, expected_root: str) -> Element:
        if not isinstance(document, dict):
            raise DataFileError(self.shown, "", f"is not a Tiled {self.what}: expected a JSON object at the top")
        kind = document.get("type", expected_root)
        if expected_root == "map" and kind != "map":
            raise DataFileError(self.shown, "", f"is not a Tiled map (its type is {str(kind)[:40]!r})")
        if expected_root == "template":
            if kind != "template":
                raise DataFileError(self.shown, "", "is not a Tiled object template (type must be 'template')")
            root = self.element(None, "template")
            if "tileset" in document:
                self.tileset(root, self.obj(document["tileset"], "tileset"))
            self.object(root, self.obj(document.get("object"), "object"))
            return root
        if expected_root == "tileset":
            return self.tileset(None, document)
        root = self.element(None, "map")
        self.attrs(root, document, _MAP_ATTRS, "map")
        self.properties(root, document, "map")
        for tileset in self.array(document.get("tilesets", []), "tilesets"):
            self.tileset(root, self.obj(tileset, "tileset"))
        self.layers(root, document.get("layers", []))
        return root

    # -- building blocks ---------------------------------------------------------

    def element(self, parent, tag: str) -> Element:
        self.count += 1
        if self.count > self.limit:
            if self.limit < MAX_XML_ELEMENTS:
                self.budget.too_many_elements(FileRef(self.shown, None))
            raise DataFileError(self.shown, "", f"has more than {MAX_XML_ELEMENTS:,} items; fivefoot refuses files this complex")
        if tag == "object" and self.budget is not None:
            self.budget.count_objects(1, self.shown)
        return Element(tag) if parent is None else SubElement(parent, tag)

    def obj(self, value, where: str) -> dict:
        if not isinstance(value, dict):
            raise DataFileError(self.shown, where, "must be a JSON object")
        return value

    def array(self, value, where: str) -> list:
        if isinstance(value, dict) and where.endswith(("properties", "tiles")):
            raise DataFileError(
                self.shown, where,
                "is a JSON object, as Tiled wrote it before version 1.2; open the file in a current Tiled and "
                "save it again (File > Save), which writes it as the array fivefoot reads",
            )
        if not isinstance(value, list):
            raise DataFileError(self.shown, where, "must be a JSON array")
        return value

    def attrs(self, element: Element, source: dict, names, where: str) -> None:
        for name in names:
            if name in source and source[name] is not None:
                value = source[name]
                if isinstance(value, bool) and name not in _BOOL_ATTRS:  # "width": true is no width
                    raise DataFileError(self.shown, f"{where}, field '{name}'",
                                        f"is {str(value).lower()}; it must be a number or text, not true/false")
                element.set(name, self.scalar(value, f"{where}, field '{name}'"))

    def scalar(self, value, where: str, bulk: bool = False) -> str:
        """`value` as TMX attribute text; `bulk` (tile layer data) may be longer than other text."""
        if isinstance(value, bool):
            return "1" if value else "0"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise DataFileError(self.shown, where, "must be a finite number")
            return repr(int(value)) if value.is_integer() else repr(value)
        if isinstance(value, str):
            if len(value) > MAX_ITEM_BYTES and not bulk:
                raise DataFileError(
                    self.shown, where,
                    f"is text over {MAX_ITEM_BYTES // (1024 * 1024)} MiB long; fivefoot allows names, titles and "
                    f"property values up to {MAX_ITEM_BYTES // (1024 * 1024)} MiB. Shorten it in Tiled.",
                )
            return value
        raise DataFileError(self.shown, where, "must be a number, text or true/false")

    def properties(self, element: Element, source: dict, where: str, depth: int = 1) -> None:
        if "properties" not in source:
            return
        listed = source["properties"]
        if depth > MAX_XML_DEPTH:
            raise DataFileError(self.shown, f"{where}, properties", f"nest class properties more than {MAX_XML_DEPTH} deep")
        holder = self.element(element, "properties")
        for item in self.array(listed, f"{where}, properties"):
            item = self.obj(item, f"{where}, properties")
            name = item.get("name")
            if not isinstance(name, str):
                raise DataFileError(self.shown, f"{where}, properties", "a property has no name")
            kind = item.get("type", "string")
            self.property(holder, name, kind if isinstance(kind, str) else "string", item.get("value", ""),
                          where, depth)

    def property(self, holder: Element, name: str, kind: str, value, where: str, depth: int) -> None:
        """One property; a class value (a JSON object) holds members, which may be classes in turn.

        Values fivefoot cannot read as text (null, lists) become a placeholder text that is only
        refused if fivefoot uses the property: one a game keeps for itself must not stop the load.
        """
        prop = self.element(holder, "property")
        prop.set("name", self.scalar(name, f"{where}, a property name"))
        here = f"{where}, property '{short(name)}'"
        if isinstance(value, dict):
            prop.set("type", "class")
            members = [{"name": key, "value": member} for key, member in value.items()]
            self.properties(prop, {"properties": members}, here, depth + 1)
            return
        prop.set("type", kind)
        if isinstance(value, bool):
            prop.set("value", "true" if value else "false")
        elif isinstance(value, (int, float, str)):
            prop.set("value", self.scalar(value, here))
        else:  # null or a list: no Tiled type fivefoot reads; messages show what it was
            prop.set("value", "(empty)" if value is None else f"(a JSON {type(value).__name__})")

    # -- map parts -----------------------------------------------------------------

    def tileset(self, parent, source: dict) -> Element:
        where = f"tileset '{short(str(source.get('name', source.get('source', '?'))))}'"
        element = self.element(parent, "tileset")
        self.attrs(element, source, _TILESET_ATTRS, where)
        self.properties(element, source, where)
        if "tileoffset" in source:
            offset = self.obj(source["tileoffset"], f"{where}, tileoffset")
            self.attrs(self.element(element, "tileoffset"), offset, ("x", "y"), where)
        if "image" in source:
            self.image(element, source, where)
        for tile in self.array(source.get("tiles", []), f"{where}, tiles"):
            tile = self.obj(tile, f"{where}, tiles")
            tile_el = self.element(element, "tile")
            self.attrs(tile_el, tile, _TILE_ATTRS, where)
            self.properties(tile_el, tile, f"{where}, tile {short(str(tile.get('id', '?')), 12)}")
            if "image" in tile:
                self.image(tile_el, tile, where)
        return element

    def image(self, parent: Element, source: dict, where: str) -> None:
        image = self.element(parent, "image")
        image.set("source", self.scalar(source["image"], f"{where}, image"))
        for name in ("imagewidth", "imageheight"):
            if name in source:
                image.set(name.removeprefix("image"), self.scalar(source[name], f"{where}, {name}"))
        if "transparentcolor" in source:      # the tileset's or the image layer's see-through colour
            image.set("trans", self.scalar(source["transparentcolor"], f"{where}, transparentcolor"))

    def layers(self, parent: Element, layers, depth: int = 1) -> None:
        if depth > MAX_XML_DEPTH:
            raise DataFileError(self.shown, "layers", f"nests groups more than {MAX_XML_DEPTH} deep")
        for layer in self.array(layers, "layers"):
            layer = self.obj(layer, "layers")
            kind = layer.get("type")
            if not isinstance(kind, str) or kind not in _LAYER_TAGS:
                raise DataFileError(self.shown, "layers", f"layer type {str(kind)[:40]!r} is unknown")
            where = f"layer '{short(str(layer.get('name', '?')))}'"
            element = self.element(parent, _LAYER_TAGS[kind])
            self.attrs(element, layer, _LAYER_ATTRS, where)
            self.properties(element, layer, where)
            if kind == "tilelayer":
                self.tile_data(element, layer, where)
            elif kind == "objectgroup":
                for item in self.array(layer.get("objects", []), f"{where}, objects"):
                    self.object(element, self.obj(item, f"{where}, objects"))
            elif kind == "group":
                self.layers(element, layer.get("layers", []), depth + 1)
            elif layer.get("image"):  # Tiled writes "" for an image layer without an image
                self.attrs(self.element(element, "image"), {"source": layer["image"]}, ("source",), where)

    def tile_data(self, element: Element, layer: dict, where: str) -> None:
        data = self.element(element, "data")
        encoding = layer.get("encoding", "csv")
        data.set("encoding", "base64" if encoding == "base64" else "csv")
        if encoding == "base64" and layer.get("compression"):
            data.set("compression", self.scalar(layer["compression"], where))
        if "chunks" not in layer:
            data.text = self.tiles(layer.get("data"), encoding, where)
            return
        for number, chunk in enumerate(self.array(layer["chunks"], f"{where}, chunks"), 1):
            chunk = self.obj(chunk, f"{where}, chunks")
            chunk_el = self.element(data, "chunk")
            self.attrs(chunk_el, chunk, ("x", "y", "width", "height"), f"{where}, chunk #{number}")
            chunk_el.text = self.tiles(chunk.get("data"), encoding, f"{where}, chunk #{number}")

    def tiles(self, values, encoding: str, where: str) -> str:
        """Tile data as the text of a TMX <data> (or <chunk>): base64 as it is, an array as CSV."""
        if encoding == "base64":
            return self.scalar(values, f"{where}, data", bulk=True)
        if not isinstance(values, list) or not all(type(v) is int for v in values):
            raise DataFileError(self.shown, where, "data must be an array of tile numbers")
        return ",".join(map(str, values))

    def object(self, parent: Element, source: dict) -> None:
        where = f"object {short(str(source.get('id', '?')), 12)}"
        element = self.element(parent, "object")
        self.attrs(element, source, _OBJECT_ATTRS, where)
        self.properties(element, source, where)
        if source.get("point"):
            self.element(element, "point")
        elif source.get("ellipse"):
            self.element(element, "ellipse")
        elif "text" in source:
            self.element(element, "text")
        for shape in ("polygon", "polyline"):
            if shape in source:
                points = []
                for point in self.array(source[shape], f"{where}, {shape}"):
                    point = self.obj(point, f"{where}, {shape}")
                    points.append(f"{self.scalar(point.get('x'), where)},{self.scalar(point.get('y'), where)}")
                self.element(element, shape).set("points", " ".join(points))
