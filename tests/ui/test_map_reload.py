"""The map maker's loop in the window: a map made for another game says once how it was read, and
`play` reloads a map whose file changes on disk, the figures kept where they still fit; the camera
never shows black beyond a map larger than the view."""
from __future__ import annotations

import os

from window import pixel, step  # noqa: F401  (sets the dummy video driver first)

from game.client.mapreload import MapWatch, reload_battle
from game.core.battle import Battle
from game.io.scenarios import load_scenario
from game.ui.camera import Camera
from tiled_maps import grid, tile_layer, tileset_xml, tmx, write_map

PLAIN = tileset_xml(tile_props={})


def write(folder, walls):
    rows = [[2 if (x, y) in walls else 0 for x in range(12)] for y in range(8)]
    return write_map(folder, tmx(tile_layer("ground", grid(12, 8)), tile_layer("Collision", rows),
                                 width=12, height=8), tsx=PLAIN)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_changed_map_is_noticed_once_polled_and_reloaded_keeping_figures(tmp_path):
    path = write(tmp_path, walls={(6, 0)})
    scenario = load_scenario(path)
    battle = Battle.from_scenario(scenario)
    clock = Clock()
    watch = MapWatch(battle.map, clock)
    assert str(path.resolve()) in watch.files and str((tmp_path / "t.tsx").resolve()) in watch.files
    blue = next(f for f in scenario.figures if f.side == "blue")
    write(tmp_path, walls={(6, 0), (6, 1), (blue.x, blue.y)})    # a wall where a blue figure stands
    os.utime(path, ns=(1, 1))
    assert not watch.changed()              # not polled before POLL_S has passed
    clock.now += 1.5
    assert watch.changed() and not watch.changed()
    clock.now += 1.5
    assert not watch.changed()              # nothing new since
    scenario2, battle2, words = reload_battle(scenario, battle)
    assert battle2.map.blocks_move[1, 6] and battle2.map.blocks_move.count_nonzero() == 3
    moved = battle2.figures[blue.id]
    assert (moved.x, moved.y) != (blue.x, blue.y) and not battle2.map.blocks_move[moved.y, moved.x]
    assert max(abs(moved.x - blue.x), abs(moved.y - blue.y)) == 1          # the nearest open square
    assert words == f"m.tmx reloaded: 2 squares changed; moved {battle2.figures[blue.id].label} to ({moved.x}, {moved.y})"
    others = [f for f in scenario.figures if f.id != blue.id]
    assert all((battle2.figures[f.id].x, battle2.figures[f.id].y) == (f.x, f.y) for f in others)


def test_the_window_says_how_the_map_was_read_and_reloads_it(tmp_path):
    from game.ui.app import App
    path = write(tmp_path, walls={(6, 3)})
    app = App(load_scenario(path), sides={"blue": "human", "red": "human"}, size=(1024, 700), background=False)
    app.frame([])
    assert [t.text for t in app.ui.toasts] == ["Map: walls taken from the layer 'Collision': 1 square"]
    write(tmp_path, walls={(6, 3), (6, 4)})
    app.map_watch.due = 0.0
    os.utime(path, ns=(1, 1))
    app.frame([])
    assert app.battle.map.blocks_move[4, 6]
    assert "m.tmx reloaded: 1 square changed; every figure kept its square" in [t.text for t in app.ui.toasts]
    path.write_text("<map")                 # saved half-way: the battle goes on, the message says why
    app.map_watch.due = 0.0
    app.frame([])
    assert app.battle.map.blocks_move[4, 6]
    assert any(t.text.startswith("map not reloaded: ") and "not well-formed XML" in t.text for t in app.ui.toasts)


def test_the_camera_stays_on_a_map_larger_than_the_view():
    camera = Camera(640, 480, 100, 80, cell=32)
    for world in ((0, 0), (100, 80), (-50, 200), (50, 40)):
        camera.center_on(world)
        assert camera.view_w - 100 * 32 <= camera.ox <= 0 and camera.view_h - 80 * 32 <= camera.oy <= 0
    camera.pan(10_000, 10_000)
    assert (camera.ox, camera.oy) == (0, 0)
    small = Camera(640, 480, 4, 3, cell=32)
    assert (small.ox, small.oy) == ((640 - 128) / 2, (480 - 96) / 2)
