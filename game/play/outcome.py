"""Is the battle over, who won and what decided it: the resolver's answer, with the sides still
standing and, where the scenario has objectives, each side's victory points."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    over: bool
    winner: str | None          # side name, or None (not over, or a draw)
    reason: str = ""
    sides_left: tuple[str, ...] = ()
    decided_by: str = ""        # an objective's id, "round-limit", "elimination"; "" while it goes on
    points: tuple[tuple[str, int], ...] = ()    # (side, victory points) where the scenario has objectives

    def to_json(self) -> dict:
        return {"over": self.over, "winner": self.winner, "reason": self.reason, "sides_left": list(self.sides_left),
                "decided_by": self.decided_by, "points": dict(self.points)}


def sides(battle) -> list[str]:
    """The sides in the order their first figure was set up."""
    return list(dict.fromkeys(f.side for f in battle.setup.figures))


def active_by_side(battle) -> dict[str, list[str]]:
    """Figures still able to fight (not down, routed or fled), by side."""
    out: dict[str, list[str]] = {s: [] for s in sides(battle)}
    for fid, fig in battle.figures.items():
        if battle.able(fid):
            out.setdefault(fig.side, []).append(fid)
    return out


def outcome(battle) -> Outcome:
    left = tuple(s for s, ids in active_by_side(battle).items() if ids)
    points = tuple(battle.victory_points().items()) if battle.setup.objectives else ()
    if not battle.is_over:
        return Outcome(False, None, "", left, "", points)
    decided = battle.decided_by
    if decided and decided != "elimination":
        reason = battle.state.over_text
    else:
        reason = "every other side is down, routed or fled" if battle.winner else "no side has a figure left standing"
    return Outcome(True, battle.winner, reason, left, decided or "elimination", points)

