"""Who plays each side, and the AI's turns played at a pace a person can follow.

A side is played by a person (the window's clicks) or a controller from game.play.controllers
(the AI at any level, or one that only ends its turns). When it is a controller's figure's
turn, `Players.tick` asks it for an action on a private copy of the battle (on a worker thread
in the interactive window, so frames never wait for it), then applies the answer through the
session exactly like a click. It waits while the previous action is still being animated.
"""
from __future__ import annotations

import threading
import time

from ..core.values.actions import EndTurn
from ..play import controllers as ctl

_PENDING = object()


class _Job:
    def __init__(self, battle, figure_id: str, actions: int):
        self.battle = battle
        self.figure_id = figure_id
        self.actions = actions
        self.result = _PENDING


class Players:
    def __init__(self, sides: list[str], kinds: dict[str, str], delay_s: float, background: bool):
        self.kinds: dict[str, str] = {}
        self.controllers: dict = {}
        for side in sides:
            self.set_side(side, kinds.get(side, "human"))
        self.delay_s = delay_s
        self.background = background
        self.clock = time.monotonic
        self._job: _Job | None = None
        self._last = -1e9
        self._refusals = 0
        self.stopped = False
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
    def thinking(self) -> bool:
        return self._job is not None

    def cancel(self) -> None:
        """Forget a question in flight (the battle changed under it: undo, load, a new ruleset)."""
        self._job = None
        self.stopped = False

    def wait(self) -> None:
        """Start the pause before the next AI action afresh (after an animation ends)."""
        self._last = self.clock()

    def tick(self, session, toast) -> None:
        b = session.battle
        cur = b.current
        if cur is None or self.stopped:
            return
        fig = b.figures[cur]
        controller = self.controllers.get(fig.side)
        if ctl.is_human(controller):
            return
        job = self._job
        if job is not None:
            if job.result is _PENDING:
                return
            self._job = None
            if job.battle is b and job.figure_id == cur and job.actions == len(b.actions):
                self._apply(session, controller, fig, job.result, toast)
            return  # else the battle changed under the AI: ask again next frame
        if self.clock() - self._last < self.delay_s:
            return
        self._last = self.clock()
        if not self.background:
            self._apply(session, controller, fig, _choose(controller, b, cur), toast)
            return
        # The AI may think for a second or more (a flyer's 3-D search): the window never waits.
        job = self._job = _Job(b, cur, len(b.actions))
        private = b.clone()  # it thinks on its own copy: the window's battle is never read off-thread

        def think():
            job.result = _choose(controller, private, cur)
        threading.Thread(target=think, name="fivefoot-ai", daemon=True).start()

    def _apply(self, session, controller, fig, result, toast) -> None:
        if isinstance(result, Exception):
            toast(f"{self.name(fig.side)} failed for {fig.label}: {result}")
            result = EndTurn(figure=fig.id)
        ok = session.submit(result)
        self.decision = getattr(controller, "last_decision", None)  # a controller need not explain itself
        self.decision_at = len(session.battle.actions)
        if ok:
            self._refusals = 0
            return
        self._refusals += 1
        if self._refusals >= 3 and not session.submit(EndTurn(figure=fig.id)):
            self.stopped = True
            toast(f"{self.name(fig.side)} cannot act for {fig.label} and cannot end its turn: AI play stopped")


def _choose(controller, battle, figure_id):
    try:
        return controller.choose(battle, figure_id)
    except Exception as err:  # a controller's bug must not take the window down; it is shown instead
        return err
