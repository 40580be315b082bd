"""Mount and rider as two figures: the rider's move is its mount's, the mount acts on the rider's
number, Mount and Dismount, and the rules each document has for mounted pairs.

Worked examples cite the document (seeds file id) and section: 000 bfrpg, 001 odnd, 002 cnc,
003 ch17, 004 spelljammer.
"""
import pytest

from game.core.values.actions import Attack, Charge, Dismount, Mount, Move, Turn, action_from_json
from game.core.battle import Battle
from game.core.combat.attack import AttackResult
from game.core.values.events import EventKind
from game.core.mounts import saddle_square
from game.core.battle.mount_strikes import miss_hits_mount

from battles import OPEN, fig, footman_beside, make_battle, pair, riding_battle, until_turn
from dice import ForcedDice

RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")


def seated_right(b, rider="knight"):
    r = b.figures[rider]
    m = b.figures[r.mount]
    return r.pos == saddle_square(m) and r.facing == m.facing and r.altitude_ft == m.altitude_ft


# ----- the pair on the map -----
def test_rider_sits_on_its_mounts_front_square_and_covers_no_square():
    b = riding_battle()
    horse, knight = b.figures["horse"], b.figures["knight"]
    assert horse.cells == ((3, 4), (2, 4))           # 1 x 2, head east
    assert knight.pos == (3, 4) and knight.facing == horse.facing
    occupied = b.positioning().occupants("nobody")
    assert occupied[(3, 4)].id == "horse" and occupied[(2, 4)].id == "horse"   # the rider holds no square


def test_riders_move_moves_the_mount_at_the_mounts_speed():
    b = riding_battle()
    until_turn(b, "knight")
    # 55 ft east: more than the lancer's own 30 ft, within the horse's 60 ft
    events = b.apply(Move("knight", to=(14, 4)))
    assert b.figures["horse"].pos == (14, 4) and b.figures["knight"].pos == (14, 4)
    assert seated_right(b)
    assert any(e.kind == EventKind.MOVE and e.actor == "horse" for e in events)
    assert b.state_of("horse").moved_ft == 55
    # the rider has used the same part of its own move (55 of 60 -> 27.5 of 30)
    assert b.state_of("knight").moved_ft == pytest.approx(27.5)


def test_ridden_mounts_own_move_is_refused_with_a_reason_and_changes_nothing():
    b = riding_battle("cnc")
    until_turn(b, "horse")
    before = b.to_save_data(), {k: v.to_json() for k, v in b.states.items()}
    refusal = b.check(Move("horse", to=(6, 4)))
    assert refusal is not None and refusal.key == "mount.ridden"
    assert "ridden by" in refusal.words and "Lancer" in refusal.words
    assert b.check(Turn("horse", facing="S")).key == "mount.ridden"
    assert (b.to_save_data(), {k: v.to_json() for k, v in b.states.items()}) == before
    assert b.options("horse")["move"].key == "mount.ridden"


def test_rider_turns_its_mount():
    b = riding_battle()
    until_turn(b, "knight")
    b.apply(Turn("knight", facing="S"))       # standing still: turns freely (bfrpg maneuverability)
    assert b.figures["horse"].facing == 4 and seated_right(b)
    assert b.figures["horse"].cells == ((3, 4), (3, 3))


@pytest.mark.parametrize("rid,shared", [("bfrpg", True), ("cnc", True), ("odnd", True), ("ch17", True),
                                        ("spelljammer", False)])
def test_mount_acts_on_its_riders_number(rid, shared):
    """bfrpg Mounted Combat (000): the rider's initiative roll serves both. The others are silent (choice);
    spelljammer rolls each attack (004 Initiative), so its mount keeps its own rolls."""
    b = riding_battle(rid, extra=[fig("foe", "red", 12, 4, "W")])
    until_turn(b, "knight")
    order = b.turn_order()
    ids = [fid for fid, _n, _done in order]
    numbers = dict((fid, n) for fid, n, _done in order)
    if shared:
        assert ids.index("horse") == ids.index("knight") + 1 and numbers["horse"] == numbers["knight"]
        note = [e for e in b.events if e.kind == EventKind.INITIATIVE and e.actor == "horse"][-1]
        assert "acts on its rider" in note.text and note.rule.startswith(rid + ":")
    else:
        assert not any(e.kind == EventKind.INITIATIVE and e.actor == "horse" and "its rider" in e.text for e in b.events)


# ----- mount and dismount -----
def test_dismount_then_mount_again_each_costing_half_the_round():
    """No document gives a cost (choice-mount-cost): half the round's movement each."""
    b = riding_battle("ch17")
    until_turn(b, "knight")
    events = b.apply(Dismount("knight", to=(3, 5)))
    assert events[0].kind == EventKind.DISMOUNT and "choice" in events[0].text
    assert b.figures["knight"].mount == "" and b.figures["knight"].pos == (3, 5)
    assert b.state_of("knight").moved_ft == 15                 # half of 30
    assert b.positioning().occupants("nobody")[(3, 5)].id == "knight"
    events = b.apply(Mount("knight", mount="horse"))          # the other half of its round
    assert events[0].kind == EventKind.MOUNT and b.figures["knight"].mount == "horse" and seated_right(b)
    assert b.state_of("horse").moved_ft == 30                  # the horse stood for it: half its round
    refusal = b.check(Dismount("knight"))
    assert refusal.key == "mount.no-movement" and "0 ft is left" in refusal.words


def test_mount_refusals_say_why_and_change_nothing():
    b = make_battle("bfrpg", OPEN, [fig("horse", "blue", 3, 4, "E", template="horse"),
                                     fig("pony", "red", 8, 4, "E", template="horse"),
                                     fig("walker", "blue", 3, 6, "E", template="lancer"),
                                     fig("squire", "blue", 6, 4, "E", template="lancer"),
                                     fig("big", "blue", 10, 8, "E", template="ogre")])
    until_turn(b, "walker")
    before = b.to_save_data()
    cases = {Mount("walker", mount="horse"): "mount.not-beside",
             Mount("walker", mount="pony"): "mount.cannot",
             Mount("walker", mount="squire"): "mount.cannot",
             Mount("walker", mount="walker"): "mount.cannot",
             Dismount("walker"): "dismount.not-riding"}
    for action, key in cases.items():
        refusal = b.check(action)
        assert refusal is not None and refusal.key == key, (action, refusal)
        assert refusal.words
    assert "foe's mount" in b.check(Mount("walker", mount="pony")).words
    assert "size larger" in b.check(Mount("walker", mount="squire")).words
    assert b.to_save_data() == before


def test_a_mount_carries_one_rider():
    b = make_battle("bfrpg", OPEN, pair() + [fig("squire", "blue", 4, 5, "E", template="lancer")])
    until_turn(b, "squire")
    refusal = b.check(Mount("squire", mount="horse"))
    assert refusal.key == "mount.cannot" and "already carries" in refusal.words


def test_dismount_square_must_be_free_and_beside_the_mount():
    b = riding_battle("odnd", extra=[fig("ally", "blue", 3, 5, "E")])
    until_turn(b, "knight")
    assert b.check(Dismount("knight", to=(3, 5))).key == "dismount.square"      # the ally stands there
    assert b.check(Dismount("knight", to=(7, 7))).key == "dismount.square"      # not beside
    assert b.check(Dismount("knight", to=(2, 4))).key == "dismount.square"      # the horse's own square
    assert b.check(Dismount("knight", to=(1, 3))) is None                       # beside its hindquarters


# ----- attacks on rider or mount -----
def test_bfrpg_near_miss_on_the_rider_hits_the_mount():
    """bfrpg Mounted Combat (000): an attack on the rider that misses by 1 or 2 but would hit the mount's AC
    hits the mount. Rider AC 16 +1 mounted = 17, mount AC 13 +1 = 14: a total of 15 misses the rider by 2 and
    hits the horse; 14 misses by 3 and hits nothing."""
    b = footman_beside()
    bd = b.explain_attack("foe", "knight")
    assert bd.defense_total == 17
    assert b.explain_attack("foe", "horse").defense_total == 14
    hp = b.state_of("horse").hp
    events = miss_hits_mount(b, bd, AttackResult(hit=False, outcome="miss", die_result=14, total=15, margin=2))
    assert events[0].kind == EventKind.HITS_MOUNT and events[0].rule == "bfrpg:mounted-combat"
    assert events[0].data["margin"] == 2 and events[0].target_number == 14
    assert "missed Lancer by 2" in events[0].text and b.state_of("horse").hp == hp - events[0].data["damage"]
    assert miss_hits_mount(b, bd, AttackResult(hit=False, outcome="miss", die_result=13, total=14, margin=3)) == []
    # a natural 1 always misses, whatever the total
    assert miss_hits_mount(b, bd, AttackResult(hit=False, outcome="miss", die_result=1, total=15, margin=2)) == []
    # other rulesets are silent: a miss is a miss
    other = footman_beside("cnc")
    cbd = other.explain_attack("foe", "knight")
    assert miss_hits_mount(other, cbd, AttackResult(hit=False, outcome="miss", die_result=14,
                                                    total=cbd.defense_total - 1, margin=1)) == []


def test_near_miss_through_the_resolver():
    b = footman_beside()
    until_turn(b, "foe")
    need = b.explain_attack("foe", "knight")
    b.rng = ForcedDice([15 - need.attack_total])       # total 15 against AC 17
    events = b.apply(Attack("foe", target="knight"))
    kinds = [e.kind for e in events]
    assert EventKind.ATTACK in kinds and EventKind.HITS_MOUNT in kinds
    assert events[kinds.index(EventKind.HITS_MOUNT)].target == "horse"


def test_attack_may_name_the_mount():
    b = footman_beside("odnd")
    until_turn(b, "foe")
    assert b.check(Attack("foe", target="horse")) is None and b.check(Attack("foe", target="knight")) is None


@pytest.mark.parametrize("rid,attack,defense", [
    ("bfrpg", ["mounted"], ["mounted"]),      # 000 Mounted Combat: +1 to hit foes on foot, +1 AC vs them
    ("odnd", ["mounted"], []),                # 001 MISC COMBAT RULES: mounted +1, unmounted -1
    ("cnc", ["from-mount"], []),              # 002 Situational Modifiers: melee from a mount -2
])
def test_mounted_modifiers_apply_to_a_rider_on_a_mount(rid, attack, defense):
    b = footman_beside(rid)
    out = b.explain_attack("knight", "foe")
    assert [m.key for m in out.attack_mods if m.key in ("mounted", "from-mount")] == attack
    into = b.explain_attack("foe", "knight")
    assert [m.key for m in into.defense_mods if m.key == "mounted"] == defense
    if rid == "odnd":
        assert [(m.key, m.value) for m in into.attack_mods if m.key == "mounted"] == [("mounted", -1)]
    if rid == "bfrpg":     # the mount gets the +1 AC too
        assert [m.value for m in b.explain_attack("foe", "horse").defense_mods if m.key == "mounted"] == [1]


def test_spelljammer_target_on_a_moving_mount():
    """004 Movement Modifiers: a target on a moving mount or wagon is -10 to shoot."""
    b = riding_battle("spelljammer", extra=[fig("archer", "red", 12, 8, "W", template="archer")])
    until_turn(b, "knight", declare=True)
    b.apply(Move("knight", to=(6, 4)))
    mods = {m.key: m.value for m in b.explain_attack("archer", "knight").attack_mods}
    assert mods.get("target-moving-mount") == -10


# ----- the mounted charge -----
def test_bfrpg_only_one_of_the_pair_delivers_the_charge():
    """000 Mounted Combat: only one of rider or mount gets the charge bonus; the other does not attack that round."""
    b = riding_battle(extra=[fig("foe", "red", 12, 4, "W", template="spearman", stats={"hp": 40})])
    until_turn(b, "knight")
    events = b.apply(Charge("knight", target="foe"))
    note = next(e for e in events if e.kind == EventKind.CHARGE and e.actor == "horse")
    assert note.rule == "bfrpg:mounted-combat" and "does not attack" in note.text
    assert any(e.kind == EventKind.CHARGE_ATTACK and e.actor == "knight" for e in events)
    assert seated_right(b) and b.figures["horse"].pos == (11, 4)
    until_turn(b, "horse")
    assert b.check(Attack("horse", target="foe")).key == "attack.none-left"


def test_riders_charge_is_a_mounted_charge():
    """000 Mounted Combat: a mounted charge covers 20 to 80 ft, as for the one-figure knight."""
    b = riding_battle(extra=[fig("foe", "red", 6, 4, "W", template="spearman")])
    until_turn(b, "knight")
    refusal = b.check(Charge("knight", target="foe"))
    assert refusal is not None and "20-80" in refusal.words


def test_set_spear_answers_a_riders_charge_as_a_mounted_one():
    """001 CHARGING ATTACKS: against a mounted charge the longer weapon strikes first; spear and lance reach
    alike, so they strike together (a charge on foot would meet the set spear first)."""
    b = riding_battle("odnd", extra=[fig("foe", "red", 12, 4, "W", template="spearman", stats={"hp": 40})])
    b.apply(action_from_json({"action": "set", "figure": "foe"}))
    until_turn(b, "knight")
    events = b.apply(Charge("knight", target="foe"))
    set_strike = next(e for e in events if e.kind == EventKind.SET_WEAPON_STRIKE)
    assert set_strike.target == "knight" and "same moment" in set_strike.text


# ----- a mount that falls throws its rider -----
def test_bfrpg_fallen_mount_throws_its_rider_prone_with_1d6():
    """000 Mounted Combat: a thrown rider takes 1d6 falling damage and lands prone (a mount that falls rather
    than flees throws it the same way: choice-thrown-rider)."""
    b = riding_battle(extra=[fig("foe", "red", 4, 4, "W", stats={"hp": 30, "attack_bonus": 10})],
                      horse_stats={"hp": 1})
    until_turn(b, "foe")
    b.rng = ForcedDice([15, 3, 4])       # hits the horse, 3 damage; the rider's 1d6 = 4
    events = b.apply(Attack("foe", target="horse"))
    thrown = next(e for e in events if e.kind == EventKind.THROWN)
    assert thrown.rule == "bfrpg:choice-thrown-rider" and thrown.data["damage"] == 4
    assert "1d6 = 4" in thrown.text and "prone" in thrown.text
    knight = b.figures["knight"]
    assert knight.mount == "" and b.state_of("knight").has("prone") and b.state_of("knight").hp == 26
    assert knight.pos not in b.figures["horse"].cells
    assert max(abs(knight.x - cx) + 0 for cx, _ in b.figures["horse"].cells) <= 2


def test_cnc_fallen_mount_throws_its_rider_with_the_falling_rule():
    """002 is silent on mounts: the rider falls 10 ft by cnc's Falling Damage (1d6, a DEX check may avoid it)."""
    b = riding_battle("cnc", extra=[fig("foe", "red", 4, 4, "W", stats={"hp": 30, "attack_bonus": 10})],
                      horse_stats={"hp": 1})
    until_turn(b, "foe")
    b.rng = ForcedDice([15, 3])
    events = b.apply(Attack("foe", target="horse"))
    thrown = next(e for e in events if e.kind == EventKind.THROWN)
    assert thrown.rule == "cnc:choice-thrown-rider" and thrown.data["fall_ft"] == 10
    assert any(e.kind == EventKind.FALL and e.actor == "knight" for e in events)
    assert b.state_of("knight").has("prone") and b.figures["knight"].mount == ""


def test_fallen_rider_frees_its_mount():
    b = riding_battle("ch17", extra=[fig("foe", "red", 4, 4, "W", stats={"hp": 30, "attack_bonus": 10})],
                      rider_stats={"hp": 1})
    until_turn(b, "foe")
    b.rng = ForcedDice([15, 3])
    b.apply(Attack("foe", target="knight"))
    assert not b.able("knight") and b.figures["knight"].mount == "" and "horse" not in b.state.riders


# ----- unhorsing -----
def test_bfrpg_jousting_unhorses_on_a_failed_save():
    """000 Jousting: a jouster hit saves vs Death Ray + STR, -1 per full 5 points of damage, or is unhorsed:
    prone, 1d6. Hit for 12 -> -2; failing by 5 or more also stuns. (Save 12; d20 5 +1 STR -2 = 4: fails by 8.)"""
    blue = pair(3, 4, "E", rider="aldric", horse="grey", rider_stats={"hp": 40, "str_mod": 1})
    red = pair(13, 4, "W", rider="bertrand", horse="bay", side="red", rider_stats={"hp": 40, "str_mod": 1})
    b = make_battle("bfrpg", OPEN, blue + red)
    until_turn(b, "aldric")
    # d20 15 hits; lance 1d8 5, +1 STR, x2 = 12; the save d20 5; the stun 1d3 2; the fall 1d6 3
    b.rng = ForcedDice([15, 5, 5, 2, 3])
    events = b.apply(Charge("aldric", target="bertrand"))
    unhorse = next(e for e in events if e.kind == EventKind.UNHORSE)
    assert unhorse.rule == "bfrpg:jousting" and unhorse.outcome == "stunned"
    assert unhorse.target_number == 12 and unhorse.total == 5 + 1 - 2
    assert "-2 for 12 damage" in unhorse.text
    assert b.figures["bertrand"].mount == "" and b.state_of("bertrand").has("prone")
    assert b.state_of("bertrand").has("stunned")
    assert any(e.kind == EventKind.THROWN and e.target == "bertrand" for e in events)


def test_bfrpg_jousters_keep_their_ac_against_each_other_but_not_against_bystanders():
    """000 Jousting: the charge's AC penalty does not apply between the two jousters; it does against others."""
    blue = pair(3, 4, "E", rider="aldric", horse="grey")
    red = pair(13, 4, "W", rider="bertrand", horse="bay", side="red")
    b = make_battle("bfrpg", OPEN, blue + red + [fig("archer", "red", 14, 8, "W", template="archer")])
    until_turn(b, "aldric")
    b.rng = ForcedDice([2, 1])      # the lance misses (and misses the horse)
    b.apply(Charge("aldric", target="bertrand"))
    assert b.state_of("aldric").charging == "bertrand"
    back = b.explain_attack("bertrand", "aldric", charge=True)
    assert "charged" not in {m.key for m in back.defense_mods}
    assert any("joust" in n and "bfrpg:jousting" in n for n in back.notes)
    shot = b.explain_attack("archer", "aldric")
    assert "charged" in {m.key for m in shot.defense_mods}


def test_odnd_polearm_pulls_a_rider_off():
    """001 MISC COMBAT RULES: a polearm hit lets the rider save vs paralysis to stay on, +1 per 3 levels above
    the attacker. Lancer level 4 vs a level-1 spearman: 3 levels above, +1."""
    b = riding_battle("odnd", extra=[fig("hook", "red", 4, 5, "W", template="spearman", weapons=["polearm"])])
    until_turn(b, "hook")
    assert b.check(Attack("hook", target="horse", unhorse=True)).key == "unhorse.not-riding"
    b.rng = ForcedDice([19, 10])     # hooks; save d20 10 +1 = 11 vs 14: fails
    events = b.apply(Attack("hook", target="knight", unhorse=True))
    event = events[0]
    assert event.kind == EventKind.UNHORSE and event.rule == "odnd:misc-combat-rules" and event.outcome == "dismounted"
    assert event.total == 11 and event.target_number == 14
    assert b.figures["knight"].mount == "" and not b.state_of("knight").has("prone")
    assert b.state_of("knight").hp == 30          # no damage in the document


def test_unhorse_refused_without_its_rule_or_weapon():
    b = riding_battle("bfrpg", extra=[fig("hook", "red", 4, 5, "W", template="spearman", weapons=["polearm"])])
    until_turn(b, "hook")
    assert b.check(Attack("hook", target="knight", unhorse=True)).key == "unhorse.none"
    o = riding_battle("odnd", extra=[fig("hook", "red", 4, 5, "W", template="spearman")])
    until_turn(o, "hook")
    assert o.check(Attack("hook", target="knight", unhorse=True)).key == "unhorse.weapon"


def test_manoeuvres_on_a_pair_are_refused():
    b = riding_battle("bfrpg", extra=[fig("foe", "red", 4, 4, "W")])
    until_turn(b, "foe")
    refusal = b.check(action_from_json({"action": "grapple", "figure": "foe", "target": "knight"}))
    assert refusal.key == "mount.pair"


# ----- saves, determinism -----
def test_save_and_load_round_trip_keeps_the_pair():
    b = riding_battle("cnc", extra=[fig("foe", "red", 12, 4, "W")])
    until_turn(b, "knight")
    b.apply(Move("knight", to=(8, 4)))
    data = b.to_save_data()
    assert [f.get("mount", "") for f in data["figures"]][:2] == ["", "horse"]
    again = Battle.from_save_data(data)
    assert again.figures == b.figures and again.state.riders == {"horse": "knight"}
    assert [e.to_json() for e in again.events] == [e.to_json() for e in b.events]


def test_same_seed_same_events():
    def play(seed):
        b = riding_battle("bfrpg", seed=seed, extra=[fig("foe", "red", 12, 4, "W", template="spearman")])
        until_turn(b, "knight")
        b.apply(Charge("knight", target="foe"))
        return [e.to_json() for e in b.events]
    assert play(3) == play(3)
