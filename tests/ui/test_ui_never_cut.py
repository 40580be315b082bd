"""Issue 26 item 3: never cut a reason, always the binding one; labels never over a token or out of view."""
from __future__ import annotations

import pygame

from game.client import describe
from game.core.values.actions import Move

from window import advance_to, hover, make_app


def test_a_straight_run_of_plain_steps_is_one_line_and_a_climb_keeps_its_own():
    app = make_app("first_battle.toml")
    advance_to(app, "hero")
    b = app.battle
    preview = b.preview(Move("hero", to=(10, 6)))
    lines = [text for text, _ in describe.path_lines(preview, b.figures["hero"], b.limits("hero"))]
    assert lines[1].startswith("  5,6 to 10,6 E: 6 x 5 ft straight = 30 ft") and len(lines) == 2, lines
    sky = make_app("sky.toml")
    advance_to(sky, "griffon")
    g = sky.battle.figures["griffon"]
    preview = sky.battle.preview(Move("griffon", to=(g.x + 6, g.y), altitude_ft=g.altitude_ft + 10))
    lines = [text for text, _ in describe.path_lines(preview, g, sky.battle.limits("griffon"))]
    assert any("climbs" in line for line in lines), lines          # the climb is never folded away
    assert any(" x 5 ft straight" in line for line in lines), lines


def test_beyond_every_reach_the_refusal_is_runnings_when_running_goes_further():
    """ogre_corridor: the tooltip said 'Ogre has 30 ft (walk)' though it may run 60 ft."""
    app = make_app("ogre_corridor.toml")
    advance_to(app, "ogre")
    app.select("ogre")
    hover(app, (15, 6))
    app.settle()
    words = " ".join(text for text, _ in app.hover_lines())
    assert "(run)" in words and "60 ft" in words, words


def test_the_turn_order_says_how_many_it_does_not_show_and_keeps_the_current_in_view():
    app = make_app("charge_demo.toml", size=(1024, 700), cell=None)
    advance_to(app, "lancer")
    app.select("lancer")
    app.settle()
    order = app.turn_order()
    shown = sum(1 for _, kind, _ in app.panel.hits if kind == "figure")
    if shown < len(order):
        more = app.panel.turns_more
        counted = sum(int(part.split()[0].lstrip("+")) for part in more.split(" · "))
        assert shown + counted == len(order), (shown, more)
    assert "lancer" in {value for _, kind, value in app.panel.hits if kind == "figure"}


def test_a_label_takes_the_first_spot_inside_the_view_that_covers_nothing():
    from game.ui.marks import free_spot
    screen = pygame.Surface((200, 100))
    token = pygame.Rect(150, 40, 20, 20)
    spots = [(190, 10), (140, 45), (20, 20)]           # off the right edge; over the token; free
    assert free_spot(screen, spots, 40, 12, [token]) == (20, 20)
    assert free_spot(screen, [(190, 10)], 40, 12, []) == (160, 10)      # moved inside when nothing else


def test_a_selected_figures_name_is_not_drawn_over_the_token_below_it():
    app = make_app("first_battle.toml")
    figs = app.battle.figures
    assert figs["spear"].pos == (figs["hero"].x, figs["hero"].y + 1)
    drawn = [(True, False, f.y, f.id, f.x, f, None) for f in figs.values()]
    named = app.scene._names_that_fit(drawn, 40, {"hero"})
    assert "hero" not in named and "spear" in named
