"""The situational modifiers of an attack, derived from position, without rolling anything.

`attack_breakdown` is the one function that says what an attack would be: every modifier
with its value and the rule granting it, the defense it is rolled against, the target
number, the damage dice and multipliers. The resolver's real attack uses the same breakdown,
so the "what if" view and the roll can never disagree.

Where things stand comes from Positioning: sight() for cover and concealment, relative_arc
for front, flank and rear, the engagement zone for who is fighting whom.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..events import Modifier
from ..geometry import ARC_NAMES, DIRECTION_DELTAS, bearing_octant, distance_ft, relative_arc
from ..battlemap import COVER_INDEX
from .dice import parse_dice

SIZE_ORDER = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "giant": 4}
DEFAULT_RANGES_FT = [50, 100, 150]


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
    reach_first: bool = False
    surprise_round: bool = False


@dataclass(frozen=True)
class Breakdown:
    attacker: str
    target: str
    weapon: str
    kind: str                      # "melee" or "ranged"
    resolution: str                # "d20" or "d100"
    allowed: bool
    reason: str                    # why not, in a player's words ("" when allowed)
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
    subdue: bool = False
    auto_hit: str = ""              # e.g. "helpless": melee on a helpless foe always hits
    friends_in_melee: tuple = ()    # ids of the attacker's friends fighting the target
    rule: str = ""
    notes: tuple = ()

    @property
    def attack_total(self) -> int:
        return self.base_attack + sum(m.value for m in self.attack_mods)

    @property
    def defense_total(self) -> int:
        return self.base_defense + sum(m.value for m in self.defense_mods)

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.attack_mods)

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

    def chance(self) -> float:
        """Chance to hit before automatic results, 0..1."""
        if self.resolution == "d100":
            return max(0, min(100, self.target_number)) / 100
        need = self.needed_on_die
        return max(0, min(20, 21 - need)) / 20

    def to_json(self) -> dict:
        return {
            "attacker": self.attacker, "target": self.target, "weapon": self.weapon, "kind": self.kind,
            "resolution": self.resolution, "allowed": self.allowed, "reason": self.reason,
            "base_attack": {"name": self.attack_name, "value": self.base_attack},
            "attack_modifiers": [m.to_json() for m in self.attack_mods],
            "attack_total": self.attack_total,
            "base_defense": {"name": self.defense_name, "value": self.base_defense},
            "defense_modifiers": [m.to_json() for m in self.defense_mods],
            "defense_total": self.defense_total, "target_number": self.target_number,
            "needed_on_die": self.needed_on_die, "chance": round(self.chance(), 3),
            "distance_ft": _num(self.distance_ft), "range_band": self.range_band,
            "damage": self.damage, "damage_modifiers": [m.to_json() for m in self.damage_mods],
            "damage_multipliers": [m.to_json() for m in self.damage_multipliers],
            "subdue": self.subdue, "auto_hit": self.auto_hit, "friends_in_melee": list(self.friends_in_melee),
            "rule": self.rule, "notes": list(self.notes),
        }

    def lines(self) -> list[str]:
        """The breakdown in plain words, one line each, for the CLI and the log panel."""
        out = []
        if not self.allowed:
            out.append(f"not possible now: {self.reason}")
        out.append(f"{self.kind} attack with {self.weapon} at {_num(self.distance_ft)} ft"
                   + (f" ({self.range_band} range)" if self.range_band else "") + f" [{self.rule}]")
        out.append(f"  {self.attack_name} {self.base_attack}")
        for m in self.attack_mods:
            out.append(f"  {m.value:+d} {m.name} ({m.source})")
        out.append(f"  = {self.attack_total}")
        out.append(f"  against {self.defense_name} {self.base_defense}")
        for m in self.defense_mods:
            out.append(f"  {m.value:+d} {m.name} ({m.source})")
        out.append(f"  = {self.defense_name} {self.defense_total}")
        if self.resolution == "d100":
            out.append(f"  hits on d100 <= {self.target_number} ({self.attack_total} - {self.defense_total}); "
                       f"chance {self.chance():.0%}")
        else:
            out.append(f"  hits on d20 >= {self.needed_on_die}; chance {self.chance():.0%}")
        if self.auto_hit:
            out.append(f"  hits automatically: the target is {self.auto_hit}")
        mult = "".join(f" x{m.value} {m.name} ({m.source})" for m in self.damage_multipliers)
        adds = "".join(f" {m.value:+d} {m.name} ({m.source})" for m in self.damage_mods)
        out.append(f"  damage {self.damage}{adds}{mult}" + (" (subdual)" if self.subdue else ""))
        for note in self.notes:
            out.append(f"  note: {note}")
        return out


def _num(v: float):
    return int(v) if float(v).is_integer() else round(v, 1)


# ----- geometry helpers shared with the resolver -----
def height_ft(bmap, fig) -> float:
    return float(bmap.elevation_ft[fig.y, fig.x]) + fig.altitude_ft


def gap_ft(battle, a, b) -> float:
    return distance_ft(battle.ruleset.diagonal, a.pos, b.pos, height_ft(battle.map, a), height_ft(battle.map, b))


def weapon_data(battle, name: str) -> dict:
    return battle.ruleset.weapon(name) or {"reach_ft": 5, "ranged": False, "thrown": False, "damage": "1d2",
                                           "damage_large": "", "range_ft": [], "reload_rounds": 0,
                                           "reload_is_busy": False, "in_melee_penalty": 0, "stuck_dex": 0,
                                           "stuck_bleed": 0, "charge": False, "set": False, "hands": 1,
                                           "subdual": True}


def melee_reach_ft(battle, fig, weapon_name: str | None = None) -> int:
    """How far a figure strikes in melee: its weapon's reach, at least the engagement zone."""
    weapon = weapon_data(battle, weapon_name or fig.ready_weapon)
    reach = 5 if weapon["ranged"] else weapon["reach_ft"]
    return max(reach, battle.ruleset.section("engagement")["zone_ft"])


def in_melee_reach(battle, attacker, target, weapon_name: str | None = None) -> bool:
    if attacker.pos == target.pos:
        return False
    # Neighbouring squares (diagonals too, whatever the distance rule) at about the same height
    # are always within arm's reach: a euclidean 7.07 ft diagonal is still the next square.
    neighbours = (max(abs(attacker.x - target.x), abs(attacker.y - target.y)) == 1
                  and abs(height_ft(battle.map, attacker) - height_ft(battle.map, target)) <= 5)
    if not neighbours and gap_ft(battle, attacker, target) > melee_reach_ft(battle, attacker, weapon_name):
        return False
    return battle.positioning().sight_map.clear_line(attacker.pos, target.pos, attacker.altitude_ft, target.altitude_ft)


def fighting(battle, fig) -> list:
    """Able foes within melee reach of fig, or whose reach fig stands in."""
    out = []
    for other in battle.figures.values():
        if other.side == fig.side or not battle.able(other.id):
            continue
        if in_melee_reach(battle, other, fig) or in_melee_reach(battle, fig, other):
            out.append(other)
    return out


def attack_kind(battle, attacker, target, weapon_name: str) -> str:
    weapon = weapon_data(battle, weapon_name)
    if weapon["ranged"]:
        return "ranged"
    if weapon["thrown"] and not in_melee_reach(battle, attacker, target, weapon_name):
        return "ranged"
    return "melee"


def range_band(battle, weapon: dict, dist: float) -> tuple[int, str]:
    bands = weapon["range_ft"] or DEFAULT_RANGES_FT
    for i, (limit, name) in enumerate(zip(bands, ("short", "medium", "long"))):
        if dist <= limit:
            return i, name
    return -1, "out of range"


def back_to_wall(battle, fig) -> bool:
    dx, dy = DIRECTION_DELTAS[(fig.facing + 4) % 8]
    x, y = fig.x + dx, fig.y + dy
    return not battle.map.in_bounds(x, y) or bool(battle.map.blocks_move[y, x])


# ----- the breakdown -----
def attack_breakdown(battle, attacker_id: str, target_id: str, context: AttackContext | None = None) -> Breakdown:
    """Every number of the attack attacker would make on target now. Rolls nothing."""
    ctx = context or AttackContext()
    rs = battle.ruleset
    mods_rules = rs.section("modifiers")
    attack_rules = rs.section("attack")
    attacker = battle.figures[attacker_id]
    target = battle.figures[target_id]
    a_prof, t_prof = battle.profile(attacker_id), battle.profile(target_id)
    a_state, t_state = battle.state_of(attacker_id), battle.state_of(target_id)
    weapon_name = ctx.weapon or attacker.ready_weapon
    weapon = weapon_data(battle, weapon_name)
    d100 = attack_rules["resolution"] == "d100"
    kind = attack_kind(battle, attacker, target, weapon_name)
    dist = gap_ft(battle, attacker, target)
    cite = rs.cite
    att: list[Modifier] = []
    dfn: list[Modifier] = []
    dmg: list[Modifier] = []
    mult: list[Modifier] = []
    notes: list[str] = []
    reasons: list[str] = []

    def add(lst, name, value, rule):
        if value:
            lst.append(Modifier(name, int(value), cite(rule)))

    # --- can it be made at all, by position ---
    band_index, band = -1, ""
    if kind == "melee":
        if not in_melee_reach(battle, attacker, target, weapon_name):
            reach = melee_reach_ft(battle, attacker, weapon_name)
            reasons.append(f"{target.label} is {_num(dist)} ft away, beyond the {reach} ft melee reach of "
                           f"{attacker.label}'s {weapon_name}")
    else:
        band_index, band = range_band(battle, weapon, dist)
        sight = battle.positioning().sight(attacker_id, target_id)
        if band_index < 0:
            reasons.append(f"{target.label} is {_num(dist)} ft away, beyond the long range "
                           f"({(weapon['range_ft'] or DEFAULT_RANGES_FT)[-1]} ft) of the {weapon_name}")
        if not sight.visible:
            reasons.append(f"{attacker.label} cannot see {target.label}: no line of sight")

    # --- base numbers ---
    if d100:
        base_attack, attack_name = a_prof["sc"], "SC"
        base_defense, defense_name = t_prof["def"], "DEF"
    else:
        base_attack, attack_name = a_prof["attack_bonus"], "AB"
        base_defense, defense_name = t_prof["ac"], "AC"

    # ability modifier to the roll
    if kind == "melee":
        ability = attack_rules["melee_ability"]
    else:
        ability = attack_rules["thrown_ability"] if (weapon["thrown"] and not weapon["ranged"]) else attack_rules["propelled_ability"]
    ability_value = a_prof.get(f"{ability}_mod", 0) if ability != "none" else 0
    if ability == "dex" and ctx.charge and mods_rules["charge_no_dex"]:
        ability_value = min(0, ability_value)
    if ability == "dex":
        ability_value += sum(s[0] for s in a_state.stuck)
    add(att, f"{ability.upper()} modifier", ability_value, attack_rules["rule"])

    # wounds (d100)
    for level in sorted(mods_rules["wound_levels"], key=lambda w: w["at_or_below"]):
        if a_state.hp <= level["at_or_below"] < a_state.max_hp:
            add(att, f"wounded ({a_state.hp} hp)", level["modifier"], mods_rules["wound_rule"])
            break

    # the attacker's own conditions
    for name in sorted(a_state.conditions):
        cond = rs.condition(name)
        if cond and cond["attack"]:
            add(att, f"attacker {name}", cond["attack"], cond["rule"])

    # facing: rear and flank, from where the attacker stands against the target's facing
    arc = relative_arc(target.pos, target.facing, attacker.pos)
    from_rear = arc in mods_rules["rear_arcs"] and mods_rules["rear_bonus"] > 0
    from_flank = arc in mods_rules["flank_arcs"] and mods_rules["flank_bonus"] > 0
    if from_rear:
        add(att, f"from behind ({ARC_NAMES[arc]})", mods_rules["rear_bonus"], mods_rules["rear_rule"])
    elif from_flank:
        add(att, f"flank ({ARC_NAMES[arc]})", mods_rules["flank_bonus"], mods_rules["flank_rule"])
    if kind == "melee" and mods_rules["flank_by_opposite_ally"]:
        ally = _opposite_ally(battle, attacker, target)
        if ally is not None:
            add(att, f"flanked with {ally.label} opposite", mods_rules["flank_by_opposite_ally"], mods_rules["flank_rule"])

    # many on one
    if kind == "melee":
        crowd = [f for f in fighting(battle, target) if f.side == attacker.side]
        if attacker not in crowd:
            crowd.append(attacker)
        if mods_rules["surrounded_bonus"] and len(crowd) > mods_rules["surrounded_after"]:
            if back_to_wall(battle, target):
                notes.append(f"{target.label} has its back to a wall: no surrounded bonus")
            else:
                add(att, f"surrounded ({min(len(crowd), 6)} attackers)", mods_rules["surrounded_bonus"],
                    mods_rules["surrounded_rule"])
        if mods_rules["multiple_attackers_bonus"] and len(crowd) > 1:
            add(att, f"multiple attackers ({len(crowd)})", mods_rules["multiple_attackers_bonus"] * (len(crowd) - 1),
                mods_rules["multiple_attackers_rule"])

    # high ground
    rise = height_ft(battle.map, attacker) - height_ft(battle.map, target)
    if rise >= mods_rules["high_ground_min_ft"]:
        add(att, f"higher ground ({_num(rise)} ft above)", mods_rules["higher_bonus"], mods_rules["high_ground_rule"])
    elif -rise >= mods_rules["high_ground_min_ft"]:
        add(att, f"lower ground ({_num(-rise)} ft below)", mods_rules["lower_penalty"], mods_rules["high_ground_rule"])

    # mounts
    if kind == "melee":
        cancel = mods_rules["polearm_cancels_mounted"] and (
            (not a_prof["mounted"] and weapon["set"]) or
            (not t_prof["mounted"] and weapon_data(battle, target.ready_weapon)["set"]))
        if a_prof["mounted"] and not t_prof["mounted"] and not cancel:
            add(att, "mounted against a foe on foot", mods_rules["mounted_hit"], mods_rules["mounted_rule"])
        if t_prof["mounted"] and not a_prof["mounted"] and not cancel:
            add(att, "on foot against a mounted foe", mods_rules["vs_mounted_hit"], mods_rules["mounted_rule"])
            add(dfn, "mounted against a foe on foot", mods_rules["mounted_defense"], mods_rules["mounted_rule"])
        if cancel and (a_prof["mounted"] != t_prof["mounted"]):
            notes.append("a polearm or long spear cancels the mounted modifiers")

    # kinds of attack
    charge_negated = ctx.charge and mods_rules["charge_negated_if_hit_first"] and target_id in a_state.hit_by
    if ctx.charge:
        add(att, "charge", mods_rules["charge_hit"], rs.section("charge")["rule"])
        if charge_negated:
            notes.append(f"{target.label} hit {attacker.label} first: the charge is negated (no extra damage)")
        else:
            if mods_rules["charge_damage_multiplier"] > 1:
                mult.append(Modifier("charge", mods_rules["charge_damage_multiplier"], cite(rs.section("charge")["rule"])))
            add(dmg, "charge", mods_rules["charge_damage_bonus"], rs.section("charge")["rule"])
    if ctx.set_vs_charge:
        add(att, "set against the charge", mods_rules["set_hit"], mods_rules["set_rule"])
        if mods_rules["set_damage_multiplier"] > 1:
            mult.append(Modifier("set against a charge", mods_rules["set_damage_multiplier"], cite(mods_rules["set_rule"])))
    if ctx.parting_shot:
        ps = rs.section("parting_shots")
        add(att, "parting shot", ps["attack_bonus"], ps["rule"])
    if a_state.aim and a_state.aim.get("target") == target_id and kind == "ranged":
        wanted = battle.round - 1 if mods_rules["aim_next_round"] else battle.round
        if a_state.aim.get("round") == wanted:
            add(att, "aimed shot", mods_rules["aim_bonus"], mods_rules["aim_rule"])
    if t_state.aim and t_state.aim.get("round") == battle.round and not mods_rules["aim_next_round"]:
        add(att, "target standing still to aim", mods_rules["aim_target_bonus"], mods_rules["aim_rule"])
    if a_state.withdrawing:
        add(att, "fighting withdrawal", mods_rules["withdraw_attack"], "fighting-withdrawal")
    if a_state.defense:
        style = rs.defense(a_state.defense)
        if style:
            if style["formula"] == "trade":
                add(att, f"{style['style']} (SC traded for DEF)", -a_state.defense_amount, style["rule"])
            else:
                add(att, style["style"], style["attack_penalty"], style["rule"])
    if ctx.subdue:
        add(att, "attacking to subdue", mods_rules["subdue_hit"], mods_rules["subdue_rule"])
    if a_state.move_mode in ("run", "jog") and rs.section("round")["run_attack_hit"]:
        add(att, "ran before attacking", rs.section("round")["run_attack_hit"], rs.section("round")["rule"])
    if ctx.surprise_round and mods_rules["surprise_round_hit"]:
        add(att, "surprise", mods_rules["surprise_round_hit"], rs.section("surprise")["rule"])
    if t_state.has("surprised") and t_state.surprise_bonus:
        add(att, "ambush", t_state.surprise_bonus, rs.section("surprise")["rule"])

    # missiles
    friends = ()
    if kind == "ranged":
        if 0 <= band_index < 3:
            add(att, f"{band} range", mods_rules["range_band_mods"][band_index], mods_rules["range_rule"])
        if t_state.ran_last_action or t_state.move_mode in ("run", "jog", "charge"):
            add(att, "target running", mods_rules["running_target_ranged"], mods_rules["target_movement_rule"])
        elif t_state.moved_ft == 0 and not t_state.ran_last_action:
            add(att, "target stationary", mods_rules["stationary_target_ranged"], mods_rules["target_movement_rule"])
        if dist <= 5:
            add(att, "target within 5 ft of the shooter", mods_rules["ranged_engaged_penalty"], mods_rules["ranged_rule"])
        shooter_engaged = [f for f in fighting(battle, attacker)]
        if shooter_engaged:
            add(att, f"{weapon_name} used in melee", weapon["in_melee_penalty"], mods_rules["ranged_rule"])
        target_fighting = fighting(battle, target)
        friends = tuple(f.id for f in target_fighting if f.side == attacker.side and f.id != attacker.id)
        if target_fighting and mods_rules["ranged_fighting_target"]:
            add(att, "target fighting in melee", mods_rules["ranged_fighting_target"], mods_rules["ranged_rule"])
        if friends and mods_rules["into_melee"] == "margin":
            exempt = SIZE_ORDER.get(target.size, 2) >= 3 and all(
                SIZE_ORDER.get(battle.figures[f].size, 2) <= 2 for f in friends)
            if exempt:
                friends = ()
                notes.append(f"{target.label} is large and its melee foes are not: no risk to friends")
            elif ctx.careful:
                add(att, "careful shot into melee", mods_rules["into_melee_careful_penalty"], mods_rules["into_melee_rule"])
                friends = ()
            else:
                notes.append(f"a miss by less than {mods_rules['into_melee_margin']} hits a friend in the melee "
                             f"({', '.join(battle.figures[f].label for f in friends)})")
        elif friends and mods_rules["into_melee"] != "none":
            notes.append(f"shooting into a melee with friends ({', '.join(battle.figures[f].label for f in friends)})")

    # cover and concealment
    cover_rules = rs.section("cover_effects")
    if kind == "ranged" or cover_rules["in_melee"]:
        sight = battle.positioning().sight(attacker_id, target_id)
        for degree, table, mode, what in ((sight.cover, cover_rules["hard"], cover_rules["hard_mode"], "cover"),
                                          (sight.concealment, cover_rules["soft"], cover_rules["soft_mode"], "concealment")):
            value = table[COVER_INDEX[degree]] if COVER_INDEX[degree] < len(table) else 0
            if value:
                if mode == "ac":
                    add(dfn, f"{degree} {what}", value, cover_rules["rule"])
                else:
                    add(att, f"{degree} {what}", value, cover_rules["rule"])

    # the target's side: shield, DEX, stances, conditions
    shield_lost = ""
    if t_prof["shield"] != "none":
        if (from_rear and mods_rules["rear_no_shield"]) or (from_flank and mods_rules["flank_no_shield"]):
            shield_lost = "attacked from " + ("behind" if from_rear else "the flank")
        elif ctx.parting_shot and mods_rules["parting_shot_no_shield"]:
            shield_lost = "turned away from the attacker"
        elif mods_rules["shield_attackers"] and attacker_id not in t_state.shield_used_by:
            covers = mods_rules["shield_attackers"][["small", "medium", "large"].index(t_prof["shield"])]
            if len(t_state.shield_used_by) >= covers:
                shield_lost = f"its {t_prof['shield']} shield already covers {covers} other attacker(s) this round"
    if shield_lost:
        add(dfn, f"no shield: {shield_lost}", -t_prof["shield_bonus"], mods_rules["shield_rule"] if "covers" in shield_lost
            else (mods_rules["rear_rule"] if from_rear else mods_rules["flank_rule"] if from_flank else rs.section("parting_shots")["rule"]))
    dex = t_prof["dex_mod"]
    if dex > 0:
        lost = ""
        if from_rear and mods_rules["rear_no_dex"]:
            lost, rule = "attacked from behind", mods_rules["rear_rule"]
        elif from_flank and mods_rules["flank_no_dex"]:
            lost, rule = "attacked from the flank", mods_rules["flank_rule"]
        elif t_state.charging and mods_rules["charge_no_dex"]:
            lost, rule = "charging", rs.section("charge")["rule"]
        elif t_state.has("surprised") and mods_rules["surprised_no_dex"]:
            lost, rule = "surprised", rs.section("surprise")["rule"]
        elif t_state.aim and t_state.aim.get("round") == battle.round and not mods_rules["aim_next_round"]:
            lost, rule = "taking careful aim", mods_rules["aim_rule"]
        if lost:
            add(dfn, f"no DEX bonus: {lost}", -dex, rule)
    if t_state.charging:
        add(dfn, "charged this round", mods_rules["charge_defense"], rs.section("charge")["rule"])
    if t_state.hasty:
        add(dfn, "disengaging hastily", mods_rules["hasty_defense"], rs.section("disengage")["rule"])
    if t_state.withdrawing:
        add(dfn, "fighting withdrawal", mods_rules["withdraw_defense"], "fighting-withdrawal")
    if t_state.defense:
        style = rs.defense(t_state.defense)
        if style:
            value = defense_bonus(style, t_prof, t_state.defense_amount)
            faced = relative_arc(target.pos, target.facing, attacker.pos) in (0, 1, 7)
            used = t_state.defended_against
            if style["faced_only"] and not faced:
                notes.append(f"{target.label}'s {style['style']} only works against attackers in front")
            elif style["attackers"] and attacker_id not in used and len(used) >= style["attackers"]:
                notes.append(f"{target.label}'s {style['style']} already covers {style['attackers']} attacker(s)")
            else:
                add(dfn, style["style"], value, style["rule"])
    for name in sorted(t_state.conditions):
        cond = rs.condition(name)
        if cond:
            value = cond["ranged_defense"] if kind == "ranged" else cond["defense"]
            add(dfn, f"target {name}", value, cond["rule"])

    auto_hit = ""
    helpless = t_state.has("helpless") or t_state.has("unconscious")
    if helpless and kind == "melee":
        if mods_rules["helpless"] == "auto-double-max":
            auto_hit = "helpless"
            mult.append(Modifier("helpless: maximum damage doubled", 2, cite("prone-and-helpless-opponents")))
        elif mods_rules["helpless"] == "bonus":
            add(att, "target helpless", mods_rules["helpless_hit"], "situational-modifiers")

    # damage
    big = SIZE_ORDER.get(target.size, 2) >= 3
    damage_text = weapon["damage_large"] if (big and weapon["damage_large"]) else weapon["damage"]
    dmg_rules = rs.section("damage")
    if kind == "melee":
        d_ability = dmg_rules["melee_ability"]
    else:
        d_ability = dmg_rules["thrown_ability"] if weapon["thrown"] and not weapon["ranged"] else dmg_rules["propelled_ability"]
    if d_ability != "none":
        add(dmg, f"{d_ability.upper()} modifier", a_prof.get(f"{d_ability}_mod", 0), dmg_rules["rule"])
    subdue = ctx.subdue or weapon["subdual"]

    allowed = not reasons
    return Breakdown(
        attacker=attacker_id, target=target_id, weapon=weapon_name, kind=kind,
        resolution="d100" if d100 else "d20", allowed=allowed, reason="; ".join(reasons),
        base_attack=base_attack, attack_name=attack_name, attack_mods=tuple(att),
        base_defense=base_defense, defense_name=defense_name, defense_mods=tuple(dfn),
        distance_ft=dist, range_band=band, damage=damage_text, damage_mods=tuple(dmg),
        damage_multipliers=tuple(mult), subdue=subdue, auto_hit=auto_hit, friends_in_melee=friends,
        rule=cite(attack_rules["rule"]), notes=tuple(notes),
    )


def defense_bonus(style: dict, profile: dict, amount: int = 0) -> int:
    """What a defensive stance adds to AC/DEF."""
    if style["formula"] == "trade":
        return amount // 2
    if style["formula"] == "weapon-rank":
        rank_part = profile["weapon_rank"] * style["rank_multiplier"]
        rank_part = math.ceil(rank_part) if style["round_up"] else math.floor(rank_part)
        return style["bonus"] + rank_part
    return style["bonus"]


def _opposite_ally(battle, attacker, target):
    toward_attacker = bearing_octant(target.pos, attacker.pos)
    for ally in battle.figures.values():
        if ally.side != attacker.side or ally.id == attacker.id or not battle.able(ally.id):
            continue
        if gap_ft(battle, ally, target) > 5:
            continue
        if (bearing_octant(target.pos, ally.pos) - toward_attacker) % 8 == 4:
            return ally
    return None


def damage_dice(breakdown: Breakdown):
    return parse_dice(breakdown.damage)
