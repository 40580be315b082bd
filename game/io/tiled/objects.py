"""Objects of an object layer, with their templates (.tx) applied, as checked `MapObject`s.

A template gives defaults: the instance's own attributes, properties and shape win.
Tile objects keep a reference to their tile (tileset, local id) whichever GID space
(the map's or the template's tileset) the GID came from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ...core.values.errors import DataFileError
from .files import FileRef
from .layerdata import FLIP_DIAGONAL, FLIP_HORIZONTAL, FLIP_VERTICAL, GID_MASK, MAX_RAW_GID
from .properties import Prop, bool_attr, element_class, float_attr, int_attr, parse_points, read_properties, short
from .tilesets import TileLookup, Tileset

_SHAPES = ("ellipse", "point", "polygon", "polyline", "text")


@dataclass(slots=True)  # a map may hold 100,000 of them
class MapObject:
    """One object of an object layer: its shape, place and properties."""

    id: int
    name: str
    cls: str
    shape: str  # rectangle, ellipse, point, polygon, polyline, text, tile
    x: float
    y: float
    width: float = 0.0
    height: float = 0.0
    rotation: float = 0.0
    points: tuple[tuple[float, float], ...] = ()
    tile: tuple[Tileset, int] | None = None
    flips: tuple[bool, bool, bool] = (False, False, False)
    properties: dict[str, Prop] = field(default_factory=dict)
    where: str = ""
    visible: bool = True  # drawn or not; the rules read hidden objects too


@dataclass(frozen=True)
class Template:
    """A parsed .tx file: its `<object>` element and the tileset its GID refers to."""

    ref: FileRef
    element: object
    tileset: Tileset | None
    properties: dict = field(default_factory=dict)  # read once, copied into each instance
    size: int = 1                                   # its object's elements: what each instance costs


def parse_template(root, ref: FileRef, assets) -> Template:
    objects = root.findall("object")
    if len(objects) != 1:
        raise DataFileError(ref.shown, "", f"a template must hold exactly one <object>, found {len(objects)}")
    tileset = None
    tileset_el = root.find("tileset")
    if tileset_el is not None:
        firstgid = int_attr(tileset_el, "firstgid", ref.shown, "<tileset>", 1, GID_MASK)
        tileset = assets.tileset(tileset_el, ref, firstgid, "template tileset")
    return Template(ref, objects[0], tileset, read_properties(objects[0], ref.shown, "template object"),
                    sum(1 for _ in objects[0].iter()))


def parse_object(element, ref: FileRef, lookup: TileLookup, assets, layer_where: str) -> MapObject:
    shown = ref.shown
    object_id = short(element.get("id", "?"), 12)
    where = f"{layer_where}, object {object_id}"
    attributes = element.attrib  # a dict: the attribute helpers only call .get
    properties: dict[str, Prop] = {}
    shape_el = _shape_element(element)
    template = None
    if element.get("template"):
        template = assets.template(element.get("template"), ref, where)
        assets.budget.count_instance(template.size, shown)  # each instance copies the template, counted first
        attributes = {**template.element.attrib, **attributes}
        properties.update(template.properties)
        if shape_el is None:
            shape_el = _shape_element(template.element)
    properties.update(read_properties(element, shown, where))
    merged = attributes
    name = merged.get("name") or ""
    if name:
        where = f"{layer_where}, object {object_id} '{short(name)}'"
    obj = MapObject(
        id=int_attr(merged, "id", shown, where, 0, 2**31 - 1, default=0),
        name=name,
        cls=element_class(element) or (element_class(template.element) if template else ""),
        shape="rectangle",
        x=float_attr(merged, "x", shown, where),
        y=float_attr(merged, "y", shown, where),
        width=float_attr(merged, "width", shown, where),
        height=float_attr(merged, "height", shown, where),
        rotation=float_attr(merged, "rotation", shown, where, limit=1e6),
        properties=properties,
        where=where,
        visible=bool_attr(merged, "visible"),
    )
    if obj.width < 0 or obj.height < 0:
        raise DataFileError(shown, where, "has a negative width or height")
    if element.get("gid") is not None:  # the instance's GID is in the map's GID space
        _attach_tile(obj, element, lookup.find, lookup.span(), shown)
    elif template is not None and template.element.get("gid") is not None:  # the template's, in its tileset's
        tileset = template.tileset
        span = (f"its template's tileset '{tileset.name}' starts at {tileset.firstgid}" if tileset
                else "its template names no tileset")
        _attach_tile(obj, template.element, partial(_in_tileset, tileset), span, shown)
    elif shape_el is not None:
        obj.shape = shape_el.tag
        if shape_el.tag in ("polygon", "polyline"):
            if assets is not None:  # counted before each point is read
                assets.budget.count_points((shape_el.get("points") or "").count(" ") + 1, shown)
            obj.points = parse_points(shape_el.get("points"), shape_el.tag, shown, where)
    return obj


def _in_tileset(tileset: Tileset | None, gid: int) -> tuple[Tileset, int] | None:
    if tileset is None or not tileset.has_tile(gid - tileset.firstgid):
        return None
    return tileset, gid - tileset.firstgid


def _attach_tile(obj: MapObject, holder, find, span: str, shown: str) -> None:
    raw = int_attr(holder, "gid", shown, obj.where, 0, MAX_RAW_GID)
    gid = raw & GID_MASK
    obj.flips = (bool(raw & FLIP_HORIZONTAL), bool(raw & FLIP_VERTICAL), bool(raw & FLIP_DIAGONAL))
    if gid == 0:
        return
    found = find(gid)
    if found is None:
        raise DataFileError(shown, obj.where, f"tile object uses tile number {gid}, which is in no tileset ({span})")
    obj.shape = "tile"
    obj.tile = found


def _shape_element(element):
    if not len(element):  # most objects are plain rectangles: no child to look for
        return None
    for tag in _SHAPES:
        found = element.find(tag)
        if found is not None:
            return found
    return None
