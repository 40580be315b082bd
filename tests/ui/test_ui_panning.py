"""Panning keeps the ground in a ring picture and draws only the strips it uncovers (ui/scene.py:
Scene._scrolled): what it shows is, pixel for pixel, what drawing the whole view again shows, for
arrow keys, a middle-button drag and a jump, with the reach, threat and zone overlays on."""
import pygame

from window import key, make_app, motion, press, release, step


def _whole_view(app):
    """The view drawn again from nothing (no scrolled picture, no still frame, no view kept)."""
    app.scene._scroll = None
    app.scene._ground_key = None
    app.scene._views.clear()
    app.frame([])
    return pygame.image.tobytes(app.screen.subsurface(app.map_rect), "RGB")


def _shown(app):
    return pygame.image.tobytes(app.screen.subsurface(app.map_rect), "RGB")


def test_a_panned_view_is_the_view_drawn_whole(monkeypatch):
    from game.ui.scene import Scene
    scrolled = []
    real = Scene._scrolled
    monkeypatch.setattr(Scene, "_scrolled", lambda self, *a: scrolled.append(real(self, *a)) or scrolled[-1])
    app = make_app("horse_field.toml", size=(1024, 700), cell=80)
    app.chunk_budget_s = None      # every chunk drawn at once: no thumbnails standing in
    for name in ("reach", "threat", "zones"):
        app.set_overlay(name, True)
    app.select(app.battle.current)
    app.frame([])
    app.frame([])
    for event in [key(pygame.K_RIGHT), key(pygame.K_DOWN), key(pygame.K_LEFT, pygame.KMOD_SHIFT), key(pygame.K_UP)]:
        step(app, event)
        assert _shown(app) == _whole_view(app)
    centre = app.map_rect.center
    step(app, press(centre, button=2))
    for rel in ((-13, 0), (0, -7), (9, 11), (-400, 5)):
        step(app, motion((centre[0] + rel[0], centre[1] + rel[1]), buttons=(0, 1, 0), rel=rel))
        shown = _shown(app)
        assert shown == _whole_view(app), rel
    step(app, release(centre, button=2))
    assert sum(s is not None for s in scrolled) >= 6     # the panned frames were scrolled, not drawn whole
    assert app.camera.ox != 0 or app.camera.oy != 0


def test_a_long_pan_across_the_rings_seam_is_the_view_drawn_whole():
    """Many pans in a row, more than a view's width and height in all, without a whole redraw
    between them: the ring's seam passes every place of the view and is never seen."""
    app = make_app("canyon.tmx", size=(1024, 700), cell=80)     # 40 x 30 squares, drawn from its tiles
    app.chunk_budget_s = None
    for name in ("reach", "threat", "zones"):
        app.set_overlay(name, True)
    app.select(app.battle.current)
    app.frame([])
    app.frame([])
    app.camera.center_on((4, 4))
    app.frame([])
    app.frame([])
    travelled = [0, 0]
    moves = [(-37, -23)] * 30 + [(41, 0)] * 20 + [(0, 29)] * 20 + [(-17, 13)] * 10
    for i, (dx, dy) in enumerate(moves):
        before = (app.camera.ox, app.camera.oy)
        app.camera.pan(dx, dy)
        travelled[0] += abs(app.camera.ox - before[0])
        travelled[1] += abs(app.camera.oy - before[1])
        app.frame([])
        if i % 3 == 2:
            ring = app.scene._scroll
            assert _shown(app) == _whole_view(app), (i, dx, dy)
            app.scene._scroll = ring        # go on panning from the ring, not from the whole view
    w, h = app.map_rect.size
    assert travelled[0] > 2 * w and travelled[1] > 2 * h


def test_the_hover_words_follow_a_pan_once_the_view_holds_still():
    """While the view pans the square under the pointer changes at every square passed (here the
    pointer moves too, as in a drag): the panel's hover section follows on the first frame the view
    holds still, not at every frame of the pan."""
    app = make_app("horse_field.toml", size=(1024, 700), cell=40)
    app.select(app.battle.current)
    pointer = app.map_rect.center
    step(app, motion(pointer))
    app.frame([])
    before = app.panel_key()[1]
    assert app.panel._key[1] == before
    panel_then = pygame.image.tobytes(app.screen.subsurface(app.panel.rect), "RGB")
    step(app, key(pygame.K_RIGHT), motion((pointer[0] + 90, pointer[1])))     # a pan, the pointer moving
    assert app.scene.moving
    moved_to = app.panel_key()[1]
    assert moved_to[0] != before[0]                 # another square under the pointer
    assert app.panel._key[1] == before              # the hover words wait while the view moves
    for _ in range(60):                             # the pan glides on, then the view holds still
        app.frame([])
        if not app.scene.moving:
            break
        assert app.panel._key[1] == before
    assert not app.scene.moving
    assert app.panel._key[1] == moved_to
    assert pygame.image.tobytes(app.screen.subsurface(app.panel.rect), "RGB") != panel_then
