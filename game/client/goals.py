"""The objectives in a player's words: each side's objectives and how far along each is, for the
window's objectives panel, and the result screen's line saying what decided the battle. Read from
the resolver (`battle.objectives()`, `victory_points()`, `decided_by`), never worked out here."""
from __future__ import annotations

ROLES = {"open": "text", "achieved": "good", "failed": "warn"}
MARKS = {"open": "·", "achieved": "✓", "failed": "✗"}


def objective_lines(battle) -> list[tuple[str, str]]:
    """(text, role) lines: per side its objectives with their progress; the round limit and points."""
    goals = battle.setup.objectives
    if not goals:
        return []
    progress = battle.objectives()
    lines: list[tuple[str, str]] = []
    sides = list(dict.fromkeys(f.side for f in battle.setup.figures))
    for side in sides:
        mine = [p for p in progress if p.objective.side == side]
        if not mine:
            continue
        lines.append((f"{side}:", "accent"))
        for p in mine:
            o = p.objective
            worth = f"{o.points} pt" if o.points else "wins"
            lines.append((f"  {MARKS[p.state]} {o.title} ({worth}): {p.words}", ROLES[p.state]))
    if goals.round_limit:
        points = battle.victory_points()
        tally = ", ".join(f"{s} {points.get(s, 0)}" for s in sides)
        lines.append((f"round {battle.round} of {goals.round_limit}; victory points: {tally}", "dim"))
    return lines


def decided_line(battle) -> str:
    """What decided the battle, in one line ('' while it goes on)."""
    if not battle.is_over:
        return ""
    decided = battle.decided_by
    if decided == "round-limit":
        return f"Decided at the round limit: {battle.state.over_text}"
    if decided and decided != "elimination":
        prog = next((p for p in battle.objectives() if p.objective.id == decided), None)
        result = f"side {battle.winner} wins" if battle.winner else "a draw"
        if prog is None:
            return f"Decided by {decided}: {result}"
        o = prog.objective
        return f"Decided by side {o.side}'s objective '{o.title}', {prog.state}: {result}"
    if battle.setup.objectives:
        return "Decided by the fight: " + ("every foe down, routed or fled" if battle.winner else "nobody left standing")
    return ""
