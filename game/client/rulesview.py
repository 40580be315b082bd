"""What the window shows about the rules: the resolver's answers, cached per position.

The window works no rule out for itself. Everything here is a question to the battle:
`check`, `options`, `preview`, `explain_attack`, `status`, `limits`, `reachable` (the squares a
move may end on, exactly those `check` accepts), and its `positioning()` for the overlays that
show the position (zones, threatened squares, charge lanes, line of sight).

Answers are asked of a snapshot (`battle.clone()`, an exact cheap copy) taken whenever the
battle changes, and cached until the next change. Searches that can take long (a winged
flyer's 3-D volume, the reason a far square is out of reach) run on one worker thread, on
that snapshot only: the worker never reads the live battle the window changes. A question
whose answer is not ready returns None and the window shows "planning..." meanwhile.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

from ..core.battle import Preview
from ..core.values.actions import Action, Charge, Disengage, GmPlace, Move
from ..core.values.geometry import FACINGS
from ..core.values.errors import RulesError
from . import bodyreach

# Previews that search paths (seconds for a flyer on a big map): worked out on the worker thread.
_SEARCHING = (Move, Disengage, Charge)


@dataclass(frozen=True)
class ReachInfo:
    """Where a figure may move in one mode now: the resolver's Reachable (the squares `check`
    accepts, with the search's costs, facings and altitudes) and, for a body bigger than a square,
    the squares its body may cover (bodyreach)."""
    mode: str
    reachable: object | None = None   # core Reachable; None for a charge (its lanes)
    charge_entries: dict | None = None
    error: str = ""

    @property
    def entries(self) -> dict:
        return self.charge_entries if self.reachable is None else self.reachable.entries

    @property
    def left_ft(self) -> float:
        return float("inf") if self.reachable is None else self.reachable.left_ft

    @property
    def footprint(self) -> tuple:
        return bodyreach.ONE_SQUARE if self.reachable is None else tuple(self.reachable.footprint)

    def squares(self, altitude_ft: int | None = None) -> list[tuple[int, int]]:
        """Squares the figure can end its move on now (at `altitude_ft`, when given)."""
        if self.reachable is not None:
            return self.reachable.squares(altitude_ft)
        return [sq for sq, e in self.entries.items() if e.can_end and (altitude_ft is None or altitude_ft in e.altitudes)]

    @cached_property
    def ends(self) -> frozenset:
        """squares() as a set, for asking about one square (the hovered one, every frame)."""
        return self.reachable.ends if self.reachable is not None else frozenset(self.squares())

    # ----- a body bigger than a square (game.client.bodyreach) -----
    def covered(self, altitude_ft: int | None = None) -> list[tuple[int, int]]:
        """Every square the figure's body can cover where the move may end (squares() for one square)."""
        if tuple(self.footprint) == bodyreach.ONE_SQUARE:
            return self.squares(altitude_ft)
        return list(self._body(altitude_ft)[1])

    def end_covering(self, square, altitude_ft: int | None = None, facing: int | None = None):
        """(anchor square, end facing or None) of the move a pointer on `square` means, or None when no
        reachable end covers it (bodyreach.pick_end; a one-square figure: the square itself)."""
        if tuple(self.footprint) == bodyreach.ONE_SQUARE:
            return (square, None) if square in (self.ends if altitude_ft is None else self.squares(altitude_ft)) else None
        anchors, index = self._body(altitude_ft)
        return bodyreach.pick_end(index, anchors, square, facing)

    @cached_property
    def _bodies(self) -> dict:
        return {}

    def _body(self, altitude_ft) -> tuple:
        """(the anchors the move may end on, the cover index) at this altitude, built once."""
        got = self._bodies.get(altitude_ft)
        if got is None:
            ends = bodyreach.body_ends(self.entries, tuple(self.footprint), self.left_ft, altitude_ft)
            got = self._bodies[altitude_ft] = (frozenset(self.squares(altitude_ft)), bodyreach.cover_index(ends))
        return got


class _Worker:
    """One background thread running the most recently asked question first."""

    def __init__(self):
        self._lock = threading.Lock()
        self._jobs: list = []
        self._wake = threading.Event()
        threading.Thread(target=self._loop, name="fivefoot-rules", daemon=True).start()

    def submit(self, key, fn, done) -> None:
        with self._lock:
            self._jobs = [j for j in self._jobs if j[0] != key]
            self._jobs.append((key, fn, done))
        self._wake.set()

    def drop_all(self) -> None:
        with self._lock:
            self._jobs = []

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            with self._lock:
                if not self._jobs:
                    self._wake.clear()
                    continue
                key, fn, done = self._jobs.pop()
            done(key, _answer(fn))


def _answer(fn):
    """The answer, or the RulesError that is the answer (a mode the figure may not use)."""
    try:
        return fn()
    except RulesError as err:
        return err


def position_key(battle) -> tuple:
    """Changes whenever anything the rules answer from changes (figures, turn, any event)."""
    return (id(battle), id(battle.positioning()), len(battle.actions), len(battle.events), battle.current,
            battle.can_redo)


class RulesView:
    def __init__(self, battle, background: bool = False):
        self.background = background
        self._worker: _Worker | None = None
        self._lock = threading.Lock()
        self.generation = 0  # bumps whenever an answer arrives or the position changes
        self.bind(battle)

    def bind(self, battle) -> None:
        self.battle = battle
        self._key = None
        self.refresh()

    # ----- the snapshot -----
    def refresh(self) -> bool:
        """Call after every change (and once a frame): True when the battle changed since."""
        key = position_key(self.battle)
        if key == self._key:
            return False
        with self._lock:
            self._key = key
            self.snapshot = self.battle.clone()
            self._cache: dict = {}
            self._pending: set = set()
        if self._worker is not None:
            self._worker.drop_all()
        self.generation += 1
        return True

    def busy(self) -> bool:
        return bool(self._pending)

    def _get(self, key, compute, background: bool = False):
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        if not (background and self.background):
            value = _answer(compute)
            with self._lock:
                self._cache[key] = value
            return value
        with self._lock:
            if key in self._pending:
                return None
            self._pending.add(key)
            snapshot = self.snapshot

        def done(k, result, snapshot=snapshot):
            with self._lock:
                if snapshot is self.snapshot:
                    self._cache[k] = result
                    self._pending.discard(k)
            self.generation += 1

        if self._worker is None:
            self._worker = _Worker()
        self._worker.submit(key, compute, done)
        return None

    # ----- the resolver's questions -----
    def status(self, figure_id: str):
        return self._get(("status", figure_id), lambda: self.snapshot.status(figure_id))

    def check(self, action: Action):
        """The resolver's refusal of this action now, or None when it would be accepted."""
        return self._get(("check", action), lambda: self.snapshot.check(action))

    def options(self, figure_id: str) -> dict | None:
        """Each kind of action: None when the figure may take it now, else the Refusal."""
        return self._get(("options", figure_id), lambda: self.snapshot.options(figure_id), background=True)

    def preview(self, action: Action):
        """What the action would do (battle.preview): path and parting shots, or odds, or the refusal."""
        return self._get(("preview", action), lambda: self.snapshot.preview(action),
                         background=isinstance(action, _SEARCHING))

    def gm_preview(self, action: Move):
        """Demonstration mode: a move places the figure (a gm-place), so the answer is the placement's
        refusal (a wall, an occupied square), and the path the figure would walk there under the rules
        in force with its cost and the rules it would set off, whoever's turn it is (for the table)."""
        def compute(action=action):
            snap = self.snapshot
            place = GmPlace(action.figure, x=action.to[0], y=action.to[1], facing=action.facing,
                            altitude_ft=action.altitude_ft)
            refusal = snap.check(place)
            try:
                facing = None if action.facing is None else FACINGS.index(action.facing)
                planned = snap.plan_path(action.figure, action.to, action.mode if action.mode != "auto" else "walk",
                                         facing, action.altitude_ft)
                warnings = snap.path_warnings(action.figure, planned)
            except RulesError:
                planned, warnings = None, ()
            return Preview(action, refusal, planned, None, None, warnings)
        return self._get(("gm-preview", action), compute, background=True)

    def explain(self, attacker_id: str, target_id: str, weapon: str | None = None):
        """The attack's modifier breakdown from where the attacker stands (battle.explain_attack)."""
        return self._get(("explain", attacker_id, target_id, weapon),
                         lambda: self.snapshot.explain_attack(attacker_id, target_id, weapon))

    # ----- positioning, for the overlays -----
    @property
    def positioning(self):
        return self.snapshot.positioning()

    def on_field(self, figure_id: str) -> bool:
        return any(f.id == figure_id for f in self.positioning.figures)

    def body(self, figure_id: str):
        """The figure whose body moves when this one moves (a rider's mount; positioning.body), or
        None for a figure no longer on the field."""
        value = self._get(("body", figure_id), lambda: self.positioning.body(figure_id))
        return None if isinstance(value, RulesError) else value

    def reach(self, figure_id: str, mode: str) -> ReachInfo | None:
        """Where the figure can move in this mode with what it has left (the resolver's
        `reachable`: exactly the squares a click would be accepted on); None while searching."""
        key = ("reach", figure_id, mode)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        snapshot = self.snapshot
        if mode == "charge":
            pos = self.positioning
            value = _answer(lambda: pos.reach(figure_id, "charge"))
            info = (ReachInfo(mode, None, {}, str(value)) if isinstance(value, RulesError)
                    else ReachInfo(mode, None, value))
        else:
            def search(figure_id=figure_id, mode=mode):
                got = snapshot.reachable(figure_id, mode)
                got.entries   # the search runs here, on the worker
                return got
            answer = self._get(("search", figure_id, mode), search, background=True)
            if answer is None:
                return None
            if isinstance(answer, RulesError):
                info = ReachInfo(mode, None, {}, str(answer))
            else:
                info = ReachInfo(mode, answer, error=answer.limit.refusal.words if answer.limit.refusal else "")
        with self._lock:
            self._cache[key] = info
        return info

    def limits(self, figure_id: str):
        """What the figure has left this round (battle.limits): per mode how far it may still move."""
        return self._get(("limits", figure_id), lambda: self.snapshot.limits(figure_id))

    def auto_mode(self, figure_id: str, target: tuple[int, int]) -> str:
        """Walk where walking reaches, run beyond (what the two shades of the overlay show)."""
        walk = self.reach(figure_id, "walk")
        if walk is not None and target in walk.ends:
            return "walk"
        run = self.reach(figure_id, "run")
        if run is not None and target in run.ends:
            return "run"
        # Neither reaches it: a click beyond a walk would run, so the refusal is running's (its
        # distance, its turning limits), the rule that binds, where running takes the figure further.
        if run is not None and walk is not None and self._runs_further(figure_id):
            return "run"
        return "walk"

    def _runs_further(self, figure_id: str) -> bool:
        """Running now gives the figure more feet than walking (the resolver's limits)."""
        try:
            limits = self.limits(figure_id)
            return limits.move("run").left_ft > limits.move("walk").left_ft
        except (KeyError, ValueError):   # a ruleset without a run: walking is all there is
            return False

    def threatened(self, figure_id: str) -> list[tuple[int, int]]:
        pos = self.positioning
        return _listed(self._get(("threat", figure_id),
                                 lambda: pos.engagement.threatened_squares(pos.figure(figure_id))))

    def zone(self, figure_id: str) -> list[tuple[int, int]]:
        """Squares a foe standing on would be engaged with this figure."""
        pos = self.positioning
        return _listed(self._get(("zone", figure_id), lambda: pos.engagement.zone_squares(pos.figure(figure_id))))

    def reach_ft(self, figure_id: str) -> int:
        pos = self.positioning
        return self._get(("reach-ft", figure_id), lambda: pos.engagement.reach_ft(self.snapshot.figures[figure_id]))

    def engaged_pairs(self) -> list:
        pos = self.positioning
        return self._get(("engaged",), lambda: pos.engagement.engaged_pairs(pos.figures))

    def lanes(self, figure_id: str) -> list:
        """Charge lanes from this figure to every foe on the field, legal or refused (with the reason)."""
        pos = self.positioning

        def compute():
            me = pos.figure(figure_id)
            return [pos.charge_lane(me.id, f.id) for f in pos.figures if f.side != me.side]
        return _listed(self._get(("lanes", figure_id), compute))

    def lane(self, figure_id: str, target_id: str):
        return next((lane for lane in self.lanes(figure_id) if lane.target_id == target_id), None)

    def sight(self, viewer_id: str, target_id: str):
        """Line of sight and cover between two figures on the field, or None (one has left it)."""
        snapshot = self.snapshot
        value = self._get(("sight", viewer_id, target_id), lambda: snapshot.sight(viewer_id, target_id))
        return None if isinstance(value, RulesError) else value


def _listed(value) -> list:
    """A list answer, or no squares for a figure that is no longer on the field (RulesError)."""
    return [] if isinstance(value, RulesError) else value
