"""Surprise at the start of a battle, and initiative: the order of turns in each round.

A round is a list of slots, highest initiative first. A slot holds the figures acting on
one number together (simultaneously); per-attack initiative (d100 rules) gives one slot
per attack. The resolver walks the slots; this module only rolls and orders.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..values.events import Event, EventKind, Modifier
from ..mounts import rides_on_riders_number, seat_mounts_in_slots
from .dice import die, parse_dice


@dataclass
class Slot:
    """One place in a round's turn order: the figures acting on one initiative number."""

    number: int
    members: list = field(default_factory=list)
    attack_index: int = -1          # per-attack initiative: which of the figure's attacks this is

    def to_json(self) -> dict:
        return {"number": self.number, "members": list(self.members), "attack_index": self.attack_index}


# ----- surprise -----
def roll_surprise(battle, rng) -> list[Event]:
    """Round 1 only: which unaware figures are surprised. Marks them; returns the events."""
    rs = battle.ruleset
    rules = rs.section("surprise")
    method = rules["method"]
    rule = rs.cite(rules["rule"])
    sides: dict[str, list] = {}
    for fig in battle.figures.values():
        sides.setdefault(fig.side, []).append(fig)
    events: list[Event] = []
    if method == "none":
        return events
    surprised_sides: list[str] = []
    for side, members in sides.items():
        unaware = [f for f in members if battle.profile(f.id)["unaware"]]
        if not unaware:
            continue
        foes = [f for f in battle.figures.values() if f.side != side]
        ambush = any(battle.profile(f.id)["ambush"] for f in foes)
        if method in ("d6", "odnd-d6"):
            chance = _d6_chance(battle, rules, unaware, foes, ambush, method)
            roll = die(rng, 6)
            surprised = roll.total <= chance
            text = (f"side {side} checks surprise: d6 {roll.total} vs surprised on 1-{chance}"
                    + (" (foes in ambush)" if ambush and method == "d6" else "") + (": surprised" if surprised else ": not surprised"))
            events.append(Event(kind=EventKind.SURPRISE, rule=rule, rolls=(roll,), total=roll.total, target_number=chance,
                                outcome="surprised" if surprised else "ready", text=text + f" ({rule})",
                                data={"side": side}))
            if surprised:
                surprised_sides.append(side)
                for f in unaware:
                    _mark(battle, f.id, 0)
        elif method == "dc":
            # One roll for the side; each figure is surprised at or above its own DC (elves 15).
            roll = die(rng, 20)
            bonus = rules["ambush_bonus"] if ambush else 0
            total = roll.total + bonus
            dcs = {f.id: battle.profile(f.id)["surprise_dc"] or rules["dc"] for f in unaware}
            caught = [f for f in unaware if total >= dcs[f.id]]
            dc = min(dcs.values())
            if len(set(dcs.values())) == 1:
                verdict = "surprised" if caught else "not surprised"
            else:
                verdict = "; ".join(f"{f.label} (DC {dcs[f.id]}) " + ("surprised" if f in caught else "not surprised")
                                    for f in unaware)
            events.append(Event(kind=EventKind.SURPRISE, rule=rule, rolls=(roll,), total=total, target_number=dc,
                                modifiers=(Modifier("ambush", bonus, rule),) if bonus else (),
                                outcome="surprised" if caught else "ready",
                                text=f"side {side} checks surprise: d20 {roll.total}" + (f" +{bonus} ambush" if bonus else "")
                                     + (f" vs DC {dc}: " if len(set(dcs.values())) == 1 else f" = {total}: ")
                                     + verdict + f" ({rule})",
                                data={"side": side, "surprised": [f.id for f in caught]}))
            if caught:
                surprised_sides.append(side)
            for f in caught:
                _mark(battle, f.id, 0)
        elif method == "check":
            for f in unaware:
                prof = battle.profile(f.id)
                base = rules["check_base_prime"] if prof["wis_prime"] else rules["check_base"]
                penalty = rules["ambush_penalty"] if ambush else 0
                roll = die(rng, 20)
                total = roll.total + prof["level"] + prof["wis_mod"] + penalty
                surprised = total < base
                events.append(Event(kind=EventKind.SURPRISE, rule=rule, actor=f.id, rolls=(roll,), total=total, target_number=base,
                                    outcome="surprised" if surprised else "ready",
                                    text=f"{f.label} makes a wisdom check against surprise: d20 {roll.total} +{prof['level']} level"
                                         f" {prof['wis_mod']:+d} WIS" + (f" {penalty:+d} ambush" if penalty else "")
                                         + f" = {total} vs {base}: " + ("surprised" if surprised else "not surprised") + f" ({rule})"))
                if surprised:
                    _mark(battle, f.id, 0)
        elif method == "per" and rules["per_needs_ambush"] and not ambush:
            events.extend(_caught_unaware(battle, unaware))
        elif method == "per":
            bonuses = rules["per_bonuses"] or [0]
            damages = rules["per_damage"]
            for f in unaware:
                per = battle.profile(f.id)["per"]
                roll = die(rng, 100)
                multiple = min(len(bonuses), max(1, math.ceil(roll.total / max(1, per))))
                bonus = bonuses[multiple - 1]
                damage = damages[multiple - 1] if multiple <= len(damages) else 0
                surprised = multiple >= 3
                gains = (f"+{bonus} SC" if bonus else "") + (f" and +{damage} damage" if damage else "")
                events.append(Event(kind=EventKind.SURPRISE, rule=rule, actor=f.id, rolls=(roll,), total=roll.total,
                                    target_number=per, outcome="surprised" if surprised else "ready",
                                    data={"multiple": multiple, "bonus": bonus, "damage": damage},
                                    text=f"{f.label} rolls PER against the ambush: d100 {roll.total} vs PER {per}: "
                                         f"{multiple}x PER" + (f", attackers {gains} in the surprise round" if gains else "")
                                         + (": surprised" if surprised else ": not surprised") + f" ({rule})"))
                if surprised:
                    _mark(battle, f.id, bonus, damage)
    if rules["both_cancel"] and len(sides) > 1 and len(surprised_sides) == len(sides):
        events.append(_surprises_cancel(battle, surprised_sides, rule))
    return events


def _surprises_cancel(battle, sides: list, rule: str) -> Event:
    """odnd ENCOUNTER ORDER: every side surprised: the surprises cancel and round 1 is fought as usual."""
    for fig in battle.figures.values():
        state = battle.state_of(fig.id)
        state.conditions.pop("surprised", None)
        state.surprise_bonus = state.surprise_damage = 0
    return Event(kind=EventKind.SURPRISE, rule=rule, outcome="cancelled", data={"sides": list(sides)},
                 text=f"every side is surprised ({', '.join(sides)}): the surprises cancel out and the first round is "
                      f"fought as usual ({rule})")


def _caught_unaware(battle, unaware) -> list[Event]:
    """d100 Surprise, out of combat: no ambush to roll against, but these figures expect no attack until
    they are attacked or the first round ends."""
    rs = battle.ruleset
    rules = rs.section("surprise")
    rule = rs.cite(rules["unaware_rule"])
    events = []
    for f in unaware:
        battle.state_of(f.id).off_guard = True
        events.append(Event(kind=EventKind.SURPRISE, rule=rule, actor=f.id, outcome="unaware",
                            text=f"{f.label} does not expect an attack: +{rules['unaware_hit']} against it and only "
                                 f"{rules['unaware_defense']} of its defense, until it is attacked or the round ends "
                                 f"({rule})"))
    return events


def _d6_chance(battle, rules, unaware, foes, ambush, method) -> int:
    own = max((battle.profile(f.id)["surprised_on"] for f in unaware), default=0) or rules["surprised_on"]
    if method == "d6":
        if ambush:
            return max(0, rules["ambush_surprised_on"] - (rules["surprised_on"] - own))
        return own
    # odnd: the sneakier party's number, less one for each point the victims are more alert than normal.
    best = max((battle.profile(f.id)["surprises_on"] for f in foes), default=0) or rules["surprised_on"]
    return max(own, best - (rules["surprised_on"] - own))


def _mark(battle, figure_id: str, bonus: int, damage: int = 0) -> None:
    state = battle.state_of(figure_id)
    state.conditions["surprised"] = 1
    state.surprise_bonus = bonus
    state.surprise_damage = damage


# ----- initiative -----
def roll_initiative(battle, rng) -> tuple[list[Slot], list[Event]]:
    rs = battle.ruleset
    rules = rs.section("round")
    rule = rs.cite(rules["rule"])
    kind = rules["initiative"]
    events: list[Event] = []
    actors = []
    for f in battle.figures.values():
        if not battle.able(f.id) or rides_on_riders_number(battle, f.id):
            continue
        why = no_initiative(battle, f.id)
        if why:
            events.append(Event(kind=EventKind.INITIATIVE, rule=why[1], actor=f.id,
                                text=f"{f.label} rolls no initiative: it {why[0]} this round ({why[1]})"))
            continue
        actors.append(f)
    numbers: dict[str, int] = {}
    if kind == "side":
        groups: dict[str, list] = {}
        for f in actors:
            groups.setdefault(battle.profile(f.id)["group"], []).append(f)
        for group, members in groups.items():
            roll = parse_dice(rules["initiative_die"]).roll(rng)
            for f in members:
                numbers[f.id] = roll.total + _init_mods(battle, f.id)
            events.append(Event(kind=EventKind.INITIATIVE, rule=rule, rolls=(roll,), total=roll.total,
                                text=f"initiative for {group}: {rules['initiative_die']} {roll.total} "
                                     f"({', '.join(f.label for f in members)}) ({rule})",
                                data={"group": group, "figures": [f.id for f in members], "number": roll.total}))
    else:
        for f in actors:
            roll = parse_dice(rules["initiative_die"]).roll(rng)
            mods = _init_modifiers(battle, f.id)
            numbers[f.id] = roll.total + sum(m.value for m in mods)
            battle.state_of(f.id).initiative = [numbers[f.id]]
            mod_text = "".join(f" {m.value:+d} {m.name}" for m in mods)
            events.append(Event(kind=EventKind.INITIATIVE, rule=rule, actor=f.id, rolls=(roll,), modifiers=tuple(mods),
                                total=numbers[f.id],
                                text=f"{f.label} rolls initiative: {rules['initiative_die']} {roll.total}{mod_text} = {numbers[f.id]} ({rule})",
                                data={"number": numbers[f.id]}))
    for fid, n in numbers.items():
        battle.state_of(fid).initiative = [n]
    slots = order_slots(battle, numbers)
    events.extend(seat_mounts_in_slots(battle, slots))
    return slots, events


def no_initiative(battle, figure_id: str) -> tuple[str, str] | None:
    """(what it does instead, rule) for a figure that rolls no initiative this round (cnc: it declared
    a disengagement, a dodge or an evasion), else None."""
    rs = battle.ruleset
    state = battle.state_of(figure_id)
    if state.disengaged:
        return "disengaged", rs.cite(rs.section("disengage")["rule"])
    style = rs.defense(state.defense) if state.defense else None
    if style and style["no_initiative"]:
        return f"declared {style['style']}", rs.cite(style["rule"])
    return None


def _init_modifiers(battle, figure_id: str) -> list[Modifier]:
    rs = battle.ruleset
    rules = rs.section("round")
    prof = battle.profile(figure_id)
    mods = []
    if rules["initiative_dex"] and prof["dex_mod"]:
        mods.append(Modifier("DEX", prof["dex_mod"], rs.cite(rules["rule"])))
    state = battle.state_of(figure_id)
    for name in sorted(state.conditions):
        cond = rs.condition(name)
        if cond and cond["initiative"]:
            mods.append(Modifier(name, cond["initiative"], rs.cite(cond["rule"])))
    return mods


def _init_mods(battle, figure_id: str) -> int:
    return sum(m.value for m in _init_modifiers(battle, figure_id) if m.name != "DEX")


def order_slots(battle, numbers: dict[str, int]) -> list[Slot]:
    rules = battle.ruleset.section("round")
    keyed: dict[tuple, Slot] = {}
    setup_order = list(battle.figures)
    for fid in sorted(numbers, key=setup_order.index):
        dex = battle.profile(fid)["dex_mod"] if rules["ties"] == "dex-then-simultaneous" else 0
        key = (numbers[fid], dex)
        slot = keyed.setdefault(key, Slot(numbers[fid], [], -1))
        slot.members.append(fid)
    return [keyed[k] for k in sorted(keyed, key=lambda k: (-k[0], -k[1]))]


# ----- per-attack initiative (d100 rules) -----
def attacks_after_moving(ruleset, attacks: int, move_ft, cost_ft: float, mode: str = "walk") -> tuple[int, Modifier | None]:
    """(attacks kept, why) for a figure with `attacks` a round that moves `cost_ft` this round in
    `mode` (d100 Move and Attack, Run and Attack: a walk over half the TMR or a run over the TMR
    keeps none; a shorter one halves them where the ruleset says, its initiative changed). A step
    within the free step keeps them all (why None)."""
    rules = ruleset.section("round")
    if cost_ft <= ruleset.section("movement")["free_step_ft"]:
        return attacks, None
    if mode == "run":
        if cost_ft > move_ft:
            return 0, Modifier(f"ran {cost_ft:.0f} ft, more than its TMR: no attacks", 0, ruleset.cite("run-and-attack"))
        kept = max(1, attacks // 2) if rules["move_attack_halves"] else attacks
        return kept, Modifier("run and attack", rules["run_attack_initiative"], ruleset.cite("run-and-attack"))
    if cost_ft > move_ft / 2:
        return 0, Modifier(f"moves {cost_ft:.0f} ft, more than half its TMR: no attacks", 0, ruleset.cite("move-and-attack"))
    kept = attacks - attacks // 2 if rules["move_attack_halves"] else attacks
    return kept, Modifier("move and attack", rules["move_attack_initiative"], ruleset.cite("move-and-attack"))


def attacks_this_round(battle, figure_id: str) -> tuple[int, int, list[Modifier]]:
    """(attacks kept, initiative change, why) after what the figure declared for this round."""
    rs = battle.ruleset
    rules = rs.section("round")
    prof = battle.profile(figure_id)
    state = battle.state_of(figure_id)
    fig = battle.figures[figure_id]
    n = prof["attacks"]
    mods: list[Modifier] = []
    if fig.mount:       # a rider's declared move is its mount's walk
        fig = battle.figures[fig.mount]
    order = battle.state.move_orders.get(fig.id)
    free = rs.section("movement")["free_step_ft"]
    style = rs.defense(state.defense) if state.defense else None
    if style and not style["can_attack"]:
        return 0, 0, [Modifier(f"{style['style']}: no attacks", 0, rs.cite(style["rule"]))]
    if state.standing_up:
        return 0, 0, [Modifier("getting up from prone: no attacks", 0, rs.cite(rs.section("prone")["rule"]))]
    if style and style["initiative"]:
        mods.append(Modifier(style["style"], style["initiative"], rs.cite(style["rule"])))
    if order is not None and order.after_attack:
        mods.append(Modifier("attack, then move", 0, rs.cite(rules["attack_then_move_rule"])))
    elif order is not None and order.cost_ft > free:
        kept, why = attacks_after_moving(rs, n, fig.move_ft, order.cost_ft, order.mode)
        if kept == 0:
            return 0, 0, [why]
        n = kept
        mods.append(why)
    return n, sum(m.value for m in mods), mods


def roll_attack_initiative(battle, rng) -> tuple[list[Slot], list[Event]]:
    rs = battle.ruleset
    rules = rs.section("round")
    rule = rs.cite(rules["rule"])
    slots: list[Slot] = []
    events: list[Event] = []
    lose_at = rules["lose_attacks_at_or_below"]
    for f in battle.figures.values():
        if not battle.able(f.id):
            continue
        count, change, why = attacks_this_round(battle, f.id)
        prof = battle.profile(f.id)
        state = battle.state_of(f.id)
        numbers = []
        if count == 0:
            words = "; ".join(m.name for m in why) or "no attacks"
            events.append(Event(kind=EventKind.INITIATIVE, rule=rule, actor=f.id, text=f"{f.label} makes no attacks this round: {words} ({rule})"))
            continue
        dice_list = [rules["initiative_die"]] + list(rules["later_attack_dice"])
        previous = None
        for k in range(count):
            dice_text = dice_list[min(k, len(dice_list) - 1)]
            roll = parse_dice(dice_text).roll(rng)
            mods = ([Modifier("DEX", prof["dex_mod"], rule)] if rules["initiative_dex"] and prof["dex_mod"] else []) + list(why)
            number = roll.total + sum(m.value for m in mods)
            note = ""
            if previous is not None and number >= previous:
                if number == previous:
                    number, note = previous - 1, "; same as its previous attack: one segment later"
            previous = number
            mod_text = "".join(f" {m.value:+d} {m.name}" for m in mods if m.value)
            lost = number <= lose_at
            events.append(Event(kind=EventKind.INITIATIVE, rule=rule, actor=f.id, rolls=(roll,), modifiers=tuple(m for m in mods if m.value),
                                total=number, outcome="lost" if lost else "",
                                text=f"{f.label} attack {k + 1} initiative: {dice_text} {roll.total}{mod_text} = {number}{note}"
                                     + (f": at {lose_at} or later, the attack is lost" if lost else "") + f" ({rule})",
                                data={"number": number, "attack": k + 1}))
            if not lost:
                numbers.append(number)
                slots.append(Slot(number, [f.id], k))
        state.initiative = numbers
    setup_order = list(battle.figures)
    slots.sort(key=lambda s: (-s.number, setup_order.index(s.members[0]), s.attack_index))
    return slots, events
