"""The window's AI turns (game/client/players.py) play through the shared turn loop: the same
turns, refusals, forced end turns and stalls as `simulate`'s play_out; only the pace is the window's."""
from __future__ import annotations

from controllers import Fidget, Refuser, WrongEnd, duel
from game.client.players import Players
from game.client.session import Session
from game.core.values.actions import EndTurn
from game.play.turns import MAX_REFUSALS_PER_TURN, play_out


class Raiser:
    name, is_human = "raiser", False

    def choose(self, battle, figure_id):
        raise ValueError("no idea")


def players_for(controllers: dict, delay_s: float = 0.0) -> Players:
    players = Players(["blue", "red"], {}, delay_s, background=False)
    players.controllers.update(controllers)
    return players


def test_the_window_plays_the_same_turns_and_counts_as_simulate():
    controllers = {"blue": Fidget(), "red": Refuser()}
    headless = duel()
    stats = play_out(headless, dict(controllers), max_rounds=2)
    session, toasts = Session(duel()), []
    players = players_for(controllers)
    for _ in range(500):
        if session.battle.round > 2:
            break
        players.tick(session, toasts.append)
    assert session.battle.actions == headless.actions
    assert players.loop.stats == stats
    assert stats["forced_end_turns"] > 0 and stats["refusals"] > 0 and not stats["stalled"]
    assert not toasts


def test_refused_answers_end_the_figures_turn_after_the_guards_count():
    session, toasts = Session(duel()), []
    players = players_for({"blue": Refuser(), "red": Refuser()})
    first = session.battle.current
    for _ in range(MAX_REFUSALS_PER_TURN):
        players.tick(session, toasts.append)
    assert session.battle.current == first and not session.battle.actions
    players.tick(session, toasts.append)
    assert session.battle.actions == [EndTurn(first)]
    assert players.loop.stats["forced_end_turns"] == 1 and not toasts


def test_a_controller_that_raises_is_shown_and_its_figures_turn_ended():
    session, toasts = Session(duel()), []
    players = players_for({"blue": Raiser(), "red": Raiser()})
    first = session.battle.current
    players.tick(session, toasts.append)
    assert session.battle.actions == [EndTurn(first)]
    assert len(toasts) == 1 and "raiser failed for" in toasts[0] and "no idea" in toasts[0]
    assert players.loop.stats["forced_end_turns"] == 1


def test_a_refused_end_turn_stops_the_ai_until_the_battle_changes():
    session, toasts = Session(duel()), []
    players = players_for({"blue": WrongEnd(), "red": WrongEnd()})
    players.tick(session, toasts.append)
    assert players.stopped and players.loop.stalled
    assert len(toasts) == 1 and "cannot end its turn: AI play stopped" in toasts[0]
    players.tick(session, toasts.append)
    assert len(toasts) == 1 and not session.battle.actions
    players.cancel()          # undo, load, another ruleset: it may play again
    assert not players.stopped


def test_the_pace_is_the_windows_parameter():
    session, now = Session(duel()), [0.0]
    players = players_for({"blue": Fidget(), "red": Fidget()}, delay_s=0.5)
    players.clock = lambda: now[0]
    players.wait()
    players.tick(session, print)
    assert not session.battle.actions          # still within the pause
    now[0] = 0.6
    players.tick(session, print)
    assert len(session.battle.actions) == 1
    players.tick(session, print)
    assert len(session.battle.actions) == 1    # the next one waits its pause
