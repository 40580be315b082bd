"""Playing feel: bodies beneath the living, automatic strikes shown, a panel that never overlaps,
undo against the AI, the live ruleset switch, flyers, big maps, animation, the token card and
the compare panel. Real pygame events; state and pixels checked."""
from __future__ import annotations

import json

import pygame
import pytest

from game.core.values.actions import Attack, EndTurn, Move
from game.core.values.events import EventKind
from game.client import describe
from game.ui import theme
from window import (advance_to, click, hover, key, make_app, motion, pixel, press, release, shot, step,
                             tooltip_words)

# Corridor, AI against AI: after these the spearman lies dead at 11,6 with a goblin next to it.
SPEAR_FALLS = [Move("spear", to=(11, 6), facing="N"), EndTurn("spear"), Move("gob3", to=(11, 7), facing="N"),
               EndTurn("gob3"), Attack("spear", target="gob3"), EndTurn("spear"), Attack("gob3", target="spear")]


def _play(app, actions) -> None:
    for action in actions:
        app.battle.apply(action)
    step(app)


def test_a_living_figure_stands_over_a_body_and_the_hover_lists_both():
    app = make_app()
    _play(app, SPEAR_FALLS)
    assert not app.battle.able("spear")
    app.battle.gm_place("gob3", x=11, y=6)   # a body neither blocks nor engages: the goblin may stand on it
    for name in list(app.ui.overlays):
        app.set_overlay(name, False)
    app.select(None)
    hover(app, (11, 6))
    here = [f.id for f in app.hover.here]
    assert here == ["gob3", "spear"]                                      # the living first
    words = [t for t, _ in describe.hover_lines(app.ui, app.rules, None, app.hover)]
    assert any("Goblin brute (red) stands here" in w for w in words)
    assert any("Spearman (blue) lies here, dead" in w for w in words)
    step(app, motion((5, 5)))                                             # no card over the square
    x, y = app.screen_pos((11, 6))
    assert pixel(app, (x, y)) == theme.side_colour("red")                 # the living token on top
    shot(app, "body-beneath-the-living")
    click(app, (11, 6))
    assert app.ui.selected == "gob3"                                      # a click picks the living


def test_a_reach_strike_that_spends_a_turn_is_shown_and_the_preview_agrees():
    app = make_app("horse_field.toml", ruleset="bfrpg", cell=32)
    assert app.battle.current == "knight"
    step(app, key(pygame.K_c))
    click(app, app.battle.figures["pike1"].pos)
    strike = [e for e in app.battle.events if e.kind == EventKind.REACH_ATTACK]
    assert strike and strike[0].actor == "pike1"
    said = [c for c in app.callouts.active(app.clock_now()) if c.text == strike[0].text]   # said where it happens
    assert said and said[0].rule == strike[0].rule and said[0].title == "Reach strikes a closing foe"
    shot(app, "reach-strike-callout")
    advance_to(app, "pike1")
    options = app.rules.options("pike1")
    assert options["move"] is not None                                    # its attack, and so its move, is spent
    pike = app.battle.figures["pike1"]
    hover(app, (pike.x - 2, pike.y))
    assert app.hover.preview is not None and app.hover.preview.refusal == options["move"] or \
        app.hover.preview.refusal is not None
    assert tooltip_words(app)[0].startswith("cannot go there: ")
    key_, layers = app.scene.area_layers(app)
    assert not any(style in ("walk", "run") for style, _ in layers)      # no reach offered
    shot(app, "reach-strike-spent")


@pytest.mark.parametrize("size", [(800, 600), (1280, 800), (1600, 1000), (1920, 1080)])
def test_the_panel_never_overlaps_at_any_window_size(size):
    app = make_app("field.tmx", size=size, cell=None, sides={"blue": "human", "red": "human"})
    me = app.selected_figure()
    hover(app, (me.x + 3, me.y + 2))                                      # a long path preview
    step(app)
    rows = sorted((r.y, r.bottom, kind) for r, kind, _ in app.panel.hits if kind in ("section", "figure", "button"))
    headings = [(top, bottom) for top, bottom, kind in rows if kind == "section"]
    buttons = min(top for top, _, kind in rows if kind == "button")
    assert all(a[1] <= b[0] for a, b in zip(headings, headings[1:]))     # in order, not on top of each other
    assert headings[-1][1] < buttons                                      # the log's heading above the buttons
    assert app.panel.log_rect.bottom <= buttons and app.panel.log_rect.h >= 100
    right = max(r.right for r, kind, _ in app.panel.hits if kind == "button")
    assert right <= app.panel.rect.w                                      # buttons wrap instead of running off
    shot(app, f"panel-{size[0]}x{size[1]}")


def test_every_figure_in_the_turn_order_can_be_scrolled_to():
    app = make_app("field.tmx", size=(900, 600), cell=None)
    order = [fid for fid, _, _ in app.turn_order()]
    seen = set()
    turns_at = app.panel.rect.x + 50, app.panel.turns_rect.y + 5
    step(app, motion(turns_at))
    for _ in range(len(order)):
        seen |= {value for _r, kind, value in app.panel.hits if kind == "figure"}
        step(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    assert seen == set(order)


def test_folding_a_section_gives_its_room_to_the_log():
    app = make_app()
    step(app)
    log_h = app.panel.log_rect.h
    heading = next(r for r, kind, value in app.panel.hits if kind == "section" and value == "figure")
    pos = (app.panel.rect.x + heading.centerx, heading.centery)
    step(app, press(pos), release(pos))
    assert "figure" in app.ui.collapsed
    step(app)
    assert app.panel.log_rect.h > log_h


def test_undo_against_the_ai_goes_back_to_the_persons_last_decision():
    app = make_app(sides={"blue": "human", "red": "ai"})
    assert app.battle.current == "spear"
    click(app, (3, 6))
    step(app, key(pygame.K_SPACE))                                        # end the turn: the AI replies
    for _ in range(10):
        step(app)
    assert len(app.battle.actions) > 2 and app.battle.figures[app.battle.actions[-1].figure].side == "red"
    step(app, key(pygame.K_z, pygame.KMOD_CTRL))
    assert [a.kind for a in app.battle.actions] == ["move"]               # before "end turn", AI moves gone
    assert app.battle.current == "spear"
    for _ in range(5):
        step(app)
    assert [a.kind for a in app.battle.actions] == ["move"]               # and the AI does not redo them
    assert any("Spearman ends the turn" in t.text for t in app.ui.toasts)  # names, not ids
    assert not any(" spear" in t.text or "gob" in t.text for t in app.ui.toasts)


def test_switching_the_ruleset_keeps_position_hit_points_and_turn():
    app = make_app()
    _play(app, SPEAR_FALLS[:5])
    before = {f.id: (f.pos, f.facing, app.battle.status(f.id).hp, app.battle.status(f.id).conditions)
              for f in app.battle.figures.values()}
    turn = (app.battle.round, app.battle.current)
    step(app, key(pygame.K_g), key(pygame.K_RIGHTBRACKET))
    assert app.battle.ruleset.id == "ch17"
    after = {f.id: (f.pos, f.facing, app.battle.status(f.id).hp, app.battle.status(f.id).conditions)
             for f in app.battle.figures.values()}
    assert after == before
    assert (app.battle.round, app.battle.current) == turn


def test_a_charge_click_in_demonstration_mode_charges():
    app = make_app("horse_field.toml", ruleset="bfrpg", cell=32)
    step(app, key(pygame.K_g), key(pygame.K_c))
    assert app.ui.gm and app.ui.mode == "charge"
    n = len(app.battle.actions)
    click(app, app.battle.figures["pike1"].pos)
    assert app.ui.selected == "knight"
    assert len(app.battle.actions) == n + 1 and app.battle.actions[-1].kind == "charge"


def test_a_right_click_cancels_the_mode():
    app = make_app()
    step(app, key(pygame.K_a))
    pos = app.screen_pos((3, 3))
    step(app, press(pos, 3), release(pos, 3))
    assert app.ui.mode == "auto"


def test_a_flyers_refused_altitude_says_why_and_its_path_flies():
    app = make_app("sky.toml", cell=32)
    advance_to(app, "griffon")
    griffon = app.battle.figures["griffon"]
    target = (griffon.x + 3, griffon.y + 1)
    hover(app, target)
    words = [t for t, _ in app.hover_lines()]
    assert words[0].startswith("fly to ")                                 # a flight, not a walk
    step(app, motion((5, 5)))
    for _ in range(30):                                                   # far higher than it can climb
        step(app, key(pygame.K_PAGEUP))
    hover(app, target)
    assert app.hover.preview.refusal is not None
    assert tooltip_words(app) == [f"cannot go there: {app.hover.preview.refusal.words}"]
    shot(app, "flyer-refused-altitude")


def test_a_tiled_map_opens_fitted_and_zooming_out_stops_at_the_whole_map():
    app = make_app("field.tmx", size=(1600, 1000), cell=None)
    cam = app.camera
    assert cam.visible_squares() == (0, 0, app.battle.map.width, app.battle.map.height)
    assert 0 <= cam.ox and 0 <= cam.oy                                    # nothing off-screen
    for _ in range(6):
        step(app, key(pygame.K_MINUS))
    assert cam.cell >= 20 and cam.visible_squares() == (0, 0, app.battle.map.width, app.battle.map.height)
    shot(app, "tiled-field-fitted")


def test_the_window_resizes():
    app = make_app()
    step(app, pygame.event.Event(pygame.VIDEORESIZE, w=1500, h=900, size=(1500, 900)))
    assert app.screen.get_size() == (1500, 900)
    assert app.panel.rect.right == 1500 and app.camera.view_w == app.map_rect.w


def _fake_clock(app):
    now = [1000.0]
    app.animator.clock = lambda: now[0]
    return now


def test_a_move_is_walked_square_by_square_and_the_log_follows():
    app = make_app(animate=True)
    now = _fake_clock(app)
    advance_to(app, "spear")
    for name in list(app.ui.overlays):
        app.set_overlay(name, False)
    n_events = len(app.battle.events)
    click(app, (9, 7))
    assert app.battle.figures["spear"].pos == (9, 7)                      # the battle has moved on
    assert app.animator.busy()
    assert app.shown_events() == n_events + 1                             # the log shows the move as it plays
    now[0] += 0.13 * 2.5                                                  # two and a half squares along
    step(app, motion((5, 5)))
    x, y = app.screen_pos((6, 7))
    x += app.camera.cell // 2
    assert pixel(app, (x + 5, y + 5)) == theme.side_colour("blue")       # between 6,7 and 7,7 now
    shot(app, "walking")
    step(app, key(pygame.K_ESCAPE))                                       # skip
    assert not app.animator.busy() and app.shown_events() == len(app.battle.events)


def test_a_strike_floats_its_result_over_the_target():
    app = make_app(ruleset="ch17", animate=True)
    now = _fake_clock(app)
    advance_to(app, "hero")
    step(app, key(pygame.K_a))
    click(app, (6, 6))
    attack = next(e for e in reversed(app.battle.events) if e.kind == EventKind.ATTACK)
    now[0] += 0.1
    step(app, motion((5, 5)))
    floating = app.animator.floating()
    expected = "miss" if not attack.data["hit"] else "-"
    assert floating and floating[0][1] == "gob1" and floating[0][0].startswith(expected.split()[0])
    shot(app, "strike-floats")


def test_the_turn_banner_names_whose_turn_it_is():
    app = make_app(animate=True)
    _fake_clock(app)
    advance_to(app, "spear")
    step(app, key(pygame.K_SPACE))
    step(app)
    assert app.animator.banner is not None
    cur = app.battle.figures[app.battle.current]
    assert cur.label in app.animator.banner.text


def test_compare_panel_shows_the_same_attack_under_every_ruleset():
    app = make_app()
    advance_to(app, "hero")
    step(app, key(pygame.K_v))
    hover(app, (6, 6))
    judgements = app.compare_state.judgements
    assert [j.ruleset_id for j in judgements] == list(__import__("game.io.rulesets", fromlist=["x"]).bundled_ruleset_ids())
    for j in judgements:
        rejudged = app.battle.rejudged(__import__("game.io.rulesets", fromlist=["x"]).load_ruleset(j.ruleset_id))
        assert j.breakdown.chance() == rejudged.explain_attack("hero", "gob1").chance()
    shot(app, "compare-panel")
    step(app, key(pygame.K_v))
    assert not app.ui.compare


def test_fivefoot_compare_prints_each_ruleset_and_json_keyed_by_ruleset(capsys):
    from game.cli import main
    assert main(["compare", "maps/corridor.toml", "hero", "gob1", "--to", "2,6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    from game.io.rulesets import bundled_ruleset_ids
    assert list(data["rulesets"]) == bundled_ruleset_ids()
    bfrpg = data["rulesets"]["bfrpg"]
    assert bfrpg["attack"]["chance"] >= 0 and bfrpg["move"]["total_ft"] == 15
    assert [p["attacker"] for p in bfrpg["move"]["parting_shots"]] == ["gob1"]
    assert main(["compare", "maps/corridor.toml", "hero", "gob1"]) == 0
    text = capsys.readouterr().out
    assert "== odnd:" in text and "attack Goblin from here:" in text and "melee with the sword" in text
    assert main(["compare", "maps/corridor.toml", "hero", "nobody"]) == 2


def test_name_tags_never_overlap_except_for_the_emphasised():
    """Side by side on the wall-walk, only one of two neighbours' name tags shows (the other's name
    is on the hover card); the selected and current figures show theirs over other tags, but no tag
    covers a token (issue 26: the name is then on the card and in the panel)."""
    app = make_app("wall_walk.toml", cell=40)
    app.settle()
    drawn = [(True, False, f.y, f.id, f.x, f, None) for f in app.battle.figures.values()]
    emphasised = {app.ui.selected, app.battle.current}
    named = app.scene._names_that_fit(drawn, 40, emphasised)
    size = max(11, min(14, 40 // 3))
    cells = {f.pos for f in app.battle.figures.values()}
    for fid in emphasised - {None}:
        f = app.battle.figures[fid]
        half = (min(app.fonts.size(f.label, size, True)[0], 170) + 8) / 2
        centre = (f.x + 0.5) * 40
        below = {x for x, y in cells if y == f.y + 1}          # the tag hangs into the row below
        covers = any((x + 0.1) * 40 < centre + half and (x + 0.9) * 40 > centre - half for x in below)
        assert (fid in named) != covers, (fid, covers)
    spans = {}
    for fid in named - emphasised:
        f = app.battle.figures[fid]
        half = (min(app.fonts.size(f.label, size, True)[0], 170) + 8) / 2
        spans[fid] = (f.y, (f.x + 0.5) * 40 - half, (f.x + 0.5) * 40 + half)
    for a in spans:
        for b in spans:
            if a < b and spans[a][0] == spans[b][0]:
                assert spans[a][2] <= spans[b][1] or spans[b][2] <= spans[a][1], (a, b)
    assert len(named) < len(app.battle.figures)    # the crowded wall-walk leaves some out
