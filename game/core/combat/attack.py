"""Rolling an attack from its breakdown: hit or miss, criticals, fumbles, parries, damage.

Nothing here decides modifiers (that is modifiers.attack_breakdown) or applies damage to a
figure (that is damage.apply_damage): this module turns a breakdown and the battle's RNG
into an AttackResult, from which the resolver writes the event.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .breakdown import Breakdown
from .defender_modifiers import parry_terms
from .dice import die, parse_dice
from .odds import (block_beats, confirms, critical_possible, d20_face, d100_face, extra_dice_rolled, fumble_effect,
                   hit_damage, parry_beats, save_passes, table_effect)


@dataclass
class AttackResult:
    """One roll to hit and what came of it: the dice, the total, the damage."""

    hit: bool
    outcome: str                     # "hit", "miss", "critical hit", "grievous hit", "natural 1: miss", ...
    rolls: list = field(default_factory=list)
    die_result: int = 0
    total: int = 0
    damage: int = 0
    damage_text: str = ""            # how the damage was made up, in words
    subdual: bool = False
    critical: str = ""               # "", "critical", "maximum", "critical-condition", "grievous", "confirmed"
    condition: str = ""              # a condition the hit inflicts (ch17 critical chart)
    fumble: str = ""                 # fumble effect, if any
    fumble_failed_check: bool = True
    parried: bool = False
    notes: list = field(default_factory=list)
    ignore_prot: bool = False
    margin: int = 0                  # d20: how far the total fell short of the defense (misses)


def roll_attack(battle, bd: Breakdown, rng, target_prof: dict | None = None, target_state=None) -> AttackResult:
    """Draw the attack's dice and read each face off the breakdown's table (combat.odds): the
    same functions the shown odds are summed from."""
    if bd.resolution == "d100":
        return _roll_d100(bd, rng)
    if bd.auto_hit:         # the blow lands without an attack roll (the helpless, bfrpg's holder): no die
        face = d20_face(bd, 0)
        result = AttackResult(hit=True, outcome=face.words, total=bd.attack_total)
        _damage(bd, rng, result)
        return result
    roll = die(rng, 20)
    rolls = [roll]
    nat = roll.total
    if bd.advantage:
        second = die(rng, 20)
        rolls.append(second)
        nat = max(nat, second.total) if bd.advantage > 0 else min(nat, second.total)
    face = d20_face(bd, nat)
    total = nat + bd.attack_total
    result = AttackResult(hit=face.hit, outcome=face.words, rolls=rolls, die_result=nat, total=total)
    result.margin = bd.defense_total - total
    if face.natural == "miss":
        _fumble(bd, rng, result)
    elif face.natural == "hit":
        _critical_d20(bd, rng, result)
    if result.hit:
        _damage(bd, rng, result)
    return result


def _fumble(bd: Breakdown, rng, result: AttackResult) -> None:
    kind = bd.die.fumble
    if kind not in ("level-check", "table"):
        return
    check = die(rng, 20)
    result.rolls.append(check)
    effect, dc = fumble_effect(bd, check.total)
    if kind == "level-check":
        if effect:
            result.fumble = effect
            result.outcome += f"; fumble check d20 {check.total} > level {bd.attacker_level}: critical fumble"
            result.notes.append("the fumble table is not in the document: the engine costs the fumbler its next round's attacks")
        else:
            result.outcome += f"; fumble check d20 {check.total} <= level {bd.attacker_level}: no fumble"
        return
    if not effect:
        return
    result.fumble = effect
    words = f"; fumble d20 {check.total}: {effect.replace('-', ' ')}"
    if dc:
        save = die(rng, 20)
        result.rolls.append(save)
        ok = save_passes(bd, save.total, dc)
        result.fumble_failed_check = not ok
        words += f", DEX check d20 {save.total}{bd.attacker_dex:+d} vs DC {dc}: " + ("avoided" if ok else "failed")
    result.outcome += words


def _critical_d20(bd: Breakdown, rng, result: AttackResult) -> None:
    kind = bd.die.critical
    if kind == "none":
        return
    if not critical_possible(bd):
        result.notes.append(f"only a natural {min(bd.needed_on_die, 20)}+ could hit: no critical")
        return
    if kind == "confirm":
        confirm = die(rng, 20)
        result.rolls.append(confirm)
        ctotal = confirm.total + bd.attack_total
        if confirms(bd, confirm.total):
            result.critical = "confirmed"
            result.outcome += f"; confirmed by d20 {confirm.total} = {ctotal} vs {bd.defense_name} {bd.defense_total}: critical hit"
        else:
            result.outcome += f"; not confirmed (d20 {confirm.total} = {ctotal})"
    elif kind == "odnd":
        result.critical = "critical"
        result.outcome += ": critical hit"
        result.notes.append("the document does not say what a critical does: the engine doubles the damage dice")
    elif kind == "table":
        extra = die(rng, 20)
        result.rolls.append(extra)
        value = extra.total + bd.critical_mod
        result.critical = table_effect(bd, value)
        result.outcome += f"; critical table d20 {extra.total}{bd.critical_mod:+d} = {value}: {result.critical.replace('-', ' ')}"
        if result.critical == "critical-condition":
            conditions = bd.die.critical_conditions
            if conditions:
                pick = die(rng, len(conditions))
                result.rolls.append(pick)
                result.condition = conditions[pick.total - 1]
                result.outcome += f", d{len(conditions)} {pick.total}: {result.condition}"


def _damage(bd: Breakdown, rng, result: AttackResult) -> None:
    """Roll the hit's damage dice (and a critical's extra dice) and read the damage off hit_damage."""
    dice = parse_dice(bd.damage)
    total = extra = 0
    if bd.auto_hit != "helpless":
        roll = dice.roll(rng)
        result.rolls.append(roll)
        total = roll.total
        if extra_dice_rolled(bd, result.critical) and dice.count:
            more = dice.dice_only.roll(rng)
            result.rolls.append(more)
            extra = more.total
    splashed = 0
    if bd.splash:
        roll = parse_dice(bd.splash).roll(rng)
        result.rolls.append(roll)
        splashed = roll.total
    result.damage, parts, result.ignore_prot = hit_damage(bd, result.critical, total, extra, splashed)
    result.subdual = bd.subdue
    result.damage_text = ", ".join(parts)


def _roll_d100(bd: Breakdown, rng) -> AttackResult:
    roll = die(rng, 100)
    value = roll.total
    face = d100_face(bd, value)
    result = AttackResult(hit=face.hit, outcome=face.words, rolls=[roll], die_result=value, total=value)
    result.critical = face.critical
    if result.hit:
        _damage(bd, rng, result)
    return result


def parry(battle, bd: Breakdown, attack_total: int, damage: int, rng) -> tuple[bool, list, str]:
    """A defending figure's parry of a melee hit, with the terms the breakdown (and so the odds)
    carries: (parried, rolls, words)."""
    terms = bd.parry
    if terms is None:
        return False, [], "" if bd.auto_hit == "held" else parry_terms(battle, bd.target)[1]
    battle.state_of(bd.target).parries_used += 1
    proll = die(rng, 20)
    ptotal = proll.total + terms.roll_add
    words = (f"parry d20 {proll.total} +{terms.attack_bonus} AB" + (" +2 shield" if terms.shield else "")
             + (f" +{terms.stance_bonus} {terms.style}" if terms.stance_bonus else "")
             + (f" {terms.later_penalty:+d} later parry" if terms.later_penalty else "")
             + f" = {ptotal} vs attack {attack_total}")
    if not parry_beats(terms, proll.total, attack_total):
        return False, [proll], words + ": fails"
    block = die(rng, terms.block_die)
    btotal = block.total + terms.block_add
    words += (f": parries; block d{terms.block_die} {block.total}" + (f" {terms.str_mod:+d} STR" if terms.str_mod else "")
              + (f" +{terms.level_bonus} level" if terms.level_bonus else "") + f" = {btotal} vs {damage} damage")
    if block_beats(terms, block.total, damage):
        return True, [proll, block], words + ": the blow is absorbed"
    return False, [proll, block], words + ": the blow gets through"


def roll_damage(battle, bd: Breakdown, rng) -> AttackResult:
    """The damage a hit with this breakdown does (no roll to hit): a blow that lands on another figure
    than the one it was rolled against (bfrpg Mounted Combat: a near miss on a rider hits its mount)."""
    result = AttackResult(hit=True, outcome="hit")
    _damage(bd, rng, result)
    return result
