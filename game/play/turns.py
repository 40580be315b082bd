"""The one turn loop: ask the side's controller for the current figure's action, apply it, and
keep play from stalling. The window (game/client/players.py) and `simulate` (and through it
`ladder`) both play through `TurnLoop`; only the pace differs.

`TurnLoop.next(battle)` says what the current figure's turn needs now: a `Step` whose `forced`
EndTurn is to be applied as it is (the guard ends the turn for the figure), or whose controller
is to be asked (`step.controller.choose(battle, figure_id)`; the window asks it on a private copy,
on a worker thread). `TurnLoop.submit(action, submit)` applies the answer through the caller's
`submit(action) -> bool` (the window's Session.submit; headless play wraps `battle.apply`) and
counts it. A person's figure is never asked and never has its turn ended by the loop: the caller
waits for clicks (`TurnLoop.person_plays`).

The guard's rules (one set, the same headless and in the window):
- a figure's turn is ended for it (a forced EndTurn, counted in `forced_end_turns`) once its
  controller has had `MAX_ACTIONS_PER_TURN` actions applied or `MAX_REFUSALS_PER_TURN` refused
  this turn; a figure out of the fight that does not still act before falling has its turn ended
  without asking (not counted as forced);
- every refused action is counted in `refusals`; the controller is asked again after one;
- play has stalled (`stalled`: simulate stops the battle, the window stops the AI's play and says
  so) when an EndTurn is refused, when no one is to act in a battle not over, or when headless
  play runs out of its action budget;
- a controller that raises is the caller's business: headless play lets the error through (a bug
  to fix); the window shows it and ends the figure's turn through `TurnLoop.end_turn_for`
  (counted as a forced end turn).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.values.actions import Action, EndTurn
from ..core.values.refusals import ActionRefused
from .controllers import is_human

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


@dataclass(frozen=True)
class Step:
    """What the current figure's turn needs now: apply `forced` as it is, or ask `controller`."""
    figure_id: str
    controller: object
    forced: Action | None = None


class TurnLoop:
    """The guard and the controllers (by side) of one battle's play; no pacing, no threads."""

    def __init__(self, controllers: dict, guard: TurnGuard | None = None):
        self.controllers = controllers   # side -> controller; the caller may change it between turns
        self.guard = guard or TurnGuard()

    @property
    def stats(self) -> dict:
        """refusals, forced_end_turns, stalled (the keys simulate's records carry)."""
        return self.guard.stats

    @property
    def stalled(self) -> bool:
        return self.guard.stats["stalled"]

    def restart(self) -> None:
        """The battle changed under the loop (undo, load, another ruleset): fresh counts, not stalled."""
        self.guard = TurnGuard(self.guard.max_actions, self.guard.max_refusals)

    def controller_of(self, battle, figure_id: str):
        return self.controllers.get(battle.figures[figure_id].side)

    def person_plays(self, battle) -> bool:
        """True when the current figure is a person's: the loop neither asks nor ends its turn."""
        cur = battle.current
        return cur is not None and is_human(self.controller_of(battle, cur))

    def next(self, battle) -> Step | None:
        """The current figure's step, or None when there is nothing to play (over, stalled, a
        person's turn). Call it only when about to act on the answer: it counts forced end turns."""
        if battle.is_over or self.stalled:
            return None
        fid = battle.current
        if fid is None:
            self.guard.stats["stalled"] = True
            return None
        controller = self.controller_of(battle, fid)
        if is_human(controller):
            return None
        if self.guard.must_end_turn(battle, fid):
            return Step(fid, controller, self.guard.forced_end(fid))
        return Step(fid, controller)

    def end_turn_for(self, figure_id: str) -> Action:
        """The EndTurn for a figure whose controller failed (raised): counted as a forced end turn."""
        self.guard.stats["forced_end_turns"] += 1
        return EndTurn(figure=figure_id)

    def submit(self, action: Action, submit) -> bool:
        """Apply an action through `submit(action) -> bool` and count it; a refused EndTurn stalls play."""
        if submit(action):
            self.guard.applied()
            return True
        self.guard.refused()
        if isinstance(action, EndTurn):
            self.guard.stats["stalled"] = True
        return False

    def ran_out(self) -> None:
        """Headless play used up its action budget without the battle ending: it stalled."""
        self.guard.stats["stalled"] = True


def applying(battle):
    """`submit` for headless play: battle.apply, a refusal answered False."""
    def submit(action: Action) -> bool:
        try:
            battle.apply(action)
        except ActionRefused:
            return False
        return True
    return submit


def play_out(battle, controllers: dict, *, max_rounds: int, watch=None) -> dict:
    """Play the battle to its end (or max_rounds) with a controller per side, as fast as it goes.
    Returns the stats: refusals, forced end turns, and whether play stalled. `watch`: told
    `watch.ending(battle, figure_id)` before a controller's EndTurn is applied (play/mistakes.py)."""
    loop = TurnLoop(controllers)
    submit = applying(battle)
    budget = max(200, max_rounds * max(1, len(battle.figures)) * (MAX_ACTIONS_PER_TURN + 2))
    for _ in range(budget):
        if battle.is_over or battle.round > max_rounds:
            break
        step = loop.next(battle)
        if step is None:   # no one to act (stalled), or a person's turn: nothing headless play can do
            if not loop.stalled:
                raise RuntimeError(f"{battle.current}'s turn is a person's: headless play needs a controller")
            break
        action = step.forced if step.forced is not None else step.controller.choose(battle, step.figure_id)
        if watch is not None and step.forced is None and isinstance(action, EndTurn):
            watch.ending(battle, step.figure_id)
        loop.submit(action, submit)
        if loop.stalled:
            break
    else:
        loop.ran_out()
    return loop.stats
