"""What an attack would be, as a value: every modifier with its value and source, the defense it
is rolled against, the damage, the die's rules and the target's parry or PROT, and whether it can
be made at all (and if not, why).

The resolver's roll, the window's tooltip, the AI's odds and the CLI's `explain` all read this one
value (built by modifiers.attack_breakdown), so they can never disagree: `odds()` is the outcome
distribution worked out face by face by the same functions the roll calls (combat.odds).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..values.numbers import percent, plain_number
from ..values.refusals import Refusal
from .odds import AttackOdds, DieRules, ParryTerms, attack_odds


@dataclass(frozen=True)
class AttackContext:
    """What kind of attack this is, beyond who strikes whom."""
    weapon: str | None = None
    parting_shot: bool = False
    charge: bool = False
    set_vs_charge: bool = False
    subdue: bool = False
    careful: bool = False          # a shooter taking the penalty so as never to hit friends
    free_attack: bool = False      # does not use up an attack
    surprise_round: bool = False


@dataclass(frozen=True)
class Breakdown:
    """An attack's numbers before the roll: attack and defence, each modifier with its source, the damage."""

    attacker: str
    target: str
    weapon: str
    kind: str                      # "melee" or "ranged"
    resolution: str                # "d20" or "d100"
    base_attack: int
    attack_name: str               # "AB" or "SC"
    attack_mods: tuple = ()
    base_defense: int = 0
    defense_name: str = "AC"
    defense_mods: tuple = ()
    distance_ft: float = 0.0
    range_band: str = ""
    damage: str = "1d6"
    damage_mods: tuple = ()
    damage_multipliers: tuple = ()   # Modifier(name, factor, source)
    splash: str = ""                # dice a direct hit adds, no save (ch17 Oil: the one hit takes the splash too)
    subdue: bool = False
    flat_of_blade: bool = False     # a weapon used to subdue (not a fist): the ruleset's subdual fraction of the damage
    real_every: int = 0             # of subdual damage, one point in this many is real (0: none)
    auto_hit: str = ""              # e.g. "helpless": melee on a helpless foe always hits
    friends_in_melee: tuple = ()    # ids of the attacker's friends fighting the target
    advantage: int = 0              # d20: +1 rolls two dice and keeps the better, -1 keeps the worse
    rule: str = ""
    notes: tuple = ()
    refusals: tuple[Refusal, ...] = ()   # why it cannot be made from where they stand (empty: it can)
    # What the roll reads besides the modifiers: the ruleset's die rules, the target's next parry
    # (melee on a defending figure) or PROT left (d100), the attacker's numbers for a critical table
    # row (ability modifier), a fumble check (level) and a fumble's DEX check.
    die: DieRules | None = None
    parry: ParryTerms | None = None
    soak: int = 0
    critical_mod: int = 0
    attacker_level: int = 1
    attacker_dex: int = 0

    @property
    def allowed(self) -> bool:
        return not self.refusals

    @property
    def reason(self) -> str:
        """Why not, in a player's words ("" when allowed)."""
        return "; ".join(r.words for r in self.refusals)

    @property
    def attack_total(self) -> int:
        return self.base_attack + sum(m.value for m in self.attack_mods)

    @property
    def defense_total(self) -> int:
        return self.base_defense + sum(m.value for m in self.defense_mods)


    @property
    def target_number(self) -> int:
        """d20: the AC to reach. d100: the highest roll that hits (modified SC)."""
        if self.resolution == "d100":
            return self.attack_total - self.defense_total
        return self.defense_total

    @property
    def needed_on_die(self) -> int:
        """The die roll needed (d20: at least this; d100: at most this)."""
        if self.resolution == "d100":
            return self.target_number
        return self.defense_total - self.attack_total

    @property
    def damage_multiplier(self) -> int:
        factor = 1
        for m in self.damage_multipliers:
            factor *= m.value
        return factor

    def odds(self) -> AttackOdds:
        """The attack's outcome distribution, as the roll makes it (combat.odds); worked out once."""
        got = self.__dict__.get("_odds")
        if got is None:
            got = self.__dict__["_odds"] = attack_odds(self)
        return got

    def chance(self) -> float:
        """Chance to hit, 0..1, with every automatic result of the die (natural hits and misses,
        d100 ends, hits on the helpless) and advantage: the chance the roll hits."""
        return self.odds().p_hit

    def to_json(self) -> dict:
        return {
            "attacker": self.attacker, "target": self.target, "weapon": self.weapon, "kind": self.kind,
            "resolution": self.resolution, "allowed": self.allowed, "reason": self.reason,
            "refusals": [r.to_json() for r in self.refusals],
            "base_attack": {"name": self.attack_name, "value": self.base_attack},
            "attack_modifiers": [m.to_json() for m in self.attack_mods],
            "attack_total": self.attack_total,
            "base_defense": {"name": self.defense_name, "value": self.base_defense},
            "defense_modifiers": [m.to_json() for m in self.defense_mods],
            "defense_total": self.defense_total, "target_number": self.target_number,
            "needed_on_die": self.needed_on_die, "chance": round(self.chance(), 3),
            "distance_ft": plain_number(self.distance_ft), "range_band": self.range_band,
            "damage": self.damage, "damage_modifiers": [m.to_json() for m in self.damage_mods],
            "damage_multipliers": [m.to_json() for m in self.damage_multipliers], "splash": self.splash,
            "subdue": self.subdue, "flat_of_blade": self.flat_of_blade, "auto_hit": self.auto_hit, "friends_in_melee": list(self.friends_in_melee),
            "advantage": self.advantage,
            "rule": self.rule, "notes": list(self.notes),
            "odds": self.odds().to_json(),
        }

    def lines(self) -> list[str]:
        """The breakdown in plain words, one line each, for the CLI and the log panel."""
        out = []
        if not self.allowed:
            out.append(f"not possible now: {self.reason}")
        out.append(f"{self.kind} attack with {self.weapon} at {plain_number(self.distance_ft)} ft"
                   + (f" ({self.range_band} range)" if self.range_band else "") + f" [{self.rule}]")
        out.append(f"  {self.attack_name} {self.base_attack}")
        for m in self.attack_mods:
            out.append(f"  {m.value:+d} {m.name} ({m.source})")
        out.append(f"  = {self.attack_total}")
        out.append(f"  against {self.defense_name} {self.base_defense}")
        for m in self.defense_mods:
            out.append(f"  {m.value:+d} {m.name} ({m.source})")
        out.append(f"  = {self.defense_name} {self.defense_total}")
        odds = self.odds()
        if self.resolution == "d100":
            out.append(f"  hits on d100 <= {self.target_number} ({self.attack_total} - {self.defense_total}); "
                       f"chance {percent(odds.p_hit)}{_automatic(odds, 'd100')}")
        else:
            two = {1: " (two d20, the better counts)", -1: " (two d20, the worse counts)"}.get(self.advantage, "")
            out.append(f"  hits on d20 >= {self.needed_on_die}{two}; chance {percent(odds.p_hit)}{_automatic(odds, 'd20')}")
        if odds.p_critical or odds.p_fumble or odds.p_parried:
            extras = [f"critical {percent(odds.p_critical)}" if odds.p_critical else "",
                      f"parried {percent(odds.p_parried)}" if odds.p_parried else "",
                      f"fumble {percent(odds.p_fumble)}" if odds.p_fumble else ""]
            out.append("  " + ", ".join(x for x in extras if x))
        if self.auto_hit:
            out.append(f"  hits automatically: the target is {self.auto_hit}")
        mult = "".join(f" x{m.value} {m.name} ({m.source})" for m in self.damage_multipliers)
        adds = "".join(f" {m.value:+d} {m.name} ({m.source})" for m in self.damage_mods)
        out.append(f"  damage {self.damage}{adds}{mult}" + (f" + {self.splash} splash" if self.splash else "")
                   + (" (subdual)" if self.subdue else "")
                   + (f"; a hit does {odds.mean_damage:.1f} on average" if odds.p_hit else ""))
        for note in self.notes:
            out.append(f"  note: {note}")
        return out


def _automatic(odds: AttackOdds, die: str) -> str:
    """Words for the faces that hit or miss whatever the numbers (natural 20s, d100 00...)."""
    parts = []
    if odds.always_hit_faces:
        parts.append(f"{die} {_faces(odds.always_hit_faces)} always hits")
    if odds.always_miss_faces:
        parts.append(f"{die} {_faces(odds.always_miss_faces)} always misses")
    return f" ({'; '.join(parts)})" if parts else ""


def _faces(faces: tuple) -> str:
    return f"{faces[0]}" if len(faces) == 1 else f"{faces[0]}-{faces[-1]}" if faces[-1] - faces[0] == len(faces) - 1 \
        else ", ".join(str(f) for f in faces)
