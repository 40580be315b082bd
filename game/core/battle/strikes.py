"""Rolling an attack and applying what it does: the hit, the damage, criticals and fumbles,
parries, missiles that miss into a melee, and free attacks (parting shots).

Every strike goes through `resolve(battle, breakdown, kind, rule, reason)`: the breakdown it rolls
against is the same one the what-if view shows (combat.modifiers.attack_breakdown).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..combat import damage as damage_mod
from ..combat.attack import parry, roll_attack
from ..combat.breakdown import AttackContext, Breakdown
from ..combat.dice import parse_dice
from ..combat.modifiers import attack_breakdown
from ..combat.odds import near_miss_chance
from ..combat.reach import fighting, in_melee_reach, melee_weapon, weapon_data
from ..combat.state import condition_until
from ..values.events import Event, EventKind, Modifier
from . import missiles, mount_strikes

# What each kind of strike is called in the log.
STRIKE_WORDS = {
    EventKind.ATTACK: "attack",
    EventKind.CHARGE_ATTACK: "charge attack",
    EventKind.PARTING_SHOT: "parting shot",
    EventKind.FREE_ATTACK: "free attack",
    EventKind.REACH_ATTACK: "reach attack on a closing foe",
    EventKind.SET_WEAPON_STRIKE: "set weapon",
    EventKind.STRIKES_FIRST: "strikes first",
    EventKind.FRIENDLY_FIRE: "shot into the melee",
}


def resolve(battle, bd: Breakdown, kind: EventKind, rule: str, reason: str, consume: bool = True) -> list[Event]:
    """Roll an attack from its breakdown and apply it. Returns the events."""
    if bd.kind == "ranged" and bd.friends_in_melee and battle.ruleset.section("modifiers")["into_melee"] == "table":
        table_events, bd, kind, rule = _into_melee_table(battle, bd, kind, rule)
        return table_events + _resolve(battle, bd, kind, rule, reason, consume)
    return _resolve(battle, bd, kind, rule, reason, consume)


def _resolve(battle, bd: Breakdown, kind: EventKind, rule: str, reason: str, consume: bool) -> list[Event]:
    rs = battle.ruleset
    attacker, target = battle.figures[bd.attacker], battle.figures[bd.target]
    ast, tst = battle.states[bd.attacker], battle.states[bd.target]
    tprof = battle.profile(bd.target)
    result = roll_attack(battle, bd, battle.rng, tprof, tst)
    tst.off_guard = False               # attacked once, it expects the next
    opened = tuple(sorted((bd.attacker, bd.target))) not in battle.state.fought
    if consume:
        if bd.kind == "melee" and bd.attacker not in tst.melee_attackers:
            tst.melee_attackers.append(bd.attacker)
        ast.attacks_made += 1
        if tprof["normal_man"]:
            ast.attacks_vs_normal_men += 1
        ast.attacked = True
    battle.state.fought.add(tuple(sorted((bd.attacker, bd.target))))
    if bd.target not in ast.struck:
        ast.struck.append(bd.target)
        if rs.section("parting_shots")["busy_means"] == "attacking-only-an-ally":
            battle.figures_moved()      # whom it attacks decides whether leaving it draws a free attack
    if bd.attacker not in tst.shield_used_by:
        tst.shield_used_by.append(bd.attacker)
    if tst.defense and bd.attacker not in tst.defended_against:
        tst.defended_against.append(bd.attacker)
    events: list[Event] = []
    extra_words = []
    friend_hit = None
    grenade = bd.kind == "ranged" and weapon_data(battle, bd.weapon).get("grenade")
    if bd.kind == "ranged" and bd.friends_in_melee and not result.hit and not grenade:
        friend_hit, rolls = _into_melee_miss(battle, bd, result)
        result.rolls.extend(rolls)
    parried = False
    if result.hit and bd.kind == "melee" and tst.defense:
        parried, prolls, pwords = parry(battle, bd, result.total, result.damage, battle.rng)
        result.rolls.extend(prolls)
        if pwords:
            extra_words.append(pwords)
    what = STRIKE_WORDS[kind]
    text = attack_text(battle, bd, result, what, parried)
    if extra_words:
        text += "; " + "; ".join(extra_words)
    text += f" ({rule})"
    if reason:
        text = f"{reason}: " + text
    events.append(Event(
        kind=kind, rule=rule, actor=bd.attacker, target=bd.target,
        rolls=tuple(result.rolls), modifiers=tuple([Modifier(bd.attack_name, bd.base_attack, bd.rule, "base")] + list(bd.attack_mods)),
        total=result.total, target_number=bd.target_number,
        outcome=("parried" if parried else "hit" if result.hit else "miss"), text=text,
        squares=(attacker.pos, target.pos),
        data={"breakdown": bd.to_json(), "die": result.die_result, "hit": result.hit,
              "damage": 0 if parried else result.damage, "damage_text": result.damage_text,
              "critical": result.critical, "fumble": result.fumble, "condition": result.condition,
              "notes": result.notes, "what": what},
    ))
    if (opened and kind != EventKind.PARTING_SHOT and rs.section("modifiers")["rear_blindsides"]
            and any(m.key == "rear" for m in bd.attack_mods) and battle.able(bd.target)):
        tst.blindsided_by[bd.attacker] = battle.round
        cite = rs.cite("blindsided")
        events.append(Event(kind=EventKind.CONDITION, rule=cite, actor=bd.attacker, target=bd.target,
                            outcome="caught-from-behind",
                            text=f"{target.label} is caught from behind by {attacker.label}: it cannot strike back this "
                                 f"round; next round {attacker.label} rolls with advantage and it with disadvantage "
                                 f"({cite})"))
    if result.hit and not parried:
        tst.hit_by.append(bd.attacker)
        events.extend(_after_hit(battle, bd, result))
        if mount_strikes.is_joust(battle, bd, kind):
            events.extend(mount_strikes.joust_unhorse(battle, bd, result.damage))
    elif not result.hit:
        events.extend(mount_strikes.miss_hits_mount(battle, bd, result))
    if result.fumble:
        events.extend(_apply_fumble(battle, bd, result))
    if friend_hit:
        events.extend(friend_hit)
    elif bd.kind == "ranged" and kind != EventKind.FLIES_ON:
        events.extend(missiles.after_hit(battle, bd) if result.hit else missiles.after_miss(battle, bd))
    return events


def attack_text(battle, bd: Breakdown, result, what: str, parried: bool) -> str:
    attacker, target = battle.figures[bd.attacker], battle.figures[bd.target]
    head = f"{attacker.label}'s {what} at {target.label}" if what != "attack" else f"{attacker.label} attacks {target.label}"
    if bd.resolution == "d100":
        mods = "".join(f", {m.value:+d} {m.name}" for m in bd.attack_mods)
        dmods = "".join(f", {m.value:+d} {m.name}" for m in bd.defense_mods)
        body = (f"d100 {result.die_result:02d} vs {bd.target_number} (SC {bd.base_attack}{mods} = {bd.attack_total}; "
                f"DEF {bd.base_defense}{dmods} = {bd.defense_total})")
    elif bd.auto_hit:
        body = "no attack roll"
    else:
        parts = [f"d20 {result.die_result}"]
        if bd.base_attack:
            parts.append(f"{bd.base_attack:+d} {bd.attack_name}")
        parts += [f"{m.value:+d} {m.name}" for m in bd.attack_mods]
        defense = f"{bd.defense_name} {bd.defense_total}"
        if bd.defense_mods:
            defense += f" ({bd.base_defense}" + "".join(f" {m.value:+d} {m.name}" for m in bd.defense_mods) + ")"
        body = ", ".join(parts) + f" = {result.total} vs {defense}"
    outcome = result.outcome
    if parried:
        outcome += ", but parried"
    elif result.hit:
        outcome += f", {result.damage} damage" + (f" ({result.damage_text})" if result.damage_text else "")
        if result.subdual:
            outcome += " subdual"
    return f"{head} with {bd.weapon}: {body}: {outcome}"


def _after_hit(battle, bd: Breakdown, result) -> list[Event]:
    rs = battle.ruleset
    events: list[Event] = []
    target = battle.figures[bd.target]
    tst = battle.states[bd.target]
    dmg_rule = rs.cite(rs.section("damage")["rule"])
    events.extend(damage_mod.apply_damage(battle, bd.target, result.damage, result.subdual, dmg_rule, bd.real_every))
    if result.critical == "grievous":
        tst.prot_lost += 1
        events.append(Event(kind=EventKind.GRIEVOUS, rule=rs.cite("grievous-hits"), actor=bd.attacker,
                            target=bd.target,
                            text=f"{target.label}'s armour loses 1 PROT until repaired; a grievous wound may follow "
                                 f"(the grievous tables are not in the document) ({rs.cite('grievous-hits')})"))
    if result.critical in ("grievous", "critical") and rs.d100 and bd.kind == "ranged":
        w = weapon_data(battle, bd.weapon)
        if w["stuck_dex"]:
            dex = w["stuck_dex"] - (1 if result.critical == "grievous" else 0)
            tst.stuck.append([dex, w["stuck_bleed"]])
            rule = rs.cite("stuck-missiles")
            events.append(Event(kind=EventKind.STUCK, rule=rule, target=bd.target,
                                text=f"the {bd.weapon}'s missile sticks in {target.label}: {dex} DEX and "
                                     f"{w['stuck_bleed']} bleeding a round until removed ({rule})"))
    if result.condition and battle.able(bd.target):
        tst.conditions[result.condition] = condition_until(battle, result.condition)
        rule = rs.cite("critical-effects")
        events.append(Event(kind=EventKind.CONDITION, rule=rule, target=bd.target, outcome=result.condition,
                            text=f"{target.label} is {result.condition} ({rule})"))
    if rs.section("damage")["stun_over_con"] and battle.able(bd.target):
        threshold = damage_mod.stun_threshold(rs, battle.profile(bd.target), target.size, tst.max_hp)
        if result.damage > threshold:
            tst.conditions["stunned"] = battle.round
            s = battle.state
            tst.stunned_on = s.slots[s.slot_index].number if s.phase == "act" and s.slot_index < len(s.slots) else 99
            rule = rs.cite("stun")
            events.append(Event(kind=EventKind.STUNNED, rule=rule, target=bd.target, outcome="stunned",
                                text=f"{result.damage} damage is more than {target.label}'s CON {threshold}: stunned "
                                     f"for the rest of the round, its remaining attacks are lost ({rule})"))
    if not battle.able(bd.target) and target.altitude_ft > 0 and not tst.has("fled"):
        fall_ft = target.altitude_ft
        battle.set_figure(replace(target, altitude_ft=0))
        events.extend(damage_mod.fall(battle, bd.target, fall_ft, battle.rng))
    return events


def _apply_fumble(battle, bd: Breakdown, result) -> list[Event]:
    rs = battle.ruleset
    st = battle.states[bd.attacker]
    fig = battle.figures[bd.attacker]
    effect = result.fumble
    rule = rs.cite("fumble-effects") if rs.section("attack")["fumble"] == "table" else rs.cite(rs.section("attack")["rule"])
    if effect in ("weapon-breaks", "drop-weapon", "lose-next-attack"):
        st.no_attack_round = battle.round + 1
        words = {"weapon-breaks": "its weapon breaks", "drop-weapon": "it drops its weapon",
                 "lose-next-attack": "it fumbles"}[effect]
        return [Event(kind=EventKind.FUMBLE, rule=rule, actor=fig.id, outcome=effect,
                      text=f"{fig.label}: {words}; no attack next round ({rule})")]
    if effect == "stumble" and result.fumble_failed_check:
        rounds_roll = battle.rng.randint(1, 2)
        st.conditions["stumbling"] = battle.round + rounds_roll
        return [Event(kind=EventKind.FUMBLE, rule=rule, actor=fig.id, outcome=effect,
                      text=f"{fig.label} stumbles: -1 to combat rolls for {rounds_roll} round(s) ({rule})")]
    if effect == "sloppy" and result.fumble_failed_check:
        target = bd.target
        if battle.able(target) and in_melee_reach(battle, battle.figures[target], fig):
            return free_attack(battle, target, fig.id, rule, f"{fig.label}'s sloppy attack opens it up", parting=False)
    return []


def into_melee_row(rules: dict, friends: int, foes: int) -> tuple[dict, bool]:
    """(the Shooting Into Melee row for these numbers, whether it is the exact row). A melee the table
    does not list uses the row with the same friends (at most 3) and the nearest foes, fewer first."""
    table = rules["into_melee_table"]
    exact = next((row for row in table if row["friends"] == friends and row["foes"] == foes), None)
    if exact is not None:
        return exact, True
    same = [row for row in table if row["friends"] == min(friends, max(r["friends"] for r in table))] or table
    return min(same, key=lambda row: (abs(row["foes"] - foes), row["foes"])), False


def goes_at_friend(rules: dict, row: dict, rank: int, face: int) -> bool:
    """d100 Shooting Into Melee: a d100 face (plus weapon rank) at or under the row, or at or under
    the always-a-friend number, sends the shot at a friend."""
    return face <= rules["into_melee_always_friend"] or face + rank <= row["upto"]


def near_miss(rules: dict, margin: int) -> bool:
    """bfrpg Firing Into Melee: a miss by less than the margin strikes the friend instead."""
    return 0 < margin < rules["into_melee_margin"]


def melee_foes(battle, bd: Breakdown, friends: list) -> set:
    """The foes in the melee a shot goes into: the target and every foe fighting those friends."""
    shooter = battle.figures[bd.attacker]
    foes = {bd.target}
    for friend in friends:
        foes.update(f.id for f in fighting(battle, battle.figures[friend]) if f.side != shooter.side)
    return foes


@dataclass(frozen=True)
class IntoMeleeRisk:
    """What a shot into a melee may do to the shooter's friends there, as the roll decides it.
    `struck`: (friend id, chance it is struck, damage it takes if struck as (value, chance) pairs);
    `p_diverted`: the chance the shot goes at a friend before its roll (the target is then not
    shot at all: the table rule)."""
    how: str
    rule: str
    struck: tuple = ()
    p_diverted: float = 0.0

    @property
    def p_friend_struck(self) -> float:
        return sum(p for _f, p, _d in self.struck)


def into_melee_risk(battle, bd: Breakdown) -> IntoMeleeRisk:
    """The friends a ranged attack with this breakdown may strike, by the ruleset's into-melee rule:
    the odds of the same decisions `resolve` rolls (the table before the roll, a near miss, a miss
    flying on at each friend in turn)."""
    rules = battle.ruleset.section("modifiers")
    how = rules["into_melee"]
    rule = battle.ruleset.cite(rules["into_melee_rule"])
    friends = [f for f in bd.friends_in_melee if battle.able(f)]
    if bd.kind != "ranged" or not friends or how == "none":
        return IntoMeleeRisk("none", rule)
    odds = bd.odds()
    if how == "table":
        row, _exact = into_melee_row(rules, len(friends), len(melee_foes(battle, bd, friends)))
        rank = battle.profile(bd.attacker)["weapon_rank"]
        diverted = sum(1 for face in range(1, 101) if goes_at_friend(rules, row, rank, face)) / 100
        struck = []
        for friend in friends:
            fodds = attack_breakdown(battle, bd.attacker, friend, AttackContext(weapon=bd.weapon)).odds()
            struck.append((friend, diverted / len(friends) * fodds.p_hit, fodds.damage))
        return IntoMeleeRisk(how, rule, tuple(struck), diverted)
    if how == "margin":
        p = near_miss_chance(bd, rules["into_melee_margin"])
        struck = []
        for friend in friends:       # the friend struck is drawn at random; it takes the missile's dice
            dice = parse_dice(attack_breakdown(battle, bd.attacker, friend,
                                               AttackContext(weapon=bd.weapon, free_attack=True)).damage)
            struck.append((friend, p / len(friends), dice.totals() if dice.count else ((dice.bonus, 1.0),)))
        return IntoMeleeRisk(how, rule, tuple(struck))
    if how == "reroll-allies":
        missed = 1 - odds.p_hit
        struck = []
        for friend in friends:
            fodds = attack_breakdown(battle, bd.attacker, friend, AttackContext(weapon=bd.weapon, free_attack=True)).odds()
            struck.append((friend, missed * fodds.p_hit, fodds.damage))
            missed *= 1 - fodds.p_hit
        return IntoMeleeRisk(how, rule, tuple(struck))
    return IntoMeleeRisk("none", rule)


def _into_melee_table(battle, bd: Breakdown, kind: EventKind, rule: str):
    """d100 Shooting Into Melee: before the attack, d100 + weapon rank on the friends-and-foes table says
    whether the shot goes at a friend in the melee instead. (events, breakdown, kind, rule)"""
    rs = battle.ruleset
    rules = rs.section("modifiers")
    shooter = battle.figures[bd.attacker]
    friends = [f for f in bd.friends_in_melee if battle.able(f)]
    if not friends:
        return [], bd, kind, rule
    foes = melee_foes(battle, bd, friends)
    row, exact = into_melee_row(rules, len(friends), len(foes))
    roll = parse_dice("1d100").roll(battle.rng)
    rank = battle.profile(bd.attacker)["weapon_rank"]
    total = roll.total + rank
    always = roll.total <= rules["into_melee_always_friend"]
    at_friend = goes_at_friend(rules, row, rank, roll.total)
    cite = rs.cite(rules["into_melee_rule"] if exact else rules["into_melee_missing_rule"])
    victim = None
    if at_friend:
        victim = friends[0] if len(friends) == 1 else friends[battle.rng.randint(0, len(friends) - 1)]
    words = (f"{shooter.label} shoots into a melee of {len(friends)} friend(s) and {len(foes)} foe(s): d100 "
             f"{roll.total} + {rank} weapon rank = {total} vs {row['upto']} or less for a friend"
             + (f" ({roll.total} is {rules['into_melee_always_friend']} or less: always a friend)" if always else "")
             + (f": the shot goes at {battle.figures[victim].label}" if victim else ": the shot goes at its target"))
    words += rs.choice_words(cite)
    event = Event(kind=EventKind.INTO_MELEE, rule=cite, actor=bd.attacker, target=victim or bd.target, rolls=(roll,),
                  total=total, target_number=row["upto"], outcome="friend" if victim else "foe",
                  text=f"{words} ({cite})", data={"friends": len(friends), "foes": len(foes), "row": dict(row)})
    if victim is None:
        return [event], bd, kind, rule
    fbd = attack_breakdown(battle, bd.attacker, victim, AttackContext(weapon=bd.weapon))
    return [event], fbd, EventKind.FRIENDLY_FIRE, cite


def _into_melee_miss(battle, bd: Breakdown, result):
    """A missile that missed into a melee: does it strike a friend instead? (events or None, extra rolls)"""
    rs = battle.ruleset
    rules = rs.section("modifiers")
    how = rules["into_melee"]
    rule = rs.cite(rules["into_melee_rule"])
    friends = [f for f in bd.friends_in_melee if battle.able(f)]
    if not friends:
        return None, []
    if how == "margin" and near_miss(rules, result.margin):
        victim = friends[0] if len(friends) == 1 else friends[battle.rng.randint(0, len(friends) - 1)]
        fbd = attack_breakdown(battle, bd.attacker, victim, AttackContext(weapon=bd.weapon, free_attack=True))
        dmg = parse_dice(fbd.damage).roll(battle.rng)
        events = [Event(kind=EventKind.FRIENDLY_FIRE, rule=rule, actor=bd.attacker, target=victim, rolls=(dmg,),
                        total=dmg.total,
                        text=f"the missile missed by {result.margin}, less than {rules['into_melee_margin']}: it "
                             f"strikes {battle.figures[victim].label} instead for {dmg.total} damage ({rule})")]
        events.extend(damage_mod.apply_damage(battle, victim, dmg.total, False, rule))
        return events, [dmg]
    if how == "reroll-allies":
        events: list[Event] = []
        for victim in friends:
            fbd = attack_breakdown(battle, bd.attacker, victim, AttackContext(weapon=bd.weapon, free_attack=True))
            fres = roll_attack(battle, fbd, battle.rng, battle.profile(victim), battle.states[victim])
            text = (f"the missile flies on into the melee: against {battle.figures[victim].label} d20 "
                    f"{fres.die_result} = {fres.total} vs AC {fbd.defense_total}: "
                    + (f"hit, {fres.damage} damage" if fres.hit else "miss"))
            events.append(Event(kind=EventKind.FRIENDLY_FIRE, rule=rule, actor=bd.attacker, target=victim,
                                rolls=tuple(fres.rolls), total=fres.total, target_number=fbd.defense_total,
                                outcome="hit" if fres.hit else "miss", text=text + f" ({rule})"))
            if fres.hit:
                events.extend(damage_mod.apply_damage(battle, victim, fres.damage, False, rule))
                break
        return events, []
    return None, []


# ----- free attacks -----
def may_free_attack(battle, attacker_id: str, target_id: str) -> bool:
    if not battle.able(attacker_id) or not battle.able(target_id):
        return False
    ast = battle.state_of(attacker_id)
    if target_id in ast.free_attacked_by:
        return False
    style = battle.ruleset.defense(ast.defense) if ast.defense else None
    if style and style["no_parting_shot"]:
        return False
    if ast.blindsided_by.get(target_id) == battle.round:
        return False
    return not ast.has("surprised")


def free_attack_breakdown(battle, attacker_id: str, target_id: str, parting: bool) -> Breakdown:
    """The blow of a free attack (a parting shot, or the answer to a sloppy fumble): a melee blow,
    with a melee weapon when the ready one shoots."""
    ctx = AttackContext(parting_shot=parting, free_attack=True)
    bd = attack_breakdown(battle, attacker_id, target_id, ctx)
    if bd.kind != "melee":
        bd = attack_breakdown(battle, attacker_id, target_id,
                              replace(ctx, weapon=melee_weapon(battle, battle.figures[attacker_id])))
    return bd


def free_attack(battle, attacker_id: str, target_id: str, rule: str, reason: str, parting: bool) -> list[Event]:
    """A strike that uses up no attack: a parting shot, or the answer to a sloppy fumble."""
    battle.states[attacker_id].free_attacked_by.append(target_id)
    bd = free_attack_breakdown(battle, attacker_id, target_id, parting)
    kind = EventKind.PARTING_SHOT if parting else EventKind.FREE_ATTACK
    return resolve(battle, bd, kind, rule=rule, reason=reason, consume=False)
