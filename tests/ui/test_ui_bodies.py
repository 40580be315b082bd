"""Figures bigger than a square in the window: the whole footprint drawn with the facing, and a
click on any of its squares picks the figure (real pygame events, pixels checked)."""
from __future__ import annotations

from dataclasses import replace

from game.core.values.actions import Turn
from game.ui import theme
from window import advance_to, click, make_app, only_overlays, shot, square_corner_pixels, step


def _plate(app, square):
    """The pixel just inside a square's far corner, clear of the token and of the body's rim."""
    return square_corner_pixels(app, square, inset=7)


def test_a_big_body_is_drawn_on_every_square_it_covers():
    app = make_app("ogre_corridor.toml")
    only_overlays(app, "grid")
    step(app)
    ogre, horse = app.battle.figures["ogre"], app.battle.figures["horse"]
    assert ogre.cells == ((1, 1), (2, 1), (1, 2), (2, 2)) and horse.cells == ((4, 10), (3, 10))
    red_plate = theme.darker(theme.side_colour("red"), 0.55)
    # The ogre's plate shows in the outer corner of each of its four squares; the square below it is floor.
    assert _plate(app, (1, 1))[0] == red_plate
    assert _plate(app, (2, 1))[1] == red_plate
    assert _plate(app, (1, 2))[2] == red_plate
    assert _plate(app, (2, 2))[3] == red_plate
    assert red_plate not in _plate(app, (1, 3))
    # The horse's tail lies behind its head, against its facing (east): darker toward the tail.
    tail = _plate(app, (3, 10))[0]
    assert tail != _plate(app, (5, 10))[0] and sum(tail) < sum(red_plate)
    shot(app, "bodies-ogre-and-horse")


def test_a_click_on_any_square_of_a_big_body_selects_it():
    app = make_app("ogre_corridor.toml")
    advance_to(app, "ogre")
    click(app, (3, 10))             # the horse's tail, not its head
    assert app.ui.selected == "horse"
    click(app, (2, 2))              # the ogre's far corner, not its anchor
    assert app.ui.selected == "ogre"
    assert [f.id for f in app.figures_on((2, 1))] == ["ogre"]


def test_the_drawn_body_follows_the_facing():
    app = make_app("ogre_corridor.toml")
    only_overlays(app, "grid")
    advance_to(app, "horse")
    # In its one-square passage the horse cannot swing its tail into the wall: it turns end to end.
    assert app.battle.check(Turn("horse", facing="N")) is not None
    app.battle.apply(Turn("horse", facing="W"))
    step(app)
    horse = app.battle.figures["horse"]
    assert horse.cells == ((4, 10), (5, 10))
    red_plate = theme.darker(theme.side_colour("red"), 0.55)
    assert sum(_plate(app, (5, 10))[1]) < sum(red_plate) and red_plate not in _plate(app, (3, 10))
    shot(app, "bodies-horse-turned")
    assert replace(horse, facing=2).cells == ((4, 10), (3, 10))


def test_the_hovered_move_shows_the_squares_the_body_will_cover():
    from window import hover, pixel
    app = make_app("ogre_corridor.toml", cell=40)
    advance_to(app, "ogre")
    only_overlays(app, "path")
    app.settle()
    c = app.camera.cell

    def edge_pixels(square):
        x, y = app.camera.to_screen(*square)
        x += app.map_rect.x
        y += app.map_rect.y
        return [pixel(app, (x + c // 2, y + 3)), pixel(app, (x + 3, y + c // 2))]

    before = edge_pixels((2, 7))
    hover(app, (1, 6))
    app.settle()
    assert app.hover.preview is not None and app.hover.preview.allowed
    assert theme.PATH in edge_pixels((2, 7)) and theme.PATH not in before   # the far corner of the 2 x 2 body
    shot(app, "bodies-path-end")
