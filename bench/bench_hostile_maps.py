"""How fast hostile or broken Tiled files are refused or loaded (target: each within a second).

Builds each case in a temporary folder and prints the median time to refusal (or load) and
the peak traced memory, then how long wrapping long text for the window takes.
Run: .venv/bin/python bench/bench_hostile_maps.py
"""
from __future__ import annotations

import base64
import json
import statistics
import sys
import tempfile
import time
import tracemalloc
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from game.core.values.errors import DataFileError  # noqa: E402
from game.io.tiled import load_map  # noqa: E402
from tiled_maps import grid, png_bytes, props_xml, tile_layer, tileset_xml, tmx, write_map  # noqa: E402


def _bomb_layer() -> str:
    packed = base64.b64encode(zlib.compress(bytes(256 << 20), 9)).decode()
    return f'<layer id="1" name="g" width="4" height="3"><data encoding="base64" compression="zlib">{packed}</data></layer>'


CASES = {
    "billion laughs": '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8)) + ']><map>&i;</map>',
    "external entity": '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><map>&x;</map>',
    "zlib bomb (256 MiB)": None,
    "absurd size": tmx(tile_layer("g", grid(4, 3))).replace('width="4" height="3"', 'width="1000000" height="1000000"', 1),
    "gid 2^64": tmx(tile_layer("g", [[2 ** 64] * 4] + grid(4, 2))),
    "path traversal": tmx(tile_layer("g", grid(4, 3)), tilesets=' <tileset firstgid="1" source="../../../../etc/passwd"/>\n'),
    "truncated XML": tmx(tile_layer("g", grid(4, 3)))[:-40],
    "200k elements": tmx(tile_layer("g", grid(4, 3))).replace("</map>", "") + "<properties>" + '<property name="p" value="1"/>' * 210_000 + "</properties></map>",
}


def _link_loop(folder: Path) -> Path:
    (folder / "a.tmx").symlink_to("b.tmx")
    (folder / "b.tmx").symlink_to("a.tmx")
    return folder / "a.tmx"


def _tileset_link_loop(folder: Path) -> Path:
    path = write_map(folder, tmx(tile_layer("g", grid(4, 3)), tilesets=' <tileset firstgid="1" source="loop.tsx"/>\n'))
    (folder / "loop.tsx").symlink_to("loop.tsx")
    return path


def _giant_png(folder: Path) -> Path:
    path = write_map(folder, tmx(tile_layer("g", grid(4, 3))), tsx=tileset_xml(width=16384, height=16384))
    (folder / "tiles.png").write_bytes(png_bytes(16384, 16384, body=False))  # the header is all the loader reads
    return path


def _rectangles(count: int, rotation: float = 0, size: int = 64) -> str:
    objects = "".join(f'<object id="{i}" type="terrain" x="{(i * 37) % 32000}" y="{(i * 91) % 32000}" '
                      f'width="{size}" height="{size}" rotation="{rotation}"/>' for i in range(count))
    return tmx(f' <objectgroup name="o">\n{props_xml({"water": True})}{objects}</objectgroup>\n', width=1000, height=1000)


def _json_map(properties) -> str:
    return json.dumps({"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32,
                       "tileheight": 32, "layers": [], "properties": properties})


GROUND = tile_layer("g", grid(4, 3))
# name -> (map text, or a function building the map in a folder and returning its path; file name)
NEW_CASES = {
    "map link loop": (_link_loop, ""),
    "tileset link loop": (_tileset_link_loop, ""),
    "30 MB title": (tmx(GROUND, props={"title": "x" * 30_000_000}), "m.tmx"),
    "30 MB title, JSON": (_json_map([{"name": "title", "value": "x" * 30_000_000}]), "m.tmj"),
    "25 MB property name": (tmx(GROUND, props={"n" * 25_000_000: 1}), "m.tmx"),
    "1 MB property name": (tmx(GROUND, props={"n" * 1_000_000: 1}), "m.tmx"),
    "100k terrain rects": (_rectangles(100_000), "m.tmx"),
    "2k turned whole-map": (_rectangles(2_000, rotation=30, size=32000), "m.tmx"),
    "16384 px PNG tileset": (_giant_png, ""),
    "pre-1.2 JSON props": (json.dumps({**json.loads(_json_map([])), "properties": {"title": "old"}}), "m.tmj"),
}


def measure(path: Path, repeats: int) -> tuple[float, float, str]:
    """Median milliseconds to load or refuse, peak traced MiB (first run), and the outcome."""
    times, message, peak = [], "", 0
    for i in range(repeats):
        if i == 0:
            tracemalloc.start()
        t0 = time.perf_counter()
        try:
            battle = load_map(path)
            message = f"loaded, {len(battle.warnings)} warnings"
        except DataFileError as err:
            message = err.problem
        times.append((time.perf_counter() - t0) * 1000)
        if i == 0:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    # the traced first run is slow where objects are many: leave it out of the median
    return statistics.median(times[1:] or times), peak / 2 ** 20, message


def bench_wrapping() -> None:
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.ui.theme import Fonts
    pygame.font.init()
    fonts = Fonts()
    print(f"\n{'text wrapped to 300 px':<24} {'ms':>10} {'lines':>9}")
    for name, text in (("3,000 chars, no space", "x" * 3000), ("6,000 chars, no space", "x" * 6000),
                       ("3 MiB, no space", "x" * (3 << 20)), ("3 MiB of words", "word " * (600 << 10))):
        t0 = time.perf_counter()
        lines = fonts.wrap(text, 300, 13)
        print(f"{name:<24} {(time.perf_counter() - t0) * 1000:>10.1f} {len(lines):>9}")


def main() -> None:
    print(f"{'case':<24} {'median ms':>10} {'peak MiB':>9}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        cases = {name: (text, "m.tmx") for name, text in CASES.items()} | NEW_CASES
        for name, (text, file_name) in cases.items():
            if text is None:
                text = tmx(_bomb_layer())
            folder = Path(tmp) / name.replace(" ", "_").replace("/", "_").replace(",", "")
            folder.mkdir()
            path = text(folder) if callable(text) else write_map(folder, text, name=file_name)
            median, peak, message = measure(path, 3 if "terrain" in name or "whole-map" in name else 5)
            print(f"{name:<24} {median:>10.1f} {peak:>9.1f}  {message[:90]}")
    bench_wrapping()


if __name__ == "__main__":
    main()
