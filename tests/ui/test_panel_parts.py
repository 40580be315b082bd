"""The side panel is laid out in parts, each drawn again only when what it shows changed, and only
the bands that changed are copied to the screen (ui/panel.py: Panel._compose): what the screen
shows is, pixel for pixel, the panel drawn whole from nothing, however it got there."""
import pygame

from window import advance_to, make_app, motion, step


def _on_screen(app):
    return pygame.image.tobytes(app.screen.subsurface(app.panel.rect), "RGB")


def _drawn_whole(app):
    """A new panel of the same size drawn once onto a fresh screen."""
    from game.ui.panel import Panel
    fresh = Panel(app.fonts, app.panel.rect.copy())
    screen = pygame.Surface(app.screen.get_size())
    fresh.draw(screen, app)
    return pygame.image.tobytes(screen.subsurface(app.panel.rect), "RGB"), fresh.hits


def _same(app, what):
    pixels, hits = _drawn_whole(app)
    assert _on_screen(app) == pixels, what
    assert sorted((tuple(r), k, str(v)) for r, k, v in app.panel.hits) == \
        sorted((tuple(r), k, str(v)) for r, k, v in hits), what


def test_the_panel_after_hovering_selecting_and_folding_is_the_panel_drawn_whole():
    app = make_app("first_battle.toml", size=(1024, 700), cell=32)
    app.select(app.battle.current)
    app.frame([])
    me = app.battle.figures[app.battle.current]
    _same(app, "first frame")
    # The hover section changes length square by square: the parts below it move.
    for sq in [(me.x + 1, me.y), (me.x + 3, me.y + 2), (me.x, me.y), (0, 0), None, (me.x - 2, me.y + 1)]:
        if sq is None:
            app.ui.hover_square = None
        else:
            step(app, motion(app.screen_pos(sq)))
        app.frame([])
        _same(app, f"hovering {sq}")
    # Folding a section and unfolding it again (a click on its heading).
    for name in ("turns", "hover", "log", "turns"):
        heading = next(r for r, kind, value in app.panel.hits if kind == "section" and value == name)
        app.ui.collapsed ^= {name}
        app.frame([])
        _same(app, f"{name} folded: {name in app.ui.collapsed} at {heading}")
    # Another figure selected, then the next turn: the figure section and the turn order change.
    others = [f for f in app.battle.figures if f != app.ui.selected]
    app.select(others[0])
    app.frame([])
    _same(app, "another figure selected")
    advance_to(app, others[1] if app.battle.current == others[1] else app.battle.current)
    _same(app, "next turn")


def test_a_panel_covered_by_a_box_is_copied_whole_again():
    app = make_app("corridor.toml", size=(1024, 700))
    app.frame([])
    app.ui.help_open = True
    app.frame([])
    app.ui.help_open = False
    app.frame([])
    _same(app, "after the help box")


def test_the_hover_section_drawn_again_in_its_place_is_the_panel_drawn_whole(monkeypatch):
    """When only what is under the pointer changed and its lines take the room they took, only the
    hover section is drawn again (Panel._hover_again): the same pixels as a panel drawn whole."""
    from game.ui.panel import Panel
    again = []
    real = Panel._hover_again
    monkeypatch.setattr(Panel, "_hover_again", lambda self, app: again.append(real(self, app)) or again[-1])
    app = make_app("first_battle.toml", size=(1024, 700), cell=32)
    app.select(app.battle.current)
    app.frame([])
    me = app.battle.figures[app.battle.current]
    for dx in range(1, 6):          # squares along a row: walks of the same few steps, told alike
        for dy in (0, 1):
            step(app, motion(app.screen_pos((me.x + dx, me.y + dy))))
            app.frame([])
            _same(app, f"hovering {dx}, {dy}")
    assert True in again, "some hover changes drew the hover section alone"


def test_the_log_stays_put_while_the_pointer_goes_from_a_long_answer_to_a_short_one():
    """The hover section keeps the most room it has taken at this moment (Panel._held_room): the
    log below it does not jump as the pointer moves; a new moment (another selection) lets it go."""
    app = make_app("first_battle.toml", size=(1920, 1080), cell=32)
    app.select(app.battle.current)
    app.frame([])
    me = app.battle.figures[app.battle.current]
    tops, counts = [], []
    for sq in [(me.x + 1, me.y), (me.x + 3, me.y + 2), (me.x, me.y), (0, 0), (me.x + 1, me.y)]:
        step(app, motion(app.screen_pos(sq)))
        app.frame([])
        tops.append(app.panel.log_rect.y)
        counts.append(len(app.hover_lines()))
    assert len(set(counts)) > 1, counts          # answers of different lengths (3, 0 and 2 lines)
    assert len(set(tops)) == 1, tops             # the log never moved (it jumped 51 px before)
    _same(app, "room held")
    step(app, motion(app.screen_pos((me.x + 3, me.y + 2))))
    app.frame([])
    held = app.ui.hover_room[1]
    app.select(next(f for f in app.battle.figures if f != app.ui.selected))
    app.frame([])
    assert app.ui.hover_room[1] < held          # another moment: the room held is let go
    assert app.panel.log_rect.y < tops[0]
    _same(app, "room let go")
