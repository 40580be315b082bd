"""The situational modifiers of an attack, derived from position, without rolling anything.

`attack_breakdown` builds the one Breakdown that says what an attack would be. It is a list of
small functions, one per family of modifiers (facing, crowding, ground, mounts, the kind of
attack, missiles, cover, the target's defenses, damage); each reads the battle view and adds
named modifiers with the rule that grants them. The resolver's real attack, the what-if view, the
AI's odds and the CLI all use it, so they can never disagree.

Where things stand comes from Positioning: sight() for cover and concealment, facing_arc
for front, flank and rear, the engagement zone for who is fighting whom.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..values.cover import COVER_INDEX
from ..values.events import Modifier
from ..values.geometry import ARC_NAMES
from ..mounts import counts_mounted, fights_mounted
from ..values.refusals import Refusal
from .attack_sheet import AttackSheet
from ..values.numbers import plain_number
from .breakdown import AttackContext, Breakdown
from .defender_modifiers import (damage_bonus, dexterity, helplessness, parry_terms, sheet_damage_dice, shield,
                                 target_conditions, target_stances)
from .odds import die_rules
from .reach import (DEFAULT_RANGES_FT, SIZE_ORDER, attack_kind, back_to_wall, cover_sight, facing_arc, gap_ft,
                    height_ft, in_melee_reach, melee_reach_ft, range_band, weapon_data)


def attack_breakdown(battle, attacker_id: str, target_id: str, context: AttackContext | None = None) -> Breakdown:
    """Every number of the attack attacker would make on target now. Rolls nothing."""
    ctx = context or AttackContext()
    attacker, target = battle.figures[attacker_id], battle.figures[target_id]
    weapon_name = ctx.weapon or attacker.ready_weapon
    sheet = AttackSheet(battle, ctx, attacker, target, battle.profile(attacker_id), battle.profile(target_id),
                   battle.state_of(attacker_id), battle.state_of(target_id), weapon_name,
                   weapon_data(battle, weapon_name), attack_kind(battle, attacker, target, weapon_name),
                   gap_ft(battle, attacker, target))
    for family in _FAMILIES:
        family(sheet)
    rs = battle.ruleset
    d100 = rs.section("attack")["resolution"] == "d100"
    base_attack, attack_name = (sheet.a_prof["sc"], "SC") if d100 else (sheet.a_prof["attack_bonus"], "AB")
    base_defense, defense_name = (sheet.t_prof["def"], "DEF") if d100 else (sheet.t_prof["ac"], "AC")
    # Every field given, so the frozen __init__ (a guarded setattr per field) is skipped: the AI
    # asks for thousands of breakdowns a turn.
    bd = object.__new__(Breakdown)
    bd.__dict__.update(
        attacker=attacker_id, target=target_id, weapon=weapon_name, kind=sheet.kind,
        resolution="d100" if d100 else "d20",
        base_attack=base_attack, attack_name=attack_name, attack_mods=tuple(sheet.att),
        base_defense=base_defense, defense_name=defense_name, defense_mods=tuple(sheet.dfn),
        distance_ft=sheet.dist, range_band=sheet.band, damage=sheet_damage_dice(sheet), damage_mods=tuple(sheet.dmg),
        splash=sheet.splash,
        damage_multipliers=tuple(sheet.mult), subdue=ctx.subdue or sheet.weapon["subdual"],
        flat_of_blade=ctx.subdue and not sheet.weapon["subdual"], real_every=sheet.real_every, auto_hit=sheet.auto_hit,
        friends_in_melee=sheet.friends, advantage=sheet.advantage, rule=rs.cite(rs.section("attack")["rule"]),
        notes=tuple(sheet.notes),
        refusals=tuple(sheet.refusals),
        die=die_rules(rs), **_roll_terms(battle, sheet, d100),
    )
    return bd


def _roll_terms(battle, sheet: AttackSheet, d100: bool) -> dict:
    """The numbers the roll reads besides the modifiers: the target's next parry or its PROT, and
    the attacker's for a critical table row and a fumble (combat.odds reads them face by face)."""
    rules = battle.ruleset.section("attack")
    ability = rules["melee_ability"] if sheet.kind == "melee" else rules["propelled_ability"]
    a_prof, t_prof = sheet.a_prof, sheet.t_prof
    parry = None
    if sheet.kind == "melee" and not d100 and sheet.t_state.defense:
        parry = parry_terms(battle, sheet.target.id)[0]
    if sheet.auto_hit == "held":
        parry = None        # bfrpg Wrestling: the holder's blow is inflicted, not rolled: nothing to parry
    return {"parry": parry, "soak": max(0, t_prof["prot"] - sheet.t_state.prot_lost) if d100 else 0,

            "critical_mod": a_prof.get(f"{ability}_mod", 0) if ability != "none" else 0,
            "attacker_level": a_prof["level"], "attacker_dex": a_prof["dex_mod"]}


# ----- can it be made at all, by position -----
def _position(s: AttackSheet) -> None:
    if s.kind == "melee":
        if not in_melee_reach(s.battle, s.attacker, s.target, s.weapon_name):
            s.refusals.append(Refusal.of("attack.beyond-reach", target=s.target.label, distance_ft=plain_number(s.dist),
                                         reach_ft=melee_reach_ft(s.battle, s.attacker, s.weapon_name),
                                         who=s.attacker.label, weapon=s.weapon_name))
        return
    gap = s.rules["missile_min_foe_gap_ft"]
    if gap:
        close = [f for f in s.fighting(s.attacker) if gap_ft(s.battle, s.attacker, f) <= gap]
        if close:
            s.refusals.append(Refusal.of("attack.foe-too-close", rule=s.rs.cite("missile-too-close"),
                                         who=s.attacker.label, foe=close[0].label, gap_ft=gap))
            s.choice_note(s.rs.cite("missile-too-close"))
    s.band_index, s.band = range_band(s.weapon, s.dist)
    if s.band_index < 0:
        s.refusals.append(Refusal.of("attack.beyond-range", target=s.target.label, distance_ft=plain_number(s.dist),
                                     long_ft=(s.weapon["range_ft"] or DEFAULT_RANGES_FT)[-1], weapon=s.weapon_name))
    if not s.sight().visible:
        s.refusals.append(Refusal.of("attack.no-sight", who=s.attacker.label, target=s.target.label))


def _hold(s: AttackSheet) -> None:
    """Holds (bfrpg Wrestling, odnd Grappling Attacks, ch17 17.0.18): a holder strikes only the figure it
    holds, unarmed where its rules say, and bfrpg's holder does that damage without a roll; a struggling
    figure (odnd) strikes unarmed."""
    rules = s.rs.section("manoeuvres")
    held = s.a_state.holding
    rule = s.rs.cite(rules["grapple_rule"])
    if held and s.target.id != held:
        s.refusals.append(Refusal.of("grapple.holding-other", who=s.attacker.label, held=s.battle.figures[held].label,
                                     rule=rule))
    if s.weapon_name != "fist":
        why = (f"holds {s.battle.figures[held].label}" if held and rules["holder_fist_only"]
               else "is struggling in a grapple" if s.a_state.has("struggling") else "")
        if why:
            s.refusals.append(Refusal.of("grapple.unarmed-only", who=s.attacker.label, why=why, weapon=s.weapon_name,
                                         rule=rule))
    elif held == s.target.id and rules["holder_auto_damage"] and s.kind == "melee":
        s.auto_hit = "held"
        s.notes.append(f"{s.attacker.label} holds {s.target.label}: its unarmed blow lands without a roll ({rule})")


# ----- the attacker -----
def _ability(s: AttackSheet) -> None:
    ability = s.ability(s.rs.section("attack"))
    value = s.a_prof.get(f"{ability}_mod", 0) if ability != "none" else 0
    if ability == "dex" and s.ctx.charge and s.rules["charge_no_dex"]:
        value = min(0, value)
    if ability == "dex":
        value += sum(stuck[0] for stuck in s.a_state.stuck)
    s.add(s.att, "ability", f"{ability.upper()} modifier", value, s.rs.section("attack")["rule"])
    # A measuring handicap on every attack of the figure (`fivefoot ladder --edge LEVEL+K`): never in play.
    edge = s.attacker.stats.get("edge", 0)
    if edge:
        s.add(s.att, "edge", "measuring handicap (--edge)", edge, s.rs.section("attack")["rule"])


def _wounds(s: AttackSheet) -> None:
    """d100: a wounded attacker strikes worse."""
    if s.a_state.hp >= s.a_state.max_hp:
        return          # unhurt: no level can apply (each needs hp at or below it, and it below max hp)
    for level in _by_threshold(s.rules["wound_levels"]):
        if s.a_state.hp <= level["at_or_below"] < s.a_state.max_hp:
            s.add(s.att, "wounds", f"wounded ({s.a_state.hp} hp)", level["modifier"], s.rules["wound_rule"])
            break


_SORTED_LEVELS: dict = {}


def _by_threshold(levels: list) -> list:
    """The ruleset's wound levels by their threshold, sorted once per list (the entry holds it)."""
    got = _SORTED_LEVELS.get(id(levels))
    if got is None or got[0] is not levels:
        if len(_SORTED_LEVELS) > 64:
            _SORTED_LEVELS.clear()
        got = _SORTED_LEVELS[id(levels)] = (levels, sorted(levels, key=lambda w: w["at_or_below"]))
    return got[1]


def _attacker_conditions(s: AttackSheet) -> None:
    for name in sorted(s.a_state.conditions):
        cond = s.rs.condition(name)
        if cond and cond["attack"]:
            s.add(s.att, "attacker-condition", f"attacker {name}", cond["attack"], cond["rule"])


# ----- where the attacker stands -----
def _facing(s: AttackSheet) -> None:
    """Rear and flank, from where the attacker stands against the target's facing."""
    r = s.rules
    arc = facing_arc(s.target, s.attacker)
    s.from_rear, s.from_flank = arc_place(r, arc)
    if not s.from_rear and r["surprise_as_rear"] and s.t_state.has("surprised"):
        s.from_rear, s.from_flank = True, False
        s.add(s.att, "rear", "surprise attack (as from behind)", r["rear_bonus"], r["rear_rule"])
        return
    if s.ctx.parting_shot and r["parting_shot_own_terms"] and (s.from_rear or s.from_flank):
        # The parting shot's own bonus is what the turned back gives away: no rear/flank on top.
        s.notes.append(f"{s.target.label} turned its back to leave: the parting shot's own terms stand for that "
                       f"(no {'rear' if s.from_rear else 'flank'} modifier on top)")
        s.from_rear = s.from_flank = False
    if s.from_rear:
        s.add(s.att, "rear", f"from behind ({ARC_NAMES[arc]})", r["rear_bonus"], r["rear_rule"])
    elif s.from_flank:
        s.add(s.att, "flank", f"flank ({ARC_NAMES[arc]})", r["flank_bonus"], r["flank_rule"])
    if s.kind == "melee" and r["flank_by_opposite_ally"]:
        ally = opposite_ally(s.battle, s.attacker, s.target)
        if ally is not None:
            s.add(s.att, "flank", f"flanked with {ally.label} opposite", r["flank_by_opposite_ally"], r["flank_rule"])


def arc_place(rules: dict, arc: int) -> tuple[bool, bool]:
    """(from the rear, from the flank) for an attacker in this octant of the target's facing."""
    return (arc in rules["rear_arcs"] and rules["rear_bonus"] > 0,
            arc in rules["flank_arcs"] and rules["flank_bonus"] > 0)


def facing_bonus(battle, attacker, target) -> int:
    """The to-hit `_facing` gives a melee blow from where the attacker stands, a surprised target
    and a parting shot's own terms aside: rear or flank, and an ally on the target's far side."""
    r = battle.ruleset.section("modifiers")
    rear, flank = arc_place(r, facing_arc(target, attacker))
    bonus = r["rear_bonus"] if rear else r["flank_bonus"] if flank else 0
    if r["flank_by_opposite_ally"] and opposite_ally(battle, attacker, target) is not None:
        bonus += r["flank_by_opposite_ally"]
    return bonus


def _blindside(s: AttackSheet) -> None:
    """odnd Attacking From Behind: the round after a fight was opened from behind, the attacker rolls
    with advantage and the one caught from behind with disadvantage."""
    if not s.rules["rear_blindsides"]:
        return
    last = s.battle.round - 1
    rule = s.rs.cite("blindsided")
    if s.t_state.blindsided_by.get(s.attacker.id) == last:
        s.advantage = 1
        s.notes.append(f"advantage: {s.target.label} was caught from behind last round (two d20, the better counts)")
        s.choice_note(rule)
    elif s.a_state.blindsided_by.get(s.target.id) == last:
        s.advantage = -1
        s.notes.append(f"disadvantage: {s.attacker.label} was caught from behind last round (two d20, the worse counts)")
        s.choice_note(rule)


def _crowd(s: AttackSheet) -> None:
    """Many on one: surrounded (until the target has its back to a wall), multiple attackers."""
    if s.kind != "melee":
        return
    r = s.rules
    crowd = [f for f in s.fighting(s.target) if f.side == s.attacker.side]
    if all(f.id != s.attacker.id for f in crowd):
        crowd.append(s.attacker)
    most = _surround_room(s)
    if r["surrounded_bonus"] and len(crowd) > r["surrounded_after"]:
        if back_to_wall(s.battle, s.target):
            s.notes.append(f"{s.target.label} has its back to a wall: no surrounded bonus")
        else:
            s.add(s.att, "surrounded", f"surrounded ({min(len(crowd), most)} attackers)", r["surrounded_bonus"],
                  r["surrounded_rule"])
    if r["multiple_attackers_bonus"] and len(crowd) > 1:
        s.add(s.att, "multiple-attackers", f"multiple attackers ({len(crowd)})",
              r["multiple_attackers_bonus"] * (len(crowd) - 1),
              r["multiple_attackers_rule"])


def _surround_room(s: AttackSheet) -> int:
    """odnd MISC COMBAT RULES: only so many can get at one figure in melee in a round (surround_most, by its
    size; a smaller attacker counts half, a larger double). Refuses a fresh attacker beyond that; the most
    attackers of the attacker's size (a large number where there is no limit)."""
    r = s.rules
    if not r["surround_most"]:
        return 99
    room = r["surround_most"][SIZE_ORDER.get(s.target.size, 2)]
    weight = _surround_weight(s.attacker)
    if s.ctx.free_attack or s.attacker.id in s.t_state.melee_attackers:
        return int(room / weight)
    taken = sum(_surround_weight(s.battle.figures[f]) for f in s.t_state.melee_attackers
                if f in s.battle.figures and s.battle.able(f))
    if taken + weight > room + 1e-9:
        rule = s.rs.cite(r["surround_rule"])
        s.refusals.append(Refusal.of("attack.surrounded", who=s.attacker.label, target=s.target.label,
                                     most=room, taken=taken, size=s.target.size, rule=rule))
        s.choice_note(rule)
    return int(room / weight)


def _surround_weight(fig) -> float:
    size = SIZE_ORDER.get(fig.size, 2)
    return 0.5 if size < 2 else 1.0 if size == 2 else 2.0 ** (size - 2)


def _ground(s: AttackSheet) -> None:
    r = s.rules
    rise = height_ft(s.battle.map, s.attacker) - height_ft(s.battle.map, s.target)
    if rise >= r["high_ground_min_ft"]:
        s.add(s.att, "high-ground", f"higher ground ({plain_number(rise)} ft above)", r["higher_bonus"], r["high_ground_rule"])
    elif -rise >= r["high_ground_min_ft"]:
        s.add(s.att, "low-ground", f"lower ground ({plain_number(-rise)} ft below)", r["lower_penalty"], r["high_ground_rule"])


def _mounts(s: AttackSheet) -> None:
    r = s.rules
    # A rider on its mount fights mounted as a one-figure knight does; a ridden mount counts as mounted when
    # attacked where the ruleset says so (bfrpg Mounted Combat: the mount gets the +1 AC too).
    a_mounted, t_mounted = fights_mounted(s.battle, s.attacker.id), counts_mounted(s.battle, s.target.id)
    if a_mounted:
        # Attacking from a mount (cnc Situational Modifiers; bfrpg Mounted Combat: shooting from a mount
        # moving faster than 30 ft in the round).
        if s.kind == "melee":
            s.add(s.att, "from-mount", "melee from a mount", r["from_mount_melee"], r["from_mount_rule"])
        else:
            s.add(s.att, "from-mount", "shooting from a mount", r["from_mount_ranged"], r["from_mount_rule"])
            moved = s.battle.state_of(s.attacker.mount).moved_ft if s.attacker.mount else s.a_state.moved_ft
            if moved > r["from_mount_moving_over_ft"]:
                s.add(s.att, "from-mount", f"shooting from a mount that moved {plain_number(moved)} ft",
                      r["from_mount_moving_ranged"], r["from_mount_rule"])
    if s.kind != "melee":
        return
    cancel = r["polearm_cancels_mounted"] and (
        (not a_mounted and s.weapon["set"]) or
        (not t_mounted and weapon_data(s.battle, s.target.ready_weapon)["set"]))
    if a_mounted and not t_mounted and not cancel:
        s.add(s.att, "mounted", "mounted against a foe on foot", r["mounted_hit"], r["mounted_rule"])
    if t_mounted and not a_mounted and not cancel:
        rule = r["mounted_rule"] if fights_mounted(s.battle, s.target.id) else s.rs.section("mounts")["mounted_rule"]
        s.add(s.att, "mounted", "on foot against a mounted foe", r["vs_mounted_hit"], rule)
        s.add(s.dfn, "mounted", "mounted against a foe on foot", r["mounted_defense"], rule)
    if cancel and a_mounted != t_mounted:
        s.notes.append("a polearm or long spear cancels the mounted modifiers")


# ----- what kind of attack, and what the attacker did this round -----
def _charge_and_set(s: AttackSheet) -> None:
    r = s.rules
    charge_rule = s.rs.section("charge")["rule"]
    if s.ctx.charge:
        s.add(s.att, "charge", "charge", r["charge_hit"], charge_rule)
        if r["charge_negated_if_hit_first"] and s.target.id in s.a_state.hit_by:
            s.notes.append(f"{s.target.label} hit {s.attacker.label} first: the charge is negated (no extra damage)")
        else:
            if r["charge_damage_multiplier"] > 1:
                s.mult.append(Modifier("charge", r["charge_damage_multiplier"], s.rs.cite(charge_rule), "charge"))
            s.add(s.dmg, "charge", "charge", r["charge_damage_bonus"], charge_rule)
    if s.ctx.set_vs_charge:
        s.add(s.att, "set-vs-charge", "set against the charge", r["set_hit"], r["set_rule"])
        if r["set_damage_multiplier"] > 1:
            s.mult.append(Modifier("set against a charge", r["set_damage_multiplier"], s.rs.cite(r["set_rule"]),
                                   "set-vs-charge"))


def _attack_kind(s: AttackSheet) -> None:
    r = s.rules
    battle = s.battle
    if s.ctx.parting_shot:
        ps = s.rs.section("parting_shots")
        s.add(s.att, "parting-shot", "parting shot", ps["attack_bonus"], ps["rule"])
    aim = s.a_state.aim
    if aim and aim.get("target") == s.target.id and s.kind == "ranged":
        wanted = battle.round - 1 if r["aim_next_round"] else battle.round
        if aim.get("round") == wanted:
            s.add(s.att, "aimed", "aimed shot", r["aim_bonus"], r["aim_rule"])
    if s.t_state.aim and s.t_state.aim.get("round") == battle.round and not r["aim_next_round"]:
        s.add(s.att, "target-aiming", "target standing still to aim", r["aim_target_bonus"], r["aim_rule"])
    if s.a_state.withdrawing:
        s.add(s.att, "withdrawal", "fighting withdrawal", r["withdraw_attack"], "fighting-withdrawal")
    if s.a_state.defense:
        style = s.rs.defense(s.a_state.defense)
        if style:
            if style["formula"] == "trade":
                s.add(s.att, "stance", f"{style['style']} (SC traded for DEF)", -s.a_state.defense_amount,
                      style["rule"])
            else:
                s.add(s.att, "stance", style["style"], style["attack_penalty"], style["rule"])
    if s.ctx.subdue and not s.weapon["subdual"]:     # the flat of the blade; a fist strikes to subdue anyway
        s.add(s.att, "subdue", "attacking to subdue", r["subdue_hit"], r["subdue_rule"])
    round_rules = s.rs.section("round")
    if s.a_state.move_mode in ("run", "jog") and round_rules["run_attack_hit"]:
        s.add(s.att, "ran", "ran before attacking", round_rules["run_attack_hit"], round_rules["rule"])
    if s.ctx.surprise_round and r["surprise_round_hit"]:
        s.add(s.att, "surprise", "surprise", r["surprise_round_hit"], s.rs.section("surprise")["rule"])
    if s.t_state.has("surprised") and s.t_state.surprise_bonus:
        s.add(s.att, "ambush", "ambush", s.t_state.surprise_bonus, s.rs.section("surprise")["rule"])
    if s.t_state.has("surprised") and s.t_state.surprise_damage:
        s.add(s.dmg, "ambush", "completely surprised", s.t_state.surprise_damage, s.rs.section("surprise")["rule"])


def _unexpected(s: AttackSheet) -> None:
    """d100 Surprise: an unaware target (no ambush) before its first fight, or one struck from behind while
    it fights another foe: a to-hit bonus, and it keeps only part of its defense."""
    sur = s.rs.section("surprise")
    if s.t_state.off_guard and sur["unaware_hit"]:
        s.add(s.att, "unaware", "target not expecting any attack", sur["unaware_hit"], sur["unaware_rule"])
        _defense_kept(s, sur["unaware_defense"], "unaware", sur["unaware_rule"])
    elif (sur["in_combat_hit"] and facing_arc(s.target, s.attacker) in sur["in_combat_arcs"]
          and tuple(sorted((s.attacker.id, s.target.id))) not in s.battle.state.fought
          and any(f.id != s.attacker.id for f in s.fighting(s.target))):
        s.add(s.att, "unexpected", "first blow from behind while it fights another: not expected",
              sur["in_combat_hit"], sur["in_combat_rule"])
        _defense_kept(s, sur["in_combat_defense"], "unexpected", sur["in_combat_rule"])


def _defense_kept(s: AttackSheet, fraction: str, key: str, rule: str) -> None:
    """The target keeps only `fraction` of its defense above the bare base (AC 10, DEF 0)."""
    part = Fraction(fraction)
    bonus = s.t_prof["def"] if s.rs.d100 else s.t_prof["ac"] - 10
    if part >= 1 or bonus <= 0:
        return
    lost = bonus - math.floor(bonus * part)
    s.add(s.dfn, key, f"keeps only {fraction} of its defense", -lost, rule)


def _missiles(s: AttackSheet) -> None:
    if s.kind != "ranged":
        return
    r = s.rules
    battle = s.battle
    if 0 <= s.band_index < 3:
        s.add(s.att, "range", f"{s.band} range", r["range_band_mods"][s.band_index], r["range_rule"])
    _target_movement(s)
    _size(s)
    if s.dist <= 5 and r["ranged_engaged_penalty"]:
        unaware = s.from_rear or s.t_state.has("surprised")
        if unaware and r["ranged_engaged_unaware_exempt"]:
            s.notes.append(f"{s.target.label} is unaware of the shooter: no {r['ranged_engaged_penalty']} for the "
                           f"range; short range and from behind instead")
            if not s.from_rear:
                s.add(s.att, "rear", "unaware target (as from behind)", s.rules["rear_bonus"], r["ranged_rule"])
        else:
            s.add(s.att, "point-blank", "target within 5 ft of the shooter", r["ranged_engaged_penalty"],
                  r["ranged_rule"])
    if s.fighting(s.attacker):
        s.add(s.att, "missile-in-melee", f"{s.weapon_name} used in melee", s.weapon["in_melee_penalty"], r["ranged_rule"])
    target_fighting = s.fighting(s.target)
    friends = tuple(f.id for f in target_fighting if f.side == s.attacker.side and f.id != s.attacker.id)
    if target_fighting and r["ranged_fighting_target"]:
        s.add(s.att, "into-melee", "target fighting in melee", r["ranged_fighting_target"], r["ranged_rule"])
    names = ", ".join(battle.figures[f].label for f in friends)
    if friends and r["into_melee"] == "margin":
        exempt = SIZE_ORDER.get(s.target.size, 2) >= 3 and all(
            SIZE_ORDER.get(battle.figures[f].size, 2) <= 2 for f in friends)
        if exempt:
            friends = ()
            s.notes.append(f"{s.target.label} is large and its melee foes are not: no risk to friends")
        elif s.ctx.careful:
            s.add(s.att, "into-melee", "careful shot into melee", r["into_melee_careful_penalty"], r["into_melee_rule"])
            friends = ()
        else:
            s.notes.append(f"a miss by less than {r['into_melee_margin']} hits a friend in the melee ({names})")
    elif friends and r["into_melee"] != "none":
        s.notes.append(f"shooting into a melee with friends ({names})")
    s.friends = friends
    if s.weapon["grenade"] and s.weapon["splash"] and s.rs.section("missiles")["splash_hits_target"]:
        s.splash = s.weapon["splash"]
        s.notes.append(f"a direct hit also splashes {s.target.label}: +{s.splash}, no save "
                       f"({s.rs.cite(s.rs.section('missiles')['splash_rule'])})")


def _target_movement(s: AttackSheet) -> None:
    """Missiles against a moving (or still) target: by how fast it moves this round where the ruleset has
    a speed table (d100: its declared move counts from the start of the round), else by whether it ran."""
    r = s.rules
    t_state = s.t_state
    rule = r["target_movement_rule"]
    moved = _moved_this_round(s.battle, s.target.id)
    if s.target.mount:      # a rider moves as its mount moved
        moved = max(moved, _moved_this_round(s.battle, s.target.mount))
    if r["moving_mount_ranged"] and moved > 0 and counts_mounted(s.battle, s.target.id):
        # spelljammer Movement Modifiers: a rider carried by its moving mount is a target on a moving mount;
        # its own pace (stationary, walking, running) is its mount's, so no speed row is added on top.
        s.add(s.att, "target-moving-mount", "target on a moving mount", r["moving_mount_ranged"], rule)
        return
    if r["target_speed_ranged"]:
        rows = [row for row in sorted(r["target_speed_ranged"], key=lambda row: row["above_multiple"])
                if moved > s.target.move_ft * row["above_multiple"] + 1e-9]
        if rows:
            row = rows[-1]
            s.add(s.att, "target-running", f"target moving over {row['above_multiple']:g}x its move "
                  f"({plain_number(moved)} ft)", row["modifier"], rule)
        elif moved == 0:
            s.add(s.att, "target-stationary", "target stationary", r["stationary_target_ranged"], rule)
    elif t_state.ran_last_action or t_state.move_mode in ("run", "jog", "charge"):
        s.add(s.att, "target-running", "target running", r["running_target_ranged"], rule)
    elif t_state.moved_ft == 0 and not t_state.ran_last_action:
        s.add(s.att, "target-stationary", "target stationary", r["stationary_target_ranged"], rule)


def _moved_this_round(battle, figure_id: str) -> float:
    """How far a figure moves this round: what it has walked, or (d100) the whole of its declared move."""
    order = battle.state.move_orders.get(figure_id)
    return max(battle.state_of(figure_id).moved_ft, order.cost_ft if order is not None else 0.0)


def _size(s: AttackSheet) -> None:
    table = s.rules["size_ranged"]
    if table:
        s.add(s.att, "size", f"{s.target.size} target", table[SIZE_ORDER.get(s.target.size, 2)], s.rules["size_ranged_rule"])


def _subdual(s: AttackSheet) -> None:
    """Of the subdual damage a blow does, one point in how many is real (0: none): the ruleset's number,
    a strong attacker's (odnd Empty Hand Attacks: 2 points in 2 with STR 16-18), none for pulled punches."""
    if not (s.ctx.subdue or s.weapon["subdual"]):
        return
    dmg = s.rs.section("damage")
    rule = dmg["subdual_rule"]
    if s.ctx.subdue and s.weapon["subdual"] and dmg["pulled_punches"]:
        s.real_every = 0
        s.notes.append(f"{s.attacker.label} pulls its punches: all the damage is temporary ({s.rs.cite(rule)})")
        return
    s.real_every = dmg["subdual_real_every"]
    if dmg["subdual_real_every_strong"] and s.a_prof["str_mod"] >= dmg["strong_str_mod"]:
        s.real_every = dmg["subdual_real_every_strong"]
        s.choice_note(s.rs.cite(dmg["strong_rule"]))
    if s.real_every:
        points = "every point" if s.real_every == 1 else f"1 point in every {s.real_every}"
        s.notes.append(f"subdual damage: {points} is real, the rest temporary ({s.rs.cite(rule)})")


def _cover(s: AttackSheet) -> None:
    cover_rules = s.rs.section("cover_effects")
    if s.kind != "ranged" and not cover_rules["in_melee"]:
        return
    sight, aside = cover_sight(s.battle, s.attacker, s.target)
    if aside:
        names = ", ".join(f.label for f in aside)
        s.notes.append(f"{names} not between {s.attacker.label} and {s.target.label}: no cover from "
                       + ("them" if len(aside) > 1 else "it"))
        s.choice_note(s.rs.cite("cover-between"))
    for degree, table, mode, what in ((sight.cover, cover_rules["hard"], cover_rules["hard_mode"], "cover"),
                                      (sight.concealment, cover_rules["soft"], cover_rules["soft_mode"], "concealment")):
        value = table[COVER_INDEX[degree]] if COVER_INDEX[degree] < len(table) else 0
        if value:
            s.add(s.dfn if mode == "ac" else s.att, what, f"{degree} {what}", value, cover_rules["rule"])


_FAMILIES = (_position, _hold, _ability, _wounds, _attacker_conditions, _facing, _blindside, _crowd, _ground, _mounts, _charge_and_set,
             _attack_kind, _unexpected, _missiles, _subdual, _cover, shield, dexterity, target_stances, target_conditions, helplessness,
             damage_bonus)


def opposite_ally(battle, attacker, target):
    """An ally of the attacker on the far side of the target, within 5 ft of it (flanking)."""
    toward_attacker = facing_arc(target, attacker)      # octants counted from the target's facing
    for ally in battle.figures.values():
        if ally.side != attacker.side or ally.id == attacker.id or not battle.able(ally.id):
            continue
        if gap_ft(battle, ally, target) > 5:
            continue
        if (facing_arc(target, ally) - toward_attacker) % 8 == 4:
            return ally
    return None
