"""How the AI weighs the foes against the side as a whole: an archer is rated by the shots it has
from where it stands."""
from __future__ import annotations

import random

from game.ai.context import Context
from game.ai.levels import LEVELS
from game.ai.odds import Odds
from test_ai import make_battle, play_until_turn_of

WALLED = "\n".join([
    "................",
    "................",
    "................",
    "..........=.....",
    "................",
    "................",
    "................",
    "................",
])


def context_for(battle, figure_id: str) -> Context:
    play_until_turn_of(battle, figure_id)
    return Context(LEVELS["normal"], battle, figure_id, random.Random(1), {})


def test_an_archer_in_range_is_rated_by_the_shot_it_has_from_where_it_stands():
    # Behind a low wall from its nearest foe, the archer's blows land less often than in the open:
    # its rate is the resolver's odds from its own square, cover included.
    for behind in (True, False):
        b = make_battle("bfrpg", [
            {"id": "me", "side": "blue", "template": "foot", "x": 2, "y": 3, "facing": "E"},
            {"id": "archer", "side": "red", "template": "archer", "x": 12, "y": 3 if behind else 5, "weapons": ["bow"],
             "facing": "W"},
        ], ascii_map=WALLED)
        ctx = context_for(b, "me")
        archer = b.figures["archer"]
        bd = b.explain_attack("archer", "me")
        odds = Odds.of(b, bd, ctx.attacks(archer))
        assert abs(ctx.threat_rate(archer) - odds.p_hit * odds.mean_damage * odds.attacks) < 1e-9
        if behind:
            assert any(m.key == "cover" for m in bd.attack_mods)
            covered = ctx.threat_rate(archer)
        else:
            assert not any(m.key == "cover" for m in bd.attack_mods)
            assert ctx.threat_rate(archer) > covered
