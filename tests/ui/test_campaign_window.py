"""The campaign's choice between battles (game/ui/campaignwindow.py) and the start screen's other
games (a new skirmish in the window, the campaign next), driven with real pygame events."""
from __future__ import annotations

import pygame

from game.io.campaigns import load_campaign
from game.io.paths import MAPS_DIR
from game.play import campaign as flow
from game.ui.campaignwindow import choice_rows, choose_screen, draw_choices
from window import SHOTS, key, make_app, step


def _after_first_battle():
    campaign = load_campaign(MAPS_DIR / "campaign" / "campaign.toml")
    state = flow.start(campaign)
    state.roster = [{**m, "max_hp": 8, "hp": 3} for m in state.roster]
    state.played.append({"battle": "ambush", "winner": "blue", "decided_by": "break", "rounds": 4, "fallen": [],
                         "choice": ""})
    return campaign, state


def test_the_choice_is_taken_by_its_number_or_a_click_and_nothing_is_cut():
    campaign, state = _after_first_battle()
    offered = flow.choices(campaign, state)
    assert [c.id for c in offered] == ["rest", "recruit", "marsh"]
    for size in ((1024, 700), (1920, 1080)):
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(size)
        draw_choices(screen, campaign, state, offered)
        SHOTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(screen, str(SHOTS / f"campaign_choice_{size[0]}.png"))
        rows = choice_rows(screen, offered)
        assert all(screen.get_rect().contains(rect) for _cid, rect in rows)
        pygame.event.clear()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_3, mod=0, unicode="3", scancode=0))
        assert choose_screen(screen, campaign, state, offered) == "marsh"
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rows[1][1].center))
        assert choose_screen(screen, campaign, state, offered) == "recruit"
    flow.choose(campaign, state, "marsh")
    assert state.next == "ford" and state.played[-1]["choice"] == "marsh"


def test_the_start_screen_makes_a_new_skirmish_and_hands_over_to_the_campaign(tmp_path):
    app = make_app("corridor.toml", size=(1024, 700), cell=None, start_screen=True, save_dir=str(tmp_path))
    step(app, key(pygame.K_k))
    saved = list((tmp_path / "skirmishes").glob("skirmish-*.toml"))
    assert len(saved) == 1 and app.title.startswith("Skirmish") and app.start_screen
    # the sides are set up in turn (blue first on even seeds, red on odd): the side set up first is the player's
    first, second = app.sides()
    assert {first, second} == {"blue", "red"} and app.players.human_side(first) and not app.players.human_side(second)
    step(app, key(pygame.K_c))
    assert app.wants_campaign and not app.running
