"""Builders for small Tiled files written into tmp_path, shared by the Tiled tests of every folder.

A test world is a folder holding tiles.png (128x96: 4 columns x 3 rows of 32-px tiles)
and t.tsx giving the tiles the fivefoot properties listed in TILE_PROPS. Maps are
written as text so each test shows exactly what Tiled would have saved.
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path
from xml.sax.saxutils import quoteattr

from game.io.tiled import load_tiled_map

FLOOR, WALL, TREE, FOG, STAIRS, BRUSH, DOOR, WATER, TOWER, SMOKE, ROCK, ODD = range(1, 13)  # GIDs (firstgid 1)
TILE_PROPS = {
    WALL: {"wall": True},
    TREE: {"blocks_move": True, "cover": "1/2", "height": 30},
    FOG: {"concealment": "1/2"},
    STAIRS: {"elevation": 5},
    BRUSH: {"concealment": "1/4", "difficult": True},
    DOOR: {"door": True},
    WATER: {"water": True},
    TOWER: {"wall": True, "height": 10},
    SMOKE: {"blocks_sight": True},
    ROCK: {"cover": "3/4"},
}  # ODD has no properties


def png_bytes(width: int, height: int, body: bool = True) -> bytes:
    """A real PNG (RGBA); with body=False only the signature and header, as a liar would write."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    pixels = chunk(b"IDAT", zlib.compress(b"".join(b"\0" * (width * 4 + 1) for _ in range(height)))) if body else b""
    return b"\x89PNG\r\n\x1a\n" + header + pixels + chunk(b"IEND", b"")


def props_xml(props: dict | None, indent: str = "  ") -> str:
    """Tiled <properties>: bool/int/float values get their Tiled type; (type, text) tuples are written raw."""
    if not props:
        return ""
    lines = [f"{indent}<properties>"]
    for name, value in props.items():
        if isinstance(value, tuple):
            kind, text = value
        elif isinstance(value, bool):
            kind, text = "bool", str(value).lower()
        elif isinstance(value, int):
            kind, text = "int", str(value)
        elif isinstance(value, float):
            kind, text = "float", repr(value)
        else:
            kind, text = "string", value
        lines.append(f'{indent} <property name={quoteattr(name)} type="{kind}" value={quoteattr(str(text))}/>')
    lines.append(f"{indent}</properties>")
    return "\n".join(lines) + "\n"


def tileset_xml(tile_props: dict = TILE_PROPS, image: str = "tiles.png", width: int = 128, height: int = 96,
                props: dict | None = None, extra: str = "", attrs: str = "") -> str:
    tiles = "".join(
        f' <tile id="{gid - 1}">\n{props_xml(p, "  ")} </tile>\n' for gid, p in tile_props.items()
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<tileset version="1.10" name="t" tilewidth="32" tileheight="32" tilecount="12" columns="4"{attrs}>\n'
        f"{props_xml(props, ' ')}"
        f' <image source="{image}" width="{width}" height="{height}"/>\n{tiles}{extra}</tileset>\n'
    )


def csv_rows(rows) -> str:
    return ",\n".join(",".join(str(v) for v in row) for row in rows)


def tile_layer(name: str, rows, props: dict | None = None, attrs: str = "", data: str | None = None) -> str:
    height, width = len(rows), len(rows[0])
    body = data if data is not None else f'<data encoding="csv">\n{csv_rows(rows)}\n</data>'
    return (f' <layer name={quoteattr(name)} width="{width}" height="{height}"{attrs}>\n'
            f"{props_xml(props)}  {body}\n </layer>\n")


def group(name: str, *children: str, props: dict | None = None, attrs: str = "") -> str:
    return f" <group name={quoteattr(name)}{attrs}>\n{props_xml(props)}{''.join(children)} </group>\n"


def obj(cls: str = "", x: float = 0, y: float = 0, w: float | None = None, h: float | None = None,
        props: dict | None = None, shape: str = "", attrs: str = "", name: str = "") -> str:
    parts = [f'id="{zlib.crc32(repr((cls, x, y, shape, attrs, name)).encode()) % 100000}"']  # stable across runs
    if name:
        parts.append(f"name={quoteattr(name)}")
    if cls:
        parts.append(f"type={quoteattr(cls)}")
    parts += [f'x="{x}"', f'y="{y}"']
    if w is not None:
        parts.append(f'width="{w}"')
    if h is not None:
        parts.append(f'height="{h}"')
    return f"  <object {' '.join(parts)}{attrs}>\n{props_xml(props, '   ')}{shape}  </object>\n"


def object_layer(name: str, *objects: str, props: dict | None = None, attrs: str = "") -> str:
    return f" <objectgroup name={quoteattr(name)}{attrs}>\n{props_xml(props)}{''.join(objects)} </objectgroup>\n"


def tmx(*body: str, width: int = 4, height: int = 3, props: dict | None = None,
        tilesets: str = ' <tileset firstgid="1" source="t.tsx"/>\n', attrs: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{width}" '
        f'height="{height}" tilewidth="32" tileheight="32" infinite="0"{attrs}>\n'
        f"{props_xml(props, ' ')}{tilesets}{''.join(body)}</map>\n"
    )


def write_world(folder: Path, tsx: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tiles.png").write_bytes(png_bytes(128, 96))
    (folder / "t.tsx").write_text(tsx if tsx is not None else tileset_xml())
    return folder


def write_map(folder: Path, text: str | bytes, name: str = "m.tmx", tsx: str | None = None) -> Path:
    write_world(folder, tsx)
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def grid(width: int, height: int, value: int = FLOOR) -> list[list[int]]:
    return [[value] * width for _ in range(height)]


def load(folder: Path, *body: str, **kw):
    return load_tiled_map(write_map(folder, tmx(*body, **kw)))
