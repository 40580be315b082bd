"""The round and its turns: who acts now, and the upkeep between turns and rounds.

A round follows the ruleset (see docs/resolver.md): surprise in the first round, initiative per
figure, per side or per attack, turns in initiative order with equal numbers acting together,
bfrpg's phase order inside one number, and, in the d100 rules, a declaration turn for everyone,
then attacks on their initiative numbers while declared moves unfold across segments 10..1.
"""
from __future__ import annotations

from ..combat import damage as damage_mod
from ..combat import rounds
from ..combat.dice import parse_dice
from ..combat.morale import morale_after_loss
from ..combat.reach import in_melee_reach, weapon_data
from ..combat.state import FigureState, condition_until
from ..values.events import Event, EventKind
from .budgets import attacks_left, reloading_words, slot_phases
from . import objectives
from .holds import release_all
from .riding import rider_falls, throw_rider
from .rout import ROUTED, flight
from .segments import run_segments_to


def turn_order(battle) -> list[tuple[str, object, bool]]:
    """(figure id, initiative number or "declare" or None, has acted) in the order the round calls
    them: the declaration step's order while it lasts, then the initiative slots; figures no slot
    holds (fled, fallen before the round) come last as having acted."""
    s = battle.state
    if s.phase == "declare" and s.declare_order:
        return [(fid, "declare", fid in s.declare_done) for fid in s.declare_order]
    out, seen = [], set()
    for i, slot in enumerate(s.slots):
        for fid in slot.members:
            if fid in battle.figures and fid not in seen:
                seen.add(fid)
                out.append((fid, slot.number, i < s.slot_index or fid in s.done))
    out.extend((fid, None, True) for fid in battle.figures if fid not in seen)
    return out


def start(battle) -> list[Event]:
    """Hit points, then the first round."""
    events: list[Event] = []
    rs = battle.ruleset
    for f in battle.figures.values():
        prof = battle.profile(f.id)
        if prof["hp"] > 0:
            hp = prof["hp"]
        else:
            roll = parse_dice(prof["hit_dice"]).roll(battle.rng)
            hp = max(1, roll.total)
            rule = rs.cite("hit-points")
            events.append(Event(kind=EventKind.HIT_POINTS, rule=rule, actor=f.id, rolls=(roll,), total=hp,
                                text=f"{f.label} rolls {prof['hit_dice']} for hit points: {hp}{rs.choice_words(rule)}"))
        state = FigureState(hp=max(1, hp - prof["wounds"]), max_hp=hp)     # wounds carried from a campaign's battle
        for name in prof["start_conditions"]:
            state.conditions[name] = condition_until(battle, name)
        battle.states[f.id] = state
    events.extend(objectives.start(battle))
    events.extend(begin_round(battle))
    events.extend(advance(battle))
    return events


def begin_round(battle) -> list[Event]:
    s = battle.state
    s.round += 1
    rs = battle.ruleset
    events = [Event(kind=EventKind.ROUND, rule=rs.cite("combat-round"), text=f"round {s.round} begins",
                    data={"round": s.round})]
    for fid, state in s.states.items():
        if s.round > 1:
            events.extend(damage_mod.bleed(battle, fid))
            events.extend(_count_running(battle, fid))
        state.new_round()
        s.figures[fid] = s.figures[fid].fresh_round()
        for name, last in list(state.conditions.items()):
            if last and last < s.round:
                del state.conditions[name]
    battle.figures_moved()
    s.declarations_open = True
    s.slots, s.slot_index, s.phase_index, s.done = [], 0, 0, set()
    s.move_orders = {}
    s.segment = 11
    if s.round == 1:
        events.extend(rounds.roll_surprise(battle, battle.rng))
    if rs.section("round")["declarations"]:
        s.phase = "declare"
        # Surprised figures get no action in the surprise round, declarations included.
        s.declare_order = [f.id for f in s.figures.values() if battle.able(f.id)
                           and not s.states[f.id].has("surprised")]
        s.declare_done = set()
        what = ", ".join(rs.section("round")["declared"])
        rule = rs.cite(rs.section("round")["declare_rule"])
        events.append(Event(kind=EventKind.DECLARE, rule=rule,
                            text=f"declarations: each figure in turn declares for the round ({what}), before "
                                 f"initiative" + (rs.choice_words(rule) if s.round == 1 else "")))
    else:
        s.phase = "act"
        s.slots, init_events = rounds.roll_initiative(battle, battle.rng)
        events.extend(init_events)
        events.extend(order_event(battle))
    return events


def _count_running(battle, fid: str) -> list[Event]:
    """bfrpg Running, ch17 Run Away: a figure may run for a number of rounds (a multiple of its CON); then it
    is fatigued and only walks for the rest of the battle (resting takes turns, not rounds)."""
    rs = battle.ruleset
    per_con = rs.section("movement")["run_rounds_per_con"]
    state = battle.state_of(fid)
    if not per_con or state.move_mode not in ("run", "jog", "charge") or state.out_of_fight:
        return []
    state.run_rounds += 1
    limit = per_con * battle.profile(fid)["con"]
    if state.run_rounds < limit or state.has("fatigued"):
        return []
    state.conditions["fatigued"] = 0
    rule = rs.cite("fatigue")
    label = battle.figures[fid].label
    return [Event(kind=EventKind.CONDITION, rule=rule, target=fid, outcome="fatigued",
                  text=f"{label} has run {state.run_rounds} rounds ({per_con} x CON {battle.profile(fid)['con']}): "
                       f"fatigued, it may only walk ({rule})")]


def ruleset_event(battle, notes: list[str]) -> Event:
    """The battle is judged by other rules from now on (Battle.rejudged): what changed for the figures."""
    rs = battle.ruleset
    words = f"judged from now on by {rs.name} [{rs.id}]: each figure takes its numbers for its template"
    if notes:
        words += "; " + "; ".join(notes)
    return Event(kind=EventKind.RULESET, rule=rs.cite("combat-round"), text=words, data={"ruleset": rs.id, "notes": notes})


def leave_declarations(battle) -> list[Event]:
    """Rejudged into rules without declaration turns mid-declaration: roll their initiative for
    the rest of the round and go on from its first figure."""
    s = battle.state
    s.phase = "act"
    s.declare_order, s.declare_done, s.move_orders = [], set(), {}
    s.slots, events = rounds.roll_initiative(battle, battle.rng)
    s.slot_index, s.phase_index, s.done, s.current = 0, 0, set(), None
    events.extend(order_event(battle))
    events.extend(advance(battle))
    return events


def order_event(battle) -> list[Event]:
    slots = battle.state.slots
    words = "; ".join(f"{s.number}: " + ", ".join(battle.figures[m].label for m in s.members) for s in slots)
    return [Event(kind=EventKind.ORDER, rule=battle.ruleset.cite(battle.ruleset.section("round")["rule"]),
                  text=f"order of action: {words}" if words else "nobody acts this round",
                  data={"slots": [s.to_json() for s in slots]})]


def end_round(battle) -> list[Event]:
    s = battle.state
    events: list[Event] = []
    segments = battle.ruleset.section("round")["segments"]
    if s.phase == "act" and segments:
        events.extend(run_segments_to(battle, segments[1]))
    for fid in s.pending_fallen:
        s.states[fid].acts_before_falling = False
    s.pending_fallen = []
    for st in s.states.values():
        st.off_guard = False            # after a round of fighting nobody is caught unaware
    return events


def advance(battle) -> list[Event]:
    """Move the turn pointer to the next figure that can act, running round upkeep on the way."""
    s = battle.state
    events: list[Event] = []
    for _guard in range(10000):
        events.extend(check_over(battle))
        if s.over:
            s.current = None
            return events
        if s.phase == "declare":
            nxt = next((f for f in s.declare_order if f not in s.declare_done and battle.able(f)), None)
            if nxt is not None:
                s.current = nxt
                return events
            s.phase = "act"
            roll = (rounds.roll_attack_initiative if battle.ruleset.section("round")["initiative"] == "attack"
                    else rounds.roll_initiative)
            s.slots, init_events = roll(battle, battle.rng)
            events.extend(init_events)
            events.extend(order_event(battle))
            s.slot_index, s.phase_index, s.done = 0, 0, set()
            continue
        if s.slot_index >= len(s.slots):
            events.extend(end_round(battle))
            events.extend(objectives.round_ended(battle))
            events.extend(check_over(battle))
            if s.over:
                s.current = None
                return events
            events.extend(begin_round(battle))
            continue
        slot = s.slots[s.slot_index]
        if battle.ruleset.section("round")["segments"] and s.phase_index == 0 and not s.done:
            events.extend(run_segments_to(battle, slot.number))
        phases = slot_phases(battle, slot)
        if s.phase_index >= len(phases):
            for m in slot.members:
                s.states[m].acts_before_falling = False
            s.slot_index += 1
            s.phase_index, s.done = 0, set()
            battle.figures_moved()
            continue
        phase = phases[s.phase_index]
        for member in slot.members:
            if member in s.done:
                continue
            if s.states[member].has(ROUTED) and battle.able(member) and phase in ("all", "movement"):
                s.done.add(member)
                events.extend(flight(battle, member, flee))
                continue
            ok, why = can_take_turn(battle, member, slot, phase)
            if ok:
                s.current = member
                return events
            s.done.add(member)
            if why:
                events.append(why)
        s.phase_index += 1
        s.done = set()
    raise AssertionError("turn order did not settle")


def can_take_turn(battle, fid: str, slot, phase: str) -> tuple[bool, Event | None]:
    st = battle.states[fid]
    fig = battle.figures[fid]
    if st.out_of_fight and not st.acts_before_falling:
        return False, None
    rs = battle.ruleset
    if st.has("surprised"):
        if phase in ("all", "movement") and slot.attack_index <= 0:
            return False, Event(kind=EventKind.SKIP, rule=rs.cite(rs.section("surprise")["rule"]), actor=fid,
                                text=f"{fig.label} is surprised and cannot act this round")
        return False, None
    if st.has("stunned") and rs.d100 and not (st.stunned_on == slot.number and rs.section("round")["fallen_act_on_ties"]):
        return False, Event(kind=EventKind.SKIP, rule=rs.cite("stun"), actor=fid,
                            text=f"{fig.label} is stunned and loses its attack on {slot.number}")
    if st.thrown_off_until >= battle.round:
        if phase in ("all", "movement"):
            return False, Event(kind=EventKind.SKIP, rule=rs.cite(rs.section("manoeuvres")["grapple_rule"]), actor=fid,
                                text=f"{fig.label} is stunned after being thrown off a grapple and cannot act")
        return False, None
    busy = reloading_words(battle, fid)
    if busy:
        if phase in ("all", "movement"):
            return False, Event(kind=EventKind.SKIP, rule=rs.cite("reloading"), actor=fid, text=busy)
        return False, None
    if phase == "missile":
        return (attacks_left(battle, fid) > 0 and any(weapon_data(battle, w)["ranged"] or weapon_data(battle, w)["thrown"]
                                                      for w in fig.weapons)), None
    if phase == "melee":
        return (attacks_left(battle, fid) > 0 and any(in_melee_reach(battle, fig, o) for o in battle.figures.values()
                                                      if o.side != fig.side and battle.able(o.id))), None
    return True, None


def check_over(battle) -> list[Event]:
    s = battle.state
    if s.over:
        return []
    decided = objectives.after_action(battle)
    if s.over:
        return decided
    # A figure felled on its own initiative number still stands until it has acted (simultaneous).
    standing: set = set()
    for f in s.figures.values():     # two sides standing are enough to go on (asked after every action)
        if f.side not in standing and ((battle.able(f.id) and not s.states[f.id].has(ROUTED))
                                       or s.states[f.id].acts_before_falling):
            standing.add(f.side)
            if len(standing) > 1:
                break
    if len(standing) <= 1 and len(battle.sides()) > 1:
        s.over = True
        # The side still standing wins; one whose last figure only struck back as it fell (both sides
        # felled on the same number) has nobody left either: a draw.
        s.winner = next((side for side in standing if any(
            f.side == side and battle.able(f.id) and not s.states[f.id].has(ROUTED) for f in s.figures.values())), None)
        s.decided_by = "elimination"
        return decided + [Event(kind=EventKind.BATTLE_OVER, rule=battle.ruleset.cite("combat-round"),
                                text=f"the battle is over: {over_words(battle)}", outcome=s.winner or "draw",
                                data={"winner": s.winner, "decided_by": "elimination", "points": objectives.victory_points(battle)})]
    return decided


def over_words(battle) -> str:
    if battle.state.over_text:
        return battle.state.over_text
    if battle.state.winner:
        return f"side {battle.state.winner} wins; every foe is down, routed or fled"
    return "no side is left standing: a draw"


def settle(battle) -> list[Event]:
    """After an action: advance the turn if the current figure's turn has ended, check the end."""
    s = battle.state
    events = check_over(battle)
    if s.over:
        s.current = None
        return events
    cur = s.current
    if cur is not None and cur not in s.done and s.phase == "act":
        st = s.states[cur]
        if st.out_of_fight and not st.acts_before_falling:
            s.done.add(cur)
    if cur is not None and s.phase == "declare" and not battle.able(cur):
        s.declare_done.add(cur)
    if s.current is None or s.current in s.done or s.current in s.declare_done:
        events.extend(advance(battle))
    return events


# ----- figures falling and fleeing (called from damage and morale) -----
def figure_fell(battle, fid: str) -> list[Event]:
    """A figure went out of the fight: it may still act on its own number (simultaneous), and its
    side checks morale."""
    s = battle.state
    events: list[Event] = []
    st = s.states[fid]
    rs = battle.ruleset
    if rs.section("round")["fallen_act_on_ties"] and s.current != fid and acts_on_this_number(battle, fid):
        st.acts_before_falling = True
        s.pending_fallen.append(fid)
        rule = rs.cite(rs.section("round")["ties_rule"])
        events.append(Event(kind=EventKind.SIMULTANEOUS, rule=rule, actor=fid,
                            text=f"{battle.figures[fid].label} acts on the same initiative number and still acts "
                                 f"before falling{rs.choice_words(rule)}"))
    release_all(battle, fid)
    rider_falls(battle, fid)                        # a fallen rider lets go of its mount
    events.extend(throw_rider(battle, fid, "fell"))  # a fallen mount throws its rider
    battle.figures_moved()
    events.extend(morale_after_loss(battle, battle.figures[fid].side, battle.rng))
    return events


def acts_on_this_number(battle, fid: str) -> bool:
    """Has fid still to act on the initiative number being played (in this slot, or, with per-attack
    slots, in a later slot of the same number)? Where ties go to the higher DEX (cnc Initiative), a
    later slot of the same die is a later turn, not the same moment: only equal DEX is simultaneous."""
    s = battle.state
    if s.phase != "act" or s.slot_index >= len(s.slots):
        return False
    number = s.slots[s.slot_index].number
    dex_breaks_ties = battle.ruleset.section("round")["ties"] == "dex-then-simultaneous"
    for i in range(s.slot_index, len(s.slots)):
        slot = s.slots[i]
        if slot.number != number or (dex_breaks_ties and i > s.slot_index):
            break
        if fid in slot.members and (i > s.slot_index or fid not in s.done):
            return True
    return False


def flee(battle, fid: str, rule: str, cause: str) -> list[Event]:
    """The figure leaves the battle: `cause` is "rout" (morale) or "exit" (over the map edge)."""
    st = battle.states[fid]
    if st.has("fled"):
        return []
    st.conditions["fled"] = 0
    st.fled = True
    rider_falls(battle, fid)
    battle.figures_moved()
    return [Event(kind=EventKind.FLEE, rule=rule, actor=fid,
                  text=f"{battle.figures[fid].label} flees the battle{battle.ruleset.choice_words(rule)}",
                  outcome="fled", squares=(battle.figures[fid].pos,), data={"cause": cause})
            ] + throw_rider(battle, fid, "fled")
