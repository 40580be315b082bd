"""The rolls of the manoeuvres (grapple, escape, trip, overbear) as the ruleset's [manoeuvres] section
names them. Nothing here changes the battle.

Each roll is worked out in two steps that share one copy of the rule: what it needs (a `Target`:
the die, what is added to it and the number to reach; the grapple-check bonus; the hit dice of a
contest), which changes nothing and draws no die, and the roll itself, which takes the battle's RNG
and returns the rolls, the totals and the words the resolver's event carries
(battle/handlers/grappling.py and shoving.py apply them). The odds the resolver answers without
rolling (battle/manoeuvre_odds.py) read the same first step and the same `succeeds` / `hold_kept` /
`contest_outcome` that decide the roll.
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


@dataclass(frozen=True)
class Target:
    """What one roll of a manoeuvre needs: a die of `sides` faces plus `bonus` at least `need`
    (`at_most`: a d100 roll at or under `need`). `parts` and `against` are the words of the roll."""
    sides: int
    bonus: int
    need: int
    at_most: bool = False
    lead: str = ""              # before the die's name ("touch attack ")
    parts: str = ""             # what is added, as words (" +1 AB -2 flank")
    against: str = ""           # what it is rolled against, as words ("AC 15")
    yes: str = "succeeds"
    no: str = "fails"

    def succeeds(self, face: int) -> bool:
        total = face + self.bonus
        return total <= self.need if self.at_most else total >= self.need

    def chance(self) -> float:
        """The chance the roll succeeds, counted face by face with `succeeds` (the roll's own test)."""
        return sum(1 for face in range(1, self.sides + 1) if self.succeeds(face)) / self.sides

    def roll(self, rng, what: str) -> Contest:
        face = die(rng, self.sides)
        ok = self.succeeds(face.total)
        total = face.total + self.bonus
        verdict = self.yes if ok else self.no
        if self.at_most:
            words = f"{what}: d{self.sides} {face.total:02d} vs {self.need}: {verdict}"
        else:
            words = f"{what}: {self.lead}d{self.sides} {face.total}{self.parts} = {total} vs {self.against}: {verdict}"
        return Contest(ok, [face], total, self.need, words)


def melee_target(battle, attacker_id: str, target_id: str) -> Target:
    """A melee attack roll against the target's AC (the manoeuvre's own roll: no damage), from the
    attack's Breakdown as it stands."""
    bd = attack_breakdown(battle, attacker_id, target_id, AttackContext(weapon="fist", free_attack=True))
    if bd.resolution == "d100":
        return Target(100, 0, bd.target_number, at_most=True)
    mods = "".join(f" {m.value:+d} {m.name}" for m in bd.attack_mods)
    return Target(20, bd.attack_total, bd.defense_total, parts=f" {bd.base_attack:+d} {bd.attack_name}{mods}",
                  against=f"{bd.defense_name} {bd.defense_total}")


def melee_roll(battle, attacker_id: str, target_id: str, what: str) -> Contest:
    return melee_target(battle, attacker_id, target_id).roll(battle.rng, what)



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


def special_ac_target(battle, attacker_id: str, target_id: str, overbear: bool = False) -> Target:
    """d20 + STR + attack bonus (BtH) against the special AC (cnc Grappling, Overbearing)."""
    prof = battle.profile(attacker_id)
    ac, ac_words = special_ac(battle, attacker_id, target_id, overbear)
    return Target(20, prof["str_mod"] + prof["attack_bonus"], ac,
                  parts=f" {prof['str_mod']:+d} STR {prof['attack_bonus']:+d} BtH", against=f"special AC {ac_words}")



def touch_target(battle, attacker_id: str, target_id: str) -> Target:
    """ch17's touch attack: d20 + attack bonus + the better of STR or DEX, against the touch AC + DEX."""
    rules = battle.ruleset.section("manoeuvres")
    prof = battle.profile(attacker_id)
    ability = max(prof["str_mod"], prof["dex_mod"])
    ac = rules["touch_ac"] + battle.profile(target_id)["dex_mod"]
    return Target(20, prof["attack_bonus"] + ability, ac, lead="touch attack ",
                  parts=f" {prof['attack_bonus']:+d} AB {ability:+d} STR/DEX", against=f"touch AC {ac}")



def grapple_check_bonus(battle, fid: str) -> tuple[int, int, int]:
    """ch17's grapple check adds the better of STR or DEX and the size modifier: (bonus, ability, size)."""
    prof = battle.profile(fid)
    sizes = battle.ruleset.section("manoeuvres")["size_check"]
    size = sizes[SIZE_ORDER.get(battle.figures[fid].size, 2)]
    ability = max(prof["str_mod"], prof["dex_mod"])
    return ability + size, ability, size


def grapple_check(battle, fid: str) -> tuple[int, object, str]:
    """ch17's grapple check: d20 + the better of STR or DEX + the size modifier. (total, roll, words)"""
    bonus, ability, size = grapple_check_bonus(battle, fid)
    roll = die(battle.rng, 20)
    total = roll.total + bonus
    return total, roll, f"d20 {roll.total} {ability:+d} STR/DEX {size:+d} size = {total}"


def hold_kept(battle, holder_total: int, held_total: int) -> bool:
    """Opposed grapple checks: the higher total wins; a tie goes where the ruleset says."""
    ties = battle.ruleset.section("manoeuvres")["check_ties"]
    return holder_total > held_total or (holder_total == held_total and ties == "holder")


def opposed_checks(battle, holder_id: str, held_id: str) -> Contest:
    """Both roll a grapple check; the higher keeps (holder) or breaks (held) the hold; ties as the ruleset says."""
    h_total, h_roll, h_words = grapple_check(battle, holder_id)
    d_total, d_roll, d_words = grapple_check(battle, held_id)
    ties = battle.ruleset.section("manoeuvres")["check_ties"]
    kept = hold_kept(battle, h_total, d_total)
    holder, held = battle.figures[holder_id].label, battle.figures[held_id].label
    tie = " (a tie goes to the " + ties + ")" if h_total == d_total else ""
    return Contest(kept, [h_roll, d_roll], h_total, d_total,
                   f"grapple checks: {holder} {h_words} vs {held} {d_words}{tie}: "
                   + ("the hold is kept" if kept else "the hold is broken"))


def save_target(battle, fid: str, save: str, bonus_words: tuple[int, str] = (0, "")) -> Target:
    """A d20 saving throw (vs death ray or paralysis) with a bonus: at or above the figure's number saves."""
    bonus, words = bonus_words
    return Target(20, bonus, battle.profile(fid)[f"save_{save}"], parts=f" {bonus:+d} {words}" if words else "",
                  against=str(battle.profile(fid)[f"save_{save}"]), yes="saves", no="fails")


def save_roll(battle, fid: str, save: str, bonus_words: tuple[int, str] = (0, "")) -> Contest:
    return save_target(battle, fid, save, bonus_words).roll(battle.rng, f"save vs {'death ray' if save == 'death' else save}")


def contest_dice(battle, grappler_ids, victim_id: str) -> tuple[list[int], int]:
    """odnd's hit-dice contest: how many d6 each grappler rolls (its hit dice) and the victim (its hit dice or level)."""
    return [max(1, battle.profile(gid)["level"]) for gid in grappler_ids], max(1, battle.profile(victim_id)["level"])


def hd_contest(battle, grappler_ids: list[str], victim_id: str) -> Contest:
    """odnd's grapple: each grappler rolls d6 per hit die, the victim d6 per hit die or level.
    success = the victim is held (pinned or struggling); margin > 0: it throws them off."""
    counts, n = contest_dice(battle, grappler_ids, victim_id)
    rolls = []
    g_total = 0
    parts = []
    for gid, count in zip(grappler_ids, counts):
        r = [die(battle.rng, 6) for _ in range(count)]
        rolls.extend(r)
        s = sum(x.total for x in r)
        g_total += s
        parts.append(f"{battle.figures[gid].label} {count}d6 {s}")
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


# ----- the first roll of each mechanism, as the ruleset names it -----
def grapple_target(battle, how: str, attacker_id: str, target_id: str) -> Target:
    """The roll that makes a hold: special-ac (cnc), touch-opposed's touch attack (ch17), else a melee
    attack roll (bfrpg wrestling; odnd's to-hit before the hit-dice contest)."""
    if how == "special-ac":
        return special_ac_target(battle, attacker_id, target_id)
    if how == "touch-opposed":
        return touch_target(battle, attacker_id, target_id)
    return melee_target(battle, attacker_id, target_id)


def trip_target(battle, attacker_id: str, target_id: str) -> Target:
    """A trip is a melee attack roll against AC (bfrpg: the roll is not named, choice-trip)."""
    return melee_target(battle, attacker_id, target_id)


def overbear_target(battle, attacker_id: str, target_id: str) -> Target:
    """An overbear is the grappling roll against the special AC with the defender's attack bonus added (cnc)."""
    return special_ac_target(battle, attacker_id, target_id, overbear=True)


def escape_target(battle, how: str, fid: str, holder_id: str) -> Target | None:
    """The roll that breaks a hold where it is one roll: save (vs death ray + the better of STR or DEX)
    or grapple-roll (its own grapple against the holder). None: a contest (grapple checks, hit dice)."""
    if how == "save":
        prof = battle.profile(fid)
        return save_target(battle, fid, "death", (max(prof["str_mod"], prof["dex_mod"]), "the better of STR/DEX"))
    if how == "grapple-roll":
        return special_ac_target(battle, fid, holder_id)
    return None
