"""The rolls of the manoeuvres (grapple, escape, trip, overbear) as the ruleset's [manoeuvres] section
names them. Nothing here changes the battle: each function takes the battle's RNG and returns the
rolls, the totals and the words the resolver's event carries (battle/handlers/grappling.py and
shoving.py apply them).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .breakdown import AttackContext
from .dice import die
from .modifiers import attack_breakdown
from .reach import SIZE_ORDER

SIZES = ("tiny", "small", "medium", "large", "giant")


@dataclass
class Contest:
    """One roll of a manoeuvre: did it succeed, the rolls, the total against the number, and the words."""
    success: bool
    rolls: list = field(default_factory=list)
    total: int = 0
    target_number: int = 0
    words: str = ""
    outcome: str = ""
    margin: int = 0          # hd-contest: victim's total minus the grapplers' (stunned rounds when positive)


def melee_roll(battle, attacker_id: str, target_id: str, what: str) -> Contest:
    """A melee attack roll against the target's AC (the manoeuvre's own roll: no damage)."""
    bd = attack_breakdown(battle, attacker_id, target_id, AttackContext(weapon="fist", free_attack=True))
    if bd.resolution == "d100":
        roll = die(battle.rng, 100)
        ok = roll.total <= bd.target_number
        return Contest(ok, [roll], roll.total, bd.target_number,
                       f"{what}: d100 {roll.total:02d} vs {bd.target_number}: " + ("succeeds" if ok else "fails"))
    roll = die(battle.rng, 20)
    total = roll.total + bd.attack_total
    ok = total >= bd.defense_total
    mods = "".join(f" {m.value:+d} {m.name}" for m in bd.attack_mods)
    return Contest(ok, [roll], total, bd.defense_total,
                   f"{what}: d20 {roll.total} {bd.base_attack:+d} {bd.attack_name}{mods} = {total} vs "
                   f"{bd.defense_name} {bd.defense_total}: " + ("succeeds" if ok else "fails"))


def _mod(battle, fid: str, ability: str) -> int:
    return battle.profile(fid).get(f"{ability}_mod", 0)


def special_ac(battle, attacker_id: str, target_id: str, overbear: bool = False) -> tuple[int, str]:
    """cnc's grappling AC: 12 (18 with strength as a prime) + the defender's STR and DEX, + a step per
    size category the attacker is larger; overbearing adds the defender's attack bonus."""
    rules = battle.ruleset.section("manoeuvres")
    prof = battle.profile(target_id)
    base = rules["special_ac_prime"] if prof["str_prime"] else rules["special_ac"]
    steps = SIZE_ORDER.get(battle.figures[attacker_id].size, 2) - SIZE_ORDER.get(battle.figures[target_id].size, 2)
    size = steps * rules["special_ac_per_size"]
    total = base + prof["str_mod"] + prof["dex_mod"] + size
    words = f"{base} ({'strength prime' if prof['str_prime'] else 'no strength prime'}) {prof['str_mod']:+d} STR {prof['dex_mod']:+d} DEX"
    if size:
        words += f" {size:+d} size"
    if overbear:
        total += prof["attack_bonus"]
        words += f" {prof['attack_bonus']:+d} its attack bonus"
    return total, f"{words} = {total}"


def special_ac_roll(battle, attacker_id: str, target_id: str, what: str, overbear: bool = False) -> Contest:
    """d20 + STR + attack bonus (BtH) against the special AC (cnc Grappling, Overbearing)."""
    prof = battle.profile(attacker_id)
    ac, ac_words = special_ac(battle, attacker_id, target_id, overbear)
    roll = die(battle.rng, 20)
    total = roll.total + prof["str_mod"] + prof["attack_bonus"]
    ok = total >= ac
    return Contest(ok, [roll], total, ac,
                   f"{what}: d20 {roll.total} {prof['str_mod']:+d} STR {prof['attack_bonus']:+d} BtH = {total} vs "
                   f"special AC {ac_words}: " + ("succeeds" if ok else "fails"))


def touch_roll(battle, attacker_id: str, target_id: str, what: str) -> Contest:
    """ch17's touch attack: d20 + attack bonus + the better of STR or DEX, against the touch AC + DEX."""
    rules = battle.ruleset.section("manoeuvres")
    prof = battle.profile(attacker_id)
    ability = max(prof["str_mod"], prof["dex_mod"])
    ac = rules["touch_ac"] + battle.profile(target_id)["dex_mod"]
    roll = die(battle.rng, 20)
    total = roll.total + prof["attack_bonus"] + ability
    ok = total >= ac
    return Contest(ok, [roll], total, ac,
                   f"{what}: touch attack d20 {roll.total} {prof['attack_bonus']:+d} AB {ability:+d} STR/DEX = {total} "
                   f"vs touch AC {ac}: " + ("succeeds" if ok else "fails"))


def grapple_check(battle, fid: str) -> tuple[int, object, str]:
    """ch17's grapple check: d20 + the better of STR or DEX + the size modifier. (total, roll, words)"""
    prof = battle.profile(fid)
    sizes = battle.ruleset.section("manoeuvres")["size_check"]
    size = sizes[SIZE_ORDER.get(battle.figures[fid].size, 2)]
    ability = max(prof["str_mod"], prof["dex_mod"])
    roll = die(battle.rng, 20)
    total = roll.total + ability + size
    return total, roll, f"d20 {roll.total} {ability:+d} STR/DEX {size:+d} size = {total}"


def opposed_checks(battle, holder_id: str, held_id: str) -> Contest:
    """Both roll a grapple check; the higher keeps (holder) or breaks (held) the hold; ties as the ruleset says."""
    h_total, h_roll, h_words = grapple_check(battle, holder_id)
    d_total, d_roll, d_words = grapple_check(battle, held_id)
    ties = battle.ruleset.section("manoeuvres")["check_ties"]
    kept = h_total > d_total or (h_total == d_total and ties == "holder")
    holder, held = battle.figures[holder_id].label, battle.figures[held_id].label
    tie = " (a tie goes to the " + ties + ")" if h_total == d_total else ""
    return Contest(kept, [h_roll, d_roll], h_total, d_total,
                   f"grapple checks: {holder} {h_words} vs {held} {d_words}{tie}: "
                   + ("the hold is kept" if kept else "the hold is broken"))


def save_roll(battle, fid: str, save: str, bonus_words: tuple[int, str] = (0, "")) -> Contest:
    """A d20 saving throw (vs death ray or paralysis) with a bonus: at or above the figure's number saves."""
    prof = battle.profile(fid)
    need = prof[f"save_{save}"]
    bonus, words = bonus_words
    roll = die(battle.rng, 20)
    total = roll.total + bonus
    ok = total >= need
    return Contest(ok, [roll], total, need,
                   f"save vs {'death ray' if save == 'death' else save}: d20 {roll.total}"
                   + (f" {bonus:+d} {words}" if words else "") + f" = {total} vs {need}: " + ("saves" if ok else "fails"))


def hd_contest(battle, grappler_ids: list[str], victim_id: str) -> Contest:
    """odnd's grapple: each grappler rolls d6 per hit die, the victim d6 per hit die or level.
    success = the victim is held (pinned or struggling); margin > 0: it throws them off."""
    rolls = []
    g_total = 0
    parts = []
    for gid in grappler_ids:
        n = max(1, battle.profile(gid)["level"])
        r = [die(battle.rng, 6) for _ in range(n)]
        rolls.extend(r)
        s = sum(x.total for x in r)
        g_total += s
        parts.append(f"{battle.figures[gid].label} {n}d6 {s}")
    n = max(1, battle.profile(victim_id)["level"])
    v = [die(battle.rng, 6) for _ in range(n)]
    rolls.extend(v)
    v_total = sum(x.total for x in v)
    return contest_outcome(battle, grappler_ids, victim_id, g_total, v_total, rolls,
                           ", ".join(parts) + f" = {g_total} vs {battle.figures[victim_id].label} {n}d6 {v_total}")


def contest_outcome(battle, grappler_ids, victim_id: str, g_total: int, v_total: int, rolls, words: str) -> Contest:
    """What the hit-dice contest's totals mean (the worked example in odnd grappling-attacks: 7 vs 11 -> 4 rounds)."""
    victim = battle.figures[victim_id].label
    if v_total < g_total:
        return Contest(True, rolls, g_total, v_total, f"{words}: {victim} is pinned", "pinned", v_total - g_total)
    if v_total == g_total:
        return Contest(True, rolls, g_total, v_total, f"{words}: {victim} is on its feet, struggling, and cannot use "
                                                      f"its weapon", "struggling", 0)
    margin = v_total - g_total
    return Contest(False, rolls, g_total, v_total, f"{words}: {victim} throws them off; they are stunned for {margin} "
                                                   f"round(s)", "thrown-off", margin)


def size_gap(battle, attacker_id: str, target_id: str) -> int:
    """Size categories the target is larger than the attacker (negative: smaller)."""
    return SIZE_ORDER.get(battle.figures[target_id].size, 2) - SIZE_ORDER.get(battle.figures[attacker_id].size, 2)
