"""What an attack is likely to do, without rolling: the AI's model of the rules.

The resolver decides what happens; this module only predicts it so the AI can rank options,
including for squares a figure is not standing on yet (where Battle.explain_attack cannot be
asked). Every number comes from the ruleset data (the [modifiers], [attack], [cover_effects]
and [damage] tables), so a change to a ruleset file changes how the AI plays it. Where the
resolver can explain an attack from where the figures stand, the AI prefers its numbers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ..core.combat.dice import parse_dice
from ..core.figure import Figure
from ..core.geometry import bearing_octant, distance_ft, relative_arc
from ..core.cover import COVER_DEGREES
from . import compat

# Defaults for a figure whose numbers nobody gave (engine defaults of the stats schema).
try:
    from ..core.ruleset import COMBAT_STAT_FIELDS
    _STAT_DEFAULTS = {k: spec.default for k, spec in COMBAT_STAT_FIELDS.items()}
except ImportError:  # pragma: no cover - older rulesets module
    _STAT_DEFAULTS = {}
_STAT_DEFAULTS.setdefault("ac", 10)
_STAT_DEFAULTS.setdefault("attack_bonus", 0)
_STAT_DEFAULTS.setdefault("hit_dice", "1d8")


# ----- dice -----
@lru_cache(maxsize=4096)
def damage_distribution(dice_text: str, add: int = 0, multiplier: int = 1, bonus: int = 0,
                        minimum: int = 1) -> tuple[tuple[int, float], ...]:
    """(damage, probability) pairs for ((dice + add) * multiplier + bonus), at least `minimum`."""
    try:
        d = parse_dice(dice_text or "1d6")
    except ValueError:
        d = parse_dice("1d6")
    dist = {0: 1.0}
    for _ in range(d.count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, d.sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / d.sides
        dist = nxt
    out: dict[int, float] = {}
    for total, p in dist.items():
        dmg = max(minimum, (total + d.bonus + add) * multiplier + bonus)
        out[dmg] = out.get(dmg, 0.0) + p
    return tuple(sorted(out.items()))


def mean_of(dist) -> float:
    return sum(v * p for v, p in dist)


def p_at_least(dist, threshold: float) -> float:
    return sum(p for v, p in dist if v >= threshold)


def p_hit_d20(bonus: int, target: int, natural_miss: int = 1, natural_hit: int = 20) -> float:
    hits = 0
    for r in range(1, 21):
        if natural_miss and r <= natural_miss:
            continue
        if (natural_hit and r >= natural_hit) or r + bonus >= target:
            hits += 1
    return hits / 20


def p_hit_d100(chance: int, auto_miss_from: int = 0, auto_hit: int = 0) -> float:
    hits = 0
    for r in range(1, 101):
        if auto_hit and r == auto_hit:
            hits += 1
        elif auto_miss_from and r >= auto_miss_from:
            continue
        elif r <= chance:
            hits += 1
    return hits / 100


# ----- the numbers of one figure -----
def combat_stats(battle, figure: Figure) -> dict:
    """A figure's combat numbers: the resolver's profile when it has one, else template + stats."""
    ruleset = battle.ruleset
    out = dict(_STAT_DEFAULTS)
    template = getattr(figure, "template", "") or ""
    if template and hasattr(ruleset, "template_stats"):
        try:
            out.update(ruleset.template_stats(template))
        except Exception:
            pass
    prof = _resolver_profile(battle, figure)
    if prof:
        out.update(prof)
    for key, v in (figure.stats or {}).items():
        out[key] = v
    return out


def _resolver_profile(battle, figure) -> dict | None:
    for name in ("profile", "combat_profile"):
        fn = getattr(battle, name, None)
        if callable(fn):
            try:
                got = fn(figure.id)
            except Exception:
                continue
            if got is not None:
                return _as_dict(got)
    try:
        from ..core.combat import profile as prof_mod  # the resolver's own module, when it exists
    except ImportError:
        return None
    for name in ("profile_for", "profile", "combat_profile", "build_profile"):
        fn = getattr(prof_mod, name, None)
        if callable(fn):
            try:
                return _as_dict(fn(battle.ruleset, figure))
            except Exception:
                continue
    return None


def _as_dict(obj) -> dict:
    if isinstance(obj, dict):
        return dict(obj)
    if hasattr(obj, "__dataclass_fields__"):
        return {k: getattr(obj, k) for k in obj.__dataclass_fields__}
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")} if hasattr(obj, "__dict__") else {}


def _mod(stats: dict, ability: str) -> int:
    if ability == "str":
        return int(stats.get("str_mod", 0) or 0)
    if ability == "dex":
        return int(stats.get("dex_mod", 0) or 0)
    return 0


# ----- an estimate -----
@dataclass
class Estimate:
    possible: bool
    p_hit: float = 0.0
    dmg_mean: float = 0.0
    p_kill: float = 0.0
    expected: float = 0.0            # expected hp taken from the target (capped at its hp), all attacks
    mods: list = field(default_factory=list)     # (name, to-hit value): what the rules grant here
    friendly_fire: float = 0.0       # expected damage to own figures (missiles into a melee)
    weapon: str = ""
    ranged: bool = False
    reason: str = ""


class Model:
    """Per-decision model of the rules for one battle state. Caches what it computes."""

    def __init__(self, battle):
        self.battle = battle
        self.ruleset = battle.ruleset
        self.map = battle.map
        rs = self.ruleset
        self.diag = rs.diagonal
        self.att = rs.section("attack") if "attack" in rs.data else {}
        self.mods = rs.section("modifiers") if "modifiers" in rs.data else {}
        self.cover_fx = rs.section("cover_effects") if "cover_effects" in rs.data else {}
        self.dmg_rules = rs.section("damage") if "damage" in rs.data else {}
        self.d100 = self.att.get("resolution") == "d100"
        self.positioning = battle.positioning()
        self.engagement = self.positioning.engagement
        self.sight_map = self.positioning.sight_map
        self._stats: dict[str, dict] = {}
        self._status: dict[str, compat.Status] = {}
        self._sight: dict = {}
        self.figures = dict(battle.figures)
        self.active = {fid: f for fid, f in self.figures.items() if self.status(fid).active}

    # ----- reading -----
    def stats(self, fig: Figure) -> dict:
        s = self._stats.get(fig.id)
        if s is None:
            s = self._stats[fig.id] = combat_stats(self.battle, fig)
        return s

    def status(self, fid: str) -> compat.Status:
        s = self._status.get(fid)
        if s is None:
            s = self._status[fid] = compat.status(self.battle, fid)
        return s

    def hp(self, fig: Figure) -> float:
        st = self.status(fig.id)
        if st.hp is not None:
            return max(st.hp, 0.5)
        stats = self.stats(fig)
        if stats.get("hp"):
            return float(stats["hp"])
        try:
            d = parse_dice(stats.get("hit_dice") or "1d8")
            return max(1.0, d.count * (d.sides + 1) / 2 + d.bonus)
        except ValueError:
            return 4.5

    def hp_max(self, fig: Figure) -> float:
        st = self.status(fig.id)
        if st.hp_max:
            return st.hp_max
        return self.hp(fig)

    def weapon(self, name: str) -> dict:
        # A weapon this ruleset does not know is fought with as a bare fist would be.
        return self.ruleset.weapon(name) or {"reach_ft": 5, "ranged": False, "damage": "1d2", "range_ft": [],
                                              "charge": False, "set": False, "unknown": True}

    def melee_weapon(self, fig: Figure) -> str | None:
        for w in fig.weapons:
            if not self.weapon(w).get("ranged"):
                return w
        return None

    def ranged_weapon(self, fig: Figure) -> str | None:
        for w in fig.weapons:
            spec = self.weapon(w)
            if spec.get("ranged") or (spec.get("thrown") and spec.get("range_ft")):
                return w
        return None

    def best_estimate(self, attacker: Figure, defender: Figure, **kw) -> Estimate:
        """The attack with whichever of its weapons does most (the ready one on ties)."""
        best = None
        for w in dict.fromkeys(attacker.weapons or ("fist",)):
            est = self.estimate(attacker, defender, weapon=w, **kw)
            if not est.possible:
                if best is None:
                    best = est
                continue
            if self.weapon(w).get("unknown"):
                est.expected *= 0.5
            if best is None or not best.possible or est.expected > best.expected + 1e-9:
                best = est
        return best

    def is_archer(self, fig: Figure) -> bool:
        return bool(self.weapon(fig.ready_weapon).get("ranged"))

    def reach_ft(self, fig: Figure, weapon: str | None = None) -> int:
        spec = self.weapon(weapon or fig.ready_weapon)
        return 5 if spec.get("ranged") else int(spec.get("reach_ft", 5) or 5)

    def height(self, pos, alt) -> float:
        return float(self.map.elevation_ft[pos[1], pos[0]]) + alt

    def dist(self, a_pos, a_alt, b_pos, b_alt) -> float:
        return distance_ft(self.diag, a_pos, b_pos, self.height(a_pos, a_alt), self.height(b_pos, b_alt))

    def sight(self, a_pos, a_alt, b_pos, b_alt, standing_key=None, standing=None):
        key = (a_pos, a_alt, b_pos, b_alt, standing_key)
        got = self._sight.get(key)
        if got is None:
            if standing is None:
                standing = {f.pos: f.altitude_ft for f in self.active.values()}
            got = self._sight[key] = self.sight_map.sight(a_pos, b_pos, a_alt, b_alt, standing)
        return got

    def threat_rate(self, fig: Figure) -> float:
        """About how much damage this figure deals a round against a typical foe (its worth as a target)."""
        stats = self.stats(fig)
        w = self.weapon(fig.ready_weapon)
        ability = self.dmg_rules.get("melee_ability", "str") if not w.get("ranged") else self.dmg_rules.get("propelled_ability", "none")
        dmg = mean_of(damage_distribution(w.get("damage", "1d6"), _mod(stats, ability)))
        attacks = max(1, int(stats.get("attacks", 1) or 1))
        if self.d100:
            p = max(0.05, min(0.95, (int(stats.get("sc", 50)) - 20) / 100))
        else:
            p = max(0.05, min(0.95, (21 + int(stats.get("attack_bonus", 0)) - 14) / 20))
        return p * dmg * attacks

    # ----- the attack estimate -----
    def estimate(self, attacker: Figure, defender: Figure, a_pos=None, a_alt=None, a_facing=None, *,
                 weapon: str | None = None, charge: bool = False, set_vs_charge: bool = False,
                 others: dict | None = None, check_reach: bool = True, after_move: bool = False,
                 extra_mods=None, defender_ac_bonus: int = 0, quick: bool = False) -> Estimate:
        """The attack of `attacker` standing at a_pos (default: where it is) on `defender`.

        `others` maps figure id -> Figure for the other figures where they would stand (default now).
        """
        a_pos = a_pos or attacker.pos
        a_alt = attacker.altitude_ft if a_alt is None else a_alt
        weapon = weapon or attacker.ready_weapon
        spec = self.weapon(weapon)
        ranged = bool(spec.get("ranged")) or (bool(spec.get("thrown")) and self.dist(a_pos, a_alt, defender.pos, defender.altitude_ft) > self.reach_ft(attacker, weapon))
        a_stats, d_stats = self.stats(attacker), self.stats(defender)
        others = others if others is not None else self.active
        mods: list[tuple[str, int]] = []
        gap = self.dist(a_pos, a_alt, defender.pos, defender.altitude_ft)
        if ranged:
            bands = list(spec.get("range_ft") or [])
            if bands and gap > bands[-1]:
                return Estimate(False, reason=f"out of range ({gap:g} ft > {bands[-1]} ft)", weapon=weapon, ranged=True)
            seen = self.sight(a_pos, a_alt, defender.pos, defender.altitude_ft)
            if not seen.visible:
                return Estimate(False, reason="no line of sight", weapon=weapon, ranged=True)
            if bands:
                band = next(i for i, top in enumerate(bands) if gap <= top)
                band_mods = list(self.mods.get("range_band_mods") or [0, 0, 0])
                if band < len(band_mods) and band_mods[band]:
                    mods.append((("short", "medium", "long")[min(band, 2)] + " range", int(band_mods[band])))
        else:
            reach = self.reach_ft(attacker, weapon)
            if check_reach and (gap > reach or not self.sight_map.clear_line(a_pos, defender.pos, a_alt, defender.altitude_ft)):
                return Estimate(False, reason="out of reach", weapon=weapon)
            seen = None
        ac_change = 0
        if defender_ac_bonus:
            mods.append(("defending", -int(defender_ac_bonus)))
        # Position relative to the defender's facing.
        if a_pos != defender.pos:
            arc = relative_arc(defender.pos, defender.facing, a_pos)
            if arc in (self.mods.get("rear_arcs") or []) and self.mods.get("rear_bonus"):
                mods.append(("rear", int(self.mods["rear_bonus"])))
                if self.mods.get("rear_no_dex") and int(d_stats.get("dex_mod", 0) or 0) > 0:
                    mods.append(("rear: no DEX", int(d_stats["dex_mod"])))
                if self.mods.get("rear_no_shield") and d_stats.get("shield", "none") != "none":
                    mods.append(("rear: no shield", int(d_stats.get("shield_bonus", 1) or 1)))
            elif arc in (self.mods.get("flank_arcs") or []) and self.mods.get("flank_bonus"):
                mods.append(("flank", int(self.mods["flank_bonus"])))
                if self.mods.get("flank_no_dex") and int(d_stats.get("dex_mod", 0) or 0) > 0:
                    mods.append(("flank: no DEX", int(d_stats["dex_mod"])))
                if self.mods.get("flank_no_shield") and d_stats.get("shield", "none") != "none":
                    mods.append(("flank: no shield", int(d_stats.get("shield_bonus", 1) or 1)))
        friends_on_target = [f for f in others.values() if f.side == attacker.side and f.id != attacker.id
                             and self.dist(f.pos, f.altitude_ft, defender.pos, defender.altitude_ft) <= self.reach_ft(f)
                             and not self.weapon(f.ready_weapon).get("ranged")]
        if not ranged:
            opp = self.mods.get("flank_by_opposite_ally", 0)
            if opp:
                here = bearing_octant(defender.pos, a_pos)
                for f in friends_on_target:
                    if self.dist(f.pos, f.altitude_ft, defender.pos, defender.altitude_ft) <= 5 and \
                            (bearing_octant(defender.pos, f.pos) - here) % 8 in (3, 4, 5):
                        mods.append((f"flanked with {f.label}", int(opp)))
                        break
            n = len(friends_on_target) + 1
            if self.mods.get("surrounded_bonus") and n > int(self.mods.get("surrounded_after", 2)):
                mods.append(("surrounded", int(self.mods["surrounded_bonus"])))
            if self.mods.get("multiple_attackers_bonus") and n > 1:
                mods.append((f"{n} attackers", int(self.mods["multiple_attackers_bonus"]) * (n - 1)))
            shields = list(self.mods.get("shield_attackers") or [])
            shield = d_stats.get("shield", "none")
            if shields and shield in ("small", "medium", "large") and n > shields[("small", "medium", "large").index(shield)]:
                if not any(name.endswith("no shield") for name, _ in mods):
                    mods.append(("shield overwhelmed", int(d_stats.get("shield_bonus", 1) or 1)))
        # High ground.
        diff = self.height(a_pos, a_alt) - self.height(defender.pos, defender.altitude_ft)
        hg_min = int(self.mods.get("high_ground_min_ft", 5) or 5)
        if diff >= hg_min and self.mods.get("higher_bonus"):
            mods.append(("high ground", int(self.mods["higher_bonus"])))
        elif diff <= -hg_min and self.mods.get("lower_penalty"):
            mods.append(("lower ground", int(self.mods["lower_penalty"])))
        # Mounts.
        if not ranged:
            a_m, d_m = bool(a_stats.get("mounted")), bool(d_stats.get("mounted"))
            polearm = self.mods.get("polearm_cancels_mounted") and (spec.get("set") or self.weapon(defender.ready_weapon).get("set"))
            if a_m and not d_m and self.mods.get("mounted_hit") and not polearm:
                mods.append(("mounted", int(self.mods["mounted_hit"])))
            if d_m and not a_m and not polearm:
                if self.mods.get("vs_mounted_hit"):
                    mods.append(("against a rider", int(self.mods["vs_mounted_hit"])))
                if self.mods.get("mounted_defense"):
                    mods.append(("rider's defense", -int(self.mods["mounted_defense"])))
        # Charge and set.
        mult, dmg_bonus = 1, 0
        if charge:
            if self.mods.get("charge_hit"):
                mods.append(("charge", int(self.mods["charge_hit"])))
            mult = int(self.mods.get("charge_damage_multiplier", 1) or 1)
            dmg_bonus = int(self.mods.get("charge_damage_bonus", 0) or 0)
        if set_vs_charge:
            if self.mods.get("set_hit"):
                mods.append(("set against charge", int(self.mods["set_hit"])))
            mult = int(self.mods.get("set_damage_multiplier", 1) or 1)
        # Missiles.
        if ranged:
            near_foes = [f for f in others.values() if f.side != attacker.side
                         and self.dist(a_pos, a_alt, f.pos, f.altitude_ft) <= 5]
            if near_foes and self.mods.get("ranged_engaged_penalty"):
                mods.append(("shooting in melee", int(self.mods["ranged_engaged_penalty"])))
            if friends_on_target and self.mods.get("ranged_fighting_target"):
                mods.append(("target is fighting", int(self.mods["ranged_fighting_target"])))
            if spec.get("in_melee_penalty") and near_foes:
                mods.append(("missile in melee", int(spec["in_melee_penalty"])))
        # Cover and concealment.
        if ranged or (self.cover_fx.get("in_melee") and not quick):
            if seen is None:
                seen = self.sight(a_pos, a_alt, defender.pos, defender.altitude_ft)
            hard = list(self.cover_fx.get("hard") or [0] * 5)
            soft = list(self.cover_fx.get("soft") or [0] * 5)
            ci, si = COVER_DEGREES.index(seen.cover), COVER_DEGREES.index(seen.concealment)
            if not ranged:
                ci = min(ci, 2)  # in melee, figures in the way do not count as walls would
            if ci and hard[ci]:
                if self.cover_fx.get("hard_mode", "attack") == "ac":
                    mods.append((f"{seen.cover} cover", -abs(int(hard[ci]))))
                else:
                    mods.append((f"{seen.cover} cover", int(hard[ci])))
            if si and soft[si]:
                if self.cover_fx.get("soft_mode", "attack") == "ac":
                    mods.append((f"{seen.concealment} concealment", -abs(int(soft[si]))))
                else:
                    mods.append((f"{seen.concealment} concealment", int(soft[si])))
        # Conditions and wounds.
        for cond in self.status(attacker.id).conditions:
            entry = self.ruleset.condition(cond) if hasattr(self.ruleset, "condition") else None
            if entry and entry.get("attack"):
                mods.append((cond, int(entry["attack"])))
        for cond in self.status(defender.id).conditions:
            entry = self.ruleset.condition(cond) if hasattr(self.ruleset, "condition") else None
            if entry:
                change = entry.get("ranged_defense" if ranged else "defense", 0)
                if change:
                    mods.append((f"target {cond}", -int(change)))
        wound = self._wound_modifier(attacker)
        if wound:
            mods.append(("wounded", wound))
        # The roll.
        mods.extend(extra_mods or ())
        # AC-mode cover enters as a negative to-hit: the same effect on the roll.
        total_mod = sum(v for _, v in mods)
        if ranged:
            ability = self.att.get("thrown_ability" if spec.get("thrown") else "propelled_ability", "dex")
        else:
            ability = self.att.get("melee_ability", "str")
        if self.d100:
            chance = int(a_stats.get("sc", 50)) - int(d_stats.get("def", 0)) - ac_change + total_mod
            p = p_hit_d100(chance, int(self.att.get("auto_miss_from", 0) or 0), int(self.att.get("auto_hit", 0) or 0))
        else:
            bonus = int(a_stats.get("attack_bonus", 0) or 0) + _mod(a_stats, ability) + total_mod
            target = int(d_stats.get("ac", 10) or 10) + ac_change
            p = p_hit_d20(bonus, target, int(self.att.get("natural_miss", 0) or 0), int(self.att.get("natural_hit", 0) or 0))
        # Damage.
        dice = spec.get("damage", "1d6")
        if defender.size in ("large", "giant") and spec.get("damage_large"):
            dice = spec["damage_large"]
        if ranged:
            dab = self.dmg_rules.get("thrown_ability" if spec.get("thrown") else "propelled_ability", "none")
        else:
            dab = self.dmg_rules.get("melee_ability", "str")
        prot = int(d_stats.get("prot", 0) or 0) if self.d100 else 0
        dist = damage_distribution(dice, _mod(a_stats, dab), mult, dmg_bonus - prot, int(self.att.get("min_damage", 1)))
        hp = self.hp(defender)
        dmg_mean = mean_of(dist)
        attacks = max(1, int(a_stats.get("attacks", 1) or 1))
        if after_move and self.ruleset.section("round").get("move_attack_halves"):
            attacks = (attacks + 1) // 2
        if charge or set_vs_charge:
            attacks = 1
        p_kill1 = p * p_at_least(dist, hp)
        p_kill = 1 - (1 - p_kill1) ** attacks
        capped = sum(min(v, hp) * q for v, q in dist)
        expected = min(hp, p * capped * attacks)
        est = Estimate(True, p, dmg_mean, p_kill, expected, mods, weapon=weapon, ranged=ranged)
        if ranged and friends_on_target:
            est.friendly_fire = self._friendly_fire(p, dmg_mean, friends_on_target, total_mod, a_stats, d_stats)
        return est

    def _wound_modifier(self, fig: Figure) -> int:
        levels = self.mods.get("wound_levels") or []
        st = self.status(fig.id)
        if not levels or st.hp is None:
            return 0
        worst = 0
        for lv in levels:
            if st.hp <= lv["at_or_below"]:
                worst = min(worst, int(lv["modifier"]))
        return worst

    def _friendly_fire(self, p_hit, dmg, friends, total_mod, a_stats, d_stats) -> float:
        rule = self.mods.get("into_melee", "none")
        if rule == "margin":
            margin = int(self.mods.get("into_melee_margin", 0) or 0)
            return min(1 - p_hit, margin / 20) * dmg
        if rule == "reroll-allies":
            return (1 - p_hit) * 0.5 * dmg
        if rule == "table":
            rows = self.mods.get("into_melee_table") or []
            n = len(friends)
            for row in rows:
                if row["friends"] >= n:
                    return row["upto"] / 100 * dmg
            return 0.3 * dmg
        return 0.0


def fraction(text, default="1") -> float:
    try:
        return float(Fraction(str(text)))
    except (ValueError, ZeroDivisionError):
        return float(Fraction(default))
