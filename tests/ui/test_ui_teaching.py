"""The game master's teaching table in the window (issue 25): demonstration mode places by click and
by drag with a ghost and the path's cost; the rules that fire are called out where they happen, clear
of every token; the odds map and its keys; the compare panel wraps and scrolls, never cut; the legend
(L); a lesson played step by step under any ruleset; a lesson recorded and saved. Real pygame events,
state and pixels."""
from __future__ import annotations

import pygame
import pytest

from game.cli import main
from game.io.lessons import load_lesson
from game.io.paths import MAPS_DIR
from game.ui import theme
from game.ui.hud import token_rect
from game.ui.lessonbar import open_lesson

from window import advance_to, click, hover, key, make_app, motion, pixel, press, release, step

LESSONS = MAPS_DIR / "lessons"


def _colours_in(app, rect) -> set:
    rect = pygame.Rect(rect).clip(app.screen.get_rect())
    pixels = pygame.surfarray.array3d(app.screen.subsurface(rect))
    return {tuple(int(v) for v in p) for p in pixels.reshape(-1, 3)}


# ----- demonstration mode -----
def test_a_click_places_and_a_drag_shows_a_ghost_with_the_paths_cost():
    app = make_app("corridor.toml")
    step(app, key(pygame.K_g))
    assert app.ui.gm
    click(app, (5, 6))
    assert app.ui.selected == "hero"
    hover(app, (2, 6))
    lines = [text for text, _ in app.hover_lines()]
    assert lines[0] == "click places Hero on 2,6 (demonstration: no move is spent)"
    assert "walking there: 15 ft by the rules in force (of 40 ft a walk)" in lines
    click(app, (2, 6))
    assert app.battle.figures["hero"].pos == (2, 6) and app.battle.actions[-1].kind == "gm-place"
    # a drag: the ghost stands where the pointer is, before anything changes
    start, to = app.screen_pos((2, 6)), app.screen_pos((4, 6))
    empty = pixel(app, to)
    step(app, motion(start))
    step(app, press(start))
    step(app, motion(to, buttons=(1, 0, 0), rel=(to[0] - start[0], to[1] - start[1])))
    assert app.ui.gm_drag == "hero" and app.battle.figures["hero"].pos == (2, 6)
    assert pixel(app, to) != empty                       # the ghost token is drawn on the square
    assert any("ft by the rules in force" in text for text, _ in app.hover_lines())
    step(app, release(to))
    assert app.battle.figures["hero"].pos == (4, 6) and app.ui.gm_drag is None


def test_the_set_spear_is_warned_in_the_tooltip_then_called_out_clear_of_every_token():
    app = make_app("corridor.toml", size=(1024, 700))
    open_lesson(app, load_lesson(LESSONS / "05-charge-and-set-weapons.toml"), step=2)   # the spear is set
    app.frame([])
    knight, pike = app.battle.figures["knight"], app.battle.figures["pike"]
    assert app.battle.current == "knight"
    click(app, knight.pos)
    step(app, key(pygame.K_c))                            # charge mode
    hover(app, pike.pos)
    words = " ".join(text for text, _ in app.hover_lines())
    assert "set spear meets the charge" in words and "% to hit" in words
    before = len(app.battle.events)
    click(app, pike.pos)
    new = app.battle.events[before:]
    assert any(e.kind == "set-weapon" for e in new)
    app.frame([])
    assert app.callouts.active(app.clock_now())
    tokens = [token_rect(app, f) for f in app.battle.figures.values() if app.battle.able(f.id)]
    assert app.callout_boxes and not any(box.colliderect(t) for box in app.callout_boxes for t in tokens)


# ----- the odds map -----
def test_o_shades_the_odds_marks_the_best_square_and_shift_o_changes_the_ruleset():
    app = make_app("corridor.toml")
    advance_to(app, "hero")
    hover(app, (6, 6))
    step(app, key(pygame.K_o))
    odds = app.odds_map()
    assert app.odds.on and app.odds.attacker == "hero" and app.odds.target == "gob1" and odds is not None
    best = next(s for s in odds.best(app.odds.measure) if not app.figures_on(s.square))
    x, y = app.camera.to_screen(*best.square)
    inset = max(1, app.camera.cell // 10)
    assert theme.ODDS_BEST in _colours_in(app, (app.map_rect.x + x + inset, app.map_rect.y + y + inset,
                                                 app.camera.cell - 2 * inset, 4))
    step(app, key(pygame.K_o))
    assert app.odds.measure != "chance"                   # again: expected damage
    step(app, key(pygame.K_o, pygame.KMOD_SHIFT))
    assert app.odds.ruleset_id not in (None, "bfrpg")
    step(app, key(pygame.K_ESCAPE))
    assert not app.odds.on


# ----- the compare panel -----
def test_the_compare_panel_says_what_differs_wraps_whole_and_scrolls():
    app = make_app("corridor.toml", size=(1024, 700))
    advance_to(app, "hero")
    hover(app, (6, 6))
    step(app, key(pygame.K_v))
    state = app.compare_state
    assert app.ui.compare and state.box is not None
    lines = [text for text in state.drawn_lines]
    assert not any("…" in t or t.endswith("...") for t in lines)
    assert any("attack Goblin from here:" in t for t in lines)
    if state.scrollable:
        inside = state.box.center
        step(app, motion(inside))
        step(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, precise_x=0.0, precise_y=-1.0, flipped=False))
        assert state.scroll > 0


# ----- the legend -----
def test_l_opens_the_legend_with_the_odds_maps_colours_and_esc_closes_it():
    app = make_app("corridor.toml", size=(1024, 700))
    step(app, key(pygame.K_l))
    assert app.ui.legend_open
    seen = _colours_in(app, app.screen.get_rect())
    assert {theme.ODDS_BEST, theme.PARTING, theme.LANE_OK, *(c[:3] for c in theme.ODDS_RAMP)} <= seen
    step(app, key(pygame.K_ESCAPE))
    assert not app.ui.legend_open


# ----- lessons -----
def test_a_lesson_steps_forward_and_back_and_is_judged_by_another_ruleset():
    lesson = load_lesson(LESSONS / "05-charge-and-set-weapons.toml")
    app = make_app("corridor.toml", size=(1024, 700))
    open_lesson(app, lesson)
    app.frame([])
    assert app.lesson.index == 0 and app.ui.gm and app.lesson_box is not None
    assert app.battle.ruleset.id == lesson.ruleset.id
    for n in range(1, len(lesson.steps)):
        step(app, key(pygame.K_RIGHT))
        assert app.lesson.index == n
    shown = list(app.battle.actions)
    step(app, key(pygame.K_RIGHT))                        # past the last step: stays
    assert app.lesson.index == len(lesson.steps) - 1
    step(app, key(pygame.K_RIGHTBRACKET))                 # the same step judged by the next ruleset
    assert app.battle.ruleset.id == app.lesson.ruleset_id != lesson.ruleset.id
    assert "judged by" in app.lesson.heading()
    step(app, key(pygame.K_LEFT))
    assert app.lesson.index == len(lesson.steps) - 2 and app.battle.ruleset.id == app.lesson.ruleset_id
    # the buttons
    app.frame([])
    back = next(rect for rect, what in app.lesson_buttons if what == "next")
    step(app, press(back.center))
    assert app.lesson.index == len(lesson.steps) - 1
    assert len(shown) >= len(lesson.steps[-1].actions)
    tokens = [token_rect(app, f) for f in app.battle.figures.values() if app.battle.able(f.id)]
    covered = sum(1 for t in tokens if app.lesson_box.colliderect(t))
    assert covered == 0


def test_a_step_another_ruleset_refuses_says_so():
    lesson = load_lesson(LESSONS / "05-charge-and-set-weapons.toml")
    app = make_app("corridor.toml", size=(1280, 800))
    open_lesson(app, lesson, step=len(lesson.steps))
    from game.ui.lessonbar import show_step
    show_step(app, app.lesson.index, "spelljammer")       # spelljammer has no charge
    assert app.lesson.refusals and "spelljammer refuses charge" in app.lesson.refusal_lines()[0]
    assert "by Knight" in app.lesson.refusal_lines()[0]         # the figure's name, not its id
    app.frame([])
    assert not app.ui.toasts                              # said once, in the bar, not again over the map


def test_a_lesson_recorded_in_the_window_is_saved_and_plays_back(tmp_path):
    app = make_app("corridor.toml", save_dir=str(tmp_path))
    advance_to(app, "hero")
    step(app, key(pygame.K_r, pygame.KMOD_CTRL))
    assert app.recording is not None
    click(app, (5, 6))
    click(app, (4, 6))                                    # the hero steps back (a parting shot, maybe)
    assert app.battle.actions and app.battle.actions[-1].kind == "move"
    step(app, key(pygame.K_t))
    assert app.dialog is not None
    step(app, pygame.event.Event(pygame.TEXTINPUT, text="The hero steps back from the goblin."))
    step(app, key(pygame.K_RETURN))
    assert app.dialog is None and app.recording.step_number == 2
    step(app, key(pygame.K_r, pygame.KMOD_CTRL))
    assert app.recording is None
    saved = list((tmp_path / "lessons").glob("*.toml"))
    assert len(saved) == 1
    lesson = load_lesson(saved[0])
    assert lesson.steps[-1].caption == "The hero steps back from the goblin."
    assert [a.kind for a in lesson.steps[-1].actions][-1] == "move"


def test_play_lesson_arguments_are_checked(capsys):
    assert main(["play", "--step", "2", "--headless"]) == 2
    assert "--lesson" in capsys.readouterr().err
    assert main(["play", "--lesson", str(LESSONS / "01-diagonals.toml"), "--step", "99", "--headless"]) == 2
    assert "steps 1 to" in capsys.readouterr().err


@pytest.mark.parametrize("size", [(1024, 700), (1920, 1080)])
def test_play_lesson_opens_the_window_at_a_step(tmp_path, size, capsys):
    out = tmp_path / "lesson.png"
    assert main(["play", "--lesson", str(LESSONS / "06-reach.toml"), "--step", "2", "--size",
                 f"{size[0]}x{size[1]}", "--screenshot", str(out)]) == 0
    assert out.exists()


def test_a_message_keeps_off_the_lesson_bar_and_the_figures():
    app = make_app("corridor.toml", size=(1024, 700), cell=None)
    open_lesson(app, load_lesson(LESSONS / "04-parting-shots.toml"), step=3)
    app.toast("a message long enough to wrap over two lines of the strip at the foot of the map " * 2)
    app.frame([])
    tokens = [token_rect(app, f) for f in app.battle.figures.values() if app.battle.able(f.id)]
    assert app.message_box is not None and not app.message_box.colliderect(app.lesson_box)
    assert not any(app.message_box.colliderect(t) for t in tokens)
