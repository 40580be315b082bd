"""A handicap for measuring the AI levels: `LEVEL+K` plays as LEVEL with +K to hit on every attack
of its side (d100 rulesets: +5K to the strike chance), the yardstick of docs/ai.md ("to-hit
worth"). The bonus rides on the figures (`stats["edge"]`), where the attack's breakdown lists it
as a modifier of its own; nothing else of the rules changes.
"""
from __future__ import annotations

from dataclasses import replace

from ..ai.levels import DIFFICULTIES
from ..core.values.errors import RulesError

D100_STEP = 5          # one point of to-hit on a d20 is five on a d100


def split_level(text: str) -> tuple[str, int]:
    """'normal' -> ('normal', 0); 'naive+2' -> ('naive', 2). A mistake is a RulesError in words."""
    name, plus, k = str(text).strip().partition("+")
    name = name.strip()
    if name not in DIFFICULTIES:
        raise RulesError(f"unknown AI level {text!r}: use one of {', '.join(DIFFICULTIES)}, "
                         "or LEVEL+K for a level with +K to hit (e.g. naive+2)")
    if not plus:
        return name, 0
    try:
        edge = int(k)
    except ValueError:
        raise RulesError(f"{text!r}: write LEVEL+K with K a whole number of to-hit points (e.g. naive+2)") from None
    if not 0 <= edge <= 10:
        raise RulesError(f"{text!r}: the edge K is from 0 to 10 to-hit points")
    return name, edge


def with_edge(setup, side: str, edge: int):
    """The setup with +edge to hit on every attack of that side's figures (d100: +5 x edge)."""
    if not edge:
        return setup
    step = D100_STEP if setup.ruleset.section("attack")["resolution"] == "d100" else 1
    figures = tuple(replace(f, stats={**f.stats, "edge": edge * step}) if f.side == side else f
                    for f in setup.figures)
    return replace(setup, figures=figures)
