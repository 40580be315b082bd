"""Loading Tiled maps: fivefoot's loader beside raw pytmx (the anchor), CPU milliseconds per load.

fivefoot reads, checks and rasterises a map into its rules layers; pytmx only parses it (its
default image loader decodes nothing). Both run in this process, interleaved, several times;
the median is printed with the ratio (fivefoot / pytmx). Target: fivefoot within pytmx's time
(ratio <= 1) on the big maps. Maps: the shipped maps/*.tmx, the pytmx-readable maps of Tiled's
own examples (../shared/tiled-corpus, skipped if absent), and generated big maps (1000x1000 and
200x200, CSV and base64-zlib layers, terrain rectangles, polygons and ellipses).

    python bench/bench_map_load.py [--runs N]
"""
from __future__ import annotations

import argparse
import base64
import logging
import statistics
import sys
import tempfile
import time
import warnings
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import pytmx  # noqa: E402

from game.io.tiled import load_map  # noqa: E402
from tiled_maps import (FLOOR, FOG, ROCK, TREE, WALL, WATER, obj, object_layer, tile_layer,  # noqa: E402
                                tmx, write_map)

CORPUS = ROOT.parent / "shared" / "tiled-corpus" / "tiled-examples"
CORPUS_MAPS = ["desert.tmx", "sewers.tmx", "rpg/island.tmx", "orthogonal-outside.tmx", "forest/forest.tmx"]


def _rows(width: int, height: int) -> list[list[int]]:
    """A ground of floor with walls, trees, fog, rock and water scattered in a fixed pattern."""
    kinds = (WALL, TREE, FOG, ROCK, WATER)
    return [[kinds[(x * 7 + y * 13) % 5] if (x * 31 + y * 17) % 11 == 0 else FLOOR for x in range(width)]
            for y in range(height)]


def _zlib_layer(name: str, rows) -> str:
    data = b"".join(v.to_bytes(4, "little") for row in rows for v in row)
    packed = base64.b64encode(zlib.compress(data)).decode()
    return tile_layer(name, rows, data=f'<data encoding="base64" compression="zlib">{packed}</data>')


def _terrain(count: int, width: int, height: int) -> str:
    objects = []
    for i in range(count):
        x, y = (i * 37 * 32) % (width * 32 - 200), (i * 91 * 32) % (height * 32 - 200)
        if i % 10 == 3:
            objects.append(obj("terrain", x, y, props={"difficult": True},
                               shape='<polygon points="0,0 150,20 170,160 20,130"/>'))
        elif i % 10 == 7:
            objects.append(obj("terrain", x, y, 150, 90, props={"water": True}, shape="<ellipse/>"))
        else:
            objects.append(obj("terrain", x, y, 96, 64, props={"concealment": "1/4"}))
    return object_layer("terrain", *objects)


def generated(folder: Path) -> dict[str, Path]:
    big, mid = _rows(1000, 1000), _rows(200, 200)
    rocks = [[ROCK if (x + y) % 9 == 0 else 0 for x in range(200)] for y in range(200)]
    maps = {
        "1000x1000 csv+zlib": tmx(tile_layer("ground", big), _zlib_layer("over", big), width=1000, height=1000),
        "200x200 3 layers+300 obj": tmx(tile_layer("ground", mid), _zlib_layer("walls", mid), tile_layer("rocks", rocks),
                                        _terrain(300, 200, 200), width=200, height=200),
    }
    return {name: write_map(folder / f"m{i}", text) for i, (name, text) in enumerate(maps.items())}


def cpu_ms(load, path: Path) -> float:
    t0 = time.process_time()
    load(path)
    return (time.process_time() - t0) * 1000


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")  # pytmx warns and logs about what it does not understand
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        cases = {f"maps/{p.name}": p for p in sorted((ROOT / "maps").glob("*.tmx"))}
        if CORPUS.is_dir():
            cases |= {f"corpus {name}": CORPUS / name for name in CORPUS_MAPS}
        cases |= generated(Path(tmp))
        loaders = {"fivefoot": load_map, "pytmx": lambda path: pytmx.TiledMap(str(path))}
        times = {(case, who): [] for case in cases for who in loaders}
        unread = set()
        for case, path in cases.items():          # warm up (file cache, first-use imports)
            load_map(path)
            try:
                loaders["pytmx"](path)
            except ValueError:                     # a property named `height`: pytmx reserves the name
                unread.add(case)
        for _ in range(args.runs):
            for case, path in cases.items():
                for who, load in loaders.items():
                    if (case, who) != (case, "pytmx") or case not in unread:
                        times[(case, who)].append(cpu_ms(load, path))
    print(f"Map loading, CPU ms per load (median of {args.runs}, interleaved)")
    print(f"{'map':<36} {'fivefoot':>9} {'pytmx':>9} {'ratio':>6}")
    for case in cases:
        ours = statistics.median(times[(case, "fivefoot")])
        if case in unread:
            print(f"{case:<36} {ours:>9.1f} {'-':>9} {'-':>6}  (pytmx refuses its `height` properties)")
            continue
        theirs = statistics.median(times[(case, "pytmx")])
        print(f"{case:<36} {ours:>9.1f} {theirs:>9.1f} {ours / theirs:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
