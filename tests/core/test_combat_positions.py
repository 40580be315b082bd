"""The same position resolved under all five rulesets: each gets its own modifiers, derived from position."""
import pytest

from game.core.combat.modifiers import AttackContext, attack_breakdown

from battles import fig, make_battle

# The attacker stands on a 5 ft ledge directly behind the target; an ally of the attacker
# stands on the far side of the target, facing it.
LEDGE = "\n".join(["........", "........", "..1.....", "........"])
FIGURES = [
    fig("att", "blue", 2, 2, "E", stats={"hp": 20}),
    fig("tgt", "red", 3, 2, "E", stats={"hp": 20}),
    fig("ally", "blue", 4, 2, "W", stats={"hp": 20}),
]

EXPECTED = {
    # ruleset: (attack modifiers by name prefix -> value, defense modifiers by prefix -> value)
    "bfrpg": ({"from behind": 2}, {}),
    "odnd": ({"from behind": 2, "higher ground": 1}, {"no shield": -1}),
    "cnc": ({"from behind": 2, "higher ground": 1}, {}),
    "ch17": ({"from behind": 2, "flanked with": 1}, {}),
    # spelljammer:surprise, in combat (choice-in-combat-surprise): the first blow from behind at a figure
    # fighting another is not expected: +10 and half its DEF (30 -> 15)
    "spelljammer": ({"multiple attackers": 10, "first blow from behind": 10}, {"keeps only 1/2": -15}),
}


@pytest.mark.parametrize("ruleset_id", sorted(EXPECTED))
def test_same_position_under_each_ruleset(ruleset_id):
    """bfrpg:attacking-from-behind, odnd:attacking-from-behind + high-ground + shields, cnc:rear-attack +
    situational-modifiers, ch17:attacking-from-behind + flanking, spelljammer:multiple-attackers + surprise."""
    b = make_battle(ruleset_id, LEDGE, FIGURES)
    bd = attack_breakdown(b, "att", "tgt", AttackContext())
    assert bd.allowed, bd.reason
    want_attack, want_defense = EXPECTED[ruleset_id]
    got_attack = {m.name: m.value for m in bd.attack_mods}
    got_defense = {m.name: m.value for m in bd.defense_mods}
    for prefix, value in want_attack.items():
        match = [v for n, v in got_attack.items() if n.startswith(prefix)]
        assert match == [value], (ruleset_id, got_attack)
    for prefix, value in want_defense.items():
        match = [v for n, v in got_defense.items() if n.startswith(prefix)]
        assert match == [value], (ruleset_id, got_defense)
    # nothing else sneaks in
    assert len(got_attack) == len(want_attack), (ruleset_id, got_attack)
    assert len(got_defense) == len(want_defense), (ruleset_id, got_defense)
    for m in bd.attack_mods + bd.defense_mods:
        assert m.source.startswith(ruleset_id + ":")


def test_cover_is_an_attack_penalty_in_bfrpg_and_an_ac_bonus_in_cnc():
    """bfrpg:cover-and-concealment (penalty, doubled for hard cover) vs cnc:armor-class (cover raises AC)."""
    wall = "\n".join(["..........", "..........", ".....=....", "..........", ".........."])
    figures = [fig("archer", "blue", 1, 2, "E", template="archer"), fig("tgt", "red", 6, 2, "W", stats={"hp": 9})]
    bf = attack_breakdown(make_battle("bfrpg", wall, figures), "archer", "tgt", AttackContext())
    cc = attack_breakdown(make_battle("cnc", wall, figures), "archer", "tgt", AttackContext())
    assert {m.name: m.value for m in bf.attack_mods}["1/2 cover"] == -4
    assert {m.name: m.value for m in cc.defense_mods}["1/2 cover"] == 4
    assert bf.kind == cc.kind == "ranged"


def test_range_bands_differ_by_ruleset():
    """odnd:ranged-attack +1 short / -1 long; ch17:ranged-attack +1/0/-2; cnc:ranged-combat 0/-2/-6."""
    open_map = "\n".join(["." * 40] * 3)
    for rid, x, name, value in (("odnd", 25, "long range", -1), ("ch17", 25, "long range", -2),
                                ("cnc", 15, "medium range", -2), ("odnd", 5, "short range", 1)):
        b = make_battle(rid, open_map, [fig("a", "blue", 0, 1, "E", template="archer"), fig("t", "red", x, 1, "W")])
        bd = attack_breakdown(b, "a", "t", AttackContext())
        assert {m.name: m.value for m in bd.attack_mods}.get(name) == value, (rid, bd.attack_mods)


def test_odnd_surrounded_bonus_until_back_to_a_wall():
    """odnd:surrounded: more than 2 attackers on one figure: +1 each, unless its back is to a wall."""
    open_map = "\n".join(["......"] * 5)
    ring = [fig("t", "red", 2, 2, "N", stats={"hp": 30}), fig("a", "blue", 2, 1, "S"), fig("b", "blue", 1, 2, "E"),
            fig("c", "blue", 3, 2, "W")]
    bd = attack_breakdown(make_battle("odnd", open_map, ring), "a", "t", AttackContext())
    assert any(m.name.startswith("surrounded") and m.value == 1 for m in bd.attack_mods)
    walled = "\n".join(["......", "......", "......", "..#...", "......"])
    bd = attack_breakdown(make_battle("odnd", walled, ring), "a", "t", AttackContext())
    assert not any(m.name.startswith("surrounded") for m in bd.attack_mods)
    assert any("back to a wall" in n for n in bd.notes)
