"""What a missile does after it misses, as the ruleset's [missiles] section says: it flies on along
its line and may hit the next figure it meets (cnc Ranged Combat), or, thrown like a grenade, it
lands on the scatter diagram around the target and splashes those near (ch17 Grenade-Like
Missiles, Oil). The events carry the squares, so the window can draw the line and the scatter.
"""
from __future__ import annotations

import math
from dataclasses import replace

from ..combat import damage as damage_mod
from ..combat.attack import roll_attack
from ..combat.breakdown import AttackContext, Breakdown
from ..combat.dice import parse_dice
from ..combat.manoeuvres import save_roll
from ..combat.modifiers import attack_breakdown
from ..combat.reach import DEFAULT_RANGES_FT, weapon_data
from ..values.events import Event, EventKind, Modifier
from ..values.geometry import DIRECTION_DELTAS, SQUARE_FT, distance_ft

FINE_STEPS = 4          # samples per square along a line (enough that no square the line crosses is skipped)


def after_miss(battle, bd: Breakdown) -> list[Event]:
    """A ranged attack missed: the missile flies on, or scatters, or is lost (nothing)."""
    rules = battle.ruleset.section("missiles")
    weapon = weapon_data(battle, bd.weapon)
    if weapon.get("grenade") and rules["scatter"] == "diagram":
        return scatter(battle, bd)
    if rules["miss_flies_on"] and not weapon.get("grenade"):
        return fly_on(battle, bd)
    return []


def after_hit(battle, bd: Breakdown) -> list[Event]:
    """A grenade that hits splashes those within 5 ft of its target."""
    weapon = weapon_data(battle, bd.weapon)
    if not (weapon.get("grenade") and weapon.get("splash")):
        return []
    target = battle.figures[bd.target]
    rule = battle.ruleset.cite(battle.ruleset.section("missiles")["splash_rule"])
    # the one hit took the splash with the hit where the ruleset says so (its breakdown's `splash`)
    return splash(battle, bd, target.pos, rule, exclude=(bd.target,))


# ----- flying on -----
def line_beyond(battle, start: tuple[int, int], through: tuple[int, int], limit_ft: float) -> list[tuple[int, int]]:
    """The squares the straight line from start through `through` crosses beyond it, until limit_ft from
    start, the map's edge or a wall."""
    dx, dy = through[0] - start[0], through[1] - start[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return []
    ux, uy = dx / length, dy / length
    out: list[tuple[int, int]] = []
    t = length
    while True:
        t += 1 / FINE_STEPS
        sq = (math.floor(start[0] + 0.5 + ux * t), math.floor(start[1] + 0.5 + uy * t))
        if sq == through or (out and sq == out[-1]):
            continue
        if not battle.map.in_bounds(*sq) or battle.map.blocks_sight[sq[1], sq[0]]:
            break
        if distance_ft(battle.ruleset.diagonal, start, sq) > limit_ft + 1e-9:
            break
        out.append(sq)
    return out


def fly_on(battle, bd: Breakdown) -> list[Event]:
    rs = battle.ruleset
    rules = rs.section("missiles")
    rule = rs.cite(rules["flies_on_rule"])
    shooter, target = battle.figures[bd.attacker], battle.figures[bd.target]
    weapon = weapon_data(battle, bd.weapon)
    ranges = weapon["range_ft"] or DEFAULT_RANGES_FT
    limit = ranges[2] if weapon.get("carries_to_long") else ranges[0]
    target_ft = distance_ft(rs.diagonal, shooter.pos, target.pos)
    line = line_beyond(battle, shooter.pos, target.pos, limit)
    reach = "long" if weapon.get("carries_to_long") else "close"
    if not line:
        why = "beyond its " + reach + " range" if target_ft >= limit else "into a wall or off the map"
        return [Event(kind=EventKind.FLIES_ON, rule=rule, actor=shooter.id, target=target.id, outcome="lost",
                      text=f"the missile that missed {target.label} flies on, but {why}: it is lost ({rule})",
                      squares=(target.pos,), data={"line": [list(target.pos)], "limit_ft": limit})]
    events: list[Event] = []
    end = line[-1]
    hit_at = None
    passed = {target.id}        # figures it has flown past: never cover against the next (the roll is made again)
    for sq in line:
        victims = [f for f in battle.figures.values() if f.pos == sq and battle.able(f.id) and f.id != shooter.id]
        for victim in victims:
            dist = distance_ft(rs.diagonal, shooter.pos, sq)
            steps = max(1, math.ceil((dist - target_ft) / rules["flies_on_step_ft"] - 1e-9))
            view = battle.hypothetical(absent=passed)
            vbd = attack_breakdown(view, shooter.id, victim.id, AttackContext(weapon=bd.weapon, free_attack=True))
            passed.add(victim.id)
            if not vbd.allowed:
                continue
            penalty = Modifier(f"flies on {steps * rules['flies_on_step_ft']} ft past the target",
                               steps * rules["flies_on_penalty"], rule, "flies-on")
            vbd = replace(vbd, attack_mods=tuple(vbd.attack_mods) + (penalty,))
            result = roll_attack(battle, vbd, battle.rng, battle.profile(victim.id), battle.state_of(victim.id))
            mods = "".join(f" {m.value:+d} {m.name}" for m in vbd.attack_mods)
            text = (f"the missile flies on to {victim.label} at {dist:g} ft: d20 {result.die_result} {vbd.base_attack:+d}"
                    f" {vbd.attack_name}{mods} = {result.total} vs {vbd.defense_name} {vbd.defense_total}: "
                    + (f"hit, {result.damage} damage" if result.hit else "miss") + f" ({rule})")
            events.append(Event(kind=EventKind.FLIES_ON, rule=rule, actor=shooter.id, target=victim.id,
                                rolls=tuple(result.rolls), modifiers=tuple(vbd.attack_mods), total=result.total,
                                target_number=vbd.defense_total, outcome="hit" if result.hit else "miss", text=text,
                                squares=(target.pos, sq), data={"distance_ft": dist, "damage": result.damage}))
            if result.hit:
                events.extend(damage_mod.apply_damage(battle, victim.id, result.damage, result.subdual, rule))
                hit_at = sq
                break
        if hit_at:
            end = hit_at
            break
    shown = line[:line.index(end) + 1]
    head = Event(kind=EventKind.FLIES_ON, rule=rule, actor=shooter.id, target=target.id, outcome="line",
                 text=f"the missile that missed {target.label} flies on in a straight line, up to {reach} range "
                      f"({limit} ft), rolling again at each figure it meets, {rules['flies_on_penalty']:+d} per "
                      f"{rules['flies_on_step_ft']} ft past the target ({rule})",
                 squares=(target.pos,) + tuple(shown), data={"line": [list(target.pos)] + [list(s) for s in shown],
                                                             "limit_ft": limit})
    return [head] + events


# ----- scatter -----
def scatter_square(target_pos, facing: int, cell: dict, cell_squares: int) -> tuple[int, int]:
    """Where a scatter number lands: `along` areas in front of the target (its facing), `across` to its right."""
    fx, fy = DIRECTION_DELTAS[facing]
    rx, ry = DIRECTION_DELTAS[(facing + 2) % 8]
    return (target_pos[0] + cell_squares * (cell["along"] * fx + cell["across"] * rx),
            target_pos[1] + cell_squares * (cell["along"] * fy + cell["across"] * ry))


def scatter(battle, bd: Breakdown) -> list[Event]:
    rs = battle.ruleset
    rules = rs.section("missiles")
    rule = rs.cite(rules["scatter_rule"])
    target = battle.figures[bd.target]
    roll = parse_dice(rules["scatter_die"]).roll(battle.rng)
    cells = rules["scatter_cells"]
    cell = cells[(roll.total - 1) % len(cells)]
    landing = scatter_square(target.pos, target.facing, cell, max(1, rules["scatter_cell_ft"] // SQUARE_FT))
    where = _place_words(cell)
    on_map = battle.map.in_bounds(*landing)
    area = tuple(sq for sq in around(landing) if battle.map.in_bounds(*sq))
    text = (f"the flask misses {target.label} and scatters: {rules['scatter_die']} {roll.total} = {where} "
            f"(by {target.label}'s facing), landing on {landing[0]},{landing[1]}"
            + ("" if on_map else ", off the map") + f"{rs.choice_words(rule)} ({rule})")
    events = [Event(kind=EventKind.SCATTER, rule=rule, actor=bd.attacker, target=target.id, rolls=(roll,),
                    total=roll.total, outcome=where, text=text, squares=area or (target.pos,),
                    data={"landing": list(landing), "from": list(target.pos), "cell": dict(cell)})]
    if on_map and weapon_data(battle, bd.weapon).get("splash"):
        events.extend(splash(battle, bd, landing, rule))
    return events


def around(sq) -> list[tuple[int, int]]:
    return [(sq[0] + dx, sq[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def splash(battle, bd: Breakdown, centre, rule: str, exclude=()) -> list[Event]:
    """Everyone within 5 ft of where it landed takes the splash, unless a save avoids it."""
    rs = battle.ruleset
    save = rs.section("missiles")["splash_save"]
    dice = parse_dice(weapon_data(battle, bd.weapon)["splash"])
    near = set(around(centre))
    events: list[Event] = []
    for fig in sorted(battle.figures.values(), key=lambda f: f.id):
        if fig.pos not in near or fig.id in exclude or not battle.able(fig.id):
            continue
        rolls = []
        if save:
            saved = save_roll(battle, fig.id, save)
            rolls += saved.rolls
            if saved.success:
                events.append(Event(kind=EventKind.SPLASH, rule=rule, actor=bd.attacker, target=fig.id,
                                    rolls=tuple(rolls), outcome="saved", squares=(fig.pos,),
                                    text=f"{fig.label} is within 5 ft of the flask: {saved.words}, no splash ({rule})"))
                continue
        dmg = dice.roll(battle.rng)
        rolls.append(dmg)
        events.append(Event(kind=EventKind.SPLASH, rule=rule, actor=bd.attacker, target=fig.id, rolls=tuple(rolls),
                            total=dmg.total, outcome="hit", squares=(fig.pos,),
                            text=f"{fig.label} is splashed within 5 ft of the flask: {dice.text} {dmg.total} damage ({rule})"))
        events.extend(damage_mod.apply_damage(battle, fig.id, dmg.total, False, rule))
    return events


def _place_words(cell: dict) -> str:
    along = {-2: "far behind", -1: "behind", 0: "", 1: "in front", 2: "far in front"}.get(cell["along"], "")
    across = {1: "right", -1: "left", 0: ""}.get(cell["across"], "")
    if along and across:
        return f"{along}, to the {across}"
    return along or f"to the {across}" or "on the target"

