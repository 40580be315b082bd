"""Issue 27 (rules fidelity, third pass): the d20 rulesets, each test citing the section of its document
(seeds: 000 bfrpg, 001 odnd, 002 cnc, 003 ch17) that fails without its fix."""
from __future__ import annotations

import pytest

from game.core.values.actions import Attack, Grapple, Move

from battles import OPEN, battle_at_turn, fig, make_battle, next_round, until_phase
from dice import ForcedDice, every_outcome, the_roll


def _odds_are_the_roll(b, bd):
    """The breakdown's odds are what the roll makes of it, face by face (tests/core/test_one_answer.py)."""
    rolled = every_outcome(the_roll(b, bd))
    odds = bd.odds()
    assert abs(sum(p for k, p in rolled.items() if k[0] == "hit") - odds.p_hit) < 1e-9
    damage: dict = {}
    for key, p in rolled.items():
        if key[0] == "hit":
            damage[key[1]] = damage.get(key[1], 0.0) + p / odds.p_hit
    assert set(damage) == {v for v, _p in odds.damage}
    assert all(abs(damage[v] - p) < 1e-9 for v, p in odds.damage)


# ----- 2: bfrpg Wrestling: the holder's damage is automatic; the question and the act agree -----
def _holding(rid="bfrpg"):
    b = battle_at_turn(rid, [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W", stats={"hp": 30})])
    b.rng = ForcedDice([19] + ([19, 1] if rid == "ch17" else []))    # the grapple hits (ch17: and a wins the checks)
    b.apply(Grapple("a", target="b"))
    assert b.state_of("a").holding == "b"
    b.profile("b")["ac"] = 25                   # so hard to hit that a rolled fist needs a natural 20
    next_round(b)
    until_phase(b, "a")
    return b


def test_bfrpg_a_holder_inflicts_its_unarmed_damage_without_a_roll():
    """bfrpg:wrestling: after achieving a hold the attacker can automatically inflict unarmed damage (as if
    striking with a fist). Against AC 25 a fist needed a 24 (a natural 20 only); now it always lands, 1d3."""
    b = _holding()
    bd = b.explain_attack("a", "b", weapon="fist")
    assert bd.allowed and bd.auto_hit == "held" and bd.odds().p_hit == pytest.approx(1.0)
    assert [v for v, _p in bd.odds().damage] == [1, 2, 3]
    assert [p for _v, p in bd.odds().damage] == pytest.approx([1 / 3] * 3)
    _odds_are_the_roll(b, bd)
    b.rng = ForcedDice([2], then="fail")        # the damage die only: no attack roll is made
    events = b.apply(Attack("a", target="b", weapon="fist"))
    blow = events[0]
    assert blow.outcome == "hit" and "no attack roll: hits automatically (held), 2 damage" in blow.text
    assert b.state_of("b").subdual == 2


def test_bfrpg_explain_refuses_the_holders_sword_as_the_attack_does():
    """bfrpg:wrestling: the holder can't use a weapon. explain_attack(holder, held) allowed the sword while
    check refused it ("may strike only unarmed"): the question and the act now give the same refusal."""
    b = _holding()
    bd = b.explain_attack("a", "b", weapon="sword")
    refusal = b.check(Attack("a", target="b", weapon="sword"))
    assert not bd.allowed and [r.key for r in bd.refusals] == ["grapple.unarmed-only"] == [refusal.key]
    assert bd.reason == refusal.words


def test_ch17_a_holders_punch_is_still_rolled():
    """ch17:grappling-wrestling lists 'deal unarmed damage (like a punch)' without bfrpg's 'automatically':
    a punch is an attack roll (ch17:brawling), so the holder rolls it."""
    b = _holding("ch17")
    bd = b.explain_attack("a", "b", weapon="fist")
    assert bd.allowed and not bd.auto_hit and bd.odds().p_hit < 0.2


# ----- 3: a punch does 1d3 (ch17: + STR), subdual, not halved -----
@pytest.mark.parametrize("rid,str_mod,low,high,rule", [
    ("bfrpg", 0, 1, 3, "bfrpg:brawling"),
    ("ch17", 2, 3, 5, "ch17:brawling"),
])
def test_a_punch_does_1d3_subdual_in_full(rid, str_mod, low, high, rule):
    """bfrpg:brawling (a punch does 1d3 subduing damage) and ch17:brawling (1d3 + STR, non-lethal): the fist
    was struck like the flat of a weapon and halved, so a punch always did 1 point (subduing-damage's half
    is for the flat of the blade, with its -4)."""
    b = battle_at_turn(rid, [fig("a", "blue", 3, 3, "E", stats={"str_mod": str_mod}), fig("b", "red", 4, 3, "W")])
    bd = b.explain_attack("a", "b", weapon="fist")
    assert bd.subdue and not bd.flat_of_blade
    assert "subdue" not in {m.key for m in bd.attack_mods}                 # no -4: it is no blade's flat
    hits = dict(bd.odds().damage)
    regular = {v for v in hits if hits[v] > 0.1}
    assert regular == set(range(low, high + 1)), bd.odds().damage
    _odds_are_the_roll(b, bd)
    flat = b.explain_attack("a", "b", weapon="sword", subdue=True)         # the flat of the blade: -4, half
    assert flat.flat_of_blade and {m.key: m.value for m in flat.attack_mods}["subdue"] == -4
    assert max(v for v, _p in flat.odds().damage if _p > 0.05) == (8 + str_mod) // 2


def test_odnd_empty_hand_d4_of_which_one_point_in_two_is_real():
    """odnd:empty-hand-attacks: damage is a d4 (not halved), only 1 point per every 2 is actual damage, the
    rest temporary; with STR 16-18 (choice-strong-hands: a STR modifier of +1 or more) 2 points in 2."""
    b = battle_at_turn("odnd", [fig("a", "blue", 3, 3, "E", stats={"str_mod": 0, "attack_bonus": 30}),
                                fig("s", "blue", 3, 4, "E", stats={"str_mod": 1, "attack_bonus": 30}),
                                fig("b", "red", 4, 3, "W", stats={"hp": 30})])
    bd = b.explain_attack("a", "b", weapon="fist")
    assert {v for v, p in bd.odds().damage if p > 0.1} == {1, 2, 3, 4} and bd.real_every == 2
    assert any("1 point in every 2 is real" in n and "odnd:empty-hand-attacks" in n for n in bd.notes)
    b.rng = ForcedDice([10, 4])                  # hits; the d4 shows 4: 2 real, 2 temporary
    b.apply(Attack("a", target="b", weapon="fist"))
    assert (b.state_of("b").hp, b.state_of("b").subdual) == (28, 2)
    strong = b.explain_attack("s", "b", weapon="fist")
    assert strong.real_every == 1 and any("odnd:choice-strong-hands" in n for n in strong.notes)
    pulled = b.explain_attack("a", "b", weapon="fist", subdue=True)
    assert pulled.real_every == 0 and any("pulls its punches" in n for n in pulled.notes)


# ----- 4: ch17 Oil: the one hit directly takes the splash too, without a save -----
def test_ch17_oil_hitting_directly_adds_the_1d6_splash_without_a_save():
    """ch17:oil: 1d8 fire to the creature hit directly, and all within 5 ft of the impact take 1d6 splash; a
    save avoids the splash unless the creature was hit directly. The one hit took no splash at all."""
    b = battle_at_turn("ch17", [fig("a", "blue", 1, 3, "E", template="archer", weapons=["oil_flask"],
                                    stats={"attack_bonus": 30}),
                                fig("b", "red", 4, 3, "W", stats={"hp": 40}), fig("c", "red", 4, 4, "N", stats={"hp": 40})])
    bd = b.explain_attack("a", "b")
    assert bd.splash == "1d6" and any("ch17:oil" in n for n in bd.notes)
    regular = [v for v, p in bd.odds().damage if p > 0.01]
    assert min(regular) == 2 and max(regular) == 14                  # 1d8 + 1d6
    _odds_are_the_roll(b, bd)
    b.rng = ForcedDice([12, 5, 3, 19], then="fail")   # hits; 1d8 5; splash on b 3; c saves with 19
    events = b.apply(Attack("a", target="b"))
    assert events[0].kind == "attack" and events[0].data["damage"] == 8
    assert "+3 splash (1d6, hit directly: no save)" in events[0].text
    splashes = [e for e in events if e.kind == "splash"]
    assert [(e.target, e.outcome) for e in splashes] == [("c", "saved")]
    assert b.state_of("b").hp == 32


# ----- 5: cnc Ranged Combat: a missile flying on is rolled again, the figure it missed no cover -----
def test_cnc_the_figure_a_missile_missed_is_no_cover_for_the_one_behind_it():
    """cnc:ranged-combat: a missile that misses continues in a straight line and is rolled again at -1 per
    10 ft past the target. The engine rolled a fresh attack from the shooter, so the figure just missed
    stood between and gave the next one cover (+4 AC, cnc:cover)."""
    wide = "\n".join(["." * 40] * 9)
    b = make_battle("cnc", wide, [fig("a", "blue", 1, 4, "E", template="archer"), fig("b", "red", 4, 4, "W"),
                                  fig("c", "red", 7, 4, "W", stats={"hp": 20})])
    assert "cover" in {m.key for m in b.explain_attack("a", "c").defense_mods}     # a fresh shot at c: b is cover
    until_phase(b, "a")
    b.rng = ForcedDice([2, 20, 4])
    events = b.apply(Attack("a", target="b"))
    roll = [e for e in events if e.kind == "flies-on"][1]
    assert roll.target == "c" and roll.target_number == b.profile("c")["ac"]      # AC 15: no +4 for b
    assert "cover" not in roll.text


# ----- 6: odnd leaving melee: a plain move out is a Retreat, with its opposed roll -----
def _odnd_engaged():
    return battle_at_turn("odnd", [fig("a", "blue", 3, 3, "E", stats={"hp": 30}),
                                   fig("b", "red", 4, 3, "W", stats={"hp": 30, "attack_bonus": 30})])


@pytest.mark.parametrize("faces,escapes", [([6, 2], True), ([2, 5], False), ([4, 4], False)])
def test_odnd_a_move_out_of_melee_is_a_retreat_decided_by_d6_plus_dex(faces, escapes):
    """odnd:retreat (MISC COMBAT RULES: once engaged only the special forms of movement): turning to leave
    rolls d6 + DEX against each foe; the mover escapes by rolling highest, else the foe strikes at +2. A
    plain move out of the 10 ft zone always gave the foe its free attack, with no roll (choice-retreat)."""
    b = _odnd_engaged()
    assert "d6 + DEX" in b.preview(Move("a", to=(0, 3))).planned.parting_shots[0].reason
    b.rng = ForcedDice(faces)
    events = b.apply(Move("a", to=(0, 3)))
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["move", "disengage", "retreat"] and events[1].rule == "odnd:choice-retreat"
    roll = events[2]
    assert roll.rule == "odnd:retreat" and (roll.total, roll.target_number) == tuple(faces)
    assert roll.outcome == ("escapes" if escapes else "caught")
    shots = [e for e in events if e.kind == "parting-shot"]
    assert (shots == []) is escapes
    if shots:
        assert {m.key: m.value for m in shots[0].modifiers}["parting-shot"] == 2


def test_odnd_a_fighting_withdrawal_rolls_nothing_and_draws_nothing():
    """odnd:fighting-withdrawal: backing out at half speed draws no free attack and needs no roll."""
    b = _odnd_engaged()
    b.rng = ForcedDice([], then="fail")
    events = b.apply(Move("a", to=(1, 3), mode="withdraw"))
    assert [e.kind for e in events] == ["move"]


def test_odnd_the_chance_of_the_free_attack_is_the_opposed_roll():
    """odnd:retreat: with equal DEX the foe strikes unless the mover rolls higher: 21 in 36. The AI prices a
    parting shot by this chance (it priced it as certain)."""
    b = _odnd_engaged()
    assert b.free_attack_chance("a", "b") == pytest.approx(21 / 36)
    b.profile("a")["dex_mod"] = 2
    assert b.free_attack_chance("a", "b") == pytest.approx(10 / 36)
    bf = battle_at_turn("bfrpg", [fig("a", "blue", 3, 3, "E"), fig("b", "red", 4, 3, "W")])
    assert bf.free_attack_chance("a", "b") == 1.0


# ----- 7: odnd surrounding: at most 6 of human size on a human-sized figure -----
RING = [(3, 3), (4, 3), (5, 3), (3, 4), (5, 4), (3, 5), (4, 5), (5, 5)]


@pytest.mark.parametrize("size,most", [("medium", 6), ("large", 8), ("small", 4)])
def test_odnd_only_so_many_can_surround_and_attack_one_figure(size, most):
    """odnd:misc-combat-rules: up to 6 combatants of around human size can surround and attack a human-sized
    figure; larger ones by more, smaller by fewer (choice-surrounding: large 8, small 4). All 8 around it
    attacked (while the modifier's own label read 'surrounded (6 attackers)')."""
    figures = [fig(f"r{i}", "red", x, y, stats={"hp": 30, "attack_bonus": -10}) for i, (x, y) in enumerate(RING)]
    figures.append(fig("t", "blue", 4, 4, stats={"hp": 200}, size=size))
    b = make_battle("odnd", OPEN, figures)
    done = 0
    for i in range(len(RING)):
        until_phase(b, f"r{i}")
        refusal = b.check(Attack(f"r{i}", target="t"))
        bd = b.explain_attack(f"r{i}", "t")
        if done < most:
            assert refusal is None and bd.allowed
            b.apply(Attack(f"r{i}", target="t"))
            done += 1
        else:
            assert refusal.key == "attack.surrounded" and [r.key for r in bd.refusals] == ["attack.surrounded"]
            assert f"({most} of {most}, counted as of human size)" in refusal.words
            assert any("odnd:choice-surrounding" in n for n in bd.notes)
    assert done == most
    assert len(b.state_of("t").melee_attackers) == most
