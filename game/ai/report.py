"""A battle's result summary: who won, casualties, rounds, and the notable rules that fired.

`summarize(...)` is a pure function of plain data (the figures at the start, the event log, how
each figure ended, the round count and the outcome) so the result screen, the simulator and
tests all get the same numbers. `summarize_battle(battle)` gathers that data from a Battle.
Counts come from each event's `kind`, `rule`, `outcome` and modifier names, so they follow
whatever the resolver reports without a list of its event kinds here.
"""
from __future__ import annotations

from collections import Counter

# Notable things a result screen shows, and how to recognise them in an event.
# Each test gets (kind, rule, outcome, modifier names, data) in lower case.
NOTABLE = (
    ("attacks", lambda k, r, o, m, d: k in ("attack", "parting-shot", "set-attack", "charge-attack", "free-attack")),
    ("hits", lambda k, r, o, m, d: k in ("attack", "parting-shot", "set-attack", "charge-attack", "free-attack")
     and o in ("hit", "critical", "grievous", "critical-hit")),
    ("parting shots provoked", lambda k, r, o, m, d: k == "parting-shot-provoked"),
    ("parting shots struck", lambda k, r, o, m, d: k == "parting-shot" or (k == "attack" and any("parting" in x for x in m))),
    ("charges", lambda k, r, o, m, d: k == "charge" or (k == "attack" and any(x.startswith("charg") for x in m))),
    ("weapons set against a charge", lambda k, r, o, m, d: k == "set"),
    ("set weapons striking a charger", lambda k, r, o, m, d: k != "set" and any("set" in x and "charge" in x for x in m)),
    ("flank attacks", lambda k, r, o, m, d: any("flank" in x for x in m)),
    ("rear attacks", lambda k, r, o, m, d: any(x.startswith("rear") or "behind" in x for x in m)),
    ("high ground", lambda k, r, o, m, d: any("high ground" in x or "higher" in x for x in m)),
    ("attacks through cover", lambda k, r, o, m, d: any(x.endswith("cover") for x in m)),
    ("criticals", lambda k, r, o, m, d: "critical" in k or o in ("critical", "critical-hit", "grievous")),
    ("fumbles", lambda k, r, o, m, d: "fumble" in k or o == "fumble"),
    ("fighting withdrawals", lambda k, r, o, m, d: (k == "move" and d.get("mode") == "withdraw")
     or (k == "disengage" and d.get("style") in ("fighting", None))),
    ("disengages", lambda k, r, o, m, d: k == "disengage"),
    ("missiles into a melee", lambda k, r, o, m, d: "into-melee" in k or "firing-into-melee" in r and k != "move"),
    ("friendly fire", lambda k, r, o, m, d: "friendly" in k or o == "friend-hit"),
    ("morale checks", lambda k, r, o, m, d: "morale" in k),
    ("routs", lambda k, r, o, m, d: "rout" in k or o in ("routed", "rout", "flees")),
    ("figures down", lambda k, r, o, m, d: k in ("down", "death", "dies", "unconscious", "killed", "falls")),
)

# Event kinds that are book-keeping rather than rules at work.
ROUTINE_KINDS = frozenset({"end-turn", "round", "turn", "initiative-order"})


def _lower(v) -> str:
    return str(v or "").lower()


def _event_fields(ev):
    get = ev.get if isinstance(ev, dict) else (lambda k, d=None: getattr(ev, k, d))
    mods = get("modifiers", ()) or ()
    names = []
    sources = []
    for m in mods:
        mget = m.get if isinstance(m, dict) else (lambda k, d=None, _m=m: getattr(_m, k, d))
        names.append(_lower(mget("name")))
        if mget("source"):
            sources.append(str(mget("source")))
    return (_lower(get("kind")), _lower(get("rule")), _lower(get("outcome")), names, sources,
            get("data", {}) or {}, get("text", ""), get("actor"), get("target"))


def count_events(events) -> dict:
    """{'kinds': {...}, 'rules': {...}, 'modifiers': {...}, 'notable': {...}} counted from events."""
    kinds, rules, modifiers, notable = Counter(), Counter(), Counter(), Counter()
    for ev in events:
        k, r, o, names, sources, data, _text, _a, _t = _event_fields(ev)
        kinds[k] += 1
        if k not in ROUTINE_KINDS and r:
            rules[r] += 1
        for src in sources:
            rules[src] += 1
        for n in names:
            modifiers[n] += 1
        for label, test in NOTABLE:
            try:
                if test(k, r, o, names, data):
                    notable[label] += 1
            except Exception:
                continue
    return {"kinds": dict(sorted(kinds.items())), "rules": dict(sorted(rules.items())),
            "modifiers": dict(sorted(modifiers.items())), "notable": {label: notable.get(label, 0) for label, _ in NOTABLE}}


def summarize(figures, events, final: dict, rounds: int, winner: str | None, over: bool = True,
              reason: str = "", highlights: int = 8) -> dict:
    """The result of a battle as plain data.

    figures: (id, name, side) for every figure at the start (Figure objects also do).
    events: Event objects or their JSON dicts, in order.
    final: figure id -> {"down": bool, "fled": bool, "routed": bool, "hp": .., "hp_max": .., "conditions": [..]}.
    """
    rows = []
    for f in figures:
        if isinstance(f, (tuple, list)):
            fid, name, side = f[0], f[1], f[2]
        else:
            fid, name, side = f.id, getattr(f, "label", None) or getattr(f, "name", "") or f.id, f.side
        rows.append((fid, name, side))
    sides: dict[str, dict] = {}
    casualties = []
    for fid, name, side in rows:
        st = final.get(fid, {}) or {}
        s = sides.setdefault(side, {"figures": 0, "standing": 0, "down": 0, "fled": 0, "routed": 0, "hp_lost": 0.0})
        s["figures"] += 1
        how = None
        if st.get("down"):
            how = next((c for c in ("dead", "dying", "unconscious", "grievously-wounded", "helpless")
                        if c in (st.get("conditions") or [])), "down")
            s["down"] += 1
        elif st.get("fled"):
            how = "fled"
            s["fled"] += 1
        elif st.get("routed"):
            how = "routed"
            s["routed"] += 1
        else:
            s["standing"] += 1
        hp, hp_max = st.get("hp"), st.get("hp_max")
        if isinstance(hp, (int, float)) and isinstance(hp_max, (int, float)):
            s["hp_lost"] += max(0.0, float(hp_max) - max(float(hp), 0.0))
        if how:
            casualties.append({"id": fid, "name": name, "side": side, "how": how})
    counts = count_events(events)
    notable_texts = []
    for ev in events:
        k, r, o, names, _s, data, text, _a, _t = _event_fields(ev)
        if k in ROUTINE_KINDS or k in ("move",) and data.get("mode") != "withdraw":
            continue
        if any(test(k, r, o, names, data) for label, test in NOTABLE if label not in ("attacks", "hits")):
            notable_texts.append(text)
        if len(notable_texts) >= highlights:
            break
    if not over:
        headline = f"no result after {rounds} round(s): a draw"
    elif winner:
        headline = f"{winner} wins in {rounds} round(s)"
    else:
        headline = f"a draw after {rounds} round(s)"
    return {
        "over": bool(over), "winner": winner, "draw": winner is None, "rounds": int(rounds), "reason": reason,
        "headline": headline, "sides": sides, "casualties": casualties,
        "notable": {k: v for k, v in counts["notable"].items() if v}, "rules": counts["rules"],
        "modifiers": counts["modifiers"], "kinds": counts["kinds"], "highlights": notable_texts,
    }


def final_states(battle) -> dict:
    from . import compat
    out = {}
    for fid in battle.figures:
        st = compat.status(battle, fid)
        out[fid] = {"down": st.down, "fled": st.fled, "routed": st.routed, "hp": st.hp, "hp_max": st.hp_max,
                    "conditions": sorted(st.conditions)}
    return out


def summarize_battle(battle, outcome=None, max_rounds_reached: bool = False) -> dict:
    """summarize() for a Battle (its setup figures, events, statuses and outcome)."""
    from . import compat
    from .outcome import outcome as get_outcome
    out = outcome or get_outcome(battle)
    rounds = compat.round_number(battle)
    if out.over:
        rounds = max(1, rounds)
    figures = list(getattr(battle.setup, "figures", None) or battle.figures.values())
    summary = summarize(figures, battle.events, final_states(battle), rounds, out.winner if out.over else None,
                        out.over, out.reason if out.over else ("the round limit was reached" if max_rounds_reached else ""))
    return summary


def format_summary(summary: dict) -> str:
    """Plain-text lines of a summary (the CLI; the window draws its own)."""
    lines = [summary["headline"] + (f" ({summary['reason']})" if summary.get("reason") else "")]
    for side, s in summary["sides"].items():
        lines.append(f"  {side}: {s['standing']} standing, {s['down']} down, {s['fled']} fled, {s['routed']} routed"
                     f" of {s['figures']}")
    if summary["notable"]:
        lines.append("  " + ", ".join(f"{k}: {v}" for k, v in summary["notable"].items()))
    for text in summary["highlights"]:
        lines.append(f"  - {text}")
    return "\n".join(lines)
