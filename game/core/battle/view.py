"""A hypothetical position: the battle as it would read with some figures standing elsewhere.

A `BattleView` is read-only and answers the same questions the battle does about position and
odds (`explain_attack`, `positioning`), with the same code: the combat modules read any object
with `ruleset`, `map`, `round`, `state`, `figures`, `profile`, `state_of`, `able` and `positioning`. The AI
scores squares with it; the window and the CLI show "what if I stood there".
"""
from __future__ import annotations

from ..combat.breakdown import AttackContext, Breakdown
from ..combat.modifiers import attack_breakdown
from ..values.figure import Figure
from ..moves.positioning import Positioning
from .questions import Questions


class BattleView(Questions):
    def __init__(self, battle, placed: dict[str, Figure], charging: dict[str, str] | None = None,
                 absent: frozenset = frozenset(), let_go: frozenset = frozenset()):
        self._battle = battle
        # figures left out of sight and cover (a missile flying on has passed them: they are not in its way)
        self._absent = absent
        # holders whose holds are let go (what a holder could do once it releases its foe)
        self._let_go = let_go
        self._freed = {battle.state_of(h).holding for h in let_go} - {""}
        # figure id -> the foe it charged this round: its defence as the charge leaves it, without
        # rolling the charge's blow (what the foes' replies to a charge would face).
        self._charging = dict(charging or {})
        self._states: dict = {}
        self.ruleset = battle.ruleset
        self.map = battle.map
        self.round = battle.round
        self.state = battle.state          # read only: the round's progress, declared moves, who has fought
        self.figures = dict(battle.figures)
        self.figures.update(placed)
        self._placed = placed
        self._positioning: Positioning | None = None

    def profile(self, figure_id: str) -> dict:
        return self._battle.profile(figure_id)

    def state_of(self, figure_id: str):
        target = self._charging.get(figure_id)
        if target is None and figure_id not in self._let_go and figure_id not in self._freed:
            return self._battle.state_of(figure_id)
        got = self._states.get(figure_id)
        if got is None:
            got = self._states[figure_id] = self._battle.state_of(figure_id).copy()
            if target is not None:
                got.charging = target
            if figure_id in self._let_go:
                got.holding = ""
            if figure_id in self._freed:
                got.held_by = [h for h in got.held_by if h not in self._let_go]
                if not got.held_by:
                    for name in ("held", "pinned", "struggling"):
                        got.conditions.pop(name, None)
        return got

    def hypothetical(self, *figures: Figure) -> "BattleView":
        """This view with these figures standing elsewhere too (its chargers still charging)."""
        return BattleView(self._battle, {**self._placed, **{f.id: f for f in figures}}, self._charging, self._absent,
                          self._let_go)

    def able(self, figure_id: str) -> bool:
        return self._battle.able(figure_id)

    @property
    def base(self):
        """(the battle this view reads, the ids of the figures it stands elsewhere): combat's index of
        where the battle's figures stand serves the view, with those figures looked at wherever they stand."""
        return self._battle, self._placed.keys()

    def positioning(self) -> Positioning:
        if self._positioning is None:
            self._positioning = self._battle.positioning().what_if(self._placed, self._absent)
        return self._positioning

    def explain_attack(self, attacker_id: str, target_id: str, weapon: str | None = None, **context) -> Breakdown:
        return attack_breakdown(self, attacker_id, target_id, AttackContext(weapon=weapon, **context))
