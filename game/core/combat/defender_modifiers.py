"""The target's side of an attack (shield, dexterity, stances, conditions, helplessness) and its
damage: families of modifiers that attack_breakdown (combat/modifiers.py) runs on its sheet."""
from __future__ import annotations

import math

from ..values.events import Modifier
from ..mounts import jousting
from .attack_sheet import AttackSheet
from .odds import ParryTerms
from .reach import SIZE_ORDER, facing_arc


def shield(s: AttackSheet) -> None:
    r = s.rules
    if s.t_prof["shield"] == "none":
        return
    lost, rule = "", ""
    if (s.from_rear and r["rear_no_shield"]) or (s.from_flank and r["flank_no_shield"]):
        lost = "attacked from " + ("behind" if s.from_rear else "the flank")
        rule = r["rear_rule"] if s.from_rear else r["flank_rule"]
    elif s.ctx.parting_shot and r["parting_shot_no_shield"]:
        lost, rule = "turned away from the attacker", s.rs.section("parting_shots")["rule"]
    elif r["shield_attackers"] and s.attacker.id not in s.t_state.shield_used_by:
        covers = r["shield_attackers"][["small", "medium", "large"].index(s.t_prof["shield"])]
        if len(s.t_state.shield_used_by) >= covers:
            lost = f"its {s.t_prof['shield']} shield already covers {covers} other attacker(s) this round"
            rule = r["shield_rule"]
    if lost:
        s.add(s.dfn, "no-shield", f"no shield: {lost}", -s.t_prof["shield_bonus"], rule)


def dexterity(s: AttackSheet) -> None:
    r = s.rules
    dex = s.t_prof["dex_mod"]
    if dex <= 0:
        return
    t_state = s.t_state
    lost = ""
    if s.from_rear and r["rear_no_dex"]:
        lost, rule = "attacked from behind", r["rear_rule"]
    elif s.from_flank and r["flank_no_dex"]:
        lost, rule = "attacked from the flank", r["flank_rule"]
    elif t_state.charging and r["charge_no_dex"]:
        lost, rule = "charging", s.rs.section("charge")["rule"]
    elif t_state.has("surprised") and r["surprised_no_dex"]:
        lost, rule = "surprised", s.rs.section("surprise")["rule"]
    elif t_state.aim and t_state.aim.get("round") == s.battle.round and not r["aim_next_round"]:
        lost, rule = "taking careful aim", r["aim_rule"]
    if lost:
        s.add(s.dfn, "no-dex", f"no DEX bonus: {lost}", -dex, rule)


def target_stances(s: AttackSheet) -> None:
    r = s.rules
    t_state = s.t_state
    if t_state.charging and t_state.charging == s.attacker.id and s.ctx.charge \
            and jousting(s.battle, s.attacker.id, s.target.id, s.weapon_name):
        s.notes.append(f"{s.attacker.label} and {s.target.label} joust: the charge's AC penalty does not count "
                       f"between the two ({s.rs.cite(s.rs.section('mounts')['joust_rule'])})")
    elif t_state.charging or t_state.announced_charge:
        s.add(s.dfn, "charged", "charged this round" if t_state.charging else "announced a charge this round",
              r["charge_defense"], s.rs.section("charge")["rule"])
    if t_state.hasty:
        s.add(s.dfn, "hasty", "disengaging hastily", r["hasty_defense"], s.rs.section("disengage")["rule"])
    if t_state.withdrawing:
        s.add(s.dfn, "withdrawal", "fighting withdrawal", r["withdraw_defense"], "fighting-withdrawal")
    if not t_state.defense:
        return
    style = s.rs.defense(t_state.defense)
    if not style:
        return
    value = defense_bonus(style, s.t_prof, t_state.defense_amount)
    faced = facing_arc(s.target, s.attacker) in (0, 1, 7)
    used = t_state.defended_against
    if s.kind == "ranged" and style["ranged_penalty"]:
        s.add(s.att, "target-dodging", f"target dodging ({style['style']})", style["ranged_penalty"], r["dodging_rule"])
    if s.kind == "ranged" and style["melee_only"]:
        s.notes.append(f"{s.target.label}'s {style['style']} counts against melee only")
        s.choice_note(s.rs.cite(r["dodging_rule"]))
    elif style["faced_only"] and not faced:
        s.notes.append(f"{s.target.label}'s {style['style']} only works against attackers in front")
    elif style["attackers"] and s.attacker.id not in used and len(used) >= style["attackers"]:
        s.notes.append(f"{s.target.label}'s {style['style']} already covers {style['attackers']} attacker(s)")
    else:
        s.add(s.dfn, "stance", style["style"], value, style["rule"])


def target_conditions(s: AttackSheet) -> None:
    holder_exempt = s.rs.section("manoeuvres")["holder_exempt"]
    for name in sorted(s.t_state.conditions):
        cond = s.rs.condition(name)
        if cond and name == "held" and holder_exempt and s.attacker.id in s.t_state.held_by:
            s.notes.append(f"{s.target.label} is held by {s.attacker.label}: the held penalty counts only for others")
            continue
        if cond:
            value = cond["ranged_defense"] if s.kind == "ranged" else cond["defense"]
            s.add(s.dfn, "target-condition", f"target {name}", value, cond["rule"])


def helplessness(s: AttackSheet) -> None:
    r = s.rules
    if not (s.t_state.has("helpless") or s.t_state.has("unconscious")) or s.kind != "melee":
        return
    if r["helpless"] == "auto-double-max":
        s.auto_hit = "helpless"
        s.mult.append(Modifier("helpless: maximum damage doubled", 2, s.rs.cite("helpless"),
                               "helpless"))
    elif r["helpless"] == "bonus":
        s.add(s.att, "helpless", "target helpless", r["helpless_hit"], "helpless")


# ----- damage -----
def damage_bonus(s: AttackSheet) -> None:
    dmg_rules = s.rs.section("damage")
    ability = s.ability(dmg_rules)
    if ability != "none":
        s.add(s.dmg, "ability", f"{ability.upper()} modifier", s.a_prof.get(f"{ability}_mod", 0), dmg_rules["rule"])


def sheet_damage_dice(s: AttackSheet) -> str:
    big = SIZE_ORDER.get(s.target.size, 2) >= 3
    return s.weapon["damage_large"] if (big and s.weapon["damage_large"]) else s.weapon["damage"]


# The order is the order the modifiers are listed in (the log, the tooltip, the CLI).


def defense_bonus(style: dict, profile: dict, amount: int = 0) -> int:
    """What a defensive stance adds to AC/DEF."""
    if style["formula"] == "trade":
        return amount // 2
    if style["formula"] == "weapon-rank":
        rank_part = profile["weapon_rank"] * style["rank_multiplier"]
        rank_part = math.ceil(rank_part) if style["round_up"] else math.floor(rank_part)
        return style["bonus"] + rank_part
    return style["bonus"]


# ----- the parry a defending figure makes (bfrpg partial and total defence) -----
def parry_terms(battle, defender_id: str) -> tuple[ParryTerms | None, str]:
    """The parry this figure would make against the next melee hit (None when it makes none), and
    why not ("" when its stance has no parry roll). The Breakdown carries it: the roll and the odds both read it there."""
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
