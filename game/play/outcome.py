"""Is the battle over, and who won: the resolver's answer, with the sides still standing."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    over: bool
    winner: str | None          # side name, or None (not over, or a draw)
    reason: str = ""
    sides_left: tuple[str, ...] = ()


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
    if not battle.is_over:
        return Outcome(False, None, "", left)
    reason = "every other side is down, routed or fled" if battle.winner else "no side has a figure left standing"
    return Outcome(True, battle.winner, reason, left)
