"""Whether a ruleset has a rule for an action at all, whatever the position: a charge, setting a weapon,
an aimed shot, a stance or disengagement style, a manoeuvre, pulling a rider off, attacking then moving.

The handlers refuse by these answers first, and the script runner reads them before it plays a
scenario's [[actions]] under a ruleset, to say which rules the script needs that the ruleset lacks.
Pure: it reads the ruleset and the action only.
"""
from __future__ import annotations

from ..values.refusals import ActionRefused, Refusal

MANOEUVRES = ("grapple", "trip", "push", "overbear", "escape")
AFTER_ATTACK = "after-attack"


def missing_rule(ruleset, action) -> Refusal | None:
    """The refusal of an action its ruleset has no rule for (None: the ruleset has one; whether it may be
    made now is the handler's question)."""
    kind = action.kind
    if kind == "charge" and not ruleset.section("charge")["allowed"]:
        return Refusal.of("charge.none", ruleset=ruleset.name)
    if kind == "set" and not any(w["set"] for w in ruleset.section("weapons").values()):
        return Refusal.of("set.no-rule", ruleset=ruleset.name)
    if kind == "aim" and not ruleset.section("modifiers")["aim_bonus"]:
        return Refusal.of("aim.none", ruleset=ruleset.name)
    if kind == "defend" and ruleset.defense(action.style) is None:
        return Refusal.of("defend.unknown", ruleset=ruleset.name, style=action.style,
                          styles=", ".join(d["style"] for d in ruleset.data["defenses"]) or "none")
    if kind == "disengage" and action.style not in ruleset.section("disengage")["styles"]:
        return Refusal.of("disengage.unknown-style", ruleset=ruleset.name, style=action.style,
                          styles=", ".join(ruleset.section("disengage")["styles"]),
                          withdraw_hint=ruleset.section("parting_shots")["withdrawal_avoids"])
    if kind in MANOEUVRES and ruleset.section("manoeuvres")[kind] == "none":
        what = "escape from a hold" if kind == "escape" else kind
        return Refusal.of("manoeuvre.none", ruleset=ruleset.id, what=what)
    if kind == "attack" and action.unhorse and not ruleset.section("mounts")["polearm_dismount"]:
        return Refusal.of("unhorse.none", ruleset=ruleset.name)
    if kind == "move" and action.mode == AFTER_ATTACK and not ruleset.section("round")["attack_then_move"]:
        return Refusal.of("move.no-attack-then-move", ruleset=ruleset.id)
    return None


def rules_missing(ruleset, actions) -> list[tuple[int, object, Refusal]]:
    """(index from 1, action, refusal) for each action of a list the ruleset has no rule for."""
    out = []
    for i, action in enumerate(actions, start=1):
        refusal = missing_rule(ruleset, action)
        if refusal is not None:
            out.append((i, action, refusal))
    return out


def require_rule(ruleset, action) -> None:
    """Refuse an action its ruleset has no rule for (ActionRefused with missing_rule's refusal)."""
    refusal = missing_rule(ruleset, action)
    if refusal is not None:
        raise ActionRefused(refusal)
