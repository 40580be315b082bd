"""The one turn loop: ask the side's controller for the current figure's action, apply it, and
keep play from stalling (a controller refused again and again, or acting without end, has its
figure's turn ended for it). The window, `simulate` and `ladder` all play through this."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.values.actions import Action, EndTurn
from ..core.values.refusals import ActionRefused

MAX_ACTIONS_PER_TURN = 12
MAX_REFUSALS_PER_TURN = 4


@dataclass
class TurnGuard:
    """Counts what happened in the current figure's turn and ends it when the controller is stuck."""
    max_actions: int = MAX_ACTIONS_PER_TURN
    max_refusals: int = MAX_REFUSALS_PER_TURN
    turn: tuple | None = None
    actions: int = 0
    refusals: int = 0
    stats: dict = field(default_factory=lambda: {"refusals": 0, "forced_end_turns": 0, "stalled": False})

    def _enter(self, battle, figure_id: str) -> None:
        key = (battle.round, figure_id)
        if key != self.turn:
            self.turn, self.actions, self.refusals = key, 0, 0

    def must_end_turn(self, battle, figure_id: str) -> bool:
        """True when the controller should not be asked again this turn: it is ended for it."""
        self._enter(battle, figure_id)
        still_acts = battle.able(figure_id) or battle.state_of(figure_id).acts_before_falling
        return not still_acts or self.actions >= self.max_actions or self.refusals >= self.max_refusals

    def forced_end(self, figure_id: str) -> Action:
        if self.actions >= self.max_actions or self.refusals >= self.max_refusals:
            self.stats["forced_end_turns"] += 1
        return EndTurn(figure=figure_id)

    def applied(self) -> None:
        self.actions += 1

    def refused(self) -> None:
        self.refusals += 1
        self.stats["refusals"] += 1


def play_out(battle, controllers: dict, *, max_rounds: int) -> dict:
    """Play the battle to its end (or max_rounds) with a controller per side. Returns the stats:
    refusals, forced end turns, and whether play stalled (a refused EndTurn, or no one to act)."""
    guard = TurnGuard()
    budget = max(200, max_rounds * max(1, len(battle.figures)) * (MAX_ACTIONS_PER_TURN + 2))
    for _ in range(budget):
        if battle.is_over or battle.round > max_rounds:
            break
        fid = battle.current
        if fid is None:
            guard.stats["stalled"] = True
            break
        if guard.must_end_turn(battle, fid):
            action = guard.forced_end(fid)
        else:
            action = controllers[battle.figures[fid].side].choose(battle, fid)
        try:
            battle.apply(action)
            guard.applied()
        except ActionRefused:
            guard.refused()
            if isinstance(action, EndTurn):
                guard.stats["stalled"] = True
                break
    else:
        guard.stats["stalled"] = True
    return guard.stats
