"""Manoeuvres in the window, by real pygame events: N picks the ruleset's manoeuvres, a trip is two
clicks (the foe, then its square), K escapes or lets go, and what happened is drawn from the events."""
from __future__ import annotations

import pygame

from game.core.values.actions import EndTurn, Trip
from game.core.values.events import EventKind
from game.ui import marks
from window import click, hover, key, make_app, only_overlays, pixel, shot, step


def to_melee_turn(app, who):
    for _ in range(60):
        b = app.battle
        if b.current == who and b.state.phase != "declare" and b.current_phase in ("all", "melee"):
            break
        b.apply(EndTurn(figure=b.current))
    assert app.battle.current == who
    app.frame([])


def test_n_cycles_the_rulesets_manoeuvres_and_a_trip_is_the_foe_then_its_square():
    app = make_app("wall_walk.toml")
    assert app.manoeuvres() == ["grapple", "trip"]            # bfrpg: Wrestling and Tripping
    to_melee_turn(app, "captain")
    step(app, key(pygame.K_n))
    assert app.ui.mode == "grapple"
    step(app, key(pygame.K_n))
    assert app.ui.mode == "trip"
    n = len(app.battle.actions)
    click(app, (9, 2))                                        # the brute: marked, nothing sent yet
    assert app.ui.manoeuvre_target == "raider2" and len(app.battle.actions) == n
    click(app, (9, 3))                                        # the bailey below the wall-walk
    assert app.battle.actions[-1] == Trip("captain", target="raider2", to=(9, 3))
    trip = [e for e in app.battle.events if e.kind == EventKind.TRIP][-1]
    assert app.ui.manoeuvre_target is None
    only_overlays(app, "grid")
    hover(app, (15, 7))
    step(app)
    path = shot(app, "manoeuvre-trip-off-the-wall")
    assert path.exists()
    if trip.outcome == "prone":
        assert app.battle.figures["raider2"].pos == (9, 3)
        assert trip in marks.marked_events(app.battle.events)
        # The blue arrow from where it stood to where it fell, just below the wall-walk square's centre.
        cx, cy = app.screen_pos((9, 2))
        cell = app.camera.cell
        assert pixel(app, (cx, cy + cell * 0.3)) == (120, 200, 255)
    step(app, key(pygame.K_n))
    assert app.ui.mode == "auto"                               # past the last: back to move


def test_n_in_a_ruleset_with_only_the_push_and_k_without_a_hold():
    app = make_app("wall_walk.toml", ruleset="spelljammer")
    assert app.manoeuvres() == ["push"]
    step(app, key(pygame.K_n))
    assert app.ui.mode == "push"
    step(app, key(pygame.K_ESCAPE))
    assert app.ui.mode == "auto"
