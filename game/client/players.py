"""Who plays each side, and the AI's turns played at a pace a person can follow.

A side is played by a person (the window's clicks) or a controller from game.play.controllers
(the AI at any level, or one that only ends its turns). The turn itself is the shared loop's
(game/play/turns.py `TurnLoop`, the same as `simulate`'s): it says whether the current figure's
controller is asked or its turn is ended for it, counts refusals and forced end turns, and says
when play has stalled. What is only the window's is here: the pace (`delay_s` between AI actions,
after the previous action has been animated), asking the controller on a private copy of the
battle on a worker thread (`background`, so frames never wait for it), forgetting a question when
the battle changes under it, the last decision for the panel, and saying what went wrong in a
toast (a controller that raised has its figure's turn ended; a stall stops the AI's play).
"""
from __future__ import annotations

import threading
import time

from ..play import controllers as ctl
from ..play.turns import Step, TurnLoop

_PENDING = object()


class _Job:
    def __init__(self, battle, step: Step, actions: int):
        self.battle = battle
        self.step = step
        self.actions = actions
        self.result = _PENDING


class Players:
    def __init__(self, sides: list[str], kinds: dict[str, str], delay_s: float, background: bool):
        self.kinds: dict[str, str] = {}
        self.controllers: dict = {}
        for side in sides:
            self.set_side(side, kinds.get(side, "human"))
        self.loop = TurnLoop(self.controllers)  # reads the same dict: set_side changes who it asks
        self.delay_s = delay_s
        self.background = background
        self.clock = time.monotonic
        self._job: _Job | None = None
        self._last = -1e9
        self.decision = None          # the AI's last decision (what it weighed), for the panel
        self.decision_at = -1         # len(battle.actions) right after that decision was applied

    # ----- who plays -----
    def set_side(self, side: str, kind: str) -> None:
        self.kinds[side] = kind
        self.controllers[side] = ctl.make(kind)

    def name(self, side: str) -> str:
        c = self.controllers.get(side)
        return "person" if ctl.is_human(c) else c.name

    def human_side(self, side: str) -> bool:
        return ctl.is_human(self.controllers.get(side))


    # ----- the AI's turns -----
    @property
    def stopped(self) -> bool:
        """The AI's play has stalled (an EndTurn refused): it waits for the battle to change."""
        return self.loop.stalled

    def thinking(self) -> bool:
        return self._job is not None

    def cancel(self) -> None:
        """Forget a question in flight (the battle changed under it: undo, load, a new ruleset);
        the turn loop counts afresh and a stalled AI plays again."""
        self._job = None
        self.loop.restart()

    def wait(self) -> None:
        """Start the pause before the next AI action afresh (after an animation ends)."""
        self._last = self.clock()

    def tick(self, session, toast) -> None:
        b = session.battle
        cur = b.current
        if cur is None or self.loop.stalled or self.loop.person_plays(b):
            return
        job = self._job
        if job is not None:
            if job.result is _PENDING:
                return
            self._job = None
            if job.battle is b and job.step.figure_id == cur and job.actions == len(b.actions):
                self._answer(session, job.step, job.result, toast)
            return  # else the battle changed under the AI: ask again next frame
        if self.clock() - self._last < self.delay_s:
            return
        self._last = self.clock()
        step = self.loop.next(b)
        if step is None:
            return
        if step.forced is not None:  # the guard ends the turn: nothing to ask
            self._submit(session, step, step.forced, toast)
            return
        if not self.background:
            self._answer(session, step, _choose(step.controller, b, cur), toast)
            return
        # The AI may think for a second or more (a flyer's 3-D search): the window never waits.
        job = self._job = _Job(b, step, len(b.actions))
        private = b.clone()  # it thinks on its own copy: the window's battle is never read off-thread

        def think():
            job.result = _choose(step.controller, private, cur)
        threading.Thread(target=think, name="fivefoot-ai", daemon=True).start()

    def _answer(self, session, step: Step, result, toast) -> None:
        fig = session.battle.figures[step.figure_id]
        if isinstance(result, Exception):
            toast(f"{self.name(fig.side)} failed for {fig.label}: {result}")
            self._submit(session, step, self.loop.end_turn_for(fig.id), toast)
            return
        self._submit(session, step, result, toast)
        self.decision = getattr(step.controller, "last_decision", None)  # a controller need not explain itself
        self.decision_at = len(session.battle.actions)

    def _submit(self, session, step: Step, action, toast) -> None:
        self.loop.submit(action, session.submit)
        if self.loop.stalled:
            fig = session.battle.figures[step.figure_id]
            toast(f"{self.name(fig.side)} cannot act for {fig.label} and cannot end its turn: AI play stopped")


def _choose(controller, battle, figure_id):
    try:
        return controller.choose(battle, figure_id)
    except Exception as err:  # a controller's bug must not take the window down; it is shown instead
        return err
