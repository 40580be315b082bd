"""Is the battle over, and who won: the resolver's answer when it has one, else the AI's check.

A side is out of the fight when none of its figures is still active: each is down (dead,
unconscious, dying...), routed or has fled the map (from Battle.status). The battle is over
when at most one side still has active figures; that side wins (none: a draw).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import compat


@dataclass(frozen=True)
class Outcome:
    over: bool
    winner: str | None          # side name, or None (not over, or a draw)
    reason: str = ""
    sides_left: tuple[str, ...] = ()


def sides(battle) -> list[str]:
    out: list[str] = []
    for f in getattr(battle.setup, "figures", None) or battle.figures.values():
        if f.side not in out:
            out.append(f.side)
    return out


def active_by_side(battle) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in sides(battle)}
    for fid, fig in battle.figures.items():
        if compat.status(battle, fid).active and not compat.status(battle, fid).routed:
            out.setdefault(fig.side, []).append(fid)
    return out


def outcome(battle) -> Outcome:
    over_attr = getattr(battle, "is_over", None)
    if over_attr is not None:
        try:
            over = bool(compat.value(over_attr))
            winner = compat.value(getattr(battle, "winner", None)) if over else None
            left = tuple(s for s, ids in active_by_side(battle).items() if ids)
            return Outcome(over, winner if isinstance(winner, str) else None,
                           "the resolver declares the battle over" if over else "", left)
        except Exception:
            pass
    left = tuple(s for s, ids in active_by_side(battle).items() if ids)
    if len(left) > 1:
        return Outcome(False, None, "", left)
    if len(left) == 1:
        return Outcome(True, left[0], "every other side is down, routed or fled", left)
    return Outcome(True, None, "no side has a figure left standing", left)
