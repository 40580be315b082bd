"""The battle on screen and every change to it: the one place the window calls the resolver's door.

`Session.submit` applies an action through `battle.apply` (a refusal is reported with the
resolver's own words and changes nothing); undo and redo step back to a person's decisions;
the game master's tools (placing a figure, switching the ruleset on the same position) and
replacing the battle (load, restart, replay) all go through here, so the window can tell
what changed and whether play since the last save would be lost.
"""
from __future__ import annotations

from dataclasses import replace

from ..core.values.actions import Action, GmPlace, Move, Turn
from ..core.battle import Battle
from ..core.values.refusals import ActionRefused


class Session:
    def __init__(self, battle: Battle):
        self.battle = battle
        self.on_events = None       # callback(events, action): after every change that made events
        self.on_refused = None      # callback(action, refusal): the resolver refused an action
        self.on_replaced = None     # callback(): a different battle is on screen now
        self.last_refusal = None
        self._saved = (id(battle), 0)

    # ----- the door -----
    def submit(self, action: Action, gm: bool = False) -> bool:
        """Apply an action; in demonstration mode moves and turns place the figure instead."""
        if gm and isinstance(action, (Move, Turn)):
            fig = self.battle.figures[action.figure]
            to = action.to if isinstance(action, Move) else fig.pos
            action = GmPlace(action.figure, x=to[0], y=to[1], facing=action.facing,
                             altitude_ft=action.altitude_ft if isinstance(action, Move) else None)
        try:
            events = self.battle.apply(action)
        except ActionRefused as refused:
            self.last_refusal = refused.refusal
            if self.on_refused:
                self.on_refused(action, refused.refusal)
            return False
        self._changed(events, action)
        return True

    def _changed(self, events, action=None) -> None:
        if self.on_events:
            self.on_events(events, action)

    # ----- undo and redo, by a person's decisions -----
    def undo(self, is_human) -> list[Action]:
        """Step back to before the last decision a person made: the AI's replies to it go too.
        `is_human(figure_id)` says who decides for a figure. Returns what was undone, newest first."""
        undone: list[Action] = []
        b = self.battle
        while b.actions:
            action = b.undo()
            undone.append(action)
            if action.kind == "gm-place" or is_human(action.figure) or not any(is_human(f) for f in b.figures):
                break
        if undone:
            self._changed([])
        return undone

    def redo(self, is_human) -> list:
        """Redo the next decision, then the AI's replies that followed it (up to a person's turn)."""
        events = self.battle.redo()
        if not events:
            return []
        out = list(events)
        while self.battle.current is not None and not is_human(self.battle.current):
            more = self.battle.redo()
            if not more:
                break
            out.extend(more)
        self._changed(out)
        return out

    # ----- whole battles -----
    def replace_battle(self, battle: Battle, saved: bool = False) -> None:
        self.battle = battle
        if saved:
            self.mark_saved()
        if self.on_replaced:
            self.on_replaced()

    def rejudged(self, ruleset) -> Battle:
        """The same position, hit points, conditions and turn, judged by another ruleset from now on."""
        return self.battle.rejudged(ruleset)

    def restarted(self) -> Battle:
        """A new battle from the same setup, with the next seed so the dice fall differently."""
        return Battle(replace(self.battle.setup, seed=self.battle.setup.seed + 1))

    # ----- saving -----
    def mark_saved(self) -> None:
        self._saved = (id(self.battle), len(self.battle.actions))

    @property
    def unsaved(self) -> bool:
        """True when play since the last save or load would be lost by replacing the battle."""
        return (id(self.battle), len(self.battle.actions)) != self._saved and bool(self.battle.actions)
