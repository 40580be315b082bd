"""bfrpg Parrying and Defensive Combat: a figure in partial or total defence parries a melee hit
(bfrpg:parrying-and-defensive-combat). The numbers below are worked from the document's steps:
the parry roll (d20 + AB; with a shield the AB + 2; + 4 in total defence) must surpass the
attack roll; then the block roll (d4, d8 with a shield, + STR, + a fighter's level) must beat the
damage for the blow to be absorbed. The roll and the odds read the same terms, carried on the blow's Breakdown."""
from __future__ import annotations

from game.core.combat.attack import parry, parry_terms
from game.core.combat.breakdown import AttackContext
from game.core.combat.modifiers import attack_breakdown

from battles import OPEN, fig, make_battle
from dice import ForcedDice


def _battle():
    # foot: AB +1, a shield, STR +0, no fighter; knight: AB +3, no shield, STR +1, a level 3 fighter.
    return make_battle("bfrpg", OPEN, [fig("foot", "blue", 4, 4, "E"), fig("knight", "red", 6, 4, "W", template="knight")])


def _blow_at(b, defender):
    """The breakdown of a blow at the defender (the parry's terms ride on it, as the roll reads them)."""
    return attack_breakdown(b, "knight" if defender == "foot" else "foot", defender, AttackContext())


def test_a_shield_parries_at_ab_plus_2_and_blocks_with_a_d8():
    b = _battle()
    b.state_of("foot").defense = "partial-defense"
    terms, _ = parry_terms(b, "foot")
    assert (terms.roll_add, terms.block_die, terms.block_add) == (1 + 2, 8, 0)
    # d20 13 + 1 AB + 2 shield = 16 surpasses an attack roll of 15; block d8 6 beats 5 damage.
    absorbed, rolls, words = parry(b, _blow_at(b, "foot"), 15, 5, ForcedDice([13, 6], then="fail"))
    assert absorbed and [r.total for r in rolls] == [13, 6]
    assert "= 16 vs attack 15" in words and "the blow is absorbed" in words


def test_equal_to_the_attack_roll_is_no_parry_and_damage_beyond_the_block_gets_through():
    b = _battle()
    b.state_of("foot").defense = "partial-defense"
    assert parry(b, _blow_at(b, "foot"), 16, 5, ForcedDice([13], then="fail"))[0] is False          # 16 does not surpass 16
    b.state_of("foot").parries_used = 0
    absorbed, _rolls, words = parry(b, _blow_at(b, "foot"), 15, 6, ForcedDice([13, 6], then="fail"))  # block 6 does not beat 6
    assert not absorbed and "the blow gets through" in words


def test_partial_defence_parries_once_a_round_unless_a_fighter_then_at_minus_2_each():
    b = _battle()
    b.state_of("foot").defense = "partial-defense"
    parry(b, _blow_at(b, "foot"), 10, 3, ForcedDice([1], then="fail"))
    terms, why = parry_terms(b, "foot")
    assert terms is None and why == "no parry left this round (1 used)"
    b.state_of("knight").defense = "partial-defense"
    b.state_of("knight").parries_used = 2             # the third parry of a level 3 fighter: -4
    terms, _ = parry_terms(b, "knight")
    assert (terms.roll_add, terms.block_die, terms.block_add) == (3 - 4, 4, 1 + 3)
    b.state_of("knight").parries_used = 3
    assert parry_terms(b, "knight")[0] is None


def test_total_defence_adds_4_and_parries_every_blow_at_minus_1_each_after_the_first():
    b = _battle()
    b.state_of("knight").defense = "total-defense"
    b.state_of("knight").parries_used = 5
    terms, _ = parry_terms(b, "knight")
    assert terms.roll_add == 3 + 4 - 5
    # d20 10 + 3 AB + 4 total defence - 5 = 12 vs 11: parried; block d4 2 + 1 STR + 3 level = 6 vs 6: through.
    absorbed, _rolls, words = parry(b, _blow_at(b, "knight"), 11, 6, ForcedDice([10, 2], then="fail"))
    assert not absorbed and "= 12 vs attack 11" in words and "= 6 vs 6 damage" in words


def test_no_stance_no_parry():
    b = _battle()
    assert parry_terms(b, "foot") == (None, "")
    assert parry(b, _blow_at(b, "foot"), 10, 3, ForcedDice([], then="fail")) == (False, [], "")
