"""What an attack is likely to do, read off the resolver's Breakdown (the one the roll uses).

`Odds.of(battle, breakdown)` turns a Breakdown into the numbers the AI weighs: the chance to
hit (Breakdown.chance() with the automatic results of the die: natural misses and hits, or the
d100 ends), the damage a hit does (its dice, adds and multipliers, at least the ruleset's
minimum; on d100, less the target's PROT, or doubled through it on a critical hit, whose share is
the ruleset's table for that strike chance; a melee hit on a figure that parries absorbed as
often as its parry, `core.combat.attack.parry_terms`, beats the roll and then the damage), the
expected damage capped at the target's hit points and the chance to fell it. It decides no rule:
every number comes from the Breakdown or from the ruleset's [attack] data that the roll reads too.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..core.combat.attack import d100_ranges, parry_terms
from ..core.combat.breakdown import Breakdown
from ..core.combat.dice import parse_dice


@lru_cache(maxsize=4096)
def _sums(count: int, sides: int) -> tuple[tuple[int, float], ...]:
    """(total, probability) of count dice of `sides` faces."""
    dist = {0: 1.0}
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / sides
        dist = nxt
    return tuple(sorted(dist.items()))


@lru_cache(maxsize=8192)
def damage_distribution(dice_text: str, add: int, multiplier: int, minimum: int, soak: int,
                        doubled_maximum: bool) -> tuple[tuple[int, float], ...]:
    """(damage, probability) of one hit: ((dice + add) x multiplier) at least `minimum`, less `soak`."""
    dice = parse_dice(dice_text)
    if doubled_maximum:
        return ((max(0, 2 * (dice.maximum + add) - soak), 1.0),)
    out: dict[int, float] = {}
    for total, p in _sums(dice.count, dice.sides) if dice.count else ((0, 1.0),):
        amount = max(minimum, (total + dice.bonus + add) * multiplier)
        amount = max(0, amount - soak)
        out[amount] = out.get(amount, 0.0) + p
    return tuple(sorted(out.items()))


@lru_cache(maxsize=64)
def d20_faces(advantage: int) -> tuple[tuple[int, float], ...]:
    """(kept d20 face, probability): one die, or the better (advantage) or worse of two."""
    if advantage > 0:
        return tuple((f, (2 * f - 1) / 400) for f in range(1, 21))
    if advantage < 0:
        return tuple((f, (41 - 2 * f) / 400) for f in range(1, 21))
    return tuple((f, 1 / 20) for f in range(1, 21))


def _d20_hits(face: int, needed: int, attack_rules: tuple) -> bool:
    natural_miss, natural_hit = attack_rules[:2]
    if natural_miss and face <= natural_miss:
        return False
    return bool((natural_hit and face >= natural_hit) or face >= needed)


@lru_cache(maxsize=4096)
def _hit_chance(resolution: str, needed: int, auto_hit: bool, attack_rules: tuple, advantage: int = 0) -> float:
    """The chance to hit, face by face, with the die's automatic results (and d20 advantage)."""
    if auto_hit:
        return 1.0
    if resolution == "d100":
        auto_miss_from, auto_hit_face, auto_critical, auto_grievous = attack_rules[2:]
        hits = 0
        for face in range(1, 101):
            if auto_miss_from and face >= auto_miss_from:
                continue
            if face in (auto_hit_face, auto_critical, auto_grievous) and face:
                hits += 1
            elif face <= needed:
                hits += 1
        return hits / 100
    return sum(q for face, q in d20_faces(advantage) if _d20_hits(face, needed, attack_rules))


@lru_cache(maxsize=4096)
def _d100_critical_share(needed: int, critical_upto: int, attack_rules: tuple) -> float:
    """Of the d100 faces that hit, the share that hit critically (or grievously)."""
    auto_miss_from, auto_hit_face, auto_critical, auto_grievous = attack_rules[2:]
    hits = crits = 0
    for face in range(1, 101):
        if auto_miss_from and face >= auto_miss_from:
            continue
        special = face and face in (auto_critical, auto_grievous)
        if not (special or face == auto_hit_face or face <= needed):
            continue
        hits += 1
        if special or face <= critical_upto:
            crits += 1
    return crits / hits if hits else 0.0


@lru_cache(maxsize=4096)
def _parried(damage: tuple, needed: int, attack_total: int, advantage: int, attack_rules: tuple, roll_add: int,
             block_die: int, block_add: int) -> tuple[tuple[int, float], ...]:
    """(damage, probability) of one hit on a figure that parries (core.combat.attack.parry_terms):
    its d20 + roll_add must beat the attack roll (the die face that hit + attack_total), then
    d(block_die) + block_add must beat the damage for the blow to be absorbed (0 damage)."""
    hits = [(face, q) for face, q in d20_faces(advantage) if _d20_hits(face, needed, attack_rules)]
    weight = sum(q for _f, q in hits)
    if not weight:
        return damage
    # The parry beats the roll: d20 + roll_add > face + attack_total.
    parries = sum(q * sum(1 for g in range(1, 21) if g + roll_add > face + attack_total) / 20
                  for face, q in hits) / weight
    out: dict[int, float] = {}
    for v, q in damage:
        absorbed = parries * sum(1 for b in range(1, block_die + 1) if b + block_add > v) / block_die
        out[v] = out.get(v, 0.0) + q * (1 - absorbed)
        out[0] = out.get(0, 0.0) + q * absorbed
    return tuple(sorted((v, q) for v, q in out.items() if q > 0))


_ATTACK_RULES: dict = {}


@lru_cache(maxsize=8192)
def _capped_mean(damage: tuple, hp: float) -> float:
    """Mean damage of one hit capped at hp (best_odds and the scores ask it again for the same odds)."""
    return sum(min(v, hp) * q for v, q in damage)


@lru_cache(maxsize=4096)
def _mixed(plain: tuple, doubled: tuple, crit: float) -> tuple[tuple[int, float], ...]:
    """(damage, probability) of a d100 hit: plain with 1 - crit, doubled with crit."""
    mixed: dict[int, float] = {}
    for dist, share in ((plain, 1 - crit), (doubled, crit)):
        for v, q in dist:
            mixed[v] = mixed.get(v, 0.0) + q * share
    return tuple(sorted((v, q) for v, q in mixed.items() if q > 0))


def attack_rules(ruleset) -> tuple:
    """The die's automatic results of a ruleset's [attack], kept per ruleset (read for every Odds)."""
    got = _ATTACK_RULES.get(id(ruleset))
    if got is None or got[0] is not ruleset:
        a = ruleset.section("attack")
        if len(_ATTACK_RULES) > 64:
            _ATTACK_RULES.clear()
        got = _ATTACK_RULES[id(ruleset)] = (ruleset, (a["natural_miss"], a["natural_hit"], a["auto_miss_from"],
                                                      a["auto_hit"], a["auto_critical"], a["auto_grievous"]))
    return got[1]


@dataclass(frozen=True)
class Odds:
    breakdown: Breakdown
    p_hit: float                               # one attack, automatic results included
    damage: tuple[tuple[int, float], ...]      # (damage, probability) of one hit
    attacks: int = 1

    @classmethod
    def of(cls, battle, bd: Breakdown, attacks: int = 1) -> "Odds":
        rs = battle.ruleset
        rules = attack_rules(rs)
        needed = bd.target_number if bd.resolution == "d100" else bd.needed_on_die
        p = _hit_chance(bd.resolution, needed, bool(bd.auto_hit), rules, bd.advantage) if bd.allowed else 0.0
        adds, minimum = sum(m.value for m in bd.damage_mods), rs.section("attack")["min_damage"]
        if bd.resolution != "d100":
            dist = damage_distribution(bd.damage, adds, bd.damage_multiplier, minimum, 0, bd.auto_hit == "helpless")
            if bd.kind == "melee" and p and battle.state_of(bd.target).defense:
                terms, _why = parry_terms(battle, bd.target)
                if terms is not None:
                    dist = _parried(dist, bd.needed_on_die, bd.attack_total, bd.advantage, rules, terms.roll_add,
                                    terms.block_die, terms.block_add)
            return cls(bd, p, dist, max(1, attacks))
        # d100: PROT soaks an ordinary hit (it is the target's, not in the Breakdown yet); a critical
        # or grievous hit (the ruleset's table for this strike chance) does double and ignores it.
        soak = max(0, battle.profile(bd.target)["prot"] - battle.state_of(bd.target).prot_lost)
        crit = _d100_critical_share(needed, d100_ranges(rs, needed)[1], rules) if p else 0.0
        plain = damage_distribution(bd.damage, adds, bd.damage_multiplier, minimum, soak, False)
        doubled = damage_distribution(bd.damage, adds, bd.damage_multiplier * 2, minimum, 0, False)
        return cls(bd, p, _mixed(plain, doubled, crit), max(1, attacks))

    @property
    def allowed(self) -> bool:
        return self.breakdown.allowed

    def p_miss_by_less_than(self, margin: int, rules: tuple) -> float:
        """d20: the chance one attack misses its target's defence by less than `margin` (1 to
        margin-1 short), the die's automatic results and advantage counted as the roll counts them."""
        bd = self.breakdown
        if not bd.allowed or bd.auto_hit or bd.resolution == "d100":
            return 0.0
        needed = bd.needed_on_die
        return sum(q for face, q in d20_faces(bd.advantage)
                   if not _d20_hits(face, needed, rules) and 0 < needed - face < margin)

    @property
    def mean_damage(self) -> float:
        return sum(v * q for v, q in self.damage)

    def expected(self, hp: float) -> float:
        """Expected hit points taken from a target with `hp` left, over all the attacks."""
        return min(hp, self.p_hit * _capped_mean(self.damage, hp) * self.attacks)

    def p_kill(self, hp: float) -> float:
        """Chance that one of the attacks alone brings the target to 0 hit points."""
        one = self.p_hit * sum(q for v, q in self.damage if v >= hp)
        return 1 - (1 - one) ** self.attacks

    def modifiers(self) -> list[tuple[str, str, int]]:
        """(key, name, value on the roll) of every situational modifier; defense ones count against it."""
        bd = self.breakdown
        out = [(m.key, m.name, m.value) for m in bd.attack_mods if m.value and m.key != "ability"]
        out += [(m.key, f"target {m.name}", -m.value) for m in bd.defense_mods if m.value]
        return out


def kill_chance(hp: float, attacks: list[Odds]) -> float:
    """Chance that these attacks together bring a target with `hp` left to 0 (totals capped at hp)."""
    need = max(1, int(-(-hp // 1)))
    return _kill_chance(need, tuple([(odds.p_hit, odds.damage, odds.attacks) for odds in attacks]))


@lru_cache(maxsize=4096)
def _kill_chance(need: int, attacks: tuple) -> float:
    """kill_chance of (p_hit, damage, attacks) triples (asked again for every plan at the same foe)."""
    dist = {0: 1.0}
    for p_hit, damage, count in attacks:
        for _ in range(count):
            nxt: dict[int, float] = {}
            for total, p in dist.items():
                if total >= need:
                    nxt[total] = nxt.get(total, 0.0) + p
                    continue
                nxt[total] = nxt.get(total, 0.0) + p * (1 - p_hit)
                for dmg, q in damage:
                    t = min(need, total + dmg)
                    nxt[t] = nxt.get(t, 0.0) + p * p_hit * q
            dist = nxt
    return dist.get(need, 0.0)


__all__ = ["Odds", "damage_distribution", "attack_rules", "kill_chance"]
