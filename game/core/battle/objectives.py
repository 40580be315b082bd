"""Objectives decided by the resolver: after every action and at every round's end it works out
where each objective of the scenario stands (game/core/values/objectives.py), says so in
`objective` events carrying the numbers, and ends the battle when one decides it (or the round
limit comes). The progress lives in `BattleState.goals`, so undo, clone and saves keep it.

The scenario's own objectives cite the ruleset's `objectives` entry (a documented choice: the
documents set no battle objectives); breaking the foes' morale cites the ruleset's morale rule
where it checks morale.
"""
from __future__ import annotations

from math import ceil

from ..values.events import Event, EventKind
from ..values.objectives import Objective, ObjectiveProgress
from .rout import ROUTED

OPEN, ACHIEVED, FAILED = "open", "achieved", "failed"


def _objectives(battle):
    return battle.setup.objectives


def start(battle) -> list[Event]:
    """Each objective's record, and one event a side saying what it plays for."""
    goals = _objectives(battle)
    if not goals:
        return []
    battle.state.goals = {o.id: {"state": OPEN, "progress": 0, "ids": []} for o in goals.items}
    rule = battle.ruleset.cite("objectives")
    events = []
    for i, o in enumerate(goals.items):      # the documented choice is said once, with the first
        events.append(Event(kind=EventKind.OBJECTIVE, rule=rule, outcome=OPEN,
                            text=f"objective for side {o.side}: {o.title}{_worth(o)}"
                                 f"{battle.ruleset.choice_words(rule) if i == 0 else f' ({rule})'}",
                            data=_data(battle, o)))
    if goals.round_limit:
        events.append(Event(kind=EventKind.OBJECTIVE, rule=rule, outcome=OPEN,
                            text=f"the battle ends after round {goals.round_limit}; "
                                 f"then the side with more victory points wins ({rule})", data={"round_limit": goals.round_limit}))
    return events


def _worth(o: Objective) -> str:
    return f" ({o.points} victory point{'s' if o.points != 1 else ''})" if o.points else " (wins the battle)"


def needed(battle, o: Objective) -> int:
    """How much progress achieves it: rounds held, figures through, foes out of the fight."""
    if o.kind == "hold":
        return o.rounds
    if o.kind == "reach":
        return 1 if o.figure else o.count
    if o.kind == "break":
        return o.count or ceil(len(_foes(battle, o.side)) / 2)
    if o.kind == "survive":
        return o.rounds
    return 1


def _foes(battle, side: str) -> list[str]:
    return [fid for fid, f in battle.figures.items() if f.side != side]


def _in_fight(battle, fid: str) -> bool:
    return battle.able(fid) and not battle.states[fid].has(ROUTED)


def _record(battle, o: Objective) -> dict:
    return battle.state.goals[o.id]


def _data(battle, o: Objective, **more) -> dict:
    rec = battle.state.goals.get(o.id, {"state": OPEN, "progress": 0})
    return {"objective": o.id, "side": o.side, "objective_kind": o.kind, "state": rec["state"],
            "progress": rec["progress"], "needed": needed(battle, o), "points": o.points, **more}


def _rule(battle, o: Objective) -> str:
    rs = battle.ruleset
    morale = rs.section("morale")
    if o.kind == "break" and morale["checks"]:
        return rs.cite(morale["rule"])
    return rs.cite("objectives")


def _event(battle, o: Objective, words: str, **more) -> Event:
    rule = _rule(battle, o)
    rec = _record(battle, o)
    return Event(kind=EventKind.OBJECTIVE, rule=rule, outcome=rec["state"], text=f"{words} ({rule})",
                 squares=tuple(o.squares) if o.kind in ("hold", "reach") else (), data=_data(battle, o, **more))


def _set(battle, o: Objective, state: str, words: str, **more) -> list[Event]:
    rec = _record(battle, o)
    if rec["state"] != OPEN:
        return []
    rec["state"] = state
    return [_event(battle, o, words, **more)]


# ----- after every action -----
def after_action(battle) -> list[Event]:
    """Figures through an exit, a protected figure fallen, a foe felled, morale broken; then the end."""
    goals = _objectives(battle)
    if not goals.items or battle.state.over:
        return []
    events: list[Event] = []
    for o in goals.items:
        if _record(battle, o)["state"] != OPEN:
            continue
        if o.kind == "reach":
            events.extend(_reach(battle, o))
        elif o.kind == "protect":
            events.extend(_protect(battle, o))
        elif o.kind == "fell":
            events.extend(_fell(battle, o))
        elif o.kind == "break":
            events.extend(_break(battle, o))
    events.extend(_decide(battle))
    return events


def _reach(battle, o: Objective) -> list[Event]:
    rec = _record(battle, o)
    squares = set(o.squares)
    events: list[Event] = []
    rule = _rule(battle, o)
    for fid, fig in battle.figures.items():
        if fig.side != o.side or fid in rec["ids"] or (o.figure and fid != o.figure):
            continue
        st = battle.states[fid]
        through = any(c in squares for c in fig.cells) and (battle.able(fid) or (st.fled and not st.has(ROUTED)))
        if not through:
            continue
        rec["ids"].append(fid)
        rec["progress"] += 1
        events.append(_event(battle, o, f"{fig.label} reaches the exit for side {o.side}: {rec['progress']} of "
                                        f"{needed(battle, o)} ({o.title})", figure=fid))
        if not st.fled:
            events.extend(battle.flee(fid, rule, "escape"))
    if rec["progress"] >= needed(battle, o):
        events.extend(_set(battle, o, ACHIEVED, f"side {o.side} achieves its objective: {o.title}"))
        return events
    hopeful = [fid for fid, f in battle.figures.items() if f.side == o.side and fid not in rec["ids"]
               and _in_fight(battle, fid) and (not o.figure or fid == o.figure)]
    if rec["progress"] + len(hopeful) < needed(battle, o):
        events.extend(_set(battle, o, FAILED, f"side {o.side} can no longer achieve its objective: {o.title} "
                                              f"({rec['progress']} through, {len(hopeful)} left to try)"))
    return events


def _protect(battle, o: Objective) -> list[Event]:
    st = battle.states[o.figure]
    if not st.out_of_fight or (st.fled and not st.has(ROUTED)):
        return []
    label = battle.figures[o.figure].label
    return _set(battle, o, FAILED, f"{label} is out of the fight: side {o.side} fails its objective ({o.title})")


def _fell(battle, o: Objective) -> list[Event]:
    st = battle.states[o.figure]
    label = battle.figures[o.figure].label
    if st.fled:
        return _set(battle, o, FAILED, f"{label} has left the battle: side {o.side} can no longer fell it")
    if not st.out_of_fight:
        return []
    _record(battle, o)["progress"] = 1
    return _set(battle, o, ACHIEVED, f"{label} is down: side {o.side} achieves its objective ({o.title})")


def _break(battle, o: Objective) -> list[Event]:
    foes = _foes(battle, o.side)
    rec = _record(battle, o)
    if battle.ruleset.section("morale")["checks"]:
        routed = [fid for fid in foes if battle.states[fid].has(ROUTED)]
        if routed:
            rec["progress"] = needed(battle, o)
            return _set(battle, o, ACHIEVED, f"the foes' morale breaks ({len(routed)} routed): side {o.side} "
                                             f"achieves its objective ({o.title})")
    out = sum(1 for fid in foes if not _in_fight(battle, fid))
    if out != rec["progress"]:
        rec["progress"] = out
        if out >= needed(battle, o):
            return _set(battle, o, ACHIEVED, f"{out} of {len(foes)} foes are out of the fight: side {o.side} "
                                             f"achieves its objective ({o.title})")
    return []


# ----- at the end of every round -----
def round_ended(battle) -> list[Event]:
    """Ground held another round (or lost), a side that survived, the round limit."""
    goals = _objectives(battle)
    if not goals or battle.state.over:
        return []
    events: list[Event] = []
    now = battle.state.round
    for o in goals.items:
        rec = _record(battle, o)
        if rec["state"] != OPEN:
            continue
        if o.kind == "hold":
            events.extend(_hold(battle, o))
        elif o.kind == "survive" and now >= o.rounds:
            standing = [fid for fid, f in battle.figures.items() if f.side == o.side and _in_fight(battle, fid)]
            if standing:
                rec["progress"] = o.rounds
                events.extend(_set(battle, o, ACHIEVED, f"side {o.side} still stands after round {now}: it achieves "
                                                        f"its objective ({o.title})"))
    events.extend(_decide(battle))
    if not battle.state.over and goals.round_limit and now >= goals.round_limit:
        events.extend(_round_limit(battle))
    return events


def _holders(battle, o: Objective) -> tuple[list[str], list[str]]:
    squares = set(o.squares)
    mine, foes = [], []
    for fid, fig in battle.figures.items():
        if _in_fight(battle, fid) and any(c in squares for c in fig.cells):
            (mine if fig.side == o.side else foes).append(fid)
    return mine, foes


def _hold(battle, o: Objective) -> list[Event]:
    rec = _record(battle, o)
    mine, foes = _holders(battle, o)
    before = rec["progress"]
    rec["progress"] = before + 1 if mine and not foes else 0
    if rec["progress"] >= o.rounds:
        return _set(battle, o, ACHIEVED, f"side {o.side} has held the ground {rec['progress']} round"
                                         f"{'s' if rec['progress'] != 1 else ''}: it achieves its objective ({o.title})",
                    holders=mine)
    if rec["progress"] == before == 0:
        return []
    if rec["progress"]:
        words = f"side {o.side} holds the ground: {rec['progress']} of {o.rounds} rounds ({o.title})"
    else:
        words = f"side {o.side} loses its hold on the ground ({'foes there' if foes else 'nobody there'}; {o.title})"
    return [_event(battle, o, words, holders=mine, contesting=foes)]


def _round_limit(battle) -> list[Event]:
    """The last round is over: protected figures still standing score; the most points wins."""
    goals = _objectives(battle)
    events: list[Event] = []
    for o in goals.items:
        if _record(battle, o)["state"] == OPEN and o.kind == "protect" and o.points:
            events.extend(_set(battle, o, ACHIEVED, f"{battle.figures[o.figure].label} is still in the fight: side "
                                                    f"{o.side} achieves its objective ({o.title})"))
    points = victory_points(battle)
    best = max(points.values(), default=0)
    leaders = [side for side, p in points.items() if p == best]
    winner = leaders[0] if len(leaders) == 1 and best > 0 else None
    tally = ", ".join(f"{side} {p}" for side, p in points.items())
    why = (f"round {goals.round_limit} is over; victory points: {tally}; side {winner} wins" if winner else
           f"round {goals.round_limit} is over; victory points: {tally}; a draw")
    events.extend(_end(battle, winner, "round-limit", why))
    return events


def victory_points(battle) -> dict[str, int]:
    """Each side's points from the objectives it has achieved (sides in the order they were set up)."""
    points = {side: 0 for side in dict.fromkeys(f.side for f in battle.setup.figures)}
    for o in _objectives(battle).items:
        if battle.state.goals.get(o.id, {}).get("state") == ACHIEVED:
            points[o.side] = points.get(o.side, 0) + o.points
    return points


def _decide(battle) -> list[Event]:
    """A decisive objective achieved wins for its side; a decisive protect failed loses for its side."""
    for o in _objectives(battle).items:
        if not o.decisive:
            continue
        state = _record(battle, o)["state"]
        if state == ACHIEVED:
            return _end(battle, o.side, o.id, f"side {o.side} wins: {o.title}")
        if state == FAILED and o.kind == "protect":
            others = [s for s in dict.fromkeys(f.side for f in battle.setup.figures) if s != o.side]
            standing = [s for s in others if any(_in_fight(battle, fid) for fid, f in battle.figures.items()
                                                 if f.side == s)]
            winner = (standing or others or [None])[0]
            return _end(battle, winner, o.id, f"side {o.side} failed to {o.title}: side {winner} wins" if winner
                        else f"side {o.side} failed to {o.title}: a draw")
    return []


def _end(battle, winner: str | None, decided_by: str, words: str) -> list[Event]:
    s = battle.state
    s.over, s.winner, s.decided_by, s.over_text = True, winner, decided_by, words
    rule = battle.ruleset.cite("objectives")
    return [Event(kind=EventKind.BATTLE_OVER, rule=rule, text=f"the battle is over: {words} ({rule})",
                  outcome=winner or "draw",
                  data={"winner": winner, "decided_by": decided_by, "points": victory_points(battle)})]


# ----- the question -----
def progress(battle) -> list[ObjectiveProgress]:
    """Where every objective stands, in the order the scenario lists them."""
    out = []
    for o in _objectives(battle).items:
        rec = battle.state.goals.get(o.id, {"state": OPEN, "progress": 0})
        need = needed(battle, o)
        out.append(ObjectiveProgress(o, rec["state"], rec["progress"], need, _progress_words(battle, o, rec, need)))
    return out


def _progress_words(battle, o: Objective, rec: dict, need: int) -> str:
    if rec["state"] == ACHIEVED:
        return "achieved"
    if rec["state"] == FAILED:
        return "failed"
    if o.kind == "hold":
        mine, foes = _holders(battle, o)
        now = "held now" if mine and not foes else "contested" if mine else "foes on it" if foes else "empty"
        return f"{rec['progress']}/{need} rounds, {now}"
    if o.kind == "reach":
        return f"{rec['progress']}/{need} through"
    if o.kind == "survive":
        return f"round {battle.state.round} of {o.rounds}"
    if o.kind == "break":
        return f"{rec['progress']}/{need} foes out"
    if o.kind == "protect":
        st = battle.states[o.figure]
        return f"{st.hp}/{st.max_hp} hp"
    st = battle.states[o.figure]
    return f"{st.hp}/{st.max_hp} hp left"
