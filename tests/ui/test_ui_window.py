"""The game window driven by real pygame events: battle state and pixels both checked."""
from __future__ import annotations

import pygame
import pytest

from game.ui import theme
from budget import HANG_S
from window import (advance_to, click, hover, key, make_app, motion, only_overlays, pixel, press, release, shot,
                             square_corner_pixels, square_samples, step, tinted)


def test_first_frame_shows_map_panel_and_current_figure_selected():
    app = make_app()
    shot(app, "window-corridor")
    assert app.ui.selected == app.battle.current  # the current figure is selected at the start of its turn
    # The panel background is drawn on the right; the map floor on the left.
    assert pixel(app, (app.screen.get_width() - 5, 400)) == theme.PANEL_BG
    assert app.panel.hits, "the initiative rows are clickable"


def test_reachable_overlay_covers_exactly_the_planners_squares():
    app = make_app()
    advance_to(app, "hero")
    only_overlays(app, "grid")
    step(app)
    bmap = app.battle.map
    squares = [(x, y) for y in range(bmap.height) for x in range(bmap.width)]
    before = {sq: square_samples(app, sq) for sq in squares}
    only_overlays(app, "grid", "reach")
    step(app)
    after = {sq: square_samples(app, sq) for sq in squares}
    shot(app, "overlay-reach")
    pos = app.battle.positioning()
    walk = {sq for sq, e in pos.reach("hero", "walk").items() if e.can_end}
    run = {sq for sq, e in pos.reach("hero", "run").items() if e.can_end}
    expected = walk | run
    drawn = {sq for sq in squares if tinted(before[sq], after[sq])}
    assert drawn == expected
    untouched = {sq for sq in squares if before[sq] == after[sq]}
    assert untouched == set(squares) - expected
    # Walk and run-only squares are drawn in two different shades.
    if run - walk:
        a = square_corner_pixels(app, next(iter(walk - {app.battle.figures['hero'].pos})))[0]
        b = square_corner_pixels(app, next(iter(run - walk)))[0]
        assert a != b


def test_hover_previews_path_with_parting_shot_then_click_moves():
    app = make_app()
    advance_to(app, "hero")
    only_overlays(app, "grid", "path", "parting")
    # The hero stands at 5,6 next to a goblin at 6,6; backing west to 3,6 leaves the goblin's reach.
    target = (2, 6)
    hover(app, target)
    preview = app.hover.preview
    assert preview is not None and preview.allowed
    assert [s.attacker_id for s in preview.planned.parting_shots] == ["gob1"]
    shot(app, "hover-parting-shot")
    # The path is drawn on the previewed squares, in the path colour.
    mid = app.screen_pos((4, 6))
    assert any(pixel(app, (mid[0] + dx, mid[1])) == theme.PATH for dx in range(-3, 4))
    # Warned before the move: a red marker and label on the map, and the panel names striker, bonus and rule.
    start = app.screen_pos((5, 6))
    c = app.camera.cell
    assert any(pixel(app, (start[0] + dx, start[1] + dy)) == theme.PARTING
               for dx in range(-c // 2, c // 2) for dy in range(-c // 2, c // 2))
    assert any("Parting shot: Goblin strikes at +2" in text for text, _ in app.hover_lines())
    n_events = len(app.battle.events)
    click(app, target)
    new = app.battle.events[n_events:]
    assert new[0].kind == "move"
    assert any(e.actor == "gob1" and e.target == "hero" for e in new), "the goblin's parting shot is resolved"
    hero = app.battle.figures["hero"]
    if app.battle.able("hero"):
        assert hero.pos == target
        assert hero.facing_name == "W"  # faces the way it moved, since no facing was given
    shot(app, "after-move")


def test_refused_move_shows_reason_and_changes_nothing():
    app = make_app()
    before = dict(app.battle.figures)
    actions = len(app.battle.actions)
    assert app.battle.current != "gob1"
    # Select a goblin (not its turn) and try to move it.
    click(app, (6, 6))
    assert app.ui.selected == "gob1"
    click(app, (7, 6))
    assert app.battle.figures == before
    assert len(app.battle.actions) == actions
    assert app.session.last_refusal is not None and "turn" in app.session.last_refusal.words
    assert any("Refused" in t.text for t in app.ui.toasts)
    # The reason is on screen: the message strip at the foot of the map, in the refusal's colour.
    area = app.map_rect
    found = any(pixel(app, (x, y)) == theme.MESSAGE_ERROR for x in range(area.x, area.right, 2)
                for y in range(area.bottom - 60, area.bottom - 5, 2))
    assert found
    shot(app, "refused-move")


def _wedge_white(app, fig_id, facing_index) -> list[int]:
    """Which of the 8 compass directions show white just outside the token's rim."""
    import math
    fig = app.battle.figures[fig_id]
    cx, cy = app.screen_pos(fig.pos)
    r = int(app.camera.cell * 0.38) * 1.35
    out = []
    for d in range(8):
        a = math.radians(d * 45)
        if pixel(app, (cx + math.sin(a) * r, cy - math.cos(a) * r)) == (255, 255, 255):
            out.append(d)
    return out


def test_facing_wedge_points_the_way_the_figure_faces_and_keys_turn_it():
    app = make_app()
    advance_to(app, "spear")
    only_overlays(app)
    step(app)
    app.select(None)  # no white selection ring: only the wedge is white
    step(app)
    # Facing east: white just outside the rim on the east side.
    assert _wedge_white(app, "spear", 2) == [2]
    # Move the hero into the empty room below, clear of other tokens: it faces the way it moved.
    app.select("spear")
    click(app, (2, 10))
    spear = app.battle.figures["spear"]
    assert spear.pos == (2, 10)
    app.select(None)
    step(app)
    assert _wedge_white(app, "spear", spear.facing) == [spear.facing]
    app.select("spear")
    step(app, key(pygame.K_q))
    step(app, key(pygame.K_e))
    step(app, key(pygame.K_e))
    step(app, key(pygame.K_e))
    assert app.battle.figures["spear"].facing == (spear.facing + 2) % 8
    step(app, key(pygame.K_e))
    step(app, key(pygame.K_e))
    facing = app.battle.figures["spear"].facing
    assert facing == (spear.facing + 4) % 8
    assert app.battle.events[-1].kind == "turn"
    app.select(None)
    step(app)
    assert _wedge_white(app, "spear", facing) == [facing]
    # Right-drag from the figure northward: Turn to N.
    app.select("spear")
    pos = app.screen_pos(app.battle.figures["spear"].pos)
    step(app, press(pos, 3))
    step(app, motion((pos[0], pos[1] - 60), buttons=(0, 0, 1)))
    shot(app, "facing-right-drag-ghost")
    step(app, release((pos[0], pos[1] - 60), 3))
    assert app.battle.figures["spear"].facing_name == "N"
    app.select(None)
    step(app)
    assert _wedge_white(app, "spear", 0) == [0]
    shot(app, "facing-north")


def test_charge_lane_is_drawn_on_the_lanes_squares():
    app = make_app("horse_field.toml", cell=32)
    assert app.ui.selected == "knight"
    only_overlays(app)
    step(app)
    lanes = [lane for lane in app.rules.lanes("knight") if lane.legal]
    assert lanes, "the knight has a legal lane to a spearman"
    lane = lanes[0]
    before = {sq: square_samples(app, sq) for sq in lane.squares}
    only_overlays(app, "lanes")
    step(app)
    for sq in lane.squares:
        after = square_samples(app, sq)
        assert tinted(before[sq], after), sq
    shot(app, "charge-lanes")
    # Charge mode: hovering a foe shows why a lane is legal or refused; clicking charges (refused for now).
    step(app, key(pygame.K_c))
    assert app.ui.mode == "charge"
    hover(app, (25, 2))
    lines = [t for t, _ in app.hover_lines()]
    assert any("Charge at Skirmisher" in t for t in lines)
    shot(app, "charge-mode-refused-lane")
    hover(app, app.battle.figures[lane.target_id].pos)
    shot(app, "charge-mode-hover")
    actions = len(app.battle.actions)
    click(app, app.battle.figures[lane.target_id].pos)
    if len(app.battle.actions) == actions:  # refused with its reason
        assert app.session.last_refusal is not None


def test_undo_and_redo_keys_step_through_the_log():
    app = make_app()
    advance_to(app, "spear")
    click(app, (3, 6))
    assert app.battle.figures["spear"].pos == (3, 6)
    step(app, key(pygame.K_z, pygame.KMOD_CTRL))
    assert app.battle.figures["spear"].pos == (4, 7)
    step(app, key(pygame.K_y, pygame.KMOD_CTRL))
    assert app.battle.figures["spear"].pos == (3, 6)


def test_end_turn_key_and_placeholder_ai_takes_its_turns():
    app = make_app(sides={"blue": "human", "red": "pass"})
    first_round = app.battle.round
    for _ in range(12):  # people end their turns with Space; the placeholder AI passes on its own
        fig = app.battle.figures[app.battle.current]
        step(app, key(pygame.K_SPACE) if fig.side == "blue" else motion((5, 5)))
        if app.battle.round > first_round:
            break
    assert app.battle.round == first_round + 1
    ended = {e.actor for e in app.battle.events if e.kind == "end-turn"}
    assert {"gob1", "gob2", "gob3"} <= ended  # the red figures ended their own turns
    shot(app, "after-ai-turns")


def test_log_click_highlights_the_events_squares():
    app = make_app()
    advance_to(app, "spear")
    click(app, (3, 6))
    step(app)
    index = next(i for i, e in enumerate(app.battle.events) if e.kind == "move")
    rect = next(r for r, kind, value in app.panel.hits if kind == "event" and value == index)
    pos = (app.panel.rect.x + rect.centerx, app.panel.rect.y + rect.centery)
    step(app, press(pos), release(pos))
    assert app.ui.picked_event == index
    only_overlays(app)
    step(app, motion((5, 5)))  # the pointer off the map: no card over the squares
    ev = app.battle.events[index]
    # The highlight stamp's yellow border is drawn on the event's squares.
    c = app.camera.cell
    x, y = app.camera.to_screen(*ev.squares[0])
    assert pixel(app, (x + app.map_rect.x + 1, y + app.map_rect.y + c // 2)) == theme.HIGHLIGHT
    shot(app, "log-highlight")


def test_help_overlay_lists_keys_and_any_key_closes_it():
    app = make_app()
    step(app, key(pygame.K_F1))
    assert app.ui.help_open
    shot(app, "help")
    step(app, key(pygame.K_a))
    assert not app.ui.help_open
    assert app.ui.mode == "auto"  # the closing key does nothing else


def test_overlay_keys_switch_overlays():
    app = make_app()
    assert app.ui.overlays["reach"]
    step(app, key(pygame.K_1))
    assert not app.ui.overlays["reach"]
    step(app, key(pygame.K_0))
    assert all(app.ui.overlays.values())
    shot(app, "all-overlays")


def test_zoom_and_pan():
    app = make_app(cell=32)
    step(app, motion(app.screen_pos((10, 7))))
    before = app.camera.cell
    step(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    assert app.camera.cell > before
    ox = app.camera.ox
    step(app, key(pygame.K_RIGHT))
    assert app.camera.ox != ox or app.camera.map_w * app.camera.cell <= app.camera.view_w


def test_flyer_plans_a_climb_with_page_up():
    app = make_app("sky.toml", cell=32)
    advance_to(app, "sorcerer")  # the sorcerer is a floater at 10 ft
    step(app, key(pygame.K_PAGEUP))
    assert app.ui.planned_altitude == 15
    target = (14, 4)
    hover(app, target)
    shot(app, "flyer-climb-preview")
    click(app, target)
    sorcerer = app.battle.figures["sorcerer"]
    assert (sorcerer.x, sorcerer.y, sorcerer.altitude_ft) == (14, 4, 15)
    shot(app, "flyer-after-climb")


def test_demonstration_mode_switches_rules_on_the_same_position():
    app = make_app()
    advance_to(app, "spear")
    click(app, (3, 6))
    positions = {f.id: f.pos for f in app.battle.figures.values()}
    step(app, key(pygame.K_RIGHTBRACKET))
    assert app.battle.ruleset.id == "bfrpg"  # not without demonstration mode
    step(app, key(pygame.K_g))
    assert app.ui.gm
    step(app, key(pygame.K_RIGHTBRACKET))
    assert app.battle.ruleset.id == "ch17"
    assert {f.id: f.pos for f in app.battle.figures.values()} == positions
    step(app, key(pygame.K_RIGHTBRACKET))
    assert app.battle.ruleset.id == "cnc"
    shot(app, "gm-ruleset-cnc")
    # Dragging a figure places it through the resolver's GM door: logged, undoable.
    gob = app.battle.figures["gob3"]
    start, end = app.screen_pos(gob.pos), app.screen_pos((gob.x + 2, gob.y + 1))
    step(app, motion(start), press(start))
    step(app, motion(end, buttons=(1, 0, 0), rel=(end[0] - start[0], end[1] - start[1])))
    step(app, release(end))
    assert app.battle.figures["gob3"].pos == (gob.x + 2, gob.y + 1)
    assert app.battle.actions[-1].kind == "gm-place"
    step(app, key(pygame.K_z, mod=pygame.KMOD_CTRL))
    assert app.battle.figures["gob3"].pos == gob.pos


def test_start_screen_chooses_who_plays():
    app = make_app(start_screen=True)
    assert app.start_screen
    shot(app, "start-screen")
    step(app, key(pygame.K_2))  # second side (red) toggles
    assert app.players.kinds["red"] == "human" or app.players.kinds["red"] == "ai"
    red_before = app.players.kinds["red"]
    step(app, key(pygame.K_2))
    assert app.players.kinds["red"] != red_before
    step(app, key(pygame.K_RETURN))
    assert not app.start_screen


@pytest.mark.parametrize("mode_key,mode", [(pygame.K_r, "run"), (pygame.K_f, "withdraw"), (pygame.K_s, "sidestep"),
                                           (pygame.K_c, "charge"), (pygame.K_a, "attack"), (pygame.K_m, "aim"),
                                           (pygame.K_w, "walk")])
def test_mode_keys_toggle_and_escape_cancels(mode_key, mode):
    app = make_app()
    step(app, key(mode_key))
    assert app.ui.mode == mode
    step(app, key(pygame.K_ESCAPE))
    assert app.ui.mode == "auto"


def test_fighting_withdrawal_draws_no_parting_shot():
    app = make_app()
    advance_to(app, "hero")
    step(app, key(pygame.K_f))
    # Facing east toward the goblin, the hero backs away west keeping its facing.
    hover(app, (4, 6))
    preview = app.hover.preview
    assert preview is not None and preview.allowed, preview and preview.refusal
    assert preview.planned.parting_shots == ()
    shot(app, "withdrawal-preview")
    click(app, (4, 6))
    hero = app.battle.figures["hero"]
    assert hero.pos == (4, 6) and hero.facing_name == "E"
    assert not any(e.target == "hero" for e in app.battle.events)


def test_the_ai_controller_plays_its_side_through_the_resolver():
    app = make_app(sides={"blue": "human", "red": "ai"})
    for _ in range(60):
        fig = app.battle.figures.get(app.battle.current)
        if fig is None:
            break
        step(app, key(pygame.K_SPACE) if fig.side == "blue" else motion((5, 5)))
        if any(e.actor in ("gob1", "gob2", "gob3") and e.kind != "end-turn" for e in app.battle.events):
            break
    red_events = [e for e in app.battle.events if e.actor in ("gob1", "gob2", "gob3")]
    assert red_events, "the AI acted for the red side"
    shot(app, "after-ai-turns-real-ai")


class _Gate:
    """Wraps a controller: its first choose() blocks until released, saying on which thread it runs."""

    def __init__(self, inner):
        import threading
        self.inner, self.name, self.is_human = inner, inner.name, False
        self.asked, self.release = threading.Event(), threading.Event()
        self.threads = []

    @property
    def last_decision(self):
        return self.inner.last_decision

    def choose(self, battle, figure_id):
        import threading
        self.threads.append(threading.current_thread())
        self.asked.set()
        assert self.release.wait(HANG_S), "never released"
        return self.inner.choose(battle, figure_id)


def test_ai_thinks_on_a_worker_thread_without_freezing_frames():
    """Structural, not timed: while the AI is stuck in choose() on its worker, frames go on and the
    battle waits; HANG_S is only a hang guard."""
    import threading
    import time

    app = make_app(sides={"blue": "pass", "red": "ai"}, ai_delay=0.0)
    app.players.background = True  # as in the interactive window
    gate = app.players.controllers["red"] = _Gate(app.players.controllers["red"])
    deadline = time.monotonic() + HANG_S
    while not gate.asked.is_set():  # blue passes (on the worker too) until red's turn comes
        assert time.monotonic() < deadline, "the AI was never asked"
        step(app)
        gate.asked.wait(0.005)
    # The AI is stuck inside choose(): the window keeps drawing frames and the battle waits for it.
    actions, frames = len(app.battle.actions), app.frame_no
    for _ in range(30):
        step(app)
        assert app.players.thinking() and len(app.battle.actions) == actions
    assert app.frame_no == frames + 30, "a frame never waits for the AI"
    assert not gate.release.is_set() and gate.threads[0] is not threading.main_thread()
    gate.release.set()
    deadline = time.monotonic() + HANG_S
    while app.battle.round < 2 and not app.battle.is_over:  # once answered, its action is applied and play goes on
        assert time.monotonic() < deadline, "play stopped after the AI answered"
        step(app)
        time.sleep(0.005)
    assert any(app.battle.figures[a.figure].side == "red" for a in app.battle.actions[actions:])
    assert all(t is not threading.main_thread() for t in gate.threads)


def test_attack_mode_shows_the_what_if_breakdown_then_attacks():
    app = make_app()
    advance_to(app, "hero")
    step(app, key(pygame.K_a))
    assert app.ui.mode == "attack"
    hover(app, (6, 6))
    lines = [t for t, _ in app.hover_lines()]
    assert lines[0] == "What if Hero attacks Goblin?"
    if getattr(app.battle, "explain_attack", None) is not None:
        breakdown = app.battle.explain_attack("hero", "gob1")
        assert breakdown.lines()[0] in lines  # the resolver's own words, unchanged
    shot(app, "attack-what-if")
    n = len(app.battle.events)
    click(app, (6, 6))
    new = app.battle.events[n:]
    if new:
        assert new[0].actor == "hero" and new[0].target == "gob1"
    else:  # e.g. bfrpg: attacks wait until everyone on this initiative number has moved
        words = app.session.last_refusal.words
        assert any(words in t.text for t in app.ui.toasts)
    shot(app, "after-attack")


def _text(app, text: str) -> None:
    step(app, pygame.event.Event(pygame.TEXTINPUT, text=text))


def test_save_into_a_named_slot_and_load_it_back_after_confirming(tmp_path):
    app = make_app(save_dir=str(tmp_path))
    advance_to(app, "spear")
    click(app, (3, 6))
    step(app, key(pygame.K_s, pygame.KMOD_CTRL))
    assert app.dialog is not None
    step(app, key(pygame.K_3))                       # slot 3
    for _ in range(40):
        step(app, key(pygame.K_BACKSPACE))
    _text(app, "before the charge")
    shot(app, "save-dialog-name")
    step(app, key(pygame.K_RETURN))
    assert app.dialog is None
    assert (tmp_path / "slot-3.json").exists(), [t.text for t in app.ui.toasts]
    assert not app.session.unsaved
    click(app, (2, 6))                               # play on: now there is unsaved play
    assert app.battle.figures["spear"].pos == (2, 6)
    assert app.session.unsaved
    step(app, key(pygame.K_o, pygame.KMOD_CTRL))
    step(app, key(pygame.K_3))
    shot(app, "load-dialog-confirm")
    assert app.dialog is not None and app.battle.figures["spear"].pos == (2, 6)  # asks first
    words = [t for t in _dialog_words(app)]
    assert any("before the charge" in w and "round 1" in w for w in words), words
    step(app, key(pygame.K_RETURN))
    assert app.dialog is None
    assert app.battle.figures["spear"].pos == (3, 6)
    assert any("loaded slot 3" in t.text for t in app.ui.toasts)


def _dialog_words(app) -> list[str]:
    return [slot.words() for slot in app.dialog.slots]


def test_escape_backs_out_of_a_load_without_touching_the_battle(tmp_path):
    app = make_app(save_dir=str(tmp_path))
    advance_to(app, "spear")
    step(app, key(pygame.K_s, pygame.KMOD_CTRL), key(pygame.K_1))
    step(app, key(pygame.K_RETURN))
    click(app, (3, 6))
    before = (app.battle, len(app.battle.actions))
    step(app, key(pygame.K_o, pygame.KMOD_CTRL), key(pygame.K_1))
    step(app, key(pygame.K_ESCAPE))
    step(app, key(pygame.K_ESCAPE))
    assert app.dialog is None
    assert (app.battle, len(app.battle.actions)) == before


def test_loading_a_damaged_save_leaves_the_battle_alone(tmp_path):
    (tmp_path / "slot-2.json").write_text('{"format": "fivefoot-battle", "version": 1, "seed": ')
    app = make_app(save_dir=str(tmp_path))
    advance_to(app, "spear")
    click(app, (3, 6))
    before = (app.battle, len(app.battle.actions), app.battle.figures["spear"].pos)
    step(app, key(pygame.K_o, pygame.KMOD_CTRL), key(pygame.K_2))
    step(app, key(pygame.K_RETURN))
    assert (app.battle, len(app.battle.actions), app.battle.figures["spear"].pos) == before
    assert any("could not load" in t.text and "slot-2.json" in t.text for t in app.ui.toasts)


@pytest.mark.parametrize("name", ["forest.tmx", "castle.tmx"])
def test_tiled_maps_are_drawn_from_their_own_tiles(name):
    from game.io.paths import MAPS_DIR
    if not (MAPS_DIR / name).exists():
        pytest.skip(f"{name} is not shipped")
    app = make_app(name, cell=24)
    assert app.map_layer.art is not None, "the map's tile images were found"
    only_overlays(app)
    step(app)
    shot(app, f"tiled-{name.split('.')[0]}")
    drawn = [square_samples(app, (x, y), 3) for y in range(0, 10) for x in range(0, 10)]
    # Redraw the same view with the clean drawn look instead of the tiles: the pixels differ.
    from game.ui.maplayer import MapLayer
    art = app.map_layer
    app.map_layer = MapLayer(app.battle.map, None)
    app.map_layer.fonts = app.fonts
    app.ui.overlays["markers"] = False
    step(app)
    plain = [square_samples(app, (x, y), 3) for y in range(0, 10) for x in range(0, 10)]
    app.map_layer = art
    changed = sum(1 for a, b in zip(drawn, plain) if a != b)
    assert changed > 80


def test_disengage_mode_sends_the_rulesets_style():
    app = make_app()
    advance_to(app, "hero")
    step(app, key(pygame.K_b))
    styles = app.disengage_styles()
    if not styles:
        assert app.ui.mode == "auto" and app.ui.toasts
        return
    assert app.ui.mode == "disengage" and app.ui.disengage_style == styles[0]
    n = len(app.battle.actions)
    click(app, (3, 6))
    assert len(app.battle.actions) == n + 1 or app.session.last_refusal is not None
