"""Riders in the window: the rider drawn smaller on its mount's front square, both visible, a click
picking either, and a rider's hovered move outlining its mount's body (real pygame events, pixels)."""
from __future__ import annotations

from game.core.values.actions import Move
from game.ui import theme
from window import advance_to, click, hover, make_app, only_overlays, pixel, shot, square_corner_pixels, step


def test_rider_is_drawn_on_its_mount_and_either_can_be_picked():
    app = make_app("knights_spears.toml")
    only_overlays(app, "grid")
    step(app)
    horse, knight = app.battle.figures["horse1"], app.battle.figures["knight1"]
    assert knight.pos == horse.pos == (4, 3) and horse.cells == ((4, 3), (3, 3))
    blue_plate = theme.darker(theme.side_colour("blue"), 0.55)
    # The horse's plate shows on both its squares; the rider's token sits on the front square.
    assert blue_plate in square_corner_pixels(app, (4, 3), inset=7)
    assert any(sum(p) < sum(blue_plate) for p in square_corner_pixels(app, (3, 3), inset=7))   # the tail: darker
    centre = app.screen_pos((4, 3))
    blue = theme.side_colour("blue")
    # A small rider token at the square's middle (raised a little), the horse's token rim around it.
    c = app.camera.cell
    ring = [pixel(app, (centre[0] + dx, centre[1] - c // 10)) for dx in range(-c // 2 + 2, c // 2 - 2)]
    assert blue in ring
    shot(app, "mounts-riders-on-horses")
    advance_to(app, "knight1")
    click(app, (4, 3))
    assert app.ui.selected == "knight1"
    click(app, (3, 3))
    assert app.ui.selected == "horse1"


def test_riders_hovered_move_outlines_the_mounts_body():
    app = make_app("knights_spears.toml")
    only_overlays(app, "grid", "path")
    advance_to(app, "knight1")
    click(app, (4, 3))
    assert app.ui.selected == "knight1"
    app.settle()
    c = app.camera.cell

    def edge_pixels(square):
        x, y = app.camera.to_screen(*square)
        x += app.map_rect.x
        y += app.map_rect.y
        return [pixel(app, (x + c // 2, y + 3)), pixel(app, (x + 3, y + c // 2))]

    before = edge_pixels((8, 3))
    hover(app, (9, 3))
    app.settle()
    assert app.hover.preview is not None and app.hover.preview.allowed
    assert theme.PATH in edge_pixels((8, 3)) and theme.PATH not in before   # the horse's tail where it would stand
    shot(app, "mounts-rider-move-preview")
    app.battle.apply(Move("knight1", to=(9, 3)))
    step(app)
    assert app.battle.figures["horse1"].cells == ((9, 3), (8, 3)) and app.battle.figures["knight1"].pos == (9, 3)
