"""Battles for the tests: one from an inline map and figure list, turns passed until a figure acts,
the few positions several test folders share (a wall-walk ledge, a rider on its horse)."""
from __future__ import annotations

from game.core.values.actions import Defend, EndTurn
from game.core.values.ascii_map import parse_ascii_map
from game.core.battle import Battle, BattleSetup
from game.core.scenario import build_figures, validate_scenario_data
from game.io.rulesets import load_ruleset


def make_battle(ruleset_id: str, ascii_map: str, figures: list[dict], seed: int = 1) -> Battle:
    data = {"ruleset": ruleset_id, "seed": seed, "map": {"ascii": ascii_map}, "figures": figures}
    checked = validate_scenario_data(data, "test")
    ruleset = load_ruleset(ruleset_id)
    bmap = parse_ascii_map(ascii_map)
    figs = build_figures(checked, ruleset, bmap, "test")
    return Battle(BattleSetup(bmap, ruleset, tuple(figs), seed))


def fig(fid, side, x, y, facing="N", template="foot", **extra) -> dict:
    return {"id": fid, "side": side, "x": x, "y": y, "facing": facing, "template": template, **extra}


OPEN = "\n".join(["." * 16] * 10)

# A wall-walk 20 ft up (columns 0-3) above open ground.
LEDGE = "\n".join(["4444........"] * 8)


def until_turn(b, fid, limit=200, declare=False):
    """Pass turns until it is fid's turn to act (its declaration turn instead, with declare=True)."""
    for _ in range(limit):
        if b.current == fid and (b.state.phase == "declare") == declare:
            return
        b.apply(EndTurn(b.current))
    raise AssertionError(f"{fid} never got a turn")


def until_phase(b, who, phases=("all", "melee"), limit=200):
    """Pass turns until `who` acts in one of these phases (bfrpg: movement, then missiles, then melee)."""
    for _ in range(limit):
        if b.current == who and b.state.phase != "declare" and b.current_phase in phases:
            return
        b.apply(EndTurn(b.current))
    raise AssertionError(f"{who} never got a {phases} turn")


def next_round(b):
    start = b.round
    while b.round == start:
        b.apply(EndTurn(b.current))


def battle_at_turn(rid, figures, who="a", bmap=OPEN, seed=1):
    b = make_battle(rid, bmap, figures, seed=seed)
    until_phase(b, who)
    return b


def desperate_defender_on_a_cliff(b_stats=None):
    """spelljammer: b (on the cliff top, 25 ft above the ground east of it) has declared a desperate
    defence; a, beside it, is to act."""
    cliff = "\n".join(["5555........"] * 6)
    b = make_battle("spelljammer", cliff, [fig("a", "blue", 2, 3, "E"), fig("b", "red", 3, 3, "W", stats=b_stats or {})])
    assert b.state.phase == "declare"
    until_turn(b, "b", declare=True)
    b.apply(Defend("b", style="desperate-defense"))
    for _ in range(20):
        if b.current == "a" and b.state.phase != "declare":
            break
        b.apply(EndTurn(b.current))
    return b


def pair(x=3, y=4, facing="E", rider="knight", horse="horse", side="blue", rider_stats=None, horse_stats=None):
    """A lancer riding a war horse (two figures)."""
    return [fig(horse, side, x, y, facing, template="horse", stats=horse_stats or {"hp": 30}),
            {"id": rider, "side": side, "template": "lancer", "mount": horse, "stats": rider_stats or {"hp": 30}}]


def riding_battle(rid="bfrpg", extra=(), seed=1, **kw):
    return make_battle(rid, OPEN, pair(**kw) + list(extra), seed=seed)


def footman_beside(rid="bfrpg", **kw):
    """The lancer on its horse with a foot soldier beside them (30 hp each, the rider AC 16, the horse 13)."""
    return riding_battle(rid, extra=[fig("foe", "red", 4, 4, "W", stats={"hp": 30})],
                         rider_stats={"hp": 30, "ac": 16}, horse_stats={"hp": 30, "ac": 13}, **kw)
