"""Issue 10, items 6-14: each combat rule as its document gives it (the section is in each test's
docstring; worked numbers from the documents where they give them)."""
from __future__ import annotations

import pytest

from game.core.combat.modifiers import AttackContext, attack_breakdown

from battles import OPEN, fig, make_battle


def _mods(mods) -> dict[str, int]:
    return {m.name: m.value for m in mods}


# ----- 6: cover comes only from figures between attacker and target -----
@pytest.mark.parametrize("ruleset_id", ["bfrpg", "cnc"])
def test_comrades_beside_a_melee_pair_are_not_cover(ruleset_id):
    """bfrpg:cover-and-concealment (shooting *through* an ally), cnc:cover: figures beside an adjacent
    pair, on either side, are not between them: no cover (choice-cover-between)."""
    figures = [fig("att", "blue", 4, 4, "E"), fig("tgt", "red", 5, 4, "W"),
               fig("a1", "blue", 5, 3, "S"), fig("a2", "blue", 5, 5, "N"),
               fig("r1", "red", 4, 3, "S"), fig("r2", "red", 4, 5, "N")]
    b = make_battle(ruleset_id, OPEN, figures)
    for attacker, target in (("att", "tgt"), ("tgt", "att")):
        bd = attack_breakdown(b, attacker, target, AttackContext())
        keys = {m.key for m in bd.attack_mods + bd.defense_mods}
        assert "cover" not in keys, (attacker, bd.attack_mods, bd.defense_mods)
        assert any("not between" in n for n in bd.notes)
        assert any(n.startswith("choice: ") for n in bd.notes)


@pytest.mark.parametrize("ruleset_id", ["bfrpg", "cnc"])
def test_the_sight_the_window_shows_is_the_cover_the_attack_counts(ruleset_id):
    """The same position as above (choice-cover-between): the resolver's sight answer, which the
    window's overlay and tooltip read, gives the comrades beside the pair no cover either, while
    the figures-in-the-way geometry alone would."""
    from game.client.rulesview import RulesView
    figures = [fig("att", "blue", 4, 4, "E"), fig("tgt", "red", 5, 4, "W"),
               fig("a1", "blue", 5, 3, "S"), fig("a2", "blue", 5, 5, "N"),
               fig("r1", "red", 4, 3, "S"), fig("r2", "red", 4, 5, "N")]
    b = make_battle(ruleset_id, OPEN, figures)
    shown = RulesView(b).sight("att", "tgt")
    assert shown == b.sight("att", "tgt")
    assert shown.cover == "none"
    assert b.positioning().sight("att", "tgt").cover != "none"     # the bare geometry counts them


def test_a_comrade_in_the_line_of_fire_is_still_cover():
    """bfrpg:cover-and-concealment: shooting through an ally to an enemy is hard cover (1/2: -4);
    cnc:cover: the same figure raises AC by +4."""
    figures = [fig("archer", "blue", 1, 4, "E", template="archer"), fig("ally", "blue", 4, 4, "E"),
               fig("tgt", "red", 7, 4, "W")]
    bf = attack_breakdown(make_battle("bfrpg", OPEN, figures), "archer", "tgt", AttackContext())
    assert _mods(bf.attack_mods)["1/2 cover"] == -4
    cc = attack_breakdown(make_battle("cnc", OPEN, figures), "archer", "tgt", AttackContext())
    assert _mods(cc.defense_mods)["1/2 cover"] == 4


# ----- 7: prone ends, and costs what each document says -----
from game.core.values.actions import Attack, Charge, Defend, Disengage, EndTurn, Move, Stand, action_from_json  # noqa: E402


def _until(b, fid, declare=False, limit=300):
    """Pass turns until it is fid's turn (its declaration turn with declare=True)."""
    for _ in range(limit):
        if b.current == fid and (b.state.phase == "declare") == declare:
            return
        b.apply(EndTurn(b.current))
    raise AssertionError(f"{fid} never got a turn")


def _duel(ruleset_id, prone_stats=None, **kw):
    prone = {"hp": 40, "conditions": ["prone"], **(prone_stats or {})}
    return make_battle(ruleset_id, OPEN, [fig("down", "blue", 4, 4, "E", stats=prone),
                                          fig("foe", "red", 5, 4, "W", stats={"hp": 40}),
                                          fig("archer", "red", 12, 4, "W", template="archer", stats={"hp": 40})], **kw)


def test_bfrpg_prone_minus_4_ac_and_getting_up_takes_the_whole_turn():
    """bfrpg:prone-and-helpless-opponents: -4 AC; getting up takes a full round with no other action."""
    b = _duel("bfrpg")
    melee = attack_breakdown(b, "foe", "down", AttackContext())
    ranged = attack_breakdown(b, "archer", "down", AttackContext())
    assert _mods(melee.defense_mods)["target prone"] == -4
    assert _mods(ranged.defense_mods)["target prone"] == -4
    _until(b, "down")
    refusal = b.check(Move("down", to=(2, 4)))
    assert refusal.key == "prone" and "whole turn" in refusal.words
    assert b.options("down")["stand"] is None
    assert Stand("down") in b.legal_actions("down")
    events = b.apply(Stand("down"))
    assert events[0].kind == "stand" and events[0].rule == "bfrpg:prone-and-helpless-opponents"
    assert not b.state_of("down").has("prone")
    assert b.current != "down"                  # the turn is spent getting up
    assert b.check(Stand("down")).key in ("turn.not-yours", "stand.not-prone")


def test_ch17_prone_fights_at_minus_4_and_stands_for_half_its_move():
    """ch17:critical-hit: prone is -4 to hit, -4 AC in melee, +4 AC against missiles; getting up costs half
    the move (choice-prone), after which it may still act."""
    b = _duel("ch17")
    assert _mods(attack_breakdown(b, "foe", "down", AttackContext()).defense_mods)["target prone"] == -4
    assert _mods(attack_breakdown(b, "archer", "down", AttackContext()).defense_mods)["target prone"] == 4
    _until(b, "down")
    assert b.check(Attack("down", target="foe")) is None      # it may fight from the ground ...
    assert _mods(b.explain_attack("down", "foe").attack_mods)["attacker prone"] == -4   # ... at -4
    events = b.apply(Stand("down"))
    assert "choice:" in events[0].text and b.state_of("down").moved_ft == 15
    assert b.current == "down" and b.status("down").movement_left_ft == 15
    b.apply(Attack("down", target="foe"))


def test_cnc_prone_lasts_the_round_and_cannot_be_stood_up_from():
    """cnc:overbearing: prone for the remainder of that round; cnc:situational-modifiers: +5 to hit a prone
    defender in melee, -4 with missiles."""
    b = _duel("cnc")
    assert _mods(attack_breakdown(b, "foe", "down", AttackContext()).defense_mods)["target prone"] == -5
    assert _mods(attack_breakdown(b, "archer", "down", AttackContext()).defense_mods)["target prone"] == 4
    _until(b, "down")
    assert b.check(Stand("down")).key == "stand.round-end"
    while b.round == 1:
        b.apply(EndTurn(b.current))
    assert not b.state_of("down").has("prone")


def test_spelljammer_getting_up_is_declared_and_takes_the_round():
    """spelljammer (no prone rule, choice-prone): declared in the declaration step, no attacks that round."""
    b = _duel("spelljammer", {"hp": 60})
    _until(b, "down", declare=True)
    assert b.check(Move("down", to=(2, 4))).key == "prone"
    b.apply(Stand("down"))
    b.apply(EndTurn("down"))
    while b.state.phase == "declare":
        b.apply(EndTurn(b.current))
    assert any(e.kind == "initiative" and e.actor == "down" and "getting up" in e.text for e in b.events)
    assert "down" not in [m for s in b.state.slots for m in s.members]


def test_stand_has_a_script_form():
    assert action_from_json({"action": "stand", "figure": "down"}) == Stand("down")


# ----- 10: a parting shot is taken on its own terms -----
def test_odnd_retreat_free_attack_is_plus_2_and_no_shield_only():
    """odnd:retreat: the free attack is at +2 and the retreating figure's shield does not count; the rear +2
    and the loss of DEX of odnd:attacking-from-behind do not come on top."""
    b = make_battle("odnd", OPEN, [fig("foe", "red", 4, 4, "E", stats={"hp": 40}),
                                   fig("runner", "blue", 5, 4, "E", stats={"hp": 40, "dex_mod": 2, "shield": "medium"})])
    bd = attack_breakdown(b, "foe", "runner", AttackContext(parting_shot=True))
    assert _mods(bd.attack_mods) == {"parting shot": 2}
    assert [m.name for m in bd.defense_mods] == ["no shield: turned away from the attacker"]


@pytest.mark.parametrize("ruleset_id,rule", [("bfrpg", "bfrpg:defensive-movement"),
                                             ("ch17", "ch17:defensive-movement-and-attacks-of-opportunity")])
def test_parting_shot_is_plus_2_without_the_rear_bonus(ruleset_id, rule):
    """bfrpg:defensive-movement, ch17 17.0.2: the +2 of the parting shot is the reward for the turned back."""
    b = make_battle(ruleset_id, OPEN, [fig("foe", "red", 4, 4, "E", stats={"hp": 40}),
                                       fig("runner", "blue", 5, 4, "E", stats={"hp": 40})])
    bd = attack_breakdown(b, "foe", "runner", AttackContext(parting_shot=True))
    assert _mods(bd.attack_mods) == {"parting shot": 2}
    assert bd.attack_mods[0].source == rule
    plain = attack_breakdown(b, "foe", "runner", AttackContext())
    assert _mods(plain.attack_mods) == {"from behind (rear)": 2}


def test_cnc_walking_out_of_melee_is_a_hasty_disengagement():
    """cnc:disengaging-from-combat: leaving a foe without a fighting disengagement is hasty: the foe's free
    attack, and -2 AC for the round (and no other action)."""
    b = make_battle("cnc", OPEN, [fig("foe", "red", 4, 4, "E", stats={"hp": 40}),
                                  fig("runner", "blue", 5, 4, "W", stats={"hp": 40}),
                                  fig("other", "red", 9, 8, "N", stats={"hp": 40})])
    _until(b, "runner")
    events = b.apply(Move("runner", to=(8, 4)))
    assert [e.kind for e in events][:2] == ["move", "disengage"]
    shot = next(e for e in events if e.kind == "parting-shot")
    assert {m["name"]: m["value"] for m in shot.data["breakdown"]["defense_modifiers"]}["disengaging hastily"] == -2
    if b.able("runner"):
        assert b.status("runner").attacks_left == 0


# ----- 13: cnc announces charges and disengagements before initiative -----
def test_cnc_charge_is_announced_before_initiative():
    """cnc:charging: announced before initiative; -4 AC for the whole round from the announcement."""
    b = make_battle("cnc", OPEN, [fig("knight", "blue", 1, 4, "E", stats={"hp": 40}),
                                  fig("orc", "red", 9, 4, "W", stats={"hp": 40}),
                                  fig("archer", "red", 12, 8, "W", template="archer", stats={"hp": 40})])
    assert b.state.phase == "declare" and b.current == "knight"
    assert not [e for e in b.events if e.kind == "initiative"]      # initiative comes after the declarations
    events = b.apply(Charge("knight", target="orc"))
    assert events[0].kind == "declare" and "announces a charge" in events[0].text
    bd = attack_breakdown(b, "archer", "knight", AttackContext())
    assert _mods(bd.defense_mods)["announced a charge this round"] == -4
    while b.state.phase == "declare":
        b.apply(EndTurn(b.current))
    assert any(e.kind == "initiative" for e in b.events)
    _until(b, "knight")
    assert b.check(Charge("knight", target="archer")).key == "charge.other-target"
    kinds = [e.kind for e in b.apply(Charge("knight", target="orc"))]
    assert "charge" in kinds


def test_cnc_unannounced_charge_and_disengagement_are_refused():
    """cnc:charging and cnc:disengaging-from-combat: both are announced at the start of the round."""
    b = make_battle("cnc", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 40}),
                                  fig("b", "red", 5, 4, "W", stats={"hp": 40}),
                                  fig("c", "red", 12, 4, "W", stats={"hp": 40})])
    _until(b, "a")
    assert b.check(Charge("a", target="c")).key == "charge.not-announced"
    assert b.check(Disengage("a", to=(1, 4), style="fighting")).key == "disengage.announce"
    assert b.check(Move("a", to=(3, 4), mode="withdraw")).key == "disengage.announce"


def test_cnc_dodging_figure_rolls_no_initiative():
    """cnc:dodge: announced before the round; no initiative roll, no other action."""
    b = make_battle("cnc", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 40}),
                                  fig("b", "red", 5, 4, "W", stats={"hp": 40})])
    b.apply(Defend("a", style="dodge"))
    b.apply(EndTurn("a"))
    while b.state.phase == "declare":
        b.apply(EndTurn(b.current))
    assert any(e.kind == "initiative" and e.actor == "a" and "no initiative" in e.text for e in b.events)
    assert all("a" not in s.members for s in b.state.slots)


# ----- 8: set spears and longer weapons against a charge -----
from game.core.values.actions import SetAgainstCharge  # noqa: E402


@pytest.mark.parametrize("seed", range(1, 11))
def test_odnd_set_spear_strikes_first_whatever_the_initiative(seed):
    """odnd:charging-attacks: a set spear gets +2 and double damage and strikes first against an unmounted
    charger; initiative is not checked at the end of the charge."""
    b = make_battle("odnd", OPEN, [fig("runner", "blue", 1, 4, "E", stats={"hp": 60, "morale": 0}),
                                   fig("spear", "red", 10, 4, "W", template="spearman", stats={"hp": 60, "morale": 0})],
                    seed=seed)
    b.apply(SetAgainstCharge("spear"))
    _until(b, "runner")
    kinds = [e.kind for e in b.apply(Charge("runner", target="spear"))]
    assert "set-weapon" in kinds
    assert "charge-attack" not in kinds or kinds.index("set-weapon") < kinds.index("charge-attack")
    setw = next(e for e in b.events if e.kind == "set-weapon")
    assert _mods(setw.modifiers)["set against the charge"] == 2
    assert [m["value"] for m in setw.data["breakdown"]["damage_multipliers"]] == [2]
    assert "strikes first" in setw.text


def test_odnd_longer_weapon_strikes_a_charger_first():
    """odnd:melee-weapon-reach (and encounter-order): the spear outreaches the charging sword in the first
    round, so it strikes first even unset."""
    b = make_battle("odnd", OPEN, [fig("runner", "blue", 1, 4, "E", stats={"hp": 60, "morale": 0}),
                                   fig("spear", "red", 10, 4, "W", template="spearman", stats={"hp": 60, "morale": 0})])
    _until(b, "runner")
    events = b.apply(Charge("runner", target="spear"))
    kinds = [e.kind for e in events]
    assert "strikes-first" in kinds
    first = next(e for e in events if e.kind == "strikes-first")
    assert first.actor == "spear" and "outreaches" in first.text


@pytest.mark.parametrize("template,weapons,why", [("foot", ["polearm"], "outreaches"), ("monster", None, "large")])
def test_cnc_longer_reach_or_larger_size_strikes_a_charger_first(template, weapons, why):
    """cnc:initiative (reach over 10 ft, or a large creature, strikes first in the first round when the
    smaller closes within 10 ft) and cnc:charging: the charger's -4 AC applies to that strike."""
    extra = {"weapons": weapons} if weapons else {}
    b = make_battle("cnc", OPEN, [fig("runner", "blue", 1, 4, "E", stats={"hp": 60}),
                                  fig("big", "red", 10, 4, "W", template=template, stats={"hp": 60}, **extra)])
    b.apply(Charge("runner", target="big"))          # announced in its declaration
    _until(b, "runner")
    events = b.apply(Charge("runner", target="big"))
    first = next(e for e in events if e.kind == "strikes-first")
    assert first.actor == "big" and why in first.text
    defense = {m["name"]: m["value"] for m in first.data["breakdown"]["defense_modifiers"]}
    assert defense["charged this round"] == -4
    assert [e.kind for e in events].index("strikes-first") < len(events)


# ----- 9: a figure felled on its own number still acts, even as its side's last -----
@pytest.mark.parametrize("ruleset_id,rule", [("bfrpg", "bfrpg:initiative"),
                                             ("ch17", "ch17:determine-initiative-order")])
def test_last_figure_felled_on_its_own_number_still_acts(ruleset_id, rule):
    """bfrpg:initiative and ch17 (equal numbers act simultaneously): the felled figure, its side's last,
    still gets its action on that number before the battle ends."""
    b = make_battle(ruleset_id, OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 20, "attack_bonus": 30}),
                                       fig("b", "red", 5, 4, "W", stats={"hp": 1})], seed=2)
    assert [s.members for s in b.state.slots] == [["a", "b"]]      # one shared number
    while not (b.current == "a" and b.current_phase in ("melee", "all")):
        b.apply(EndTurn(b.current))
    events = b.apply(Attack("a", target="b"))
    assert not b.able("b")
    simultaneous = [e for e in events if e.kind == "simultaneous"]
    assert simultaneous and simultaneous[0].rule == rule
    assert not b.is_over
    b.apply(EndTurn("a"))
    assert not b.is_over and b.current == "b"
    b.apply(Attack("b", target="a"))
    b.apply(EndTurn("b"))
    assert b.is_over and b.winner == "blue"


def test_spelljammer_equal_numbers_of_different_figures_are_simultaneous():
    """spelljammer (choice-ties): only a figure's own second attack on one number waits a segment; two
    figures on the same number strike together, so one felled on it still strikes."""
    for seed in range(1, 200):
        b = make_battle("spelljammer", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 50, "sc": 300}),
                                              fig("b", "red", 5, 4, "W", stats={"hp": 1, "prot": 0})], seed=seed)
        while b.state.phase == "declare":
            b.apply(EndTurn(b.current))
        slots = b.state.slots
        if not (len(slots) >= 2 and slots[0].number == slots[1].number and slots[0].members == ["a"]
                and "b" in slots[1].members):
            continue
        events = b.apply(Attack("a", target="b"))
        if b.able("b"):
            continue
        sim = [e for e in events if e.kind == "simultaneous"]
        assert sim and sim[0].rule == "spelljammer:choice-ties"
        assert not b.is_over and b.current == "b"
        assert b.check(Attack("b", target="a")) is None
        return
    pytest.fail("no seed gave two figures the same number")


# ----- 11: spelljammer's ranged modifiers, shooting into melee and surprise -----
from game.core.battle.strikes import _into_melee_table, into_melee_row  # noqa: E402
from game.core.values.events import EventKind  # noqa: E402


def _sj(figures, seed=1):
    return make_battle("spelljammer", OPEN, figures, seed=seed)


def test_spelljammer_shooting_into_melee_targets_the_friend_about_26_percent_of_the_time():
    """spelljammer:shooting-into-melee: 1 friend and 1 opponent, d100 + weapon rank 4 <= 30 targets the
    friend: 26 of 100 results (05 or less always does, and is inside that)."""
    b = _sj([fig("archer", "blue", 1, 4, "E", template="archer"), fig("friend", "blue", 8, 4, "E"),
             fig("foe", "red", 9, 4, "W")])
    bd = attack_breakdown(b, "archer", "foe", AttackContext())
    assert bd.friends_in_melee == ("friend",)
    hits = 0
    for _ in range(3000):
        events, fbd, kind, _rule = _into_melee_table(b, bd, EventKind.ATTACK, "x")
        assert events[0].kind == "into-melee" and events[0].target_number == 30
        hits += kind == EventKind.FRIENDLY_FIRE
        assert (fbd.target == "friend") == (kind == EventKind.FRIENDLY_FIRE)
    assert 0.23 < hits / 3000 < 0.29


def test_spelljammer_into_melee_rows_and_the_nearest_row_choice():
    """spelljammer:shooting-into-melee rows (1 friend + 2 foes: 20; 3 friends + 2 foes: 45); a melee the
    table does not list takes the nearest row (choice-into-melee-table)."""
    rules = _sj([fig("a", "blue", 1, 1)]).ruleset.section("modifiers")
    assert into_melee_row(rules, 1, 2) == ({"friends": 1, "foes": 2, "upto": 20}, True)
    assert into_melee_row(rules, 3, 2) == ({"friends": 3, "foes": 2, "upto": 45}, True)
    assert into_melee_row(rules, 2, 2) == ({"friends": 2, "foes": 1, "upto": 40}, False)
    assert into_melee_row(rules, 5, 3)[0]["upto"] == 45


def test_spelljammer_shot_into_melee_rolls_the_table_before_the_attack():
    b = _sj([fig("archer", "blue", 1, 4, "E", template="archer"), fig("friend", "blue", 8, 4, "E"),
             fig("foe", "red", 9, 4, "W")])
    while b.state.phase == "declare":
        b.apply(EndTurn(b.current))
    _until(b, "archer")
    events = b.apply(Attack("archer", target="foe"))
    assert events[0].kind == "into-melee" and events[0].rule == "spelljammer:shooting-into-melee"
    assert events[1].kind in ("attack", "friendly-fire")


def test_spelljammer_ranged_size_speed_and_mount_modifiers():
    """spelljammer:size-modifiers (large +5) and spelljammer:movement-modifiers (running -10, stationary +10,
    moving mount -10)."""
    b = _sj([fig("archer", "blue", 1, 4, "E", template="archer"), fig("big", "red", 12, 2, "W", template="monster"),
             fig("rider", "red", 12, 8, "W", template="knight")])
    still = _mods(attack_breakdown(b, "archer", "big", AttackContext()).attack_mods)
    assert still["large target"] == 5 and still["target stationary"] == 10
    _until(b, "rider", declare=True)
    b.apply(Move("rider", to=(2, 8), mode="run"))        # 50 ft declared: over its 60 ft TMR? no: 1x-2x
    mods = _mods(attack_breakdown(b, "archer", "rider", AttackContext()).attack_mods)
    assert mods["target on a moving mount"] == -10
    assert not any(n.startswith("target stationary") for n in mods)
    _until(b, "big", declare=True)
    b.apply(Move("big", to=(2, 2), mode="run"))          # 50 ft on a 40 ft TMR: running
    mods = _mods(attack_breakdown(b, "archer", "big", AttackContext()).attack_mods)
    assert [v for n, v in mods.items() if n.startswith("target moving over 1x")] == [-10]


def test_spelljammer_full_defense_is_a_melee_stance_and_dodging_against_missiles():
    """spelljammer:full-defense is a melee modifier; against missiles the figure is dodging: -20
    (spelljammer:movement-modifiers, choice-melee-stances)."""
    b = _sj([fig("archer", "blue", 1, 4, "E", template="archer"), fig("sword", "blue", 11, 4, "E"),
             fig("foe", "red", 12, 4, "W")])
    _until(b, "foe", declare=True)
    b.apply(Defend("foe", style="full-defense"))
    shot = attack_breakdown(b, "archer", "foe", AttackContext())
    assert _mods(shot.attack_mods)["target dodging (full-defense)"] == -20
    assert "full-defense" not in _mods(shot.defense_mods)
    assert any(n.startswith("choice: ") for n in shot.notes)
    blow = attack_breakdown(b, "sword", "foe", AttackContext())
    assert _mods(blow.defense_mods)["full-defense"] == 5 + 10        # +5 and weapon rank 4 x 2.5


def test_spelljammer_an_unaware_target_and_an_unexpected_attack():
    """spelljammer:surprise: out of combat +25 and only magical DEF (none here); in combat, an attack the
    target does not expect +10 and half DEF (choice-in-combat-surprise: from behind while it fights)."""
    b = _sj([fig("a", "blue", 4, 4, "E"), fig("b", "blue", 6, 4, "W"),
             fig("sleepy", "red", 5, 4, "N", stats={"unaware": True})])
    assert any(e.kind == "surprise" and e.outcome == "unaware" for e in b.events)
    bd = attack_breakdown(b, "a", "sleepy", AttackContext())
    assert _mods(bd.attack_mods)["target not expecting any attack"] == 25
    assert _mods(bd.defense_mods)["keeps only 0 of its defense"] == -30
    b.state_of("sleepy").off_guard = False          # once attacked (or after round 1) it expects attacks
    behind = attack_breakdown(b, "a", "sleepy", AttackContext())   # a is at its west; it faces north
    assert "target not expecting any attack" not in _mods(behind.attack_mods)
    b.set_figure(b.figures["sleepy"].moved_to(5, 4, 2))            # faces east, towards b: a is behind it
    bd = attack_breakdown(b, "a", "sleepy", AttackContext())
    assert _mods(bd.attack_mods)["first blow from behind while it fights another: not expected"] == 10
    assert _mods(bd.defense_mods)["keeps only 1/2 of its defense"] == -15
    b.state.fought.add(("a", "sleepy"))                             # once they have fought, it expects a's blows
    assert "unexpected" not in {m.key for m in attack_breakdown(b, "a", "sleepy", AttackContext()).attack_mods}


# ----- 12: mounts -----
def test_cnc_attacking_from_a_mount():
    """cnc:situational-modifiers: melee from a mount -2, ranged from a mount -4."""
    b = make_battle("cnc", OPEN, [fig("rider", "blue", 4, 4, "E", template="knight"), fig("foe", "red", 5, 4, "W"),
                                  fig("horse-archer", "blue", 1, 8, "E", template="archer", stats={"mounted": True})])
    assert _mods(attack_breakdown(b, "rider", "foe", AttackContext()).attack_mods)["melee from a mount"] == -2
    assert _mods(attack_breakdown(b, "horse-archer", "foe", AttackContext()).attack_mods)["shooting from a mount"] == -4


def test_bfrpg_shooting_from_a_mount_moving_over_30_ft():
    """bfrpg:mounted-combat: missiles from a mount that moved more than 30 ft this round: -4."""
    b = make_battle("bfrpg", OPEN, [fig("ha", "blue", 1, 4, "E", template="archer", stats={"mounted": True}),
                                    fig("foe", "red", 14, 4, "W")])
    assert "from-mount" not in {m.key for m in attack_breakdown(b, "ha", "foe", AttackContext()).attack_mods}
    _until(b, "ha")
    b.apply(Move("ha", to=(8, 4)))                 # 35 ft
    mods = _mods(attack_breakdown(b, "ha", "foe", AttackContext()).attack_mods)
    assert mods["shooting from a mount that moved 35 ft"] == -4


@pytest.mark.parametrize("x,ok", [(3, False), (7, True), (19, False)])
def test_bfrpg_mounted_charge_covers_20_to_80_ft(x, ok):
    """bfrpg:mounted-combat: a mounted charge from 20 to 80 feet away (a knight's double move is 120 ft)."""
    b = make_battle("bfrpg", "\n".join(["." * 24] * 6), [fig("knight", "blue", 0, 2, "E", template="knight"),
                                                         fig("foe", "red", x, 2, "W")])
    _until(b, "knight")
    refusal = b.check(Charge("knight", target="foe"))
    if ok:
        assert refusal is None
    else:
        assert refusal is not None and refusal.key == "charge.lane"
        assert "a mounted charge: 20-80 ft, bfrpg:mounted-combat" in refusal.words
    lane = b.positioning().charge_lane("knight", "foe")
    assert lane.legal is ok and lane.limits["least_ft"] == 20 and lane.limits["most_ft"] == 80, \
        "the lane itself keeps the mounted limits, so threats, the window and the AI agree"


# ----- 14: the smaller ones -----
def test_odnd_a_fight_opened_from_behind():
    """odnd:attacking-from-behind: +2, no shield or DEX; the one attacked cannot strike back that round;
    next round the attacker rolls with advantage and it with disadvantage (choice-blindside)."""
    b = make_battle("odnd", OPEN, [fig("sneak", "blue", 3, 4, "E", stats={"hp": 60, "morale": 0, "attack_bonus": 30}),
                                   fig("mark", "red", 4, 4, "E", stats={"hp": 60, "morale": 0, "dex_mod": 1,
                                                                        "shield": "medium"})])
    bd = attack_breakdown(b, "sneak", "mark", AttackContext())
    assert _mods(bd.attack_mods)["from behind (rear)"] == 2
    assert {m.key for m in bd.defense_mods} == {"no-shield", "no-dex"}
    _until(b, "sneak")
    events = b.apply(Attack("sneak", target="mark"))
    assert any(e.kind == "condition" and e.outcome == "caught-from-behind" for e in events)
    b.set_figure(b.figures["mark"].moved_to(4, 4, 6))       # it turns to face the sneak ...
    if b.able("mark") and b.round == 1 and b.current != "mark":
        _until(b, "mark")
    if b.round == 1 and b.current == "mark":
        assert b.check(Attack("mark", target="sneak")).key == "attack.blindsided"   # ... but cannot strike back yet
    while b.round == 1:
        b.apply(EndTurn(b.current))
    assert b.explain_attack("sneak", "mark").advantage == 1
    later = b.explain_attack("mark", "sneak")
    assert later.advantage == -1 and any(n.startswith("choice: ") for n in later.notes)


def test_odnd_surprise_attacks_count_as_from_behind():
    """odnd:misc-combat-rules (Surprise Attacks): whatever the direction, as an attack from behind."""
    b = make_battle("odnd", OPEN, [fig("a", "blue", 3, 4, "E"),
                                   fig("t", "red", 4, 4, "W", stats={"shield": "medium", "dex_mod": 1})])
    b.state_of("t").conditions["surprised"] = 1
    bd = attack_breakdown(b, "a", "t", AttackContext())          # a stands in front of t
    assert _mods(bd.attack_mods)["surprise attack (as from behind)"] == 2
    assert {m.key for m in bd.defense_mods} == {"no-shield", "no-dex"}


def test_ch17_point_blank_shot_at_an_unaware_target():
    """ch17:ranged-attack: -5 at a target within 5 ft, but an unaware one (struck from behind) gives +1 short
    range and +2 from behind instead."""
    b = make_battle("ch17", OPEN, [fig("arc", "blue", 3, 4, "E", template="archer"),
                                   fig("facing", "red", 4, 4, "W"), fig("away", "red", 3, 5, "S")])
    front = _mods(attack_breakdown(b, "arc", "facing", AttackContext()).attack_mods)
    assert front["target within 5 ft of the shooter"] == -5 and front["short range"] == 1
    back = _mods(attack_breakdown(b, "arc", "away", AttackContext()).attack_mods)
    assert "target within 5 ft of the shooter" not in back
    assert back["short range"] == 1 and back["from behind (rear)"] == 2


@pytest.mark.parametrize("ruleset_id,per_con,rule", [("ch17", 3, "ch17:run-away"), ("bfrpg", 2, "bfrpg:running")])
def test_running_until_fatigued(ruleset_id, per_con, rule):
    """ch17:run-away (3 x CON rounds) and bfrpg:running (2 x CON): then the figure only walks."""
    wide = "\n".join(["." * 60] * 5)
    b = make_battle(ruleset_id, wide, [fig("runner", "blue", 0, 2, "E", stats={"hp": 40, "con": 1}),
                                       fig("far", "red", 59, 2, "W", stats={"hp": 40})])
    for _ in range(per_con):
        _until(b, "runner")
        b.apply(Move("runner", to=(b.figures["runner"].x + 2, 2), mode="run"))
        b.apply(EndTurn("runner"))
    _until(b, "runner")
    assert b.state_of("runner").has("fatigued")
    fatigue = next(e for e in b.events if e.outcome == "fatigued")
    assert fatigue.rule == rule
    refusal = b.check(Move("runner", to=(b.figures["runner"].x + 2, 2), mode="run"))
    assert refusal.key == "move.fatigued"
    assert b.check(Move("runner", to=(b.figures["runner"].x + 2, 2))) is None
    assert all(getattr(a, "mode", "walk") != "run" for a in b.legal_actions("runner"))


def test_bfrpg_no_missile_fire_with_a_foe_within_5_ft():
    """bfrpg:firing-into-melee-or-at-a-moving-opponent: a shooter must be at least 5 ft from an opponent
    (choice-missile-gap: not engaged); a thrown dagger at the adjacent foe is a melee blow instead."""
    b = make_battle("bfrpg", OPEN, [fig("arc", "blue", 3, 4, "E", template="archer"), fig("near", "red", 4, 4, "W"),
                                    fig("far", "red", 12, 4, "W")])
    for target in ("near", "far"):
        bd = attack_breakdown(b, "arc", target, AttackContext())
        assert [r.key for r in bd.refusals] == ["attack.foe-too-close"]
        assert any(n.startswith("choice: ") for n in bd.notes)
    assert attack_breakdown(b, "arc", "near", AttackContext(weapon="dagger")).allowed
    b.set_figure(b.figures["near"].moved_to(7, 4, 6))
    assert attack_breakdown(b, "arc", "far", AttackContext()).allowed
