"""The resolver: turn order per ruleset, moves that roll parting shots, charges, refusals, undo."""
import pytest

from game.core.values.actions import Aim, Attack, Charge, Defend, Disengage, EndTurn, Hold, Move
from game.core.values.refusals import ActionRefused
from game.io.scenarios import load_scenario
from game.core.battle import Battle
from game.core.script import parse_script, run_script

from battles import OPEN, fig, make_battle, until_turn

RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")


def kinds(events):
    return [e.kind for e in events]


@pytest.mark.parametrize("rid", RULESETS)
def test_current_is_always_answerable_and_end_turn_always_legal(rid):
    """Every ruleset's round structure: someone always acts, EndTurn always passes, rounds advance."""
    b = make_battle(rid, OPEN, [fig("a", "blue", 1, 1, "E"), fig("b", "red", 8, 8, "W"), fig("c", "red", 9, 1, "W")])
    for _ in range(30):
        assert b.current in b.figures
        assert b.check(EndTurn(b.current)) is None
        b.apply(EndTurn(b.current))
    assert b.round >= 3
    assert all(e.rule.startswith(rid + ":") for e in b.events)


def test_bfrpg_parting_shot_is_rolled_when_the_move_is_applied():
    """bfrpg:defensive-movement: turning your back on an adjacent foe and moving away gives it a +2 free
    attack; that +2 is the price of the turned back, so no rear +2 comes on top."""
    b = make_battle("bfrpg", OPEN, [fig("hero", "blue", 4, 4, "E", stats={"hp": 30}),
                                    fig("gob", "red", 5, 4, "W", stats={"hp": 30})])
    until_turn(b, "gob")
    events = b.apply(Move("gob", to=(10, 4), mode="walk"))
    shots = [e for e in events if e.kind == "parting-shot"]
    assert len(shots) == 1 and shots[0].actor == "hero" and shots[0].target == "gob"
    assert shots[0].rule == "bfrpg:defensive-movement"
    mods = {m.name: m.value for m in shots[0].modifiers}
    assert mods["parting shot"] == 2 and not any(n.startswith("from behind") for n in mods)
    assert "parting shot" in shots[0].text and "vs AC" in shots[0].text
    # even with no attacks left, and it costs none
    assert b.state_of("hero").attacks_made == 0


def test_bfrpg_fighting_withdrawal_draws_no_parting_shot():
    """bfrpg:defensive-movement: backing away at half speed, still facing the foe, is a fighting withdrawal."""
    b = make_battle("bfrpg", OPEN, [fig("hero", "blue", 4, 4, "E", stats={"hp": 30}),
                                    fig("gob", "red", 5, 4, "W", stats={"hp": 30})])
    until_turn(b, "gob")
    events = b.apply(Move("gob", to=(7, 4), mode="withdraw"))
    assert "parting-shot" not in kinds(events)


def test_charge_with_a_set_spear_through_the_planner():
    """bfrpg:charging and bfrpg:set-weapon-against-charge, played from the bundled demo's script."""
    sc = load_scenario("maps/charge_demo.toml")
    b = Battle.from_scenario(sc)
    events = run_script(b, parse_script(sc.actions, sc.source, [f.id for f in sc.figures]), sc.source)
    k = kinds(events)
    assert "charge" in k and "set-weapon" in k and "charge-attack" in k and "parting-shot" in k
    charge = next(e for e in events if e.kind == "charge-attack")
    assert {m.name: m.value for m in charge.modifiers}["charge"] == 2
    assert [m["name"] for m in charge.data["breakdown"]["damage_multipliers"]] == ["charge"]
    setw = next(e for e in events if e.kind == "set-weapon")
    assert [m["value"] for m in setw.data["breakdown"]["damage_multipliers"]] == [2]
    # the charger is at -2 AC for the round
    assert any(m["name"] == "charged this round" and m["value"] == -2 for m in setw.data["breakdown"]["defense_modifiers"])


def test_refused_action_changes_nothing():
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 1, 1, "E"), fig("b", "red", 9, 9, "W")])
    before = (dict(b.figures), len(b.events), b.rng.getstate(), b.current, b.state_of("a").to_json())
    who = b.current
    other = "b" if who == "a" else "a"
    with pytest.raises(ActionRefused) as refusal:
        b.apply(Attack(who, target=other))
    assert "beyond" in refusal.value.reason
    with pytest.raises(ActionRefused):
        b.apply(Move(other, to=(5, 5)))
    assert (dict(b.figures), len(b.events), b.rng.getstate(), b.current, b.state_of("a").to_json()) == before


def test_move_budget_and_no_move_after_attacking():
    """bfrpg:the-combat: once a figure moves and attacks it cannot move again this round."""
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 1, 1, "E", stats={"hp": 40}), fig("b", "red", 6, 1, "W", stats={"hp": 40})])
    until_turn(b, "a")
    b.apply(Move("a", to=(5, 1)))
    assert "movement left" in b.check(Move("a", to=(0, 1))).words
    b.apply(Attack("a", target="b"))
    assert "cannot move again" in b.check(Move("a", to=(4, 1))).words


def test_half_move_then_attack_in_cnc():
    """cnc:attack: moving more than half the move rate forbids an attack."""
    b = make_battle("cnc", OPEN, [fig("a", "blue", 1, 1, "E", stats={"hp": 40}), fig("b", "red", 6, 1, "W", stats={"hp": 40})])
    until_turn(b, "a")
    b.apply(Move("a", to=(5, 1)))          # 20 ft of 30
    assert "at most 15 ft" in b.check(Attack("a", target="b")).words


def test_bfrpg_reach_weapon_strikes_a_closing_foe_on_its_number():
    """bfrpg:initiative: a spear attacks a foe closing into its reach, simultaneously, on the foe's number."""
    for seed in range(1, 40):
        b = make_battle("bfrpg", OPEN, [fig("spear", "blue", 2, 2, "E", template="spearman", stats={"hp": 30}),
                                        fig("gob", "red", 8, 2, "W", stats={"hp": 30, "dex_mod": 4})], seed=seed)
        if b.current == "gob":
            break
    events = b.apply(Move("gob", to=(4, 2)))
    reach = [e for e in events if e.kind == "reach-attack-on-a-closing-foe"]
    assert len(reach) == 1 and reach[0].actor == "spear"
    assert b.state_of("spear").attacks_made == 1


def test_odnd_longer_reach_strikes_first_in_the_first_round():
    """odnd:encounter-order: superior reach strikes first on the first round of melee."""
    b = make_battle("odnd", OPEN, [fig("sw", "blue", 2, 2, "E", stats={"hp": 30, "morale": 0}),
                                   fig("sp", "red", 3, 2, "W", template="spearman", stats={"hp": 30, "morale": 0})])
    until_turn(b, "sw")
    events = b.apply(Attack("sw", target="sp"))
    assert events[0].kind == "strikes-first" and events[0].actor == "sp"
    assert kinds(events).count("attack") == 1


def test_cnc_hasty_disengagement_free_attack_and_ac_penalty():
    """cnc:disengaging-from-combat: a hasty disengagement, announced at the start of the round, gives the
    foe a free attack; -2 AC for the round."""
    b = make_battle("cnc", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 40}), fig("b", "red", 5, 4, "W", stats={"hp": 40})])
    until_turn(b, "b", declare=True)
    events = b.apply(Disengage("b", to=(12, 4), style="hasty"))
    assert "parting-shot" in kinds(events)
    shot = next(e for e in events if e.kind == "parting-shot")
    assert any(m["name"] == "disengaging hastily" and m["value"] == -2 for m in shot.data["breakdown"]["defense_modifiers"])
    assert b.state_of("b").hasty


def test_cnc_fighting_disengagement_is_free_of_attacks():
    """cnc:disengaging-from-combat: a fighting disengagement backs off half the move, no free attack."""
    b = make_battle("cnc", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 40}), fig("b", "red", 5, 4, "W", stats={"hp": 40})])
    until_turn(b, "b", declare=True)
    events = b.apply(Disengage("b", to=(7, 4), style="fighting"))
    assert "parting-shot" not in kinds(events)


def test_odnd_retreat_rolls_opposed_d6_and_only_the_winners_strike():
    """odnd:retreat: d6 + DEX for the one retreating against each foe; the foes that roll higher strike at +2."""
    b = make_battle("odnd", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 40, "morale": 0}),
                                   fig("b", "red", 5, 4, "W", stats={"hp": 40, "morale": 0})])
    until_turn(b, "b")
    events = b.apply(Disengage("b", to=(11, 4), style="retreat"))
    retreat = [e for e in events if e.kind == "retreat"]
    assert len(retreat) == 1 and len(retreat[0].rolls) == 2
    shots = [e for e in events if e.kind == "parting-shot"]
    assert len(shots) == (0 if retreat[0].outcome == "escapes" else 1)


def test_defend_declared_out_of_turn_and_its_bonus():
    """cnc:dodge: declared before the round's first action, +2 AC against faced attackers."""
    b = make_battle("cnc", OPEN, [fig("a", "blue", 4, 4, "E", stats={"hp": 40}), fig("b", "red", 5, 4, "W", stats={"hp": 40})])
    b.apply(Defend("b", style="dodge"))
    bd = b.explain_attack("a", "b")
    assert {m.name: m.value for m in bd.defense_mods}["dodge"] == 2


def test_hold_until_another_figure_acts_simultaneously():
    b = make_battle("ch17", OPEN, [fig("a", "blue", 1, 1, "E"), fig("b", "red", 8, 8, "W"), fig("c", "blue", 1, 8, "E")])
    first = b.current
    later = [m for s in b.state.slots[b.state.slot_index + 1:] for m in s.members]
    if not later:
        pytest.skip("everyone rolled the same number")
    events = b.apply(Hold(first, until=later[0]))
    assert events[0].kind == "hold"
    slot = next(s for s in b.state.slots if later[0] in s.members)
    assert first in slot.members


def test_bfrpg_aim_gives_plus_4_next_round():
    """bfrpg:aimed-shots: a round aiming, then +4 to hit."""
    b = make_battle("bfrpg", "\n".join(["." * 20] * 3), [fig("arc", "blue", 0, 1, "E", template="archer"),
                                                          fig("t", "red", 10, 1, "W", stats={"hp": 50})])
    until_turn(b, "arc")
    b.apply(Aim("arc", target="t"))
    assert "aimed shot" not in [m.name for m in b.explain_attack("arc", "t").attack_mods]
    until_turn(b, "t")
    b.apply(EndTurn("t"))
    until_turn(b, "arc")
    assert b.round == 2
    assert {m.name: m.value for m in b.explain_attack("arc", "t").attack_mods}["aimed shot"] == 4


def test_ch17_crossbow_reload_round_allows_nothing():
    """ch17:missile-weapon-rate-of-fire: a light crossbow fires every other round; the reload round is lost."""
    b = make_battle("ch17", "\n".join(["." * 20] * 3), [fig("xb", "blue", 0, 1, "E", template="crossbowman"),
                                                         fig("t", "red", 10, 1, "W", stats={"hp": 80})])
    until_turn(b, "xb")
    b.apply(Attack("xb", target="t"))
    for _ in range(10):
        if b.round == 2:
            break
        b.apply(EndTurn(b.current))
    while b.round == 2:
        assert b.current != "xb"
        b.apply(EndTurn(b.current))
    assert any(e.kind == "skip" and "reloading" in e.text for e in b.events)


def test_spelljammer_round_declarations_segments_and_attacks():
    """spelljammer:initiative: declare, then moves unfold over segments 10..1 and attacks come on their numbers."""
    b = make_battle("spelljammer", OPEN, [fig("a", "blue", 1, 1, "E", stats={"hp": 200}),
                                          fig("b", "red", 5, 1, "W", stats={"hp": 200})])
    assert b.state.phase == "declare"
    b.apply(Move(b.current, to=(3, 1) if b.current == "a" else (3, 1)))
    b.apply(EndTurn(b.current))
    b.apply(EndTurn(b.current))
    assert b.state.phase == "act"
    inits = [e for e in b.events if e.kind == "initiative"]
    assert any("-5 move and attack" in e.text for e in inits)
    for _ in range(10):
        if b.is_over or b.round > 1:
            break
        cur = b.current
        foe = "b" if cur == "a" else "a"
        if b.check(Attack(cur, target=foe)) is None:
            ev = b.apply(Attack(cur, target=foe))
            assert ev[0].rolls[0].dice == "d100"
        else:
            b.apply(EndTurn(cur))
    assert any(e.kind == "move" and e.text.startswith("segment") for e in b.events)


def test_spelljammer_stun_when_damage_exceeds_con():
    """spelljammer:taking-damage: a hit for more than CON stuns for the round."""
    from game.core.combat.damage import stun_threshold
    from game.io.rulesets import load_ruleset
    rs = load_ruleset("spelljammer")
    prof = {"con": 14}
    assert stun_threshold(rs, prof, "medium", 30) == 14
    assert stun_threshold(rs, prof, "large", 30) == 16
    assert stun_threshold(rs, {"con": 26}, "medium", 30) == 27
    assert stun_threshold(rs, {"con": 35}, "medium", 30) == 45


def test_status_legal_actions_and_battle_over():
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 4, 4, "E", template="monster", stats={"hp": 500}),
                                    fig("b", "red", 5, 4, "W", template="normal_man", stats={"hp": 1})])
    st = b.status("a")
    assert st.hp == 500 and st.able and st.attacks_left == 1
    who = b.current
    actions = b.legal_actions(who)
    assert any(a.kind == "end-turn" for a in actions)
    for a in actions:
        if a.kind != "move":
            assert b.check(a) is None, a
    assert any(a.kind == "move" for a in actions)
    until_turn(b, "a")
    for _ in range(50):
        if b.is_over:
            break
        if b.current == "a" and b.check(Attack("a", target="b")) is None:
            b.apply(Attack("a", target="b"))
        else:
            b.apply(EndTurn(b.current))
    assert b.is_over and b.winner == "blue" and b.current is None
    assert b.status("b").conditions == ("dead",)
    with pytest.raises(ActionRefused):
        b.apply(EndTurn("a"))


def test_odnd_morale_after_first_death():
    """odnd:morale: a side checks 2d6 morale after its first death."""
    b = make_battle("odnd", OPEN, [fig("h", "blue", 4, 4, "E", template="hero", stats={"hp": 500}),
                                   fig("m1", "red", 5, 4, "W", template="normal_man", stats={"hp": 1}),
                                   fig("m2", "red", 9, 9, "W", template="normal_man", stats={"hp": 20})])
    until_turn(b, "h")
    for _ in range(8):
        if not b.able("m1"):
            break
        b.apply(Attack("h", target="m1"))
    assert not b.able("m1")
    assert any(e.kind == "morale" for e in b.events)


def test_undo_and_redo():
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 1, 1, "E"), fig("b", "red", 8, 8, "W")])
    who = b.current
    events_before = [e.to_json() for e in b.events]
    first = b.apply(Move(who, to=(4, 4)))
    assert b.undo() == Move(who, to=(4, 4))
    assert [e.to_json() for e in b.events] == events_before
    assert b.redo()[0].to_json() == first[0].to_json()


def test_turn_order_lists_everyone_once_and_the_current_figure_first_among_those_to_act():
    from game.core.values.actions import EndTurn
    from game.io.rulesets import bundled_ruleset_ids
    from game.io.scenarios import load_scenario
    from game.io.paths import MAPS_DIR
    from game.core.battle import Battle
    for rid in bundled_ruleset_ids():
        sc = load_scenario(MAPS_DIR / "corridor.toml")
        from game.io.rulesets import load_ruleset
        sc.ruleset = load_ruleset(rid)
        b = Battle.from_scenario(sc)
        for _ in range(6):
            order = b.turn_order()
            assert sorted(fid for fid, _, _ in order) == sorted(b.figures)
            waiting = [fid for fid, _, acted in order if not acted]
            assert b.current in waiting, (rid, order, b.current)
            b.apply(EndTurn(b.current))


def _morale_battle(seed, reds):
    figures = [fig("h", "blue", 4, 4, "E", template="hero", stats={"hp": 500})]
    figures += [fig(f"m{i}", "red", 5 if i == 1 else 9 + i, 4 if i == 1 else 9, "W", template="normal_man",
                    stats={"hp": 1, "morale": 7}) for i in range(1, reds + 1)]
    return make_battle("odnd", OPEN, figures, seed=seed)


def test_rout_chance_is_the_morale_checks_a_fall_would_force():
    """odnd:morale: felling one of three forces one 2d6 check against morale 7 (15/36 to flee); one of
    two forces the first-loss and the half-down checks (flee unless both hold). Without morale checks
    (bfrpg), nothing."""
    assert _morale_battle(1, 3).rout_chance("m1") == pytest.approx(15 / 36)
    assert _morale_battle(1, 2).rout_chance("m1") == pytest.approx(1 - (21 / 36) ** 2)
    assert make_battle("bfrpg", OPEN, [fig("a", "blue", 1, 1, "E"), fig("b", "red", 8, 8, "W")]).rout_chance("b") == 0


def test_rout_chance_matches_the_resolver_rolling_it():
    """Over many seeds, the share of battles where felling m1 routs its side is the chance asked beforehand."""
    fled = tries = 0
    for seed in range(1, 161):
        b = _morale_battle(seed, 2)
        until_turn(b, "h")
        for _ in range(8):
            if not b.able("m1") or b.current != "h":
                break
            b.apply(Attack("h", target="m1"))
        if b.able("m1"):
            continue
        tries += 1
        fled += b.status("m2").conditions != ()
    expected = 1 - (21 / 36) ** 2
    assert tries > 80
    assert abs(fled / tries - expected) < 3.5 * (expected * (1 - expected) / tries) ** 0.5


def test_previewing_a_charge_announced_in_cnc_declaration_step_says_it_is_allowed_without_a_path():
    """cnc Charging: a charge is announced before initiative and run on its number, so the preview
    of the announcement has no path or odds yet, and it changes nothing."""
    from game.core.battle import Battle
    from game.io.paths import MAPS_DIR
    from game.io.rulesets import load_ruleset
    from game.io.scenarios import load_scenario
    sc = load_scenario(MAPS_DIR / "horse_field.toml")
    sc.ruleset = load_ruleset("cnc")
    b = Battle.from_scenario(sc)
    assert b.current_phase == "declare"
    foe = next(f.id for f in b.figures.values() if f.side != b.figures[b.current].side
               and b.check(Charge(b.current, target=f.id)) is None)
    events = len(b.events)
    preview = b.preview(Charge(b.current, target=foe))
    assert preview.allowed and preview.planned is None and preview.breakdown is None
    assert len(b.events) == events
