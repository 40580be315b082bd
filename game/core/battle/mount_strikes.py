"""Blows that concern a mounted pair: a near miss on a rider that hits its mount (bfrpg Mounted
Combat), the one of the pair that delivers a mounted charge, a jousting lance that unhorses
(bfrpg Jousting), and a polearm pulling a rider off (odnd MISC COMBAT RULES).
"""
from __future__ import annotations

from ..combat import damage as damage_mod
from ..combat import manoeuvres as rolls
from ..combat.attack import roll_damage
from ..combat.breakdown import AttackContext, Breakdown
from ..combat.dice import die, parse_dice
from ..combat.modifiers import attack_breakdown
from ..combat.state import condition_until
from ..values.events import Event, EventKind
from ..mounts import jousting
from .budgets import attack_limit
from .riding import landing_square, set_riding, thrown_damage


def _rules(battle) -> dict:
    return battle.ruleset.section("mounts")


def miss_hits_mount(battle, bd: Breakdown, result) -> list[Event]:
    """bfrpg: an attack that misses a rider by 1 or 2 ([mounts] miss_hits_mount) but whose total would hit
    the mount's AC hits the mount instead (a natural miss hits nothing)."""
    most = _rules(battle)["miss_hits_mount"]
    rider = battle.figures[bd.target]
    if not most or not rider.mount or bd.resolution != "d20" or result.hit or not 0 < result.margin <= most:
        return []
    natural_miss = battle.ruleset.section("attack")["natural_miss"]
    if natural_miss and result.die_result <= natural_miss:
        return []
    mount = battle.figures[rider.mount]
    if not battle.able(mount.id):
        return []
    keys = {m.key for m in bd.attack_mods}      # the blow keeps what it was: a charge, a set spear
    mbd = attack_breakdown(battle, bd.attacker, mount.id, AttackContext(
        weapon=bd.weapon, free_attack=True, charge="charge" in keys, set_vs_charge="set-vs-charge" in keys))
    rs = battle.ruleset
    rule = rs.cite(_rules(battle)["rule"])
    if result.total < mbd.defense_total:
        return []
    dmg = roll_damage(battle, mbd, battle.rng)
    text = (f"the blow missed {rider.label} by {result.margin} ({result.total} vs {bd.defense_name} {bd.defense_total}) "
            f"but beats {mount.label}'s {mbd.defense_name} {mbd.defense_total}: it hits {mount.label} for {dmg.damage} "
            f"damage ({dmg.damage_text}) ({rule})")
    event = Event(kind=EventKind.HITS_MOUNT, rule=rule, actor=bd.attacker, target=mount.id, rolls=tuple(dmg.rolls),
                  total=result.total, target_number=mbd.defense_total, outcome="hit", text=text,
                  squares=(battle.figures[bd.attacker].pos, mount.pos),
                  data={"rider": rider.id, "margin": result.margin, "rider_defense": bd.defense_total,
                        "mount_defense": mbd.defense_total, "damage": dmg.damage})
    dmg_rule = rs.cite(rs.section("damage")["rule"])
    return [event] + damage_mod.apply_damage(battle, mount.id, dmg.damage, dmg.subdual, dmg_rule)


def one_of_the_pair_charges(battle, rider_id: str, mount_id: str) -> list[Event]:
    """bfrpg: only one of rider and mount delivers a mounted charge (here the rider, who guides it); the
    other does not attack that round."""
    if not _rules(battle)["only_one_charges"]:
        return []
    st = battle.state_of(mount_id)
    st.attacks_made = max(st.attacks_made, attack_limit(battle, mount_id))
    st.attacked = True
    rs = battle.ruleset
    rule = rs.cite(_rules(battle)["rule"])
    mount, rider = battle.figures[mount_id], battle.figures[rider_id]
    return [Event(kind=EventKind.CHARGE, rule=rule, actor=mount_id, outcome="no-attack",
                  text=f"{rider.label} delivers the mounted charge: only one of the pair may, so {mount.label} does not "
                       f"attack this round ({rule})")]


# ----- unhorsing -----
def is_joust(battle, bd: Breakdown, kind: EventKind) -> bool:
    """A mounted lance charge hitting a rider who bears a lance too (bfrpg Jousting)."""
    return kind == EventKind.CHARGE_ATTACK and jousting(battle, bd.attacker, bd.target, bd.weapon)


def joust_unhorse(battle, bd: Breakdown, damage: int) -> list[Event]:
    """The jouster hit saves vs death ray + STR, -1 per full 5 damage, or is unhorsed (prone, 1d6); failing by
    5 or more it is also stunned 1d3 rounds, by 10 or more knocked out 2d4 rounds."""
    rules = _rules(battle)
    rs = battle.ruleset
    rule = rs.cite(rules["joust_rule"])
    rider = battle.figures[bd.target]
    if not battle.able(rider.id) or not rider.mount:
        return []
    ability = rules["joust_save_ability"]
    bonus = battle.profile(rider.id).get(f"{ability}_mod", 0) if ability != "none" else 0
    steps = damage // rules["joust_damage_step"]
    save = rolls.save_roll(battle, rider.id, rules["joust_save"], (bonus - steps, f"{ability.upper()} {bonus:+d}, "
                                                                   f"-{steps} for {damage} damage"))
    head = f"{rider.label} is hit in the joust: {save.words}"
    if save.success:
        return [Event(kind=EventKind.UNHORSE, rule=rule, actor=bd.attacker, target=rider.id, rolls=tuple(save.rolls),
                      total=save.total, target_number=save.target_number, outcome="keeps-seat",
                      text=f"{head}; it keeps its seat ({rule})", data={"damage": damage})]
    failed_by = save.target_number - save.total
    mount = battle.figures[rider.mount]
    extra_rolls, words, outcome = [], "", "unhorsed"
    if failed_by >= rules["joust_out_margin"]:
        rounds = parse_dice(rules["joust_out_rounds"]).roll(battle.rng)
        extra_rolls.append(rounds)
        battle.state_of(rider.id).conditions["unconscious"] = battle.round + rounds.total
        words, outcome = f"; failed by {failed_by}: knocked out for {rounds.total} rounds ({rules['joust_out_rounds']})", "knocked-out"
    elif failed_by >= rules["joust_stun_margin"]:
        rounds = parse_dice(rules["joust_stun_rounds"]).roll(battle.rng)
        extra_rolls.append(rounds)
        battle.state_of(rider.id).conditions["stunned"] = battle.round + rounds.total
        words, outcome = f"; failed by {failed_by}: stunned for {rounds.total} rounds ({rules['joust_stun_rounds']})", "stunned"
    event = Event(kind=EventKind.UNHORSE, rule=rule, actor=bd.attacker, target=rider.id,
                  rolls=tuple(save.rolls) + tuple(extra_rolls), total=save.total, target_number=save.target_number,
                  outcome=outcome, text=f"{head}; it is unhorsed{words} ({rule})",
                  data={"damage": damage, "failed_by": failed_by})
    events = [event] + unseat(battle, rider.id, mount, rule, "unhorsed", prone=True)
    if outcome == "knocked-out":
        events.extend(battle.figure_fell(rider.id))
    return events


def unseat(battle, rider_id: str, mount, rule: str, cause: str, prone: bool) -> list[Event]:
    """Put the rider off its mount on a free square beside it; thrown (prone, with damage) when `prone`."""
    spot = landing_square(battle, mount, rider_id) or battle.figures[rider_id].pos
    set_riding(battle, rider_id, "")
    rider = battle.figures[rider_id]
    battle.set_figure(rider.moved_to(spot[0], spot[1], rider.facing, 0))
    if not prone:
        return []
    battle.state_of(rider_id).conditions["prone"] = condition_until(battle, "prone")
    return thrown_damage(battle, rider_id, mount, cause, rule, "", (), spot)


def polearm_unhorse(battle, attacker_id: str, bd: Breakdown) -> list[Event]:
    """odnd: a polearm's hit hooks the rider, who saves vs paralysis (+1 per 3 levels above the attacker) or is
    pulled off its mount (the document gives no damage and no fall: it lands on its feet beside the mount)."""
    rules = _rules(battle)
    rs = battle.ruleset
    rule = rs.cite(rules["polearm_rule"])
    rider = battle.figures[bd.target]
    mount = battle.figures[rider.mount]
    st = battle.state_of(attacker_id)
    st.attacks_made += 1
    st.attacked = True
    battle.state.fought.add(tuple(sorted((attacker_id, rider.id))))
    roll = die(battle.rng, 20)
    total = roll.total + bd.attack_total
    hit = total >= bd.defense_total and roll.total > rs.section("attack")["natural_miss"]
    words = f"d20 {roll.total} {bd.attack_total:+d} = {total} vs {bd.defense_name} {bd.defense_total}: "
    attacker = battle.figures[attacker_id]
    head = f"{attacker.label} tries to pull {rider.label} off {mount.label} with its {bd.weapon}: {words}"
    if not hit:
        return [Event(kind=EventKind.UNHORSE, rule=rule, actor=attacker_id, target=rider.id, rolls=(roll,), total=total,
                      target_number=bd.defense_total, outcome="miss", text=f"{head}miss ({rule})")]
    levels = battle.profile(rider.id)["level"] - battle.profile(attacker_id)["level"]
    bonus = max(0, levels) // rules["polearm_levels_per_bonus"]
    save = rolls.save_roll(battle, rider.id, rules["polearm_save"], (bonus, f"{max(0, levels)} levels above") if bonus
                           else (0, ""))
    kept = save.success
    text = (f"{head}hooked; {rider.label} {save.words}; " + ("it keeps its seat" if kept else
            f"it is pulled off and stands beside {mount.label}") + f" ({rule})")
    event = Event(kind=EventKind.UNHORSE, rule=rule, actor=attacker_id, target=rider.id, rolls=(roll, *save.rolls),
                  total=save.total, target_number=save.target_number, outcome="keeps-seat" if kept else "dismounted",
                  text=text, squares=(attacker.pos, rider.pos), data={"attack_total": total})
    return [event] + ([] if kept else unseat(battle, rider.id, mount, rule, "unhorsed", prone=False))
