"""Objectives decided by the resolver (game/core/battle/objectives.py): under every ruleset an
objective is decided by actions through `apply` and by the rounds' end, says so in `objective` and
`battle-over` events carrying the objective's id and numbers, and survives undo, clone and saves."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.battle import Battle
from game.core.values.actions import Attack, EndTurn, Move
from game.core.values.errors import DataFileError
from game.core.values.events import EventKind
from game.io.scenarios import scenario_from_data
from battles import OPEN, fig

RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")


def goal_battle(rid: str, figures: list[dict], objectives: list[dict], round_limit: int = 0, seed: int = 1,
                ascii_map: str = OPEN) -> Battle:
    data = {"ruleset": rid, "seed": seed, "map": {"ascii": ascii_map}, "figures": figures,
            "objectives": objectives, "round_limit": round_limit}
    return Battle.from_scenario(scenario_from_data(data, Path("test.toml")))


def pass_until_over(b: Battle, limit: int = 400) -> None:
    for _ in range(limit):
        if b.is_over:
            return
        b.apply(EndTurn(b.current))
    raise AssertionError("the battle never ended")


def objective_events(b: Battle):
    return [e for e in b.events if e.kind == EventKind.OBJECTIVE]


def over_event(b: Battle):
    return next(e for e in b.events if e.kind == EventKind.BATTLE_OVER)


@pytest.mark.parametrize("rid", RULESETS)
def test_holding_ground_for_two_rounds_wins_under_every_ruleset(rid):
    b = goal_battle(rid, [fig("a", "blue", 5, 5), fig("z", "red", 15, 0)],
                    [{"id": "hill", "side": "blue", "kind": "hold", "area": [4, 4, 6, 6], "rounds": 2}])
    pass_until_over(b)
    assert b.winner == "blue" and b.decided_by == "hill" and b.round == 2   # decided as round 2 ends
    held = [e for e in objective_events(b) if e.data.get("objective") == "hill" and e.data["progress"]]
    assert [e.data["progress"] for e in held] == [1, 2] and held[-1].outcome == "achieved"
    assert all(e.rule.startswith(rid + ":") for e in b.events)
    assert over_event(b).data["decided_by"] == "hill" and over_event(b).data["winner"] == "blue"
    assert b.objectives()[0].state == "achieved"


def test_a_foe_on_the_ground_stops_the_count():
    b = goal_battle("bfrpg", [fig("a", "blue", 5, 5), fig("z", "red", 6, 6)],
                    [{"id": "hill", "side": "blue", "kind": "hold", "area": [4, 4, 6, 6], "rounds": 1}],
                    round_limit=2)
    pass_until_over(b)
    assert b.decided_by == "round-limit" and b.winner is None
    assert b.objectives()[0].state == "open" and b.objectives()[0].progress == 0


@pytest.mark.parametrize("rid", RULESETS)
def test_reaching_the_edge_escapes_and_wins_under_every_ruleset(rid):
    b = goal_battle(rid, [fig("a", "blue", 13, 5), fig("b", "blue", 2, 5), fig("z", "red", 0, 0)],
                    [{"id": "gate", "side": "blue", "kind": "reach", "edge": "E", "count": 1}])
    b.gm_place("a", x=15, y=5)
    assert b.is_over and b.winner == "blue" and b.decided_by == "gate"
    through = [e for e in objective_events(b) if e.data.get("figure") == "a"]
    assert through and through[0].data["progress"] == 1 and through[0].data["needed"] == 1
    assert b.states["a"].fled and any(e.kind == EventKind.FLEE and e.data["cause"] == "escape" for e in b.events)


def test_a_walk_onto_the_exit_counts_and_two_are_needed():
    b = goal_battle("bfrpg", [fig("a", "blue", 13, 5, "E"), fig("b", "blue", 13, 7, "E"), fig("z", "red", 0, 0)],
                    [{"id": "gate", "side": "blue", "kind": "reach", "area": [15, 4, 15, 8], "count": 2}])
    from battles import until_turn
    until_turn(b, "a")
    b.apply(Move("a", to=(15, 5)))
    assert not b.is_over and b.objectives()[0].progress == 1 and b.states["a"].fled
    assert b.objectives()[0].words == "1/2 through"
    until_turn(b, "b")
    b.apply(Move("b", to=(15, 7)))
    assert b.is_over and b.winner == "blue" and b.decided_by == "gate"


def test_an_exit_out_of_reach_of_too_few_figures_fails():
    b = goal_battle("bfrpg", [fig("a", "blue", 13, 5), fig("b", "blue", 2, 5, stats={"hp": 1}),
                              fig("z", "red", 3, 5, "W"), fig("y", "red", 0, 9)],
                    [{"id": "gate", "side": "blue", "kind": "reach", "edge": "E", "count": 2},
                     {"id": "last", "side": "red", "kind": "survive", "rounds": 9}])
    b.gm_place("a", x=15, y=5)
    assert not b.is_over and b.objectives()[0].progress == 1
    _fell(b, "z", "b")
    assert b.objectives()[0].state == "failed" and "1 through, 0 left to try" in objective_events(b)[-1].text


def _fell(b: Battle, attacker: str, target: str, limit: int = 300) -> None:
    for _ in range(limit):
        if b.is_over or not b.able(target):
            return
        who = b.current
        action = Attack(who, target=target) if who == attacker else EndTurn(who)
        if b.check(action) is not None:
            action = EndTurn(who)
        b.apply(action)
    raise AssertionError(f"{target} never fell")


@pytest.mark.parametrize("rid", RULESETS)
def test_felling_the_chief_wins_and_losing_the_protected_one_loses(rid):
    chief = fig("chief", "red", 6, 5, "W", stats={"hp": 1})
    b = goal_battle(rid, [fig("a", "blue", 5, 5, "E"), chief, fig("y", "red", 15, 9)],
                    [{"id": "head", "side": "blue", "kind": "fell", "figure": "chief"}])
    _fell(b, "a", "chief")
    assert b.is_over and b.winner == "blue" and b.decided_by == "head"
    b = goal_battle(rid, [fig("a", "blue", 5, 5, "E"), chief, fig("y", "red", 15, 9)],
                    [{"id": "guard", "side": "red", "kind": "protect", "figure": "chief"}])
    _fell(b, "a", "chief")
    assert b.is_over and b.winner == "blue" and b.decided_by == "guard"
    assert b.objectives()[0].state == "failed" and "failed" in over_event(b).text


@pytest.mark.parametrize("rid", RULESETS)
def test_surviving_and_the_round_limit_count_victory_points(rid):
    b = goal_battle(rid, [fig("a", "blue", 1, 1), fig("z", "red", 14, 8)],
                    [{"id": "last", "side": "red", "kind": "survive", "rounds": 2, "points": 2},
                     {"id": "post", "side": "blue", "kind": "hold", "square": [1, 1], "rounds": 1, "points": 1}],
                    round_limit=2)
    pass_until_over(b)
    assert b.decided_by == "round-limit" and b.victory_points() == {"blue": 1, "red": 2} and b.winner == "red"
    assert over_event(b).data["points"] == {"blue": 1, "red": 2}


def test_breaking_morale_cites_the_morale_rule_where_the_ruleset_checks_it():
    foes = [fig(f"g{i}", "red", 6, 3 + i, "W", template="normal_man") for i in range(2)]
    b = goal_battle("odnd", [fig("a", "blue", 5, 3, "E"), fig("b", "blue", 5, 4, "E")] + foes,
                    [{"id": "rout", "side": "blue", "kind": "break"}], seed=3)
    for _ in range(400):
        if b.is_over:
            break
        who = b.current
        foe = next((f for f in ("g0", "g1") if b.able(f)), None)
        action = Attack(who, target=foe) if who in ("a", "b") and foe else EndTurn(who)
        b.apply(action if b.check(action) is None else EndTurn(who))
    assert b.is_over and b.winner == "blue"
    decided = [e for e in objective_events(b) if e.outcome == "achieved"]
    if decided:      # the morale check broke them, or both fell first
        assert decided[0].rule in ("odnd:encounter-order", "odnd:choice-objectives")


def test_progress_survives_undo_clone_and_a_save():
    b = goal_battle("bfrpg", [fig("a", "blue", 5, 5), fig("z", "red", 15, 0)],
                    [{"id": "hill", "side": "blue", "kind": "hold", "area": [4, 4, 6, 6], "rounds": 3}])
    while b.round < 3:
        b.apply(EndTurn(b.current))
    assert b.objectives()[0].progress == 2
    twin = b.clone()
    again = Battle.from_save_data(b.to_save_data())
    assert again.objectives()[0].progress == 2 and again.setup.objectives == b.setup.objectives
    b.undo()
    assert b.objectives()[0].progress == 1 and twin.objectives()[0].progress == 2


@pytest.mark.parametrize("entry, key, words", [
    ({"side": "green", "kind": "survive", "rounds": 2}, "objectives[1].side", "no figure is on side 'green'"),
    ({"side": "blue", "kind": "fell", "figure": "a"}, "objectives[1].figure", "fell a foe"),
    ({"side": "blue", "kind": "hold", "area": [4, 4, 30, 6], "rounds": 1}, "objectives[1].area", "off the map"),
    ({"side": "blue", "kind": "hold", "rounds": 1}, "objectives[1]", "exactly one of square, area or edge"),
    ({"side": "blue", "kind": "reach", "edge": "E", "count": 3}, "objectives[1].count", "side 'blue' has 1"),
    ({"side": "blue", "kind": "survive", "rounds": 2, "points": 1}, "round_limit", "victory points"),
    ({"side": "blue", "kind": "conquer"}, "objectives[1].kind", "'hold'"),
])
def test_a_bad_objective_is_refused_with_one_line_naming_it(entry, key, words):
    with pytest.raises(DataFileError) as err:
        goal_battle("bfrpg", [fig("a", "blue", 5, 5), fig("z", "red", 15, 0)], [entry])
    text = str(err.value)
    assert key in text and words in text and "\n" not in text
