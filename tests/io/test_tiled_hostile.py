"""Hostile and broken Tiled files: each is refused with one clear message, fast, in bounded memory."""
from __future__ import annotations

import base64
import os
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest

from game.core.values.errors import DataFileError
from game.io.tiled import document as tiled_document, shapes as tiled_shapes
from game.io.tiled import load_map, load_tiled_map
from budget import guarded
from tiled_maps import (FLOOR, grid, obj, object_layer, png_bytes, tile_layer, tileset_xml, tmx, write_map,
                                write_world)

# A blow-up guard, in CPU seconds of the loading thread (tests/budget.py): the costliest refusal
# here takes under 1 s of CPU with memory tracing on, so only work growing with the hostile input
# fails it, never a slow or busy machine. The speed figures are printed by bench/bench_hostile_maps.py.
CPU_SECONDS = 15.0
PEAK_BYTES = 64 << 20  # bombs below would need hundreds of MiB if inflated


def refused(path: Path, message: str, asset_root=None, loader=load_tiled_map, trace_memory=True) -> str:
    if trace_memory:
        tracemalloc.start()
    try:
        run = guarded(lambda: loader(path, asset_root))
        _, peak = tracemalloc.get_traced_memory()  # (0, 0) when not tracing
    finally:
        tracemalloc.stop()
    if not isinstance(run.error, DataFileError):
        if run.error is not None:
            raise run.error
        pytest.fail(f"not refused: loaded {run.value!r}")
    text = str(run.error)
    assert message in text, text
    assert text.startswith(str(run.error.path)) and text.count("\n") == 0
    assert run.cpu_s < CPU_SECONDS, f"used {run.cpu_s:.2f} s of CPU"
    assert peak < PEAK_BYTES, f"peak {peak >> 20} MiB"
    return text


def hostile(tmp_path: Path, text: str | bytes, name: str = "m.tmx") -> Path:
    return write_map(tmp_path, text, name=name)


def layer_map(data: str, width: int = 4, height: int = 3) -> str:
    return tmx(tile_layer("g", grid(width, height), data=data), width=width, height=height)


# --- XML attacks ----------------------------------------------------------------------

def test_billion_laughs(tmp_path):
    entities = '<!ENTITY a "lol">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
    text = f'<?xml version="1.0"?>\n<!DOCTYPE map [{entities}]>\n<map width="4" height="3">&j;</map>'
    refused(hostile(tmp_path, text), "declares XML entities")


@pytest.mark.parametrize("doctype", [
    '<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE map [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>',
])
def test_external_entities(tmp_path, doctype):
    text = tmx(tile_layer("g", grid(4, 3))).replace("<map ", f"{doctype}\n<map ", 1).replace('name="g"', 'name="&x;"')
    refused(hostile(tmp_path, text), "Tiled never writes these and fivefoot refuses them")


def test_a_plain_doctype_is_harmless_and_not_fetched(tmp_path):
    text = tmx(tile_layer("g", grid(4, 3))).replace("<map ", '<!DOCTYPE map SYSTEM "file:///etc/passwd">\n<map ', 1)
    assert load_tiled_map(hostile(tmp_path, text)).width == 4


@pytest.mark.parametrize("text, message", [
    (tmx(tile_layer("g", grid(4, 3)))[:-40], "is not well-formed XML (no element found)"),
    (b'<?xml version="1.0" encoding="UTF-8"?><map name="caf\xe9"/>', "is not valid UTF-8 text (byte 0xe9)"),
    (b"\x00\x01\x02garbage", "is not well-formed XML"),
    ('<?xml version="1.0"?><tileset name="x"/>', "is not a Tiled map: its top element is <tileset>, expected <map>"),
    (b"", "is empty"),
])
def test_broken_xml(tmp_path, text, message):
    refused(hostile(tmp_path, text), message)


def test_too_many_elements(tmp_path):
    flood = "<properties>" + '<property name="p" value="1"/>' * 210_000 + "</properties>"
    text = tmx(tile_layer("g", grid(4, 3))).replace("</map>", "") + flood + "</map>"
    refused(hostile(tmp_path, text), "has more than 200,000 XML elements", trace_memory=False)  # tracing is slow here


def test_too_deep(tmp_path):
    text = tmx("<group>" * 100 + tile_layer("g", grid(4, 3)) + "</group>" * 100)
    refused(hostile(tmp_path, text), "nests XML elements more than 64 deep")


def test_file_too_large(tmp_path):
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))))
    with open(path, "r+b") as handle:
        handle.truncate(33 * 1024 * 1024)  # sparse: costs no disk
    refused(path, "is larger than 32 MiB")


def test_json_nesting_bomb(tmp_path):
    refused(hostile(tmp_path, "[" * 200_000 + "]" * 200_000, name="m.tmj"), "nests JSON too deeply", loader=load_map)


def test_json_group_nesting_and_nul_paths(tmp_path):
    import json

    layers: list = []
    for _ in range(200):
        layers = [{"type": "group", "name": "g", "layers": layers}]
    head = {"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32, "tileheight": 32}
    refused(hostile(tmp_path, json.dumps({**head, "layers": layers}), name="m.tmj"), "nests groups more than 64 deep",
            loader=load_map)
    document = {**head, "tilesets": [{"firstgid": 1, "source": "t\u0000.tsx"}], "layers": []}
    refused(hostile(tmp_path, json.dumps(document), name="n.tmj"),
            "the tileset name contains a NUL character", loader=load_map)


# --- layer data -----------------------------------------------------------------------

def _bomb(wbits: int, size: int = 128 << 20) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
    zeros = bytes(1 << 20)
    packed = b"".join(packer.compress(zeros) for _ in range(size >> 20)) + packer.flush()
    return base64.b64encode(packed).decode()


@pytest.mark.parametrize("compression, wbits", [("zlib", 15), ("gzip", 31)])
def test_decompression_bombs(tmp_path, compression, wbits):
    data = f'<data encoding="base64" compression="{compression}">{_bomb(wbits)}</data>'
    refused(hostile(tmp_path, layer_map(data)), f"{compression} data unpacks to more than the 12 tiles the layer holds")


@pytest.mark.parametrize("data, message", [
    ('<data encoding="csv">1,1,1</data>', "has 3 tile numbers in its CSV data, expected 4 x 3 = 12"),
    ('<data encoding="csv">' + ",".join(["1"] * 13) + "</data>", "has 13 tile numbers"),
    ('<data encoding="csv">' + ",".join(["1"] * 11 + ["-1"]) + "</data>", "has '-1' in its CSV data"),
    ('<data encoding="csv">' + ",".join(["1"] * 11 + ["x"]) + "</data>", "has 'x' in its CSV data"),
    ('<data encoding="csv">' + ",".join(["1"] * 11 + [str(2**64)]) + "</data>", "has '18446744073709551616'"),
    ('<data encoding="csv">' + ",".join(["1"] * 11 + [str(2**32)]) + "</data>",
     "has tile number 4294967296 in its CSV data; tile numbers are at most 4294967295"),
    ('<data encoding="csv">' + ",".join(["1"] * 11 + [str(2**32 - 1)]) + "</data>",
     "uses tile number 268435455, which is in no tileset (tilesets cover t 1-12)"),
    ('<data encoding="csv">' + ",".join(["1"] * 11 + ["13"]) + "</data>", r"square (3, 2): uses tile number 13"),
    ('<data encoding="base64">!!!not base64!!!</data>', "layer data is not valid base64"),
    ('<data encoding="base64">' + base64.b64encode(bytes(12)).decode() + "</data>",
     "holds 3 tiles (12 bytes), expected 4 x 3 = 12"),
    ('<data encoding="base64" compression="zlib">' + base64.b64encode(zlib.compress(bytes(48))[:-6]).decode()
     + "</data>", "zlib data is truncated"),
    ('<data encoding="base64" compression="zlib">' + base64.b64encode(zlib.compress(bytes(48)) + b"junk").decode()
     + "</data>", "has extra bytes after the zlib data"),
    ('<data encoding="base64" compression="zlib">' + base64.b64encode(b"not zlib at all!").decode() + "</data>",
     "zlib data is damaged"),
])
def test_bad_layer_data(tmp_path, data, message):
    refused(hostile(tmp_path, layer_map(data)), message)


def test_flags_on_a_good_gid_are_fine_and_a_base64_gid_beyond_tilesets_is_not(tmp_path):
    good = np.full(12, FLOOR | 0xE0000000, "<u4").tobytes()
    path = hostile(tmp_path, layer_map(f'<data encoding="base64">{base64.b64encode(good).decode()}</data>'))
    assert load_tiled_map(path).width == 4
    bad = np.full(12, 999, "<u4").tobytes()
    refused(hostile(tmp_path, layer_map(f'<data encoding="base64">{base64.b64encode(bad).decode()}</data>')),
            "uses tile number 999, which is in no tileset")


@pytest.mark.parametrize("attrs, message", [
    ('width="100000"', "width=100000 is out of range: it must be from 1 to 1000"),
    ('width="0"', "width=0 is out of range"),
    ('width="-4"', "width=-4 is out of range"),
    ('width="1e9"', "width='1e9' is not a whole number"),
    ('tilewidth="100000"', "tilewidth=100000 is out of range: it must be from 1 to 1024"),
])
def test_absurd_map_sizes(tmp_path, attrs, message):
    name = attrs.split("=")[0]
    text = tmx(tile_layer("g", grid(4, 3))).replace(f' {name}="{4 if name == "width" else 32}"', f" {attrs}", 1)
    refused(hostile(tmp_path, text), message)


def test_layer_size_must_match_the_map(tmp_path):
    refused(hostile(tmp_path, tmx(tile_layer("g", grid(5, 3)))), "is width 5 but the map is width 4")


def test_total_tiles_are_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_document, "MAX_TOTAL_TILES", 30)
    text = tmx(*(tile_layer(f"l{i}", grid(4, 3)) for i in range(3)))
    refused(hostile(tmp_path, text), "the tile layers hold more than 30 tiles in all")


# --- tilesets and images ---------------------------------------------------------------

def test_a_declared_giant_tileset_image_is_refused(tmp_path):
    tsx = tileset_xml(width=1_000_000, height=1_000_000)
    refused(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))), tsx=tsx),
            "width=1000000 is out of range: it must be from 1 to 16384")


def test_an_image_whose_header_claims_giant_size_is_refused_without_decoding(tmp_path):
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))))
    (tmp_path / "tiles.png").write_bytes(png_bytes(1_000_000, 1_000_000, body=False))
    refused(path, "the image 'tiles.png' claims to be 1000000x1000000 pixels; each side must be 1 to 16384")


def test_a_huge_grid_of_tiny_tiles_is_never_walked(tmp_path):
    tsx = tileset_xml(width=8192, height=8192).replace('tilewidth="32" tileheight="32"', 'tilewidth="1" tileheight="1"')
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3, 8192 * 8192))), tsx=tsx)
    (tmp_path / "tiles.png").write_bytes(png_bytes(8192, 8192, body=False))
    run = guarded(lambda: load_tiled_map(path))  # walking the 67 million tiles would take minutes of CPU
    assert run.error is None and run.value.width == 4
    assert run.cpu_s < CPU_SECONDS, f"used {run.cpu_s:.2f} s of CPU"


@pytest.mark.parametrize("image_bytes, message", [
    (None, "the image 'tiles.png' does not exist"),
    (b"root:x:0:0:root:/root:/bin/bash\n", "the image 'tiles.png' is not a PNG, GIF, BMP or JPEG file"),
    (b"\x89PNG\r\n\x1a\n", "is not a PNG, GIF, BMP or JPEG file (or its header is damaged)"),
])
def test_missing_or_fake_tileset_images(tmp_path, image_bytes, message):
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))))
    (tmp_path / "tiles.png").unlink()
    if image_bytes is not None:
        (tmp_path / "tiles.png").write_bytes(image_bytes)
    refused(path, message)


def test_other_image_formats_are_read_by_header(tmp_path):
    import struct

    gif = b"GIF89a" + struct.pack("<HH", 128, 96) + bytes(8)
    bmp = b"BM" + bytes(12) + struct.pack("<Iii", 40, 128, -96) + bytes(20)
    jpeg = (b"\xff\xd8\xff\xe0" + struct.pack(">H", 16) + bytes(14)
            + b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 96, 128) + bytes(12))
    for name, data in (("t.gif", gif), ("t.bmp", bmp), ("t.jpg", jpeg)):
        folder = tmp_path / name
        path = write_map(folder, tmx(tile_layer("g", grid(4, 3))), tsx=tileset_xml(image=name))
        (folder / name).write_bytes(data)
        assert load_tiled_map(path).width == 4, name


def test_missing_tileset_file(tmp_path):
    text = tmx(tile_layer("g", grid(4, 3)), tilesets=' <tileset firstgid="1" source="gone.tsx"/>\n')
    refused(hostile(tmp_path, text), "the tileset 'gone.tsx' does not exist")


@pytest.mark.parametrize("source, message", [
    ("../../etc/passwd", "the tileset '../../etc/passwd' lies outside the asset root"),
    ("/etc/passwd", "the tileset '/etc/passwd' is an absolute path"),
    ("C:\\Windows\\win.ini", "is an absolute path"),
    ("file:///etc/passwd", "is an absolute path"),
])
def test_tileset_path_traversal(tmp_path, source, message):
    text = tmx(tile_layer("g", grid(4, 3)), tilesets=f' <tileset firstgid="1" source="{source}"/>\n')
    refused(hostile(tmp_path / "deep" / "er", text), message)


def test_image_path_traversal_and_symlinks(tmp_path):
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))), tsx=tileset_xml(image="../../../etc/passwd"))
    refused(path, "the image '../../../etc/passwd' lies outside the asset root")
    (tmp_path / "link.png").symlink_to("/etc/passwd")
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))), tsx=tileset_xml(image="link.png"))
    refused(path, "the image 'link.png' lies outside the asset root")


def test_template_path_traversal(tmp_path):
    layer = object_layer("o", '  <object id="1" template="../../../etc/passwd" x="0" y="0"/>\n')
    refused(hostile(tmp_path, tmx(tile_layer("g", grid(4, 3)), layer)), "the object template '../../../etc/passwd' lies outside")


def test_a_fifo_for_a_tileset_does_not_hang(tmp_path):
    write_world(tmp_path)
    os.mkfifo(tmp_path / "pipe.tsx")
    text = tmx(tile_layer("g", grid(4, 3)), tilesets=' <tileset firstgid="1" source="pipe.tsx"/>\n')
    refused(hostile(tmp_path, text), "the tileset 'pipe.tsx' is not a regular file")


def test_too_many_tilesets(tmp_path):
    many = "".join(f' <tileset firstgid="{1 + 12 * i}" source="t.tsx"/>\n' for i in range(300))
    refused(hostile(tmp_path, tmx(tile_layer("g", grid(4, 3)), tilesets=many)), "has 300 tilesets; at most 256")


# --- objects ---------------------------------------------------------------------------

@pytest.mark.parametrize("body, message", ids=["huge-x", "negative-gid", "gid-beyond", "many-points", "nan-point",
                                                "bad-point"], argvalues=[
    (obj("terrain", 1e300, 0, 32, 32), "x=1e+300 is out of range"),
    (obj("terrain", 0, 0, attrs=' gid="-1"'), "gid=-1 is out of range"),
    (obj("terrain", 0, 0, attrs=' gid="999"'), "tile object uses tile number 999, which is in no tileset"),
    (obj("terrain", 0, 0, shape='<polygon points="' + " ".join(["1,1"] * 5000) + '"/>'), "at most 4096 are allowed"),
    (obj("terrain", 0, 0, shape='<polygon points="0,0 nan,1 2,2"/>'), "has an out-of-range point 'nan,1'"),
    (obj("terrain", 0, 0, shape='<polygon points="0,0 1;1 2,2"/>'), "has a bad point '1;1'"),
])
def test_bad_objects(tmp_path, body, message):
    refused(hostile(tmp_path, tmx(tile_layer("g", grid(4, 3)), object_layer("o", body))), message)


def test_terrain_work_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_shapes.Grid, "WORK_BUDGET", 1000)
    polygon = '<polygon points="' + " ".join(f"{i % 128},{(i * 7) % 96}" for i in range(400)) + '"/>'
    objects = object_layer("o", *(obj("terrain", 0, i, shape=polygon, props={"water": True}) for i in range(3)))
    refused(hostile(tmp_path, tmx(tile_layer("g", grid(4, 3)), objects)), "terrain objects are too detailed")


def test_a_template_must_hold_one_object(tmp_path):
    write_world(tmp_path)
    (tmp_path / "two.tx").write_text('<template><object/><object/></template>')
    layer = object_layer("o", '  <object id="1" template="two.tx" x="0" y="0"/>\n')
    refused(hostile(tmp_path, tmx(tile_layer("g", grid(4, 3)), layer)), "a template must hold exactly one <object>, found 2")


def test_a_failed_load_leaves_nothing_behind(tmp_path):
    bad = hostile(tmp_path / "bad", layer_map('<data encoding="csv">1</data>'))
    refused(bad, "has 1 tile numbers")
    good = write_map(tmp_path / "good", tmx(tile_layer("g", grid(4, 3))))
    assert load_tiled_map(good).warnings == ()
