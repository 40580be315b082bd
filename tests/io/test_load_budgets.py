"""Budgets on a whole map load, not only on each file or object (issue 29), each checked before the
work or memory is spent. Caps are lowered here where a file at the real cap would be large; the CPU
bounds are blow-up guards (tests/budget.py), the figures are in bench/bench_load_budgets.py."""
from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from game.core.values.errors import DataFileError
from game.io.tiled import assets as tiled_assets, document as tiled_document, load_map
from budget import guarded_traced
from tiled_maps import grid, obj, object_layer, props_xml, tile_layer, tileset_xml, tmx, write_map, write_world

CPU_S = 5.0      # each refusal below takes well under 1 s of CPU (bench/bench_load_budgets.py)


def refused(path: Path, message: str, peak_limit: int = 64 << 20, trace: bool = True) -> DataFileError:
    run, peak = guarded_traced(lambda: load_map(path), trace)
    if not isinstance(run.error, DataFileError):
        if run.error is not None:
            raise run.error
        pytest.fail("not refused")
    assert message in str(run.error), str(run.error)
    assert "\n" not in str(run.error)
    assert run.cpu_s < CPU_S, f"{run.cpu_s:.2f} s of CPU before the refusal"
    assert peak < peak_limit, f"peak {peak >> 20} MiB before the refusal"
    return run.error


def _template(text_bytes: int) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<template>\n <object type="terrain" width="32" height="32">\n'
            f'  <properties><property name="note" value="{"x" * text_bytes}"/></properties>\n </object>\n</template>\n')


def _template_users(names: list[str]) -> str:
    objects = "".join(f'  <object id="{i + 1}" template="{name}" x="{(i % 4) * 32}" y="0"/>\n'
                      for i, name in enumerate(names))
    return tmx(tile_layer("g", grid(4, 3)), f' <objectgroup name="o">\n{objects} </objectgroup>\n')


def test_hard_links_to_one_template_are_read_once(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_assets, "MAX_LOAD_BYTES", 1 << 20)
    write_world(tmp_path)
    (tmp_path / "t0.tx").write_text(_template(400_000))
    for i in range(1, 40):
        os.link(tmp_path / "t0.tx", tmp_path / f"t{i}.tx")
    battle = load_map(write_map(tmp_path, _template_users([f"t{i}.tx" for i in range(40)])))
    assert len([f for f in battle.files if f.endswith(".tx")]) == 1


def test_a_template_over_1_mib_is_refused_before_it_is_read(tmp_path):
    write_world(tmp_path)
    (tmp_path / "t0.tx").write_text(_template(1_100_000))
    refused(write_map(tmp_path, _template_users(["t0.tx"])), "t0.tx: is larger than 1 MiB")


def test_each_object_made_from_a_template_counts_its_elements_again(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_assets, "MAX_LOAD_ELEMENTS", 200)
    write_world(tmp_path)
    many = "".join(f'<property name="p{i}" value="v"/>' for i in range(30))
    (tmp_path / "t0.tx").write_text(_template(10).replace('<property name="note"', many + '<property name="note"'))
    assert load_map(write_map(tmp_path, _template_users(["t0.tx"] * 2))).width == 4
    refused(write_map(tmp_path, _template_users(["t0.tx"] * 12)), "each object's template counted again")


def test_copies_of_a_template_count_against_the_load_total(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_assets, "MAX_LOAD_BYTES", 1 << 20)
    write_world(tmp_path)
    for i in range(3):
        (tmp_path / f"t{i}.tx").write_text(_template(400_000))
    refused(write_map(tmp_path, _template_users(["t0.tx", "t1.tx", "t2.tx"])), "its files hold more than 1 MiB in all")


def test_elements_count_across_every_file_a_map_reads(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_assets, "MAX_LOAD_ELEMENTS", 60)
    tiles = {gid: {"wall": True} for gid in range(1, 13)}
    write_world(tmp_path, tileset_xml(tile_props=tiles))  # 12 tiles of 3 elements each
    tilesets = ' <tileset firstgid="1" source="t.tsx"/>\n'
    (tmp_path / "u.tsx").write_text(tileset_xml(tile_props=tiles))
    tilesets += ' <tileset firstgid="13" source="u.tsx"/>\n'
    refused(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), tilesets=tilesets)), "XML elements (or JSON items) in all")


def test_a_flood_of_objects_is_refused_before_it_is_parsed(tmp_path):
    objects = "".join(f'<object id="{i}" type="terrain" x="{i % 999 * 32}" y="0" width="64" height="64"/>'
                      for i in range(100_000))
    layer = f' <objectgroup name="o">\n{props_xml({"water": True})}{objects}</objectgroup>\n'
    refused(write_map(tmp_path, tmx(layer, width=1000, height=1000)), "more than 10,000 objects")


def test_objects_in_json_maps_count_too(tmp_path):
    objects = [{"id": i, "type": "terrain", "x": 0, "y": 0, "width": 32, "height": 32} for i in range(10_001)]
    document = {"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32,
                "tileheight": 32, "tilesets": [], "layers": [{"type": "objectgroup", "name": "o", "objects": objects}]}
    refused(write_map(tmp_path, json.dumps(document), name="m.tmj"), "more than 10,000 objects")


def test_polygon_points_count_across_objects(tmp_path):
    points = " ".join(f"{i % 64 * 8},{i // 64 * 8}" for i in range(4000))
    shapes = [obj("terrain", 0, 0, shape=f'   <polygon points="{points}"/>\n') for _ in range(17)]
    refused(write_map(tmp_path, tmx(object_layer("o", *shapes, props={"water": True}), width=100, height=100)),
            "more than 65,536 points in all")


def test_comb_polygons_are_refused_by_the_work_budget_before_the_work(tmp_path):
    # 400 teeth running the full height of a 1000 x 1000 map: each edge crosses every row
    teeth = " ".join(f"{i * 80},0 {i * 80 + 1},32000" for i in range(200))
    shapes = [obj("terrain", 0, 0, shape=f'   <polygon points="{teeth}"/>\n') for _ in range(10)]
    refused(write_map(tmp_path, tmx(object_layer("o", *shapes, props={"water": True}), width=1000, height=1000)),
            "within fivefoot's work budget", trace=False)


def test_json_arrays_are_counted_before_they_are_built(tmp_path):
    document = ('{"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32, '
                '"tileheight": 32, "layers": [], "junk": [' + "[]," * 1_100_000 + "[]]}")
    refused(write_map(tmp_path, document, name="m.tmj"), "more than 1,000,000 JSON arrays and objects")


def test_csv_cells_are_counted_before_they_are_split(tmp_path):
    write_world(tmp_path)
    data = '<data encoding="csv">' + "1," * 2_000_000 + "1</data>"
    error = refused(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3), data=data))),
                    "has more than 12 tile numbers in its CSV data", peak_limit=24 << 20)
    assert "expected 4 x 3 = 12" in str(error)


def _gif(screen: tuple[int, int], frame: tuple[int, int]) -> bytes:
    return (b"GIF89a" + struct.pack("<HH", *screen) + bytes(3) + b"\x2c" + struct.pack("<HHHH", 0, 0, *frame)
            + b"\x00\x02\x02\x4c\x01\x00\x3b")


def test_a_gif_frame_larger_than_its_header_says_is_refused(tmp_path):
    (tmp_path / "tiles.gif").write_bytes(_gif((128, 96), (12000, 12000)))
    refused(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))), tsx=tileset_xml(image="tiles.gif")),
            "has a frame (#1) of 12000x12000 pixels at 0,0, outside the 128x96 its header says")


def test_a_gif_whose_frames_fit_loads(tmp_path):
    (tmp_path / "tiles.gif").write_bytes(_gif((128, 96), (128, 96)))
    battle = load_map(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3))), tsx=tileset_xml(image="tiles.gif")))
    assert any(f.endswith("tiles.gif") for f in battle.files)


def test_the_tiles_the_window_would_draw_are_bounded_hidden_layers_aside(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_document, "MAX_DRAWN_TILES", 20)
    write_world(tmp_path)
    hidden = tile_layer("h", grid(4, 3), attrs=' visible="0"')
    assert load_map(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), hidden))).width == 4
    refused(write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), tile_layer("k", grid(4, 3)))),
            "the visible tile layers draw more than 20 tiles in all")
