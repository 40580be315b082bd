"""An attack's outcomes face by face: the one table the roll draws from and the odds are read from.

Every decision the roll makes after a die is drawn is a small function of the Breakdown and the
face: what the attack die's face means (`d20_face`, `d100_face`: a hit, a miss, a natural or an
automatic result), whether a critical is confirmed or which row of a critical table it reads
(`confirms`, `table_effect`), which fumble follows a natural miss (`fumble_effect`,
`save_passes`), what a hit does (`hit_damage`: dice, criticals, adds, multipliers, subdual, the
least damage, bfrpg's over-20 reduction, d100 PROT) and whether a parry beats the roll and the
blow (`parry_beats`, `block_beats`). `combat.attack` draws each die and calls these; `attack_odds`
calls the same functions for every face and sums the chances, so the shown odds are the odds
rolled (Brogue CE's attackHit is its hitProbability plus one draw; here every draw is the table's).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .dice import parse_dice


# ----- the ruleset's die rules, read once per ruleset -----
@dataclass(frozen=True, eq=False)
class DieRules:
    """What the attack die's faces do under a ruleset (its [attack] and [damage] numbers); one per
    ruleset, compared by identity (it keys the odds' cache)."""
    resolution: str
    natural_miss: int
    natural_hit: int
    auto_miss_from: int
    auto_hit: int
    auto_critical: int
    auto_grievous: int
    critical: str
    critical_needs_below: int
    critical_table: tuple          # ((upto, effect), ...)
    critical_conditions: tuple
    d100_critical_table: tuple     # ((sc_upto, grievous, critical), ...)
    fumble: str
    fumble_table: tuple            # ((upto, effect, dc), ...)
    over_20_reduces_damage: bool
    min_damage: int
    subdual_fraction: Fraction


_DIE_RULES: dict = {}


def die_rules(ruleset) -> DieRules:
    """The ruleset's DieRules, built once per ruleset (asked for every Breakdown)."""
    got = _DIE_RULES.get(id(ruleset))
    if got is None or got[0] is not ruleset:
        a = ruleset.section("attack")
        rules = DieRules(
            resolution=a["resolution"], natural_miss=a["natural_miss"], natural_hit=a["natural_hit"],
            auto_miss_from=a["auto_miss_from"], auto_hit=a["auto_hit"], auto_critical=a["auto_critical"],
            auto_grievous=a["auto_grievous"], critical=a["critical"], critical_needs_below=a["critical_needs_below"],
            critical_table=tuple((r["upto"], r["effect"]) for r in ruleset.data["critical_table"]),
            critical_conditions=tuple(a["critical_conditions"]),
            d100_critical_table=tuple((r["sc_upto"], r["grievous"], r["critical"]) for r in a["d100_critical_table"]),
            fumble=a["fumble"],
            fumble_table=tuple((r["upto"], r["effect"], r["dc"]) for r in ruleset.data["fumble_table"]),
            over_20_reduces_damage=a["over_20_reduces_damage"], min_damage=a["min_damage"],
            subdual_fraction=Fraction(ruleset.section("damage")["subdual_fraction"]))
        if len(_DIE_RULES) > 64:
            _DIE_RULES.clear()
        got = _DIE_RULES[id(ruleset)] = (ruleset, rules)
    return got[1]


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


# ----- one face at a time: the functions the roll calls -----
@dataclass(frozen=True)
class Face:
    """What one face of the attack die means."""
    hit: bool
    words: str            # "hit", "miss", "natural 20: always a hit", "07: always a critical hit", ...
    natural: str = ""     # d20: "miss" (a fumble may follow) or "hit" (a critical may follow)
    critical: str = ""    # d100: "critical" or "grievous" read off the face itself
    automatic: bool = False


def d20_face(bd, nat: int) -> Face:
    """The kept d20 face `nat` against this breakdown."""
    die = bd.die
    if bd.auto_hit:
        return Face(True, f"hits automatically ({bd.auto_hit})", automatic=True)
    if die.natural_miss and nat <= die.natural_miss:
        return Face(False, f"natural {nat}: always a miss", natural="miss", automatic=True)
    if die.natural_hit and nat >= die.natural_hit:
        return Face(True, f"natural {nat}: always a hit", natural="hit", automatic=True)
    hit = nat + bd.attack_total >= bd.defense_total
    return Face(hit, "hit" if hit else "miss")


def d100_ranges(die: DieRules, modified_sc: int) -> tuple[int, int]:
    """(grievous up to, critical up to) for a modified strike chance, from the ruleset's table."""
    for sc_upto, grievous, critical in die.d100_critical_table:
        if modified_sc <= sc_upto:
            return grievous, critical
    return 0, 0


def d100_face(bd, value: int, ranges: tuple[int, int] | None = None) -> Face:
    """The d100 roll `value` against this breakdown (at or under the modified SC hits). `ranges`:
    d100_ranges for its strike chance, when the caller has them already."""
    die = bd.die
    target = bd.target_number
    if bd.auto_hit:
        face = Face(True, f"hits automatically ({bd.auto_hit})", automatic=True)
    elif die.auto_miss_from and value >= die.auto_miss_from:
        return Face(False, f"{value:02d}: always a miss", automatic=True)
    elif die.auto_grievous and value == die.auto_grievous:
        return Face(True, f"{value:02d}: always a potential grievous hit", critical="grievous", automatic=True)
    elif die.auto_critical and value == die.auto_critical:
        face = Face(True, f"{value:02d}: always a critical hit", critical="critical", automatic=True)
    elif die.auto_hit and value == die.auto_hit:
        face = Face(True, f"{value:02d}: always a hit", automatic=True)
    else:
        face = Face(value <= target, "hit" if value <= target else "miss")
    if not face.hit:
        return face
    grievous, critical = ranges or d100_ranges(die, target)
    if value <= grievous:
        return Face(True, f"grievous hit (<= {grievous} at modified SC {target})", critical="grievous")
    if value <= critical and not face.critical:
        return Face(True, f"critical hit (<= {critical} at modified SC {target})", critical="critical")
    return face


def critical_possible(bd) -> bool:
    """d20: whether a natural hit may be a critical at all (none when only a natural could hit)."""
    return bd.die.critical != "none" and bd.needed_on_die < bd.die.critical_needs_below


def confirms(bd, face: int) -> bool:
    """bfrpg-style confirmation: the second d20 plus the attack's bonuses reaches the defence."""
    return face + bd.attack_total >= bd.defense_total


def table_effect(bd, value: int) -> str:
    """ch17's critical chart: the row a d20 + the ability modifier reads."""
    for upto, effect in bd.die.critical_table:
        if value <= upto:
            return effect
    return ""


def fumble_effect(bd, face: int) -> tuple[str, int]:
    """(effect, DEX check DC or 0) of the fumble a natural miss's check die `face` reads ("" none)."""
    die = bd.die
    if die.fumble == "level-check":
        return ("lose-next-attack", 0) if face > bd.attacker_level else ("", 0)
    if die.fumble == "table":
        for upto, effect, dc in die.fumble_table:
            if face <= upto:
                return effect, dc
    return "", 0


def save_passes(bd, face: int, dc: int) -> bool:
    """The fumbler's DEX check against a fumble row's DC."""
    return face + bd.attacker_dex >= dc


def parry_beats(terms: ParryTerms, face: int, attack_roll: int) -> bool:
    return face + terms.roll_add > attack_roll


def block_beats(terms: ParryTerms, face: int, damage: int) -> bool:
    return face + terms.block_add > damage


def hit_damage(bd, critical: str, dice_total: int, extra_total: int = 0, splash_total: int = 0) -> tuple[int, list[str], bool]:
    """(damage, how it was made up in words, whether PROT is ignored) of a hit: its dice rolled to
    `dice_total` (and the extra dice of a confirmed or doubling critical to `extra_total`, a direct hit's
    splash dice to `splash_total`)."""
    dice = parse_dice(bd.damage)
    adds = sum(m.value for m in bd.damage_mods)
    parts: list[str] = []
    if bd.auto_hit == "helpless":
        amount = 2 * (dice.maximum + adds)
        parts.append(f"double the maximum of {dice.text}{adds:+d}" if adds else f"double the maximum of {dice.text}")
        return _finish(bd, amount, parts, skip_multipliers=True), parts, False
    amount = dice_total
    parts.append(f"{dice.text} {dice_total}")
    ignore_prot = False
    if bd.resolution == "d100":
        amount += adds + splash_total
        parts += [f"{m.value:+d} {m.name}" for m in bd.damage_mods]
        if bd.splash:
            parts.append(f"+{splash_total} splash ({bd.splash}, hit directly: no save)")
        if critical:
            amount *= 2
            parts.append("x2 " + critical)
            ignore_prot = True
        amount = _finish(bd, amount, parts)
        if ignore_prot:
            parts.append(f"no PROT on a {critical} hit")
        elif bd.soak:
            amount = max(0, amount - bd.soak)
            parts.append(f"-{bd.soak} PROT")
        return amount, parts, ignore_prot
    kind = bd.die.critical
    if critical == "confirmed":
        amount += dice.dice_only.maximum
        parts.append(f"+{dice.dice_only.maximum} critical (maximum die)")
        amount += extra_total
        parts.append(f"+{extra_total} critical roll")
    elif kind == "odnd" and critical == "critical":
        amount += extra_total
        parts.append(f"+{extra_total} critical (damage dice doubled)")
    elif critical == "maximum":
        amount = dice.maximum
        parts[:] = [f"maximum {dice.text} = {dice.maximum}"]
    elif critical in ("critical", "critical-condition"):
        amount = dice_total + dice.maximum
        parts.append(f"+{dice.maximum} critical damage (maximum)")
    amount += adds
    parts += [f"{m.value:+d} {m.name}" for m in bd.damage_mods]
    if bd.splash:
        amount += splash_total
        parts.append(f"+{splash_total} splash ({bd.splash}, hit directly: no save)")
    amount = _finish(bd, amount, parts)
    if bd.die.over_20_reduces_damage and bd.needed_on_die > 20:
        excess = bd.needed_on_die - 20
        amount = max(0, amount - excess)
        parts.append(f"-{excess} (needed {bd.needed_on_die} on the die)")
    return amount, parts, False


def extra_dice_rolled(bd, critical: str) -> bool:
    """Whether a critical of this kind rolls the damage dice a second time."""
    return critical == "confirmed" or (bd.die.critical == "odnd" and critical == "critical")


def _finish(bd, amount: int, parts: list, skip_multipliers: bool = False) -> int:
    if not skip_multipliers:
        for m in bd.damage_multipliers:
            if m.value > 1:
                amount *= m.value
                parts.append(f"x{m.value} {m.name}")
    if bd.flat_of_blade:
        fraction = bd.die.subdual_fraction
        if fraction != 1:
            amount = math.floor(amount * fraction)
            parts.append(f"x{fraction} subdual")
    return max(bd.die.min_damage, amount)


# ----- every face at once: the odds -----
@dataclass(frozen=True)
class AttackOdds:
    """The distribution of one attack as the roll makes it.

    `p_hit` counts every hit (the die's automatic results, criticals, parried blows included);
    `damage` is (damage, probability) given a hit, 0 for a blow a parry absorbed; `outcomes`
    names every way the attack can end with its chance ("miss", "hit", "critical", "maximum",
    "grievous", "parried", "fumble: weapon breaks", ...)."""
    p_hit: float
    p_critical: float
    p_parried: float
    p_fumble: float
    damage: tuple
    outcomes: tuple
    always_hit_faces: tuple = ()
    always_miss_faces: tuple = ()

    @property
    def mean_damage(self) -> float:
        """Mean damage of a hit."""
        return sum(v * q for v, q in self.damage)

    @property
    def expected_damage(self) -> float:
        """Mean damage of the attack (misses count 0)."""
        return self.p_hit * self.mean_damage

    def to_json(self) -> dict:
        return {"hit": round(self.p_hit, 4), "miss": round(1 - self.p_hit, 4), "critical": round(self.p_critical, 4),
                "parried": round(self.p_parried, 4), "fumble": round(self.p_fumble, 4),
                "mean_damage": round(self.mean_damage, 3), "expected_damage": round(self.expected_damage, 3),
                "damage": [[v, round(q, 4)] for v, q in self.damage],
                "outcomes": {name: round(q, 4) for name, q in self.outcomes},
                "always_hit_faces": list(self.always_hit_faces), "always_miss_faces": list(self.always_miss_faces)}


def kept_faces(advantage: int) -> tuple:
    """(kept d20 face, probability): one die, or the better (advantage) or worse of two."""
    return _kept_faces(max(-1, min(1, advantage)))


@lru_cache(maxsize=4)
def _kept_faces(advantage: int) -> tuple:
    if advantage > 0:
        return tuple((f, (2 * f - 1) / 400) for f in range(1, 21))
    if advantage < 0:
        return tuple((f, (41 - 2 * f) / 400) for f in range(1, 21))
    return tuple((f, 1 / 20) for f in range(1, 21))


def odds_key(bd) -> tuple:
    """Everything of a Breakdown the roll's outcome depends on (the odds are cached by it)."""
    return (bd.resolution, bd.attack_total, bd.defense_total, bd.auto_hit, bd.advantage, bd.die, bd.damage,
            tuple([m.value for m in bd.damage_mods]), tuple([m.value for m in bd.damage_multipliers]), bd.subdue,
            bd.flat_of_blade, bd.splash, bd.parry, bd.soak, bd.critical_mod, bd.attacker_level, bd.attacker_dex)


_ODDS: dict = {}


def attack_odds(bd) -> AttackOdds:
    """The odds of the attack this breakdown describes, face by face (the roll's own functions),
    kept by what they depend on (the AI asks the same odds for many squares)."""
    key = odds_key(bd)
    got = _ODDS.get(key)
    if got is None:
        if len(_ODDS) > 8192:
            _ODDS.clear()
        got = _ODDS[key] = _attack_odds(bd)
    return got


def _attack_odds(bd) -> AttackOdds:
    if bd.resolution == "d100":
        ranges = d100_ranges(bd.die, bd.target_number)
        faces = [(v, 0.01, d100_face(bd, v, ranges)) for v in range(1, 101)]
    else:
        faces = [(f, q, d20_face(bd, f)) for f, q in kept_faces(bd.advantage)]
    outcomes: dict = {}
    p_hit = p_crit = p_fumble = 0.0
    # The faces that hit, gathered by what decides their damage: the critical kind, and (a parrying
    # target) the chance the parry beats this face's roll. Each group's damage is added once.
    weights: dict = {}
    for face, q, meaning in faces:
        if not meaning.hit:
            outcomes["miss"] = outcomes.get("miss", 0.0) + q
            if meaning.natural == "miss":
                for effect, p in _fumbles(bd):
                    name = f"fumble: {effect.replace('-', ' ')}"
                    outcomes[name] = outcomes.get(name, 0.0) + q * p
                    p_fumble += q * p
            continue
        p_hit += q
        if bd.resolution == "d100":
            kinds = ((meaning.critical, 1.0),)
        elif meaning.natural == "hit" and critical_possible(bd):
            kinds = _d20_criticals(bd)
        else:
            kinds = (("", 1.0),)
        parry_p = _parry_chance(bd.parry, face + bd.attack_total) if bd.parry is not None else 0.0
        for kind, pk in kinds:
            w = q * pk
            if kind and kind != "regular":
                p_crit += w
            name = kind if kind and kind != "regular" else "hit"
            outcomes[name] = outcomes.get(name, 0.0) + w
            weights[(kind, parry_p)] = weights.get((kind, parry_p), 0.0) + w
    damage: dict = {}
    p_parried = 0.0
    for (kind, parry_p), w in weights.items():
        for v, pv in _damage_dist(bd, kind):
            absorbed = parry_p * _block_chance(bd.parry, v) if parry_p else 0.0
            damage[v] = damage.get(v, 0.0) + w * pv * (1 - absorbed)
            if absorbed:
                damage[0] = damage.get(0, 0.0) + w * pv * absorbed
                p_parried += w * pv * absorbed
    if p_parried:
        outcomes["parried"] = p_parried
    per_hit = tuple(sorted((v, p / p_hit) for v, p in damage.items() if p > 0)) if p_hit else ()
    always_hit = tuple(f for f, _q, m in faces if m.hit and m.automatic and not bd.auto_hit)
    always_miss = tuple(f for f, _q, m in faces if not m.hit and m.automatic)
    return AttackOdds(p_hit, p_crit, p_parried, p_fumble, per_hit,
                      tuple(sorted(outcomes.items(), key=lambda kv: -kv[1])), always_hit, always_miss)


def near_miss_chance(bd, margin: int) -> float:
    """d20: the chance the attack misses its target's defence by less than `margin` (1 to margin-1
    short): what a missile into a melee needs to strike a friend instead (the roll's `margin`)."""
    if bd.resolution == "d100" or bd.auto_hit:
        return 0.0
    return sum(q for f, q in kept_faces(bd.advantage)
               if not d20_face(bd, f).hit and 0 < bd.defense_total - (f + bd.attack_total) < margin)


def _d20_criticals(bd) -> tuple:
    """(critical kind, chance) after a natural hit, by the further die the ruleset rolls."""
    kind = bd.die.critical
    if kind == "confirm":
        p = sum(1 for f in range(1, 21) if confirms(bd, f)) / 20
        return tuple(x for x in (("confirmed", p), ("", 1 - p)) if x[1] > 0)
    if kind == "odnd":
        return (("critical", 1.0),)
    if kind == "table":
        counts: dict = {}
        for f in range(1, 21):
            effect = table_effect(bd, f + bd.critical_mod)
            counts[effect] = counts.get(effect, 0) + 1
        return tuple((effect, n / 20) for effect, n in counts.items())
    return (("", 1.0),)


def _fumbles(bd) -> tuple:
    """(fumble effect, chance) after a natural miss (effects a DEX check avoided, and plain misses, left out)."""
    die = bd.die
    if die.fumble not in ("level-check", "table"):
        return ()
    out: dict = {}
    for f in range(1, 21):
        effect, dc = fumble_effect(bd, f)
        if not effect or effect == "miss":
            continue
        share = sum(1 for g in range(1, 21) if not save_passes(bd, g, dc)) / 20 if dc else 1.0
        if share:
            out[effect] = out.get(effect, 0.0) + share / 20
    return tuple(out.items())


_DAMAGE: dict = {}


def _damage_dist(bd, critical: str) -> tuple:
    """(damage, chance) of one hit with this critical kind, before any parry (kept by what it
    depends on: many attacks differ only in their to-hit numbers)."""
    excess = bd.needed_on_die - 20 if bd.die.over_20_reduces_damage and bd.resolution == "d20" else 0
    key = (bd.die, bd.damage, tuple(m.value for m in bd.damage_mods), tuple(m.value for m in bd.damage_multipliers),
           bd.flat_of_blade, bd.splash, bd.auto_hit, bd.soak, bd.resolution, critical, max(0, excess))
    got = _DAMAGE.get(key)
    if got is None:
        if len(_DAMAGE) > 4096:
            _DAMAGE.clear()
        got = _DAMAGE[key] = _damage_totals(bd, critical)
    return got


def _damage_totals(bd, critical: str) -> tuple:
    dice = parse_dice(bd.damage)
    totals = dice.totals() if dice.count else ((dice.bonus, 1.0),)
    extras = dice.dice_only.totals() if extra_dice_rolled(bd, critical) and dice.count else ((0, 1.0),)
    splashes = parse_dice(bd.splash).totals() if bd.splash else ((0, 1.0),)
    out: dict = {}
    for total, p in totals:
        for extra, pe in extras:
            for splashed, ps in splashes:
                amount = hit_damage(bd, critical, total, extra, splashed)[0]
                out[amount] = out.get(amount, 0.0) + p * pe * ps
    return tuple(sorted(out.items()))


def _parry_chance(terms: ParryTerms, attack_roll: int) -> float:
    return sum(1 for g in range(1, 21) if parry_beats(terms, g, attack_roll)) / 20


def _block_chance(terms: ParryTerms, damage: int) -> float:
    return sum(1 for b in range(1, terms.block_die + 1) if block_beats(terms, b, damage)) / terms.block_die


__all__ = ["AttackOdds", "DieRules", "Face", "ParryTerms", "attack_odds", "block_beats", "confirms",
           "critical_possible", "d100_face", "d100_ranges", "d20_face", "die_rules", "extra_dice_rolled",
           "fumble_effect", "hit_damage", "kept_faces", "near_miss_chance", "parry_beats", "save_passes", "table_effect"]
