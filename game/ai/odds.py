"""What an attack is worth to the AI, read off the resolver's odds (the ones the roll draws from).

`Odds.of(battle, breakdown, attacks)` takes the Breakdown's outcome distribution
(`Breakdown.odds()`, worked out face by face by core.combat.odds: automatic results, criticals,
over-20 reduction, subdual, PROT and parries included) and adds what only the AI asks: several
attacks a round, damage capped at the target's hit points, the chance to fell it. It decides no
rule and keeps no dice model of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..core.battle import Breakdown


@dataclass(frozen=True)
class Odds:
    breakdown: Breakdown
    p_hit: float                               # one attack, automatic results included
    damage: tuple[tuple[int, float], ...]      # (damage, probability) of one hit
    attacks: int = 1

    @classmethod
    def of(cls, battle, bd: Breakdown, attacks: int = 1) -> "Odds":
        """`attacks`: how many the attacker makes (0 when a move it made this round leaves it none)."""
        odds = bd.odds()
        return cls(bd, odds.p_hit if bd.allowed and attacks > 0 else 0.0, odds.damage, max(0, attacks))

    @property
    def allowed(self) -> bool:
        return self.breakdown.allowed and self.attacks > 0

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


@lru_cache(maxsize=8192)
def _capped_mean(damage: tuple, hp: float) -> float:
    """Mean damage of one hit capped at hp (best_odds and the scores ask it again for the same odds)."""
    return sum(min(v, hp) * q for v, q in damage)


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


__all__ = ["Odds", "kill_chance"]
