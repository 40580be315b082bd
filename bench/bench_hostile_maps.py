"""How fast hostile or broken Tiled files are refused (target: each within a second).

Builds each case in a temporary folder and prints the median time to refusal and the peak
traced memory. Run: .venv/bin/python bench/bench_hostile_maps.py
"""
from __future__ import annotations

import base64
import statistics
import sys
import tempfile
import time
import tracemalloc
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from game.core.errors import DataFileError  # noqa: E402
from game.io.tiled import load_tiled_map  # noqa: E402
from test_tiled_support import grid, tile_layer, tmx, write_map  # noqa: E402


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


def main() -> None:
    print(f"{'case':<24} {'median ms':>10} {'peak MiB':>9}  message")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in CASES.items():
            if text is None:
                text = tmx(_bomb_layer())
            folder = Path(tmp) / name.replace(" ", "_").replace("/", "_")
            folder.mkdir()
            path = write_map(folder, text)
            times, message, peak = [], "", 0
            for i in range(5):
                if i == 0:
                    tracemalloc.start()
                t0 = time.perf_counter()
                try:
                    load_tiled_map(path)
                    message = "LOADED (not refused!)"
                except DataFileError as err:
                    message = err.problem
                times.append((time.perf_counter() - t0) * 1000)
                if i == 0:
                    peak = tracemalloc.get_traced_memory()[1]
                    tracemalloc.stop()
            print(f"{name:<24} {statistics.median(times):>10.1f} {peak / 2 ** 20:>9.1f}  {message[:70]}")


if __name__ == "__main__":
    main()
