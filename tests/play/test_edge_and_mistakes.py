"""The ladder's yardstick (LEVEL+K: +K to hit on every attack of a side, read as to-hit worth) and
the mistakes simulate and ladder count per side."""
from __future__ import annotations

import json

import pytest

from game.cli import main
from game.core.values.actions import Attack, Move
from game.core.values.errors import RulesError
from game.io.paths import MAPS_DIR
from game.play.edge import split_level, with_edge
from game.play.ladder import aggregate, format_report
from game.play.ladder_worth import curve_from, read_worth
from game.play.mistakes import MistakeCounter
from tests.battles import OPEN, fig, make_battle, until_phase


def test_level_plus_k_is_read_and_mistakes_are_words():
    assert split_level("naive") == ("naive", 0)
    assert split_level("normal+3") == ("normal", 3)
    for bad in ("genius+1", "naive+x", "naive+11"):
        with pytest.raises(RulesError):
            split_level(bad)


@pytest.mark.parametrize("rid,step", [("bfrpg", 1), ("odnd", 1), ("spelljammer", 5)])
def test_an_edge_is_a_named_modifier_on_every_attack_of_that_side(rid, step):
    b = make_battle(rid, OPEN, [fig("a", "blue", 3, 4, "E"), fig("b", "red", 4, 4, "W")])
    plain = b.explain_attack("a", "b")
    edged = type(b)(with_edge(b.setup, "blue", 2))
    got = edged.explain_attack("a", "b")
    mods = {m.key: m.value for m in got.attack_mods}
    assert mods.get("edge") == 2 * step
    assert got.chance() > plain.chance()
    # the other side is untouched
    assert "edge" not in {m.key for m in edged.explain_attack("b", "a").attack_mods}


def test_to_hit_worth_is_read_off_the_calibration_curve():
    curve = curve_from([(1, 0.6), (2, 0.7), (4, 0.8)])
    assert read_worth(curve, 0.5) == (0.0, False)
    k, beyond = read_worth(curve, 0.7)
    assert k == pytest.approx(2.0) and not beyond
    k, _ = read_worth(curve, 0.65)
    assert 1.0 < k < 2.0
    assert read_worth(curve, 0.9) == (4.0, True)               # past the last point: "more than +4"
    k, _ = read_worth(curve, 0.3)                              # a losing rate is a negative worth
    assert k == pytest.approx(-2.0)
    # a noisy calibration that dips is made non-decreasing
    assert [y for _k, y in curve_from([(1, 0.7), (2, 0.6)])][1:] == sorted(y for _k, y in curve_from([(1, 0.7), (2, 0.6)]))[1:]


def _rec(stronger, weaker, winner_level, ruleset="odnd"):
    return {"stronger": stronger, "weaker": weaker, "winner_level": winner_level, "ruleset": ruleset, "battle": "b",
            "rounds": 3, "refusals": 0, "stalled": False,
            "levels": {"blue": stronger, "red": weaker},
            "mistakes": {"blue": {"blows forgone": 1, "turns ended": 4}, "red": {"blows forgone": 0, "turns ended": 3}}}


def test_a_ladder_with_edges_reads_each_pair_as_to_hit_worth():
    records = ([_rec("naive+2", "naive", "naive+2")] * 7 + [_rec("naive+2", "naive", "naive")] * 3
               + [_rec("naive+4", "naive", "naive+4")] * 9 + [_rec("naive+4", "naive", "naive")] * 1
               + [_rec("normal", "naive", "normal")] * 8 + [_rec("normal", "naive", "naive")] * 2)
    report = aggregate(records, levels=("naive", "normal"), battles=["b"], rulesets=["odnd"], runs=10, seed=1,
                       max_rounds=30, edges=("naive+2", "naive+4"))
    worth = report["worth"]["normal vs naive"]
    # 80% lies between +2 (70%) and +4 (90%)
    assert 2.0 < worth["odnd"]["to_hit"] < 4.0 and worth["odnd"]["ci95"][0] < worth["odnd"]["to_hit"]
    assert "naive+2 vs naive" not in report["worth"]          # the calibration is not read against itself
    assert report["mistakes"]["normal"]["blows forgone"] == 10 and report["mistakes"]["naive"]["blows forgone"] == 0
    text = format_report(report)
    assert "to-hit worth" in text and "normal vs naive" in text and "mistakes per 10 battles" in text
    # the same counts per 100 turns the level's figures ended: normal's 10 forgone in 40 turns
    normal_rows = text.split("mistakes per 10 battles")[1].split("\n  normal ")[1].splitlines()
    assert normal_rows[1].split()[0] == "100" and normal_rows[1].split()[-1] == "25.00"


def test_a_turn_ended_with_a_blow_in_reach_is_a_blow_forgone():
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 3, 4, "E"), fig("b", "red", 4, 4, "W"),
                                    fig("c", "red", 3, 5, "N")])
    until_phase(b, "a")
    assert b.check(Attack("a", "b")) is None
    counter = MistakeCounter()
    counter.ending(b, "a")
    counts = counter.tally(b)["blue"]
    assert counts["blows forgone"] == 1
    assert counts["left alone by two or more foes"] == 1          # two foes beside it, no friend near
    assert counts["turns ended"] == 1 and counter.tally(b)["red"]["turns ended"] == 0


def test_a_walk_too_long_to_strike_loses_the_blow():
    # cnc: a figure that walks more than half its move makes no attack this round.
    b = make_battle("cnc", OPEN, [fig("a", "blue", 1, 4, "E"), fig("b", "red", 7, 4, "W")])
    until_phase(b, "a")
    me = b.figures["a"]
    assert b.strike_move_ft(me) < 25 <= me.move_ft
    b.apply(Move("a", to=(6, 4)))
    assert b.check(Attack("a", "b")) is not None
    counter = MistakeCounter()
    counter.ending(b, "a")
    counts = counter.tally(b)["blue"]
    assert counts["blows lost to a long move"] == 1 and counts["blows forgone"] == 0


def test_simulate_and_ladder_reports_carry_the_mistakes(capsys):
    args = ["simulate", str(MAPS_DIR / "mirror_corridor.toml"), "--ruleset", "odnd", "--runs", "1",
            "--max-rounds", "2", "--workers", "1", "--difficulty", "blue=naive+2,red=normal", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    mistakes = data["rulesets"]["odnd"]["mistakes"]
    assert set(mistakes) == {"blue", "red"} and "blows forgone" in mistakes["blue"]
    args = ["ladder", str(MAPS_DIR / "mirror_corridor.toml"), "--levels", "naive,easy", "--edge", "naive+1",
            "--ruleset", "odnd", "--runs", "1", "--max-rounds", "2", "--workers", "1", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(p["stronger"], p["weaker"]) for p in data["pairs"]] == [("easy", "naive"), ("naive+1", "naive")]
    assert "easy vs naive" in data["worth"] and set(data["mistakes"]) == {"naive", "easy", "naive+1"}
    assert main(["ladder", "--levels", "naive,easy", "--edge", "hard+1"]) == 2


def test_a_shot_held_back_from_a_melee_with_a_friend_in_it_is_not_a_blow_forgone():
    """bfrpg Firing Into Melee: a near miss strikes the friend. An archer ending its turn with its
    only shot into its friend's melee held the careful shot; with the foe standing alone, the
    same turn end forgoes a shot."""
    def archer_ends_turn(friend_beside_foe: bool) -> dict:
        friend = fig("friend", "blue", 8, 4, "E") if friend_beside_foe else fig("friend", "blue", 1, 8, "E")
        b = make_battle("bfrpg", OPEN, [fig("archer", "blue", 1, 4, "E", template="archer"), friend,
                                        fig("foe", "red", 9, 4, "W")])
        until_phase(b, "archer")
        assert b.check(Attack("archer", "foe")) is None
        bd = b.preview(Attack("archer", "foe")).breakdown
        assert (b.into_melee_risk(bd).p_friend_struck > 0) == friend_beside_foe
        counter = MistakeCounter()
        counter.ending(b, "archer")
        return counter.tally(b)["blue"]
    assert archer_ends_turn(friend_beside_foe=True)["blows forgone"] == 0
    assert archer_ends_turn(friend_beside_foe=False)["blows forgone"] == 1


def test_a_shot_the_roll_cannot_hit_is_not_a_blow_forgone():
    """cnc: an archer's arrow at a knight in plate at long range needs more than the die can give
    (the resolver accepts the shot, at no chance to hit); a turn ended without it forgoes nothing.
    Nearer, the same shot has a chance and ending the turn forgoes it."""
    wide = "\n".join(["." * 40] * 8)

    def archer_ends_turn(knight_x: int) -> tuple[float, int]:
        b = make_battle("cnc", wide, [fig("archer", "blue", 1, 4, "E", template="archer"),
                                      fig("knight", "red", knight_x, 4, "W", template="knight")])
        until_phase(b, "archer")
        assert b.check(Attack("archer", "knight")) is None
        counter = MistakeCounter()
        counter.ending(b, "archer")
        return b.preview(Attack("archer", "knight")).breakdown.chance(), counter.tally(b)["blue"]["blows forgone"]
    assert archer_ends_turn(30) == (0.0, 0)
    chance, forgone = archer_ends_turn(10)
    assert chance > 0 and forgone == 1
