"""Rolling an attack from its breakdown: hit or miss, criticals, fumbles, parries, damage.

Nothing here decides modifiers (that is modifiers.attack_breakdown) or applies damage to a
figure (that is damage.apply_damage): this module turns a breakdown and the battle's RNG
into an AttackResult, from which the resolver writes the event.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from .dice import die, parse_dice
from .modifiers import Breakdown


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


def roll_attack(battle, bd: Breakdown, rng, target_prof: dict, target_state) -> AttackResult:
    rs = battle.ruleset
    rules = rs.section("attack")
    if bd.resolution == "d100":
        return _roll_d100(battle, bd, rng, target_prof, target_state)
    roll = die(rng, 20)
    rolls = [roll]
    nat = roll.total
    if bd.advantage:
        second = die(rng, 20)
        rolls.append(second)
        nat = max(nat, second.total) if bd.advantage > 0 else min(nat, second.total)
    total = nat + bd.attack_total
    need_total = bd.defense_total
    result = AttackResult(hit=total >= need_total, outcome="", rolls=rolls, die_result=nat, total=total)
    result.margin = need_total - total
    if bd.auto_hit:
        result.hit = True
        result.outcome = f"hits automatically ({bd.auto_hit})"
    elif rules["natural_miss"] and nat <= rules["natural_miss"]:
        result.hit = False
        result.outcome = f"natural {nat}: always a miss"
        _fumble(battle, bd, rng, result)
    elif rules["natural_hit"] and nat >= rules["natural_hit"]:
        result.hit = True
        result.outcome = f"natural {nat}: always a hit"
        _critical_d20(battle, bd, rng, result)
    else:
        result.outcome = "hit" if result.hit else "miss"
    if result.hit:
        _damage_d20(battle, bd, rng, result)
    return result


def _fumble(battle, bd, rng, result: AttackResult) -> None:
    rs = battle.ruleset
    kind = rs.section("attack")["fumble"]
    if kind == "level-check":
        check = die(rng, 20)
        result.rolls.append(check)
        level = battle.profile(bd.attacker)["level"]
        if check.total > level:
            result.fumble = "lose-next-attack"
            result.outcome += f"; fumble check d20 {check.total} > level {level}: critical fumble"
            result.notes.append("the fumble table is not in the document: the engine costs the fumbler its next round's attacks")
        else:
            result.outcome += f"; fumble check d20 {check.total} <= level {level}: no fumble"
    elif kind == "table":
        check = die(rng, 20)
        result.rolls.append(check)
        for row in rs.data["fumble_table"]:
            if check.total <= row["upto"]:
                result.fumble = row["effect"]
                words = f"; fumble d20 {check.total}: {row['effect'].replace('-', ' ')}"
                if row["dc"]:
                    save = die(rng, 20)
                    result.rolls.append(save)
                    dex = battle.profile(bd.attacker)["dex_mod"]
                    ok = save.total + dex >= row["dc"]
                    result.fumble_failed_check = not ok
                    words += f", DEX check d20 {save.total}{dex:+d} vs DC {row['dc']}: " + ("avoided" if ok else "failed")
                result.outcome += words
                break


def _critical_d20(battle, bd, rng, result: AttackResult) -> None:
    rs = battle.ruleset
    rules = rs.section("attack")
    kind = rules["critical"]
    needed = bd.needed_on_die
    if kind == "none":
        return
    if needed >= rules["critical_needs_below"]:
        result.notes.append(f"only a natural {min(needed, 20)}+ could hit: no critical")
        return
    if kind == "confirm":
        confirm = die(rng, 20)
        result.rolls.append(confirm)
        ctotal = confirm.total + bd.attack_total
        if ctotal >= bd.defense_total:
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
        ability = rules["melee_ability"] if bd.kind == "melee" else rules["propelled_ability"]
        mod = battle.profile(bd.attacker).get(f"{ability}_mod", 0) if ability != "none" else 0
        value = extra.total + mod
        for row in rs.data["critical_table"]:
            if value <= row["upto"]:
                result.critical = row["effect"]
                break
        result.outcome += f"; critical table d20 {extra.total}{mod:+d} = {value}: {result.critical.replace('-', ' ')}"
        if result.critical == "critical-condition":
            conditions = rules["critical_conditions"]
            if conditions:
                pick = die(rng, len(conditions))
                result.rolls.append(pick)
                result.condition = conditions[pick.total - 1]
                result.outcome += f", d{len(conditions)} {pick.total}: {result.condition}"


def _damage_d20(battle, bd, rng, result: AttackResult) -> None:
    rs = battle.ruleset
    dice = parse_dice(bd.damage)
    adds = sum(m.value for m in bd.damage_mods)
    parts = []
    if bd.auto_hit == "helpless":
        amount = 2 * (dice.maximum + adds)
        parts.append(f"double the maximum of {dice.text}{adds:+d}" if adds else f"double the maximum of {dice.text}")
        _finish(battle, bd, result, amount, parts, skip_multipliers=True)
        return
    roll = dice.roll(rng)
    result.rolls.append(roll)
    amount = roll.total
    parts.append(f"{dice.text} {roll.total}")
    kind = rs.section("attack")["critical"]
    if result.critical == "confirmed":
        amount += dice.dice_only.maximum
        parts.append(f"+{dice.dice_only.maximum} critical (maximum die)")
        extra = dice.dice_only.roll(rng)
        result.rolls.append(extra)
        amount += extra.total
        parts.append(f"+{extra.total} critical roll")
    elif kind == "odnd" and result.critical == "critical":
        extra = dice.dice_only.roll(rng)
        result.rolls.append(extra)
        amount += extra.total
        parts.append(f"+{extra.total} critical (damage dice doubled)")
    elif result.critical == "maximum":
        amount = dice.maximum
        parts = [f"maximum {dice.text} = {dice.maximum}"]
    elif result.critical in ("critical", "critical-condition"):
        amount = roll.total + dice.maximum
        parts.append(f"+{dice.maximum} critical damage (maximum)")
    amount += adds
    for m in bd.damage_mods:
        parts.append(f"{m.value:+d} {m.name}")
    _finish(battle, bd, result, amount, parts)
    if rs.section("attack")["over_20_reduces_damage"] and bd.needed_on_die > 20 and result.hit:
        excess = bd.needed_on_die - 20
        result.damage = max(0, result.damage - excess)
        result.damage_text += f", -{excess} (needed {bd.needed_on_die} on the die)"


def _finish(battle, bd, result: AttackResult, amount: int, parts: list, skip_multipliers: bool = False) -> None:
    rs = battle.ruleset
    if not skip_multipliers:
        for m in bd.damage_multipliers:
            if m.value > 1:
                amount *= m.value
                parts.append(f"x{m.value} {m.name}")
    if bd.subdue:
        fraction = Fraction(rs.section("damage")["subdual_fraction"])
        if fraction != 1:
            amount = math.floor(amount * fraction)
            parts.append(f"x{fraction} subdual")
        result.subdual = True
    amount = max(rs.section("attack")["min_damage"], amount)
    result.damage = amount
    result.damage_text = ", ".join(parts)


def _roll_d100(battle, bd, rng, target_prof, target_state) -> AttackResult:
    rs = battle.ruleset
    rules = rs.section("attack")
    roll = die(rng, 100)
    value = roll.total
    target = bd.target_number
    result = AttackResult(hit=value <= target, outcome="", rolls=[roll], die_result=value, total=value)
    if rules["auto_miss_from"] and value >= rules["auto_miss_from"]:
        result.hit, result.outcome = False, f"{value:02d}: always a miss"
    elif rules["auto_grievous"] and value == rules["auto_grievous"]:
        result.hit, result.critical, result.outcome = True, "grievous", f"{value:02d}: always a potential grievous hit"
    elif rules["auto_critical"] and value == rules["auto_critical"]:
        result.hit, result.critical, result.outcome = True, "critical", f"{value:02d}: always a critical hit"
    elif rules["auto_hit"] and value == rules["auto_hit"]:
        result.hit, result.outcome = True, f"{value:02d}: always a hit"
    else:
        result.outcome = "hit" if result.hit else "miss"
    if result.hit and result.critical != "grievous":
        grievous, critical = d100_ranges(rs, target)
        if value <= grievous:
            result.critical = "grievous"
            result.outcome = f"grievous hit (<= {grievous} at modified SC {target})"
        elif value <= critical and not result.critical:
            result.critical = "critical"
            result.outcome = f"critical hit (<= {critical} at modified SC {target})"
    if not result.hit:
        return result
    dice = parse_dice(bd.damage)
    droll = dice.roll(rng)
    result.rolls.append(droll)
    amount = droll.total + sum(m.value for m in bd.damage_mods)
    parts = [f"{dice.text} {droll.total}"] + [f"{m.value:+d} {m.name}" for m in bd.damage_mods]
    if result.critical:
        amount *= 2
        parts.append("x2 " + result.critical)
        result.ignore_prot = True
    _finish(battle, bd, result, amount, parts)
    prot = max(0, target_prof["prot"] - target_state.prot_lost)
    if result.ignore_prot:
        result.damage_text += f"; no PROT on a {result.critical} hit"
    elif prot:
        result.damage = max(0, result.damage - prot)
        result.damage_text += f", -{prot} PROT"
    return result


def d100_ranges(ruleset, modified_sc: int) -> tuple[int, int]:
    """(grievous up to, critical up to) for a modified strike chance, from the ruleset's table."""
    for row in ruleset.section("attack")["d100_critical_table"]:
        if modified_sc <= row["sc_upto"]:
            return row["grievous"], row["critical"]
    return 0, 0


@dataclass(frozen=True)
class ParryTerms:
    """A defending figure's next parry, as the roll will make it: d20 + roll_add must beat the
    attack roll, then d(block_die) + block_add must beat the damage for the blow to be absorbed."""
    style: str
    attack_bonus: int          # the defender's AB
    shield: bool               # parrying with a shield: +2 to the parry, a d8 block
    stance_bonus: int          # the stance's own bonus (total defence)
    later_penalty: int         # for each parry after the first this round
    str_mod: int
    level_bonus: int           # fighters add their level to the block

    @property
    def roll_add(self) -> int:
        return self.attack_bonus + self.stance_bonus + self.later_penalty + (2 if self.shield else 0)

    @property
    def block_die(self) -> int:
        return 8 if self.shield else 4

    @property
    def block_add(self) -> int:
        return self.str_mod + self.level_bonus


def parry_terms(battle, defender_id: str) -> tuple[ParryTerms | None, str]:
    """The parry this figure would make against the next melee hit (None when it makes none), and
    why not ("" when its stance has no parry roll). The roll and the AI's odds both read it."""
    rs = battle.ruleset
    state = battle.state_of(defender_id)
    style = rs.defense(state.defense) if state.defense else None
    if not style or not style["parry_roll"]:
        return None, ""
    prof = battle.profile(defender_id)
    allowed = {"one": 1, "level": prof["level"] if prof["fighter"] else 1, "all": 99}[style["parries"]]
    if state.parries_used >= allowed:
        return None, f"no parry left this round ({allowed} used)"
    return ParryTerms(style=style["style"], attack_bonus=prof["attack_bonus"], shield=prof["shield"] != "none",
                      stance_bonus=style["parry_bonus"], later_penalty=style["parry_step"] * state.parries_used,
                      str_mod=prof["str_mod"], level_bonus=prof["level"] if prof["fighter"] else 0), ""


def parry(battle, defender_id: str, attack_total: int, damage: int, rng) -> tuple[bool, list, str]:
    """A defending figure's parry of a melee hit: (parried, rolls, words)."""
    terms, why_not = parry_terms(battle, defender_id)
    if terms is None:
        return False, [], why_not
    battle.state_of(defender_id).parries_used += 1
    proll = die(rng, 20)
    ptotal = proll.total + terms.roll_add
    words = (f"parry d20 {proll.total} +{terms.attack_bonus} AB" + (" +2 shield" if terms.shield else "")
             + (f" +{terms.stance_bonus} {terms.style}" if terms.stance_bonus else "")
             + (f" {terms.later_penalty:+d} later parry" if terms.later_penalty else "")
             + f" = {ptotal} vs attack {attack_total}")
    if ptotal <= attack_total:
        return False, [proll], words + ": fails"
    block = die(rng, terms.block_die)
    btotal = block.total + terms.block_add
    words += (f": parries; block d{terms.block_die} {block.total}" + (f" {terms.str_mod:+d} STR" if terms.str_mod else "")
              + (f" +{terms.level_bonus} level" if terms.level_bonus else "") + f" = {btotal} vs {damage} damage")
    if btotal > damage:
        return True, [proll, block], words + ": the blow is absorbed"
    return False, [proll, block], words + ": the blow gets through"


def roll_damage(battle, bd: Breakdown, rng) -> AttackResult:
    """The damage a hit with this breakdown does (no roll to hit): a blow that lands on another figure
    than the one it was rolled against (bfrpg Mounted Combat: a near miss on a rider hits its mount)."""
    result = AttackResult(hit=True, outcome="hit")
    _damage_d20(battle, bd, rng, result)
    return result
