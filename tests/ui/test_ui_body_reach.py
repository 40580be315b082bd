"""The reachable-squares overlay of a figure bigger than a square shows the area its body can cover,
and a click (or hover) on any square of that area moves the body over it (real pygame events,
pixels checked); one-square figures are unchanged."""
from __future__ import annotations

import pygame

from game.core.moves.path import ReachEntry
from game.client import describe
from game.ui import theme
from game.client.rulesview import ReachInfo
from game.core.battle import MoveLimit, Reachable
from window import (advance_to, click, hover, make_app, only_overlays, pixel, shot, square_samples, step,
                             tinted)


def _ogre_app(*overlays):
    app = make_app("ogre_corridor.toml", cell=40)
    advance_to(app, "ogre")
    only_overlays(app, *overlays)
    app.settle()
    return app


def _edge_pixels(app, square):
    """The middle of a square's top edge and of its left edge (where a body's outline runs)."""
    c = app.camera.cell
    x, y = app.camera.to_screen(*square)
    x += app.map_rect.x
    y += app.map_rect.y
    return [pixel(app, (x + c // 2, y + 3)), pixel(app, (x + 3, y + c // 2))]


def test_the_overlay_covers_every_square_the_ogres_body_can_end_on():
    app = _ogre_app("grid")
    bare = {sq: square_samples(app, sq) for sq in [(2, 7), (4, 6), (1, 7), (1, 9), (5, 5)]}
    app.set_overlay("reach", True)
    step(app)
    walk = app.rules.reach("ogre", "walk")
    assert (2, 7) not in walk.ends and (4, 6) not in walk.ends     # no end puts the ogre's anchor there ...
    assert {(2, 7), (4, 6)} <= set(walk.covered())                 # ... but its body covers them at some end
    shot(app, "body-reach-ogre")
    for sq in [(2, 7), (4, 6), (1, 7)]:
        assert tinted(bare[sq], square_samples(app, sq)), sq        # the walk shade over the whole body's area
    assert tinted(bare[(1, 9)], square_samples(app, (1, 9)))        # the run shade beyond
    assert not tinted(bare[(5, 5)], square_samples(app, (5, 5)), share=0.05)   # the body never reaches this far


def test_a_click_on_a_square_the_body_can_cover_moves_the_ogre_over_it():
    app = _ogre_app("path")
    hover(app, (2, 7))
    app.settle()
    move = app.hover.intent.action
    assert move.to == (1, 6) and move.mode == "walk"       # the cheapest end covering 2,7 (1,7 would cost more)
    assert app.hover.preview is not None and app.hover.preview.allowed
    panel = [t for t, _ in describe.hover_lines(app.ui, app.rules, app.selected_figure(), app.hover)]
    assert any(t.startswith("walk to 1,6") for t in panel)               # the panel words the same move
    assert app._cursor == pygame.SYSTEM_CURSOR_CROSSHAIR                   # and the cursor offers it
    # The hovered move outlines the body that would be moved: rows 6 and 7, not row 8.
    for sq in [(1, 6), (2, 7)]:
        assert theme.PATH in _edge_pixels(app, sq), sq
    assert theme.PATH not in _edge_pixels(app, (2, 8))
    shot(app, "body-reach-ogre-hover")
    click(app, (2, 7))
    app.settle()
    ogre = app.battle.figures["ogre"]
    assert ogre.pos == (1, 6) and (2, 7) in ogre.cells


def test_a_click_in_the_hall_moves_the_ogre_so_its_far_corner_is_there():
    app = _ogre_app()
    click(app, (4, 6))
    app.settle()
    ogre = app.battle.figures["ogre"]
    assert ogre.pos == (3, 5) and (4, 6) in ogre.cells


def test_the_ogres_own_squares_mean_no_move():
    app = _ogre_app()
    hover(app, (2, 2))
    assert app.hover.intent.kind in ("nothing", "select")
    click(app, (2, 2))
    assert app.battle.figures["ogre"].pos == (1, 1)


def test_a_one_square_figure_moves_to_the_square_pointed_at_as_before():
    app = make_app("ogre_corridor.toml", cell=40)
    advance_to(app, "guard1")
    only_overlays(app, "reach")
    app.settle()
    walk = app.rules.reach("guard1", "walk")
    assert sorted(walk.covered()) == sorted(walk.squares())
    assert walk.end_covering((13, 6)) == ((13, 6), None) and walk.end_covering((0, 0)) is None
    hover(app, (3, 6))                           # beyond its reach: still a move to that very square (refused)
    assert app.hover.intent.action.to == (3, 6)
    click(app, (13, 6))
    app.settle()
    assert app.battle.figures["guard1"].pos == (13, 6)


def test_a_riders_reach_is_the_area_its_horses_body_can_cover():
    app = make_app("knights_spears.toml", cell=40)
    advance_to(app, "knight1")
    click(app, (4, 3))                           # the saddle: the rider
    app.settle()
    walk = app.rules.reach("knight1", "walk")
    assert walk.footprint == (1, 2) and (4, 8) in walk.covered() and (4, 8) not in walk.ends
    hover(app, (4, 8))
    move = app.hover.intent.action
    assert (move.figure, move.to, move.facing) == ("knight1", (4, 7), "N")   # head at 4,7, its tail on 4,8
    click(app, (4, 8))
    app.settle()
    assert app.battle.figures["horse1"].cells == ((4, 7), (4, 8)) and app.battle.figures["knight1"].pos == (4, 7)


# ----- which end a pointed square means (ReachInfo over the resolver's entries) -----
def _info(footprint, entries):
    limit = MoveLimit("walk", budget_ft=30.0, left_ft=30.0)
    return ReachInfo("walk", Reachable("a", "walk", limit, entries, footprint))


def test_the_cheapest_end_covering_a_square_then_the_body_centred_nearest_it():
    e = ReachEntry
    info = _info((3, 3), {(0, 0): e(10.0, dict.fromkeys(range(8), 10.0), {0: 10.0}),
                          (1, 0): e(10.0, dict.fromkeys(range(8), 10.0), {0: 10.0}),
                          (0, 1): e(5.0, dict.fromkeys(range(8), 5.0), {0: 5.0}),
                          (5, 5): e(5.0, dict.fromkeys(range(8), 5.0), {0: 5.0}, can_end=False)})
    assert set(info.covered()) == {(x, y) for x in range(4) for y in range(4)} - {(3, 3)}   # 5,5: an ally there
    assert info.end_covering((2, 2)) == ((0, 1), None)      # the cheapest
    assert info.end_covering((3, 1)) == ((1, 0), None)      # only one covers it
    assert info.end_covering((2, 0)) == ((1, 0), None)      # equally cheap: the body centred nearest
    assert info.end_covering((0, 0)) == ((0, 0), None)      # an anchor that can end there means itself
    assert info.end_covering((3, 3)) is None


def test_a_long_body_covers_different_squares_per_end_facing():
    e = ReachEntry
    info = _info((1, 2), {(5, 5): e(10.0, {0: 10.0, 4: 20.0}, {0: 10.0}), (7, 5): e(35.0, {0: 35.0}, {0: 35.0})})
    assert set(info.covered()) == {(5, 5), (5, 6), (5, 4)}  # facing N the tail is south, facing S north; 7,5 too far
    assert info.end_covering((5, 4)) == ((5, 5), 4)         # the head there, facing S
    assert info.end_covering((5, 4), facing=0) is None      # no end facing N covers it
    assert info.end_covering((5, 6), facing=0) == ((5, 5), 0)
