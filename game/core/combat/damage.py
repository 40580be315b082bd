"""Applying damage to a figure: hit point thresholds, subdual, stun, bleeding, falling."""
from __future__ import annotations

from ..values.events import Event, EventKind
from .dice import Dice, die

SIZE_STUN_INDEX = {"large": 0, "giant": 1}


def hp_condition(ruleset, effective_hp: int, has_subdual: bool, real_hp: int) -> str:
    """The worst hit point condition a figure at this many hit points is in ('' if none)."""
    thresholds = ruleset.section("damage")["thresholds"] or [{"at_or_below": 0, "condition": "dead"}]
    worst = ""
    for row in thresholds:
        if effective_hp <= row["at_or_below"]:
            worst = row["condition"]
    if worst and has_subdual and real_hp > 0:
        return "unconscious"
    return worst


def apply_damage(battle, target_id: str, amount: int, subdual: bool, rule: str,
                 real_every: int | None = None) -> list[Event]:
    """Take `amount` off a figure and report what state that leaves it in. Of subdual damage one point in
    `real_every` is real (default: the ruleset's subdual_real_every; 0: none)."""
    rs = battle.ruleset
    state = battle.state_of(target_id)
    events: list[Event] = []
    if amount <= 0:
        return events
    if real_every is None:
        real_every = rs.section("damage")["subdual_real_every"]
    if subdual and not state.has("unconscious"):
        real = amount // real_every if real_every else 0
        state.subdual += amount - real
        state.hp -= real
    else:
        state.hp -= amount
    effective = state.hp - state.subdual
    condition = hp_condition(rs, effective, state.subdual > 0, state.hp)
    events.extend(set_hp_condition(battle, target_id, condition, rule))
    return events


def set_hp_condition(battle, target_id: str, condition: str, rule: str) -> list[Event]:
    state = battle.state_of(target_id)
    fig = battle.figures[target_id]
    if not condition or state.has(condition):
        return []
    was_out = state.out_of_fight
    for name in ("unconscious", "grievously-wounded", "dying", "dead"):
        state.conditions.pop(name, None)
    state.conditions[condition] = 0
    effective = state.hp - state.subdual
    words = {
        "dead": "is dead",
        "unconscious": "falls unconscious",
        "grievously-wounded": "falls, unconscious and grievously wounded",
        "dying": "falls, mortally wounded: it loses 1 hp each round",
    }[condition]
    events = [Event(kind=EventKind.DOWN, rule=rule, actor=target_id,
                    text=f"{fig.label} {words} ({effective} hp) ({rule})", outcome=condition,
                    squares=(fig.pos,), data={"hp": state.hp, "subdual": state.subdual, "condition": condition})]
    if not was_out:
        events.extend(battle.figure_fell(target_id))
    return events


def stun_threshold(ruleset, profile: dict, size: str, max_hp: int) -> int:
    """Damage above this from one hit stuns (d100 rules): CON, +2 large, +4 giant, +1 per 10 hp over 100."""
    con = profile["con"]
    bonuses = ruleset.section("damage")["stun_size_bonus"]
    index = SIZE_STUN_INDEX.get(size)
    if index is not None and index < len(bonuses):
        con += bonuses[index]
    if max_hp > 100:
        con += -(-(max_hp - 100) // 10)
    if con > 25:
        # Above human maximum the table rises by 2 a point: 26 -> 27, 27 -> 29, ... 35 -> 45.
        return 27 + 2 * (con - 26)
    return con


def falling_dice(ruleset, fall_ft: int) -> tuple[Dice | None, bool, str]:
    """(dice, a DEX check may avoid it, how it was counted) for a fall of fall_ft feet."""
    dmg = ruleset.section("damage")
    method = dmg["falling"]
    if fall_ft < 5 or method == "none":
        return None, False, "no fall damage"
    if method == "cumulative":
        if fall_ft <= 10:
            return Dice(1, 6), fall_ft >= 6 and fall_ft <= dmg["falling_check_up_to_ft"], "1d6 for up to 10 ft"
        # Cumulative: 1d6 for the first 10 ft, 2d6 for the next, ... Increments are counted to the
        # nearest 10 ft with halves rounded down, which is how the document's own examples count
        # (18 ft = two increments = 3d6; 45 ft = four increments = 10d6).
        increments = max(1, -(-(fall_ft - 5) // 10))
        count = increments * (increments + 1) // 2
        return Dice(count, 6), False, f"{increments} increments of 10 ft: " + " + ".join(f"{i}d6" for i in range(1, increments + 1))
    increments = max(1, fall_ft // 10)
    return Dice(increments, 6), False, f"1d6 per 10 ft ({increments})"


FALL_CHECK_NEED = 12       # the DEX check that may spare a short fall: d20 + DEX modifier at least this


def fall_check_passes(battle, figure_id: str, face: int) -> bool:
    """Whether a d20 `face` on the falling DEX check takes no damage (the roll and its odds both ask)."""
    return face + battle.profile(figure_id)["dex_mod"] >= FALL_CHECK_NEED


def fall(battle, figure_id: str, fall_ft: int, rng) -> list[Event]:
    rs = battle.ruleset
    dice, check, how = falling_dice(rs, fall_ft)
    fig = battle.figures[figure_id]
    rule = rs.cite(rs.section("damage")["falling_rule"])
    if dice is None:
        return []
    rolls = []
    if check:
        save = die(rng, 20)
        rolls.append(save)
        dex = battle.profile(figure_id)["dex_mod"]
        if fall_check_passes(battle, figure_id, save.total):
            return [Event(kind=EventKind.FALL, rule=rule, actor=figure_id, rolls=tuple(rolls),
                          text=f"{fig.label} falls {fall_ft} ft: DEX check d20 {save.total}{dex:+d} succeeds, no damage"
                               f"{rs.choice_words(rule)} ({rule})")]
    roll = dice.roll(rng)
    rolls.append(roll)
    events = [Event(kind=EventKind.FALL, rule=rule, actor=figure_id, rolls=tuple(rolls), total=roll.total,
                    text=f"{fig.label} falls {fall_ft} ft: {dice.text} ({how}) = {roll.total} damage{rs.choice_words(rule)} ({rule})",
                    data={"fall_ft": fall_ft, "damage": roll.total})]
    events.extend(apply_damage(battle, figure_id, roll.total, False, rule))
    return events


def bleed(battle, figure_id: str) -> list[Event]:
    """Round upkeep: the dying lose 1 hp; stuck missiles bleed."""
    rs = battle.ruleset
    state = battle.state_of(figure_id)
    fig = battle.figures[figure_id]
    events = []
    bleed_condition = rs.section("damage")["bleed_condition"]
    rule = rs.cite(rs.section("damage")["rule"])
    if bleed_condition and state.has(bleed_condition) and not state.has("dead"):
        state.hp -= 1
        events.append(Event(kind=EventKind.BLEED, rule=rule, actor=figure_id,
                            text=f"{fig.label} is {bleed_condition} and loses 1 hp ({state.hp} hp) ({rule})"))
        condition = hp_condition(rs, state.hp - state.subdual, state.subdual > 0, state.hp)
        events.extend(set_hp_condition(battle, figure_id, condition, rule))
    for dex, per_round in state.stuck:
        if per_round and not state.out_of_fight:
            events.append(Event(kind=EventKind.BLEED, rule=rs.cite("stuck-missiles"), actor=figure_id,
                                text=f"{fig.label} bleeds {per_round} from a stuck missile ({rs.cite('stuck-missiles')})"))
            events.extend(apply_damage(battle, figure_id, per_round, False, rs.cite("stuck-missiles")))
    return events
