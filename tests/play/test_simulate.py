"""Headless simulation: battles end, reports are deterministic for a seed whatever the worker
count, the result summary is a pure function of the events, and the CLI speaks plainly."""
from __future__ import annotations

import json
import math

import pytest

from dataclasses import replace

from game.core.values.actions import Attack, Disengage, EndTurn, Overbear, Trip
from game.core.battle import Battle, turns
from game.play.outcome import Outcome, outcome
from game.play.report import NOTABLE, NOTABLE_KINDS, count_events, summarize, summarize_battle
from game.play.simulate import (aggregate, deterministic_part, format_report, play_battle, run_seed, setups_for,
                              simulate, wilson)
from game.cli import main
from game.core.values.events import Event, EventKind as K, Modifier
from game.io.rulesets import load_ruleset
from game.io.scenarios import load_scenario

SCENARIO = '''
title = "Skirmish"
ruleset = "bfrpg"
seed = 3

[map]
ascii = """
..............
......T.......
..............
....====......
..............
..............
..............
"""

[[figures]]
id = "b1"
side = "blue"
template = "foot"
x = 2
y = 2
facing = "E"

[[figures]]
id = "b2"
side = "blue"
template = "archer"
x = 1
y = 4
facing = "E"

[[figures]]
id = "r1"
side = "red"
template = "foot"
x = 10
y = 2
facing = "W"

[[figures]]
id = "r2"
side = "red"
template = "spearman"
x = 11
y = 5
facing = "W"
'''


@pytest.fixture
def scenario_path(tmp_path):
    path = tmp_path / "skirmish.toml"
    path.write_text(SCENARIO)
    return path


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-3) and math.isclose(hi, 0.7634, abs_tol=1e-3)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and math.isclose(hi, 0.2775, abs_tol=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_run_seeds_are_stable_and_distinct():
    assert run_seed(7, "bfrpg", 0) == run_seed(7, "bfrpg", 0)
    seeds = {run_seed(7, rid, i) for rid in ("bfrpg", "odnd") for i in range(50)}
    assert len(seeds) == 100


@pytest.mark.parametrize("ruleset_id", ["bfrpg", "odnd", "cnc", "ch17", "spelljammer"])
def test_battles_end(scenario_path, ruleset_id):
    sc = load_scenario(scenario_path)
    setup = setups_for(sc, [load_ruleset(ruleset_id)])[ruleset_id]
    battle, res, info = play_battle(setup, max_rounds=30)
    assert res.over, f"{ruleset_id}: no result after {battle.round} rounds"
    assert res.winner in ("blue", "red")
    assert not info["stalled"]
    summary = summarize_battle(battle, res)
    assert summary["winner"] == res.winner and summary["rounds"] >= 1
    loser = "red" if res.winner == "blue" else "blue"
    assert summary["sides"][loser]["standing"] == 0


def test_report_identical_for_the_same_seed_and_any_worker_count(scenario_path):
    sc = load_scenario(scenario_path)
    setups = setups_for(sc, [load_ruleset("bfrpg"), load_ruleset("odnd")])
    one = simulate(setups, 3, seed=11, workers=1, max_rounds=12)
    two = simulate(setups, 3, seed=11, workers=2, max_rounds=12)
    assert deterministic_part(one) == deterministic_part(two)
    assert json.dumps(deterministic_part(one), sort_keys=True) == json.dumps(deterministic_part(two), sort_keys=True)
    data = one["rulesets"]["bfrpg"]
    assert data["runs"] == 3
    assert sum(s["wins"] for s in data["sides"].values()) + data["draws"] == 3
    for s in data["sides"].values():
        lo, hi = s["ci95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1
    text = format_report(one)
    assert "bfrpg" in text and "odnd" in text and "95% CI" in text


def test_unfinished_battles_are_draws(scenario_path):
    sc = load_scenario(scenario_path)
    setups = setups_for(sc, [load_ruleset("bfrpg")])
    report = simulate(setups, 2, seed=1, workers=1, max_rounds=1)
    data = report["rulesets"]["bfrpg"]
    assert data["draws"] + sum(s["wins"] for s in data["sides"].values()) == 2
    assert data["avg_rounds"] <= 1


def test_summary_is_a_pure_function_of_events():
    events = [
        Event(kind=K.MOVE, rule="bfrpg:movement", text="a moves", actor="a", data={"mode": "withdraw"}),
        Event(kind=K.PARTING_SHOT, rule="bfrpg:parting-shot", text="b takes a parting shot", actor="b", target="a",
              outcome="miss"),
        Event(kind=K.ATTACK, rule="bfrpg:the-combat", text="a hits b from behind", actor="a", target="b", outcome="hit",
              modifiers=(Modifier("AB", 1, "bfrpg:the-combat", "base"),
                         Modifier("from behind (rear)", 2, "bfrpg:attacking-from-behind", "rear"),
                         Modifier("flank (left)", 1, "odnd:flanking", "flank"))),
        Event(kind=K.CHARGE, rule="bfrpg:charging", text="c charges", actor="c", target="b"),
        Event(kind=K.CHARGE_ATTACK, rule="bfrpg:charging", text="c crits", actor="c", target="b", outcome="hit",
              data={"critical": "critical"}),
        Event(kind=K.END_TURN, rule="bfrpg:turn-order", text="a ends", actor="a"),
    ]
    figures = [("a", "A", "blue"), ("c", "C", "blue"), ("b", "B", "red")]
    final = {"a": {}, "c": {}, "b": {"down": True, "conditions": ["dead"], "hp": -2, "hp_max": 6}}
    s1 = summarize(figures, events, final, rounds=3, winner="blue")
    s2 = summarize(figures, [e.to_json() for e in events], final, rounds=3, winner="blue")
    assert s1 == s2
    assert s1["headline"] == "blue wins in 3 rounds"
    assert s1["casualties"] == [{"id": "b", "name": "B", "side": "red", "how": "dead"}]
    n = s1["notable"]
    assert n["parting shots provoked"] == 1 and "parting shots struck" not in n
    assert n["charges"] == 1 and n["criticals"] == 1
    assert n["rear attacks"] == 1 and n["flank attacks"] == 1 and n["fighting withdrawals"] == 1
    assert n["attacks"] == 3 and n["hits"] == 2
    counts = count_events(events)
    assert counts["rules"]["bfrpg:attacking-from-behind"] == 1
    assert counts["modifiers"] == {"from behind (rear)": 1, "flank (left)": 1}, "a figure's own AB is not situational"
    assert s1["sides"]["red"]["hp_lost"] == 6


# AI battles that between them emit every kind a report counts (a few seconds, not minutes).
KIND_BATTLES = (("maps/charge_demo.toml", "odnd", 1), ("maps/charge_demo.toml", "odnd", 2),
                ("maps/charge_demo.toml", "bfrpg", 1), ("maps/corridor.toml", "cnc", 1),
                ("maps/corridor.toml", "ch17", 1), ("maps/horse_field.toml", "ch17", 2),
                ("maps/wall_walk.toml", "bfrpg", 2), ("maps/wall_walk.toml", "cnc", 2),
                ("maps/knights_spears.toml", "bfrpg", 1), ("maps/knights_spears.toml", "bfrpg", 3))


def test_every_kind_a_report_counts_is_emitted_by_the_resolver():
    """Reports count by event kind: each kind they read must be one the resolver emits in real battles."""
    emitted = set()
    for path, rid, seed in KIND_BATTLES:
        for setup in setups_for(load_scenario(path), [load_ruleset(rid)]).values():
            battle, _res, _info = play_battle(replace(setup, seed=seed), max_rounds=6)
            emitted |= {e.kind for e in battle.events}
    emitted |= (_first_blow_of_a_spear_and_a_sword() | _a_fighting_disengagement() | _a_set_spear_against_a_charge()
                | _a_missile_into_a_melee() | _an_overbear() | _a_trip_off_a_ledge() | _mounted_and_missile_rarities()
                | _a_rout())
    for label, kinds in NOTABLE_KINDS.items():
        assert kinds & emitted, f"{label!r} counts {sorted(kinds)}, none of which the resolver emitted"
    assert set(NOTABLE_KINDS) == {label for label, _ in NOTABLE}


def _a_rout() -> set:
    """odnd:morale: a side that fails its check after its first death routs (the AI's battles rout
    only by chance). Seed 1's 2d6 fails it."""
    from battles import OPEN, fig, make_battle, until_turn
    b = make_battle("odnd", OPEN, [fig("h", "blue", 4, 4, "E", template="hero", stats={"hp": 500}),
                                   fig("m1", "red", 5, 4, "W", template="normal_man", stats={"hp": 1}),
                                   fig("m2", "red", 9, 9, "W", template="normal_man", stats={"hp": 20})], seed=1)
    until_turn(b, "h")
    while b.able("m1"):
        b.apply(Attack("h", target="m1"))
    for _ in range(12):
        if b.is_over:
            break
        b.apply(EndTurn(b.current))
    return {e.kind for e in b.events}


def _first_blow_of_a_spear_and_a_sword() -> set:
    """odnd:encounter-order: a sword attacking a spear in their first round meets the spear first."""
    from battles import OPEN, fig, make_battle
    b = make_battle("odnd", OPEN, [fig("sword", "blue", 4, 4, "E", template="foot", stats={"hp": 50}),
                                   fig("spear", "red", 5, 4, "W", template="spearman", stats={"hp": 50})])
    while b.current != "sword":
        b.apply(EndTurn(b.current))
    return {e.kind for e in b.apply(Attack("sword", target="spear"))}


def _a_missile_into_a_melee() -> set:
    """spelljammer:shooting-into-melee: d100 + weapon rank 30 or less turns the shot on the friend (about one
    in four); the first of a few fixed seeds where it does."""
    from game.core.values.actions import Attack
    from battles import OPEN, fig, make_battle
    for seed in range(1, 30):
        b = make_battle("spelljammer", OPEN, [fig("arc", "blue", 1, 4, "E", template="archer"),
                                              fig("friend", "blue", 8, 4, "E"), fig("foe", "red", 9, 4, "W")], seed=seed)
        while b.state.phase == "declare" or b.current != "arc":
            if b.round > 1:
                break
            b.apply(EndTurn(b.current))
        if b.current == "arc" and b.round == 1:
            kinds = {e.kind for e in b.apply(Attack("arc", target="foe"))}
            if K.FRIENDLY_FIRE in kinds:
                return kinds
    return set()


def _a_set_spear_against_a_charge() -> set:
    """bfrpg:set-weapon-against-charge: the AI seldom charges a set spear; the bundled demo's script does."""
    from game.core.script import parse_script, run_script
    sc = load_scenario("maps/charge_demo.toml")
    b = Battle.from_scenario(sc)
    return {e.kind for e in run_script(b, parse_script(sc.actions, sc.source, [f.id for f in sc.figures]), sc.source)}


def _an_overbear() -> set:
    """cnc overbearing: the AI weighs it but seldom finds it best in these battles; one made by hand."""
    from battles import fig
    from battles import battle_at_turn
    b = battle_at_turn("cnc", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    return {e.kind for e in b.apply(Overbear("a", target="b"))}


def _a_trip_off_a_ledge() -> set:
    """bfrpg tripping a foe off the wall walk: it falls (the AI trips only when it finds it best)."""
    from battles import fig
    from battles import LEDGE, battle_at_turn
    from dice import ForcedDice
    b = battle_at_turn("bfrpg", [fig("a", "blue", 2, 2, "E"), fig("b", "red", 3, 2, "W", stats={"hp": 30})],
                       bmap=LEDGE)
    b.rng = ForcedDice([16, 3, 4])
    return {e.kind for e in b.apply(Trip("a", target="b", to=(4, 2)))}


def _mounted_and_missile_rarities() -> set:
    """A rider thrown by its falling mount, a near miss on a rider hitting the mount (bfrpg Mounted Combat)
    and a missed arrow flying on (cnc ranged-combat), scripted: the AI's battles show them only by chance."""
    from battles import fig, make_battle
    from battles import until_phase
    from dice import ForcedDice
    from battles import footman_beside as _footman_beside, riding_battle, until_turn
    kinds = set()
    b = riding_battle(extra=[fig("foe", "red", 4, 4, "W", stats={"hp": 30, "attack_bonus": 10})], horse_stats={"hp": 1})
    until_turn(b, "foe")
    b.rng = ForcedDice([15, 3, 4])
    kinds |= {e.kind for e in b.apply(Attack("foe", target="horse"))}
    b = _footman_beside()
    until_turn(b, "foe")
    b.rng = ForcedDice([15 - b.explain_attack("foe", "knight").attack_total])
    kinds |= {e.kind for e in b.apply(Attack("foe", target="knight"))}
    b = make_battle("cnc", "\n".join(["." * 40] * 9), [fig("a", "blue", 1, 4, "E", template="archer"),
                                                        fig("b", "red", 4, 4, "W"), fig("c", "red", 7, 4, "W")])
    until_phase(b, "a")
    b.rng = ForcedDice([2, 20, 4])
    return kinds | {e.kind for e in b.apply(Attack("a", target="b"))}


def _a_fighting_disengagement() -> set:
    """cnc:disengaging-from-combat: the AI rarely disengages in these battles; a figure that does, announced
    in its declaration at the start of the round."""
    from battles import OPEN, fig, make_battle
    b = make_battle("cnc", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 50}),
                                  fig("b", "red", 5, 4, "W", stats={"hp": 50})])
    while b.current != "a":
        b.apply(EndTurn(b.current))
    return {e.kind for e in b.apply(Disengage("a", to=(3, 4), style="fighting"))}


def test_outcome_is_the_resolvers():
    b = Battle.from_scenario(load_scenario("maps/corridor.toml"))
    assert outcome(b) == Outcome(False, None, "", ("blue", "red"))
    for fid, fig in b.figures.items():
        if fig.side == "red":
            b.states[fid].conditions["dead"] = 0
    turns.check_over(b)
    res = outcome(b)
    assert res.over and res.winner == "blue" and res.sides_left == ("blue",)


def test_cli_simulate_json(scenario_path, capsys):
    code = main(["simulate", str(scenario_path), "--runs", "2", "--workers", "1", "--json", "--max-rounds", "10",
                 "--seed", "4"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 4 and data["runs"] == 2 and list(data["rulesets"]) == ["bfrpg"]
    side = data["rulesets"]["bfrpg"]["sides"]["blue"]
    assert set(side) >= {"wins", "win_rate", "ci95"}


def test_cli_simulate_table_and_per_side_difficulty(scenario_path, capsys):
    code = main(["simulate", str(scenario_path), "--runs", "1", "--workers", "1", "--max-rounds", "5",
                 "--difficulty", "blue=hard,red=easy"])
    assert code == 0
    out = capsys.readouterr().out
    assert "blue=hard" in out and "bfrpg" in out


@pytest.mark.parametrize("args, words", [
    (["--runs", "0"], "--runs"),
    (["--difficulty", "godlike"], "--difficulty"),
    (["--difficulty", "green=hard"], "side"),
    (["--ruleset", "nope"], "unknown ruleset"),
    (["--workers", "0"], "--workers"),
])
def test_cli_simulate_user_errors(scenario_path, capsys, args, words):
    code = main(["simulate", str(scenario_path), *args])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("fivefoot: error:") and words in err[0]


def test_aggregate_counts_rules(scenario_path):
    sc = load_scenario(scenario_path)
    setups = setups_for(sc, [load_ruleset("bfrpg")])
    recs = [{"ruleset": "bfrpg", "run": 0, "winner": "blue", "over": True, "rounds": 4, "actions": 10, "refusals": 0,
             "stalled": False, "sides": {"red": {"down": 2}}, "notable": {"charges": 2}, "rules": {"bfrpg:charging": 2},
             "modifiers": {"charge": 2}},
            {"ruleset": "bfrpg", "run": 1, "winner": None, "over": False, "rounds": 30, "actions": 90, "refusals": 0,
             "stalled": False, "sides": {}, "notable": {}, "rules": {}, "modifiers": {}}]
    rep = aggregate(recs, setups, runs=2, seed=1, max_rounds=30, difficulty="normal")
    d = rep["rulesets"]["bfrpg"]
    assert d["sides"]["blue"]["wins"] == 1 and d["draws"] == 1 and d["avg_rounds"] == 17.0
    assert d["rule_events"] == {"charges": 2} and d["battles_with"] == {"charges": 1}
