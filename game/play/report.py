"""A battle's result summary: who won, casualties, rounds, and the notable rules that fired.

`summarize(...)` is a pure function of plain data (the figures at the start, the event log, how
each figure ended, the round count and the outcome) so the result screen, the simulator and
tests all get the same numbers. `summarize_battle(battle)` gathers that data from a Battle.
Counts come from each event's kind (core.values.events.EventKind) and its modifiers' keys, never from
its words.
"""
from __future__ import annotations

from collections import Counter

from ..core.values.events import ATTACK_KINDS, EventKind as K

# What the result screen and the simulation report count. Each test gets one event as a dict
# (its JSON form) and the set of its modifiers' keys.
NOTABLE = (
    ("attacks", lambda e, keys: e["kind"] in ATTACK_KINDS),
    ("hits", lambda e, keys: e["kind"] in ATTACK_KINDS and e.get("outcome") == "hit"),
    ("parting shots provoked", lambda e, keys: e["kind"] == K.PARTING_SHOT),
    ("parting shots struck", lambda e, keys: e["kind"] == K.PARTING_SHOT and e.get("outcome") == "hit"),
    ("charges", lambda e, keys: e["kind"] == K.CHARGE and "target" in e),
    ("weapons set against a charge", lambda e, keys: e["kind"] == K.SET),
    ("set weapons striking a charger", lambda e, keys: e["kind"] == K.SET_WEAPON_STRIKE),
    ("reach strikes on a closing foe", lambda e, keys: e["kind"] == K.REACH_ATTACK),
    ("longer weapons striking first", lambda e, keys: e["kind"] == K.STRIKES_FIRST),
    ("flank attacks", lambda e, keys: e["kind"] in ATTACK_KINDS and "flank" in keys),
    ("rear attacks", lambda e, keys: e["kind"] in ATTACK_KINDS and "rear" in keys),
    ("high ground", lambda e, keys: e["kind"] in ATTACK_KINDS and "high-ground" in keys),
    ("attacks through cover", lambda e, keys: e["kind"] in ATTACK_KINDS and "cover" in keys),
    ("criticals", lambda e, keys: e["kind"] in ATTACK_KINDS and bool(e.get("data", {}).get("critical"))),
    ("fumbles", lambda e, keys: e["kind"] in ATTACK_KINDS and bool(e.get("data", {}).get("fumble"))),
    ("fighting withdrawals", lambda e, keys: (e["kind"] == K.MOVE and e.get("data", {}).get("mode") == "withdraw")),
    ("disengages", lambda e, keys: e["kind"] == K.DISENGAGE),
    ("missiles into a melee", lambda e, keys: e["kind"] in ATTACK_KINDS
     and bool(e.get("data", {}).get("breakdown", {}).get("friends_in_melee"))),
    ("friendly fire", lambda e, keys: e["kind"] == K.FRIENDLY_FIRE and e.get("outcome") != "miss"),
    ("morale checks", lambda e, keys: e["kind"] == K.MORALE and "rolls" in e),
    ("routs", lambda e, keys: e["kind"] == K.FLEE and e.get("data", {}).get("cause") == "rout"),
    ("grapples", lambda e, keys: e["kind"] == K.GRAPPLE),
    ("escapes from a hold", lambda e, keys: e["kind"] == K.ESCAPE),
    ("trips", lambda e, keys: e["kind"] == K.TRIP),
    ("overbears", lambda e, keys: e["kind"] == K.OVERBEAR),
    ("falls", lambda e, keys: e["kind"] == K.FALL),
    ("riders thrown", lambda e, keys: e["kind"] == K.THROWN),
    ("near misses hitting the mount", lambda e, keys: e["kind"] == K.HITS_MOUNT),
    ("missiles flying on", lambda e, keys: e["kind"] == K.FLIES_ON),
    ("figures down", lambda e, keys: e["kind"] == K.DOWN),
)
NOTABLE_KINDS = {  # the event kinds each count reads: a test checks every one is emitted in some battle
    "attacks": ATTACK_KINDS, "hits": ATTACK_KINDS, "parting shots provoked": {K.PARTING_SHOT},
    "parting shots struck": {K.PARTING_SHOT}, "charges": {K.CHARGE}, "weapons set against a charge": {K.SET},
    "set weapons striking a charger": {K.SET_WEAPON_STRIKE}, "reach strikes on a closing foe": {K.REACH_ATTACK},
    "longer weapons striking first": {K.STRIKES_FIRST}, "flank attacks": ATTACK_KINDS, "rear attacks": ATTACK_KINDS,
    "high ground": ATTACK_KINDS, "attacks through cover": ATTACK_KINDS, "criticals": ATTACK_KINDS,
    "fumbles": ATTACK_KINDS, "fighting withdrawals": {K.MOVE}, "disengages": {K.DISENGAGE},
    "missiles into a melee": ATTACK_KINDS, "friendly fire": {K.FRIENDLY_FIRE}, "morale checks": {K.MORALE},
    "routs": {K.FLEE}, "grapples": {K.GRAPPLE}, "escapes from a hold": {K.ESCAPE}, "trips": {K.TRIP},
    "overbears": {K.OVERBEAR}, "falls": {K.FALL}, "riders thrown": {K.THROWN},
    "near misses hitting the mount": {K.HITS_MOUNT}, "missiles flying on": {K.FLIES_ON}, "figures down": {K.DOWN},
}
# Not worth a highlight line: counted, but routine.
UNREMARKABLE = frozenset({"attacks", "hits"})
# A figure's own numbers among an attack's modifiers (its AB or SC, its DEX or STR): not situational rules.
OWN_NUMBERS = frozenset({"base", "ability"})
# Event kinds that are book-keeping rather than rules at work.
ROUTINE_KINDS = frozenset({K.END_TURN, K.ROUND, K.TURN, K.ORDER})


def _as_dict(ev) -> dict:
    return ev if isinstance(ev, dict) else ev.to_json()


def count_events(events) -> dict:
    """{'kinds': {...}, 'rules': {...}, 'modifiers': {...}, 'notable': {...}} counted from events."""
    kinds, rules, modifiers, notable = Counter(), Counter(), Counter(), Counter()
    for ev in events:
        e = _as_dict(ev)
        kinds[e["kind"]] += 1
        if e["kind"] not in ROUTINE_KINDS and e.get("rule"):
            rules[e["rule"]] += 1
        mods = e.get("modifiers", ())
        for m in mods:
            if m.get("key") not in OWN_NUMBERS:
                rules[m["source"]] += 1
                modifiers[m["name"].lower()] += 1
        keys = {m.get("key", "") for m in mods}
        for label, test in NOTABLE:
            if test(e, keys):
                notable[label] += 1
    return {"kinds": dict(sorted(kinds.items())), "rules": dict(sorted(rules.items())),
            "modifiers": dict(sorted(modifiers.items())),
            "notable": {label: notable.get(label, 0) for label, _ in NOTABLE}}


def deciding(events) -> list[int]:
    """Where the battle was decided, as indices into the events: every fall (a figure down) and the
    blow that felled it (the last hit on that figure before it), in the log's order."""
    dicts = [_as_dict(ev) for ev in events]
    picked: set[int] = set()
    for i, e in enumerate(dicts):
        if e["kind"] != K.DOWN:
            continue
        picked.add(i)
        fallen = e.get("actor")
        for j in range(i - 1, -1, -1):
            d = dicts[j]
            if d.get("target") == fallen and d.get("outcome") == "hit":
                picked.add(j)
                break
    return sorted(picked)


def highlights(events, most: int = 8) -> list[str]:
    """The notable things that happened, in the log's words and order: the blows and falls that
    decided the battle always (however many), then the first other notable moments, up to `most`."""
    dicts = [_as_dict(ev) for ev in events]
    keep = set(deciding(dicts))
    room = max(0, most - len(keep))
    for i, e in enumerate(dicts):
        if room <= 0:
            break
        if i in keep:
            continue
        keys = {m.get("key", "") for m in e.get("modifiers", ())}
        if any(test(e, keys) for label, test in NOTABLE if label not in UNREMARKABLE):
            keep.add(i)
            room -= 1
    return [dicts[i]["text"] for i in sorted(keep)]


def rounds_words(n: int) -> str:
    return f"{n} round" if n == 1 else f"{n} rounds"


def summarize(figures, events, final: dict, rounds: int, winner: str | None, over: bool = True,
              reason: str = "", highlight_count: int = 8) -> dict:
    """The result of a battle as plain data.

    figures: (id, name, side) for every figure at the start (Figure objects also do).
    events: Event objects or their JSON dicts, in order.
    final: figure id -> {"down": bool, "fled": bool, "routed": bool, "hp": .., "hp_max": .., "conditions": [..]}.
    """
    events = list(events)
    sides: dict[str, dict] = {}
    casualties = []
    for f in figures:
        fid, name, side = (f[0], f[1], f[2]) if isinstance(f, (tuple, list)) else (f.id, f.label, f.side)
        st = final.get(fid, {})
        s = sides.setdefault(side, {"figures": 0, "standing": 0, "down": 0, "fled": 0, "routed": 0, "hp_lost": 0.0})
        s["figures"] += 1
        how = None
        if st.get("down"):
            how = next((c for c in ("dead", "dying", "unconscious", "grievously-wounded", "helpless")
                        if c in st.get("conditions", [])), "down")
            s["down"] += 1
        elif st.get("routed"):
            how = "routed"
            s["routed"] += 1
        elif st.get("fled"):
            how = "fled"
            s["fled"] += 1
        else:
            s["standing"] += 1
        hp, hp_max = st.get("hp"), st.get("hp_max")
        if hp is not None and hp_max is not None:
            s["hp_lost"] += max(0.0, float(hp_max) - max(float(hp), 0.0))
        if how:
            casualties.append({"id": fid, "name": name, "side": side, "how": how})
    counts = count_events(events)
    if not over:
        headline = f"no result after {rounds_words(rounds)}: a draw"
    elif winner:
        headline = f"{winner} wins in {rounds_words(rounds)}"
    else:
        headline = f"a draw after {rounds_words(rounds)}"
    return {
        "over": bool(over), "winner": winner, "draw": winner is None, "rounds": int(rounds), "reason": reason,
        "headline": headline, "sides": sides, "casualties": casualties,
        "notable": {k: v for k, v in counts["notable"].items() if v}, "rules": counts["rules"],
        "modifiers": counts["modifiers"], "kinds": counts["kinds"], "highlights": highlights(events, highlight_count),
        "deciding": [_as_dict(events[i])["text"] for i in deciding(events)],
    }


def final_states(battle) -> dict:
    """How each figure ended, from the resolver's status."""
    out = {}
    routed = {e.actor for e in battle.events if e.kind == K.FLEE and e.data.get("cause") == "rout"}
    for fid in battle.figures:
        st = battle.status(fid)
        fled = "fled" in st.conditions
        running = "routed" in st.conditions and st.able      # routed, still running for the edge
        out[fid] = {"down": not st.able and not fled, "fled": fled and fid not in routed,
                    "routed": (fled and fid in routed) or running, "hp": st.hp, "hp_max": st.max_hp,
                    "conditions": list(st.conditions)}
    return out


def summarize_battle(battle, outcome=None, max_rounds_reached: bool = False, highlight_count: int = 8) -> dict:
    """summarize() for a Battle (its setup figures, events, statuses and outcome)."""
    from .outcome import outcome as get_outcome
    out = outcome or get_outcome(battle)
    rounds = max(1, battle.round) if out.over else battle.round
    reason = out.reason if out.over else ("the round limit was reached" if max_rounds_reached else "")
    return summarize(list(battle.setup.figures), battle.events, final_states(battle), rounds,
                     out.winner if out.over else None, out.over, reason,
                     highlight_count)
