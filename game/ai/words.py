"""A plan's reasons in a player's words: what it goes for and what it risks or avoids
("goes for the wounded Archer: 45% to hit, 30% to fell it; keeps out of the foes' reach").

Made from what the plan weighed (its kind, its data and its named reasons, all the resolver's
odds); nothing is worked out again. The window shows these words (game/client/describe.ai_lines);
`Decision.explain()` keeps the numbers for whoever tunes the AI.
"""
from __future__ import annotations

SMALL = 0.05          # a reason worth less than this is not worth a word


def _name(figures, fid, wounded: bool = False) -> str:
    fig = figures.get(fid) if fid is not None else None
    label = fig.label if fig is not None else str(fid or "a foe")
    return ("the wounded " if wounded else "") + label


def _lead(plan, figures) -> str:
    d = plan.data
    kind = plan.kind.removeprefix("turn-")         # turned first, then the plan
    target = d.get("target")
    if target is not None and "p_hit" in d:
        who = _name(figures, target, d.get("wounded", False))
        fell = d.get("p_fell", d.get("p_kill", 0.0))
        keys = set(d.get("modifier_keys", ()))
        if kind in ("charge", "announce"):
            verb = "charges " + who if kind == "charge" else "announces a charge at " + who
        elif plan.label.startswith("shoot carefully"):
            verb = "shoots carefully at " + who + " (no friend at risk)"
        elif d.get("withdraws"):
            verb = "steps back out of the melee, then " + ("shoots" if d.get("ranged") else "strikes") + " " + who
        elif d.get("ranged"):
            verb = "shoots at " + who
        else:
            verb = "goes for " + who
        later = d.get("later") and not d.get("ranged")
        if later:
            verb = "moves in to strike " + who
        where = " from behind" if "rear" in keys else (" on its flank" if "flank" in keys else "")
        when = " when the blows come" if later else ""
        with_friends = " with friends' blows" if d.get("p_fell", 0.0) > d.get("p_kill", 0.0) + 0.01 else ""
        return f"{verb}{where}{when}: {d['p_hit']:.0%} to hit, {fell:.0%} to fell it{with_friends}"
    if kind == "withdraw":
        if any(n == "archer out of melee" for n, _v in plan.reasons):
            return "steps out of the melee to shoot next"
        return "falls back out of the fight"
    if kind == "approach":
        best = max(((v, n) for n, v in plan.reasons if n in ("joins the friends' fight", "closing in",
                                                               "distance from the nearest foe", "can strike next round")),
                   default=None)
        if best is not None and best[1] == "distance from the nearest foe":
            return "keeps its distance to shoot"
        if any(n == "joins the friends' fight" for n, _v in plan.reasons):
            return "moves up to join its friends' fight"
        return "closes in on the foes"
    if kind == "regroup":
        return "falls back beside its friends"
    if kind == "set":
        return "sets its weapon against a charge"
    if kind == "defend":
        return "defends itself"
    if kind == "stand":
        return "gets up"
    if kind == "flee":
        return "flees"
    if kind == "hold":
        return "holds its ground"
    if kind == "turn":
        return "turns to face the foes"
    if kind == "wait":
        return "waits for the blows to come"
    return plan.label


def _risk(plan, figures) -> list[str]:
    out = []
    for name, v in plan.reasons:
        if v > -SMALL:
            continue
        if name.startswith("parting shot from "):
            out.append("draws a parting shot from " + name[len("parting shot from "):].rsplit(" ", 1)[0])
        elif name.endswith("strikes first as it closes"):
            out.append("walks into the reach of " + name[: -len(" strikes first as it closes")])
        elif name.startswith("alone against "):
            out.append("would stand alone against " + name[len("alone against "):].split(":", 1)[0])
        elif name == "may hit a friend in the melee":
            out.append("may hit a friend in the melee")
        elif name.endswith("the charger") and "set" in name:
            out.append(name.replace("strikes the charger", "waits for the charge"))
    exposure = plan.data.get("exposure")
    replies = plan.data.get("replies")
    if replies:
        worst = max(replies, key=lambda p: p[1])
        if worst[1] > SMALL:
            out.append("expects " + worst[0].split(":", 1)[0] + " to strike back")
        else:
            out.append("no foe's reply hurts it much")
    elif exposure is not None and plan.end is not None:
        exposed = next((n for n, _v in plan.reasons if n.startswith("exposed to ")), None)
        if exposure <= SMALL or exposed is None:
            out.append("keeps out of the foes' reach")
        elif ", most " in exposed:
            many = exposed[len("exposed to "):].split(" ", 1)[0]
            worst = exposed.split(", most ", 1)[1]
            out.append(f"risks {worst}'s blows" + (f" and {int(many) - 1} more" if many.isdigit() and int(many) > 1 else ""))
    for name, v in plan.reasons:
        if v > SMALL and name.startswith("with ") and "friend(s) still to strike" in name:
            break
        if v > SMALL and name in ("high ground",):
            out.append("takes the high ground")
    return out


def plan_words(plan, figures) -> str:
    """The plan in a player's words: what it goes for, then what it risks or keeps clear of.
    `figures`: id -> Figure (for names)."""
    parts = [_lead(plan, figures), *_risk(plan, figures)]
    if plan.data.get("search_words"):
        parts.append(plan.data["search_words"])
    if plan.data.get("refused"):
        parts.append(f"refused: {plan.data['refused']}")
    return "; ".join(dict.fromkeys(p for p in parts if p))


__all__ = ["plan_words"]
