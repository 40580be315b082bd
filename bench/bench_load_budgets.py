"""The worst hostile inputs of issue 29 (and issue 30 item 5b): CPU seconds and peak memory until each
is refused (or loaded), every case in a fresh process so its peak is its own.

Goal: each refused within 1 s of CPU and a bounded, small peak, checked before the work is spent.
Prints one row a case: CPU seconds of the child (user + system), its peak resident memory, and the
outcome; then the ratio of the slowest case to the anchor (loading a small shipped map, same run).
Run: .venv/bin/python bench/bench_load_budgets.py [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from tiled_maps import grid, props_xml, tile_layer, tileset_xml, tmx, write_map  # noqa: E402

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})
kind, path = sys.argv[1], sys.argv[2]
t0 = time.process_time()
outcome = "loaded"
try:
    if kind == "map":
        from game.io.tiled import load_map
        load_map(path)
    elif kind == "scenario":
        from game.io.scenarios import load_scenario
        load_scenario(path)
    else:
        from game.cli import main
        code = main(["check", "maps/charge_demo.toml", "--ruleset", path])
        outcome = f"exit {{code}}"
except Exception as err:  # the project's own error, or the escape this bench exists to find
    outcome = f"{{type(err).__name__}}: {{str(err)[-110:]}}"
cpu = time.process_time() - t0
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))  # this process's own
print(json.dumps({{"cpu": cpu, "rss": peak / 1024, "outcome": outcome}}))
"""


def _objects(count: int, body) -> str:
    return tmx(f' <objectgroup name="o">\n{props_xml({"water": True})}'
               + "".join(body(i) for i in range(count)) + "</objectgroup>\n", width=1000, height=1000)


def _template(size: int) -> str:
    prop = '<property name="p" value="{}"/>\n'
    count = size // 200
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<template>\n <object type="terrain" width="32" height="32">\n'
            "  <properties>\n" + "".join(prop.format("v" * 160) for _ in range(count))
            + "  </properties>\n </object>\n</template>\n")


def case_template_links(folder: Path) -> Path:
    (folder / "big.tx").write_text(_template(30 << 20))
    for i in range(1000):
        os.link(folder / "big.tx", folder / f"l{i}.tx")
    objects = "".join(f'<object id="{i + 1}" template="l{i}.tx" x="0" y="0"/>' for i in range(1000))
    return write_map(folder, tmx(tile_layer("g", grid(4, 3)), f' <objectgroup name="o">{objects}</objectgroup>\n'))


def case_tileset_copies(folder: Path) -> Path:
    tileset = tileset_xml(extra="".join(f' <tile id="{i % 12}"><properties><property name="n" value="{"v" * 150}"/>'
                                        "</properties></tile>\n" for i in range(60_000)))
    for i in range(256):
        (folder / f"t{i}.tsx").write_text(tileset)
    sets = "".join(f' <tileset firstgid="{1 + 12 * i}" source="t{i}.tsx"/>\n' for i in range(256))
    return write_map(folder, tmx(tile_layer("g", grid(4, 3)), tilesets=sets))


def case_comb(folder: Path) -> Path:
    teeth = " ".join(f"{i * 16},0 {i * 16 + 1},32000" for i in range(2048))
    return write_map(folder, _objects(48, lambda i: f'<object id="{i + 1}" type="terrain" x="0" y="0">'
                                                    f'<polygon points="{teeth}"/></object>'))


def case_rectangles(folder: Path) -> Path:
    return write_map(folder, _objects(100_000, lambda i: f'<object id="{i}" type="terrain" x="{(i * 37) % 32000}" '
                                                         f'y="{(i * 91) % 32000}" width="64" height="64"/>'))


def case_json_arrays(folder: Path) -> Path:
    text = ('{"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32, "tileheight": 32,'
            ' "layers": [], "junk": [' + "[]," * 10_600_000 + "[]]}")
    return write_map(folder, text, name="m.tmj")


def case_csv_cells(folder: Path) -> Path:
    data = '<data encoding="csv">' + "1," * 11_000_000 + "1</data>"
    return write_map(folder, tmx(tile_layer("g", grid(4, 4), data=data), width=4, height=4))


def case_gif(folder: Path) -> Path:
    gif = (b"GIF89a" + struct.pack("<HH", 128, 96) + bytes(3) + b"\x2c" + struct.pack("<HHHH", 0, 0, 12000, 12000)
           + b"\x00\x02\x02\x4c\x01\x00\x3b")
    (folder / "tiles.gif").write_bytes(gif)
    return write_map(folder, tmx(tile_layer("g", grid(4, 3))), tsx=tileset_xml(image="tiles.gif"))


def case_tiles_in_groups(folder: Path) -> Path:
    side = 516
    layer = tile_layer("g", grid(side, side))
    body = layer * 60
    for depth in range(60):
        body = f' <group name="g{depth}">\n{body} </group>\n' if depth % 6 == 0 else body
    return write_map(folder, tmx(body, width=side, height=side))


def case_big_csv_layers(folder: Path) -> Path:
    return write_map(folder, tmx(tile_layer("g", grid(1000, 1000)) * 10, width=1000, height=1000))


def case_many_layers(folder: Path) -> Path:
    return write_map(folder, tmx(tile_layer("g", grid(40, 40)) * 1000, width=40, height=40))


def case_weapons(folder: Path) -> Path:
    path = folder / "r.toml"
    path.write_text('id = "big"\nname = "Big"\nbase = "bfrpg"\n'
                    + "".join(f'[weapons.w{i}]\ndamage = "1d6"\n' for i in range(100_000)))
    return path


def case_figures(folder: Path) -> Path:
    path = folder / "s.toml"
    rows = "\n".join("." * 100 for _ in range(100))
    path.write_text(f'ruleset = "bfrpg"\n[map]\nascii = """\n{rows}\n"""\n' + "".join(
        f'[[figures]]\nid = "f{i}"\nside = "{"red" if i % 2 else "blue"}"\ntemplate = "foot"\nx = {i % 100}\n'
        f"y = {i // 100}\n" for i in range(10_000)))
    return path


CASES = {
    "anchor: maps/castle.tmx": ("map", lambda folder: ROOT / "maps" / "castle.tmx"),
    "1000 links, 30 MiB template": ("map", case_template_links),
    "256 copies of a 13 MiB tileset": ("map", case_tileset_copies),
    "48 comb polygons x 4096 pts": ("map", case_comb),
    "100k terrain rectangles": ("map", case_rectangles),
    "JSON: 10.6M empty arrays": ("map", case_json_arrays),
    "CSV: 11M cells in 4x4": ("map", case_csv_cells),
    "GIF frame 12000x12000": ("map", case_gif),
    "16M tiles, 60 layers, groups": ("map", case_tiles_in_groups),
    "ten 1000x1000 CSV layers": ("map", case_big_csv_layers),
    "1000 layers of 40x40": ("map", case_many_layers),
    "ruleset of 10^5 weapons": ("ruleset", case_weapons),
    "scenario of 10^4 figures": ("scenario", case_figures),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", help="run the cases whose name holds this text")
    args = parser.parse_args()
    child = CHILD.format(root=str(ROOT))
    print(f"{'case':<32} {'CPU s':>7} {'peak MiB':>9}  outcome")
    anchor = None
    slowest = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for number, (name, (kind, build)) in enumerate(CASES.items()):
            if args.only and args.only not in name and number:
                continue
            folder = Path(tmp) / f"case{number}"
            folder.mkdir()
            path = build(folder)
            done = subprocess.run([sys.executable, "-c", child, kind, str(path)], capture_output=True, text=True,
                                  cwd=ROOT, timeout=600)
            try:
                row = json.loads(done.stdout.strip().splitlines()[-1])
            except (IndexError, ValueError):
                print(f"{name:<32} {'?':>7} {'?':>9}  crashed: {done.stderr.strip()[-120:]}")
                continue
            print(f"{name:<32} {row['cpu']:>7.2f} {row['rss']:>9.0f}  {row['outcome']}")
            if anchor is None:
                anchor = row["cpu"]
            else:
                slowest = max(slowest, row["cpu"])
            for item in folder.iterdir():  # free the disk before the next case
                item.unlink()
    if anchor:
        print(f"\nslowest hostile case: {slowest:.2f} s of CPU, {slowest / anchor:.1f}x the anchor (goal: under 1 s)")


if __name__ == "__main__":
    main()
