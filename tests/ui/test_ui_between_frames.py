"""The work a frame does not wait for (App.between_frames, ui/scene.py: Scene.prefetch): in what is
left of a frame's slot the window builds the chunks the view lacks and, while a pan goes on or the
view holds still, those around it, so that panning frames find their chunks built and only draw.
None of it is done in a slot with no time left, and nothing it builds changes what is shown."""
import pygame

from window import make_app


def _panning_app(budget_s=0.0015):
    app = make_app("canyon.tmx", size=(1024, 700), cell=32)    # 40 x 30 squares: a few chunks each way
    app.chunk_budget_s = budget_s
    for name in ("reach", "threat", "zones"):
        app.set_overlay(name, True)
    app.select(app.battle.current)
    app.camera.set_cell(80)
    app.camera.center_on((20, 15))
    return app


def _shown(app):
    return pygame.image.tobytes(app.screen.subsurface(app.map_rect), "RGB")


def test_a_pan_finds_the_chunks_around_the_view_built_between_frames():
    app = _panning_app()
    app.frame([])
    app.between_frames(None)
    for _ in range(20):             # held still: then the chunks around the view are asked for
        app.frame([])
        app.between_frames(None)
    assert app.map_layer.missing_around(app.camera) == []
    built_in_frames = []
    for _ in range(40):             # a slow pan to the right: a chunk's width and more
        app.camera.pan(-9, 0)
        app.frame([])
        built_in_frames.append(app.map_layer.built_last_frame)
        app.between_frames(None)
        assert app.map_layer.missing_around(app.camera) == []     # the ring ahead is built again
    assert sum(built_in_frames) == 0, built_in_frames


def test_a_slot_with_no_time_left_builds_nothing():
    app = _panning_app()
    app.frame([])
    missing = list(app.map_layer.missing_around(app.camera, 0))
    assert app.between_frames(0.0) == 0
    assert app.map_layer.missing_around(app.camera, 0) == missing


def test_after_a_zoom_the_view_is_filled_in_between_frames_but_not_the_ring_around_it():
    """A zoom leaves thumbnails where chunks are missing (a frame builds what its budget allows);
    between frames the view's own chunks are built at once, those around it only once the view has
    held still a while (the wheel may be passing through this level)."""
    app = _panning_app(budget_s=0.0)
    app.frame([])
    app.between_frames(None)
    app.camera.zoom(-1)
    app.frame([])
    assert app.scene._holes, "the zoom's first frame has thumbnails standing in"
    built = app.between_frames(None)
    assert built > 0
    assert app.map_layer.missing_around(app.camera, 0) == []
    assert not app.scene.areas.pending(app.camera)
    assert app.map_layer.missing_around(app.camera, 1) != []      # not yet: the view has not held
    app.frame([])
    assert app.scene._holes == []
    filled = _shown(app)
    app.scene._scroll, app.scene._ground_key = None, None
    app.scene._views.clear()
    app.frame([])
    assert filled == _shown(app)        # the holes filled from chunks built between frames: the view whole
