"""What the window shows about the rules, read from the battle's Positioning and cached.

The UI never works a rule out for itself: every square, cost, zone, lane, cover degree and
parting shot comes from game.core (battle.positioning()). Planner searches cost 2-5 ms on
open maps and up to a second for a winged flyer's 3-D search, so results are cached per
battle state and figure, and (in the interactive window) computed on a worker thread:
a query that is not ready returns None and the window shows "planning..." meanwhile.

The cache key is the battle's Positioning object itself: Battle replaces it whenever a
figure changes, so a new object means a new position. Movement already spent this round
(battle.moved_ft) is folded into the keys that depend on it.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from ..core.errors import RulesError
from ..core.refusals import ActionRefused

# Modes the player picks; "auto" walks where walking reaches and runs beyond.
MOVE_MODES = ("auto", "walk", "jog", "run", "withdraw", "sidestep")


@dataclass
class ReachInfo:
    mode: str
    entries: dict               # (x, y) -> planner ReachEntry
    budget_ft: float
    spent_ft: float
    error: str | None = None

    @property
    def left_ft(self) -> float:
        return max(0.0, self.budget_ft - self.spent_ft)

    def squares(self) -> list[tuple[int, int]]:
        """Squares the figure can end its move on now, with the movement it has left."""
        left = self.left_ft + 1e-9
        return [sq for sq, e in self.entries.items() if e.can_end and e.cost_ft <= left]


@dataclass
class Preview:
    figure_id: str
    mode: str                   # the planner mode the move would use
    target: tuple[int, int]
    planned: object | None      # positioning.PlannedMove
    reason: str | None          # why not, when planned is None (or the move is over budget)
    spent_ft: float = 0.0
    facing: int | None = None
    altitude_ft: int | None = None

    @property
    def legal(self) -> bool:
        return self.planned is not None and self.reason is None


class _Worker:
    """One background thread running the latest requested searches first."""

    def __init__(self):
        self._lock = threading.Lock()
        self._jobs: list = []
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="fivefoot-planner", daemon=True)
        self._thread.start()

    def submit(self, key, fn, done) -> None:
        with self._lock:
            self._jobs = [j for j in self._jobs if j[0] != key]
            self._jobs.append((key, fn, done))
        self._wake.set()

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            with self._lock:
                if not self._jobs:
                    self._wake.clear()
                    continue
                key, fn, done = self._jobs.pop()
            try:
                result = fn()
            except Exception as err:  # reported in the window, never kills the thread
                result = err
            done(key, result)


class RulesView:
    def __init__(self, battle, background: bool = False):
        self.background = background
        self._worker = None
        self._lock = threading.Lock()
        self.bind(battle)

    def bind(self, battle) -> None:
        self.battle = battle
        self._pos = None
        self._cache: dict = {}
        self._pending: set = set()
        self.generation = 0  # bumps whenever cached results change (for layers drawn from them)

    # ----- state -----
    def refresh(self) -> bool:
        """Call once a frame: True when the battle's position changed since the last call."""
        pos = self.battle.positioning()
        if pos is not self._pos:
            with self._lock:
                self._pos = pos
                self._cache = {}
                self._pending = set()
            self.generation += 1
            return True
        return False

    @property
    def positioning(self):
        if self._pos is None:
            self.refresh()
        return self._pos

    def spent_ft(self, figure_id: str) -> float:
        """Feet the figure has moved this round, as the resolver counts them."""
        state_of = getattr(self.battle, "state_of", None)
        if callable(state_of):
            try:
                return float(getattr(state_of(figure_id), "moved_ft", 0.0))
            except (KeyError, ActionRefused):
                return 0.0
        return float(getattr(self.battle, "moved_ft", {}).get(figure_id, 0.0))

    def busy(self) -> bool:
        return bool(self._pending)

    def _get(self, key, compute, background: bool = False):
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        if not (background and self.background):
            value = _safe(compute)
            with self._lock:
                self._cache[key] = value
            return value
        if key not in self._pending:
            self._pending.add(key)
            pos = self._pos

            def done(k, result, pos=pos):
                with self._lock:
                    if pos is self._pos:
                        self._cache[k] = result
                        self._pending.discard(k)
                self.generation += 1

            if self._worker is None:
                self._worker = _Worker()
            self._worker.submit(key, compute, done)
        return None

    # ----- movement -----
    def search(self, figure_id: str, mode: str):
        """The planner's search from the figure's square (reusable for every hovered square)."""
        pos = self.positioning
        return self._get(("search", figure_id, mode), lambda: pos.search(figure_id, mode), background=True)

    def reach(self, figure_id: str, mode: str) -> ReachInfo | None:
        pos = self.positioning
        spent = self.spent_ft(figure_id)
        key = ("reach", figure_id, mode, spent)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        if mode == "charge":
            value = _safe(lambda: pos.reach(figure_id, "charge"))
            from ..core.moves.charge import charge_limits
            budget = charge_limits(pos.ruleset, pos.figure(figure_id))[1]
            info = ReachInfo(mode, {} if isinstance(value, Exception) else value, budget, 0.0,
                             _error_text(value))
        else:
            result = self.search(figure_id, mode)
            if result is None:
                return None
            if isinstance(result, Exception):
                info = ReachInfo(mode, {}, 0.0, spent, _error_text(result))
            else:
                info = ReachInfo(mode, result.entries(), result.params.budget_ft, spent)
        with self._lock:
            self._cache[key] = info
        return info

    def auto_mode(self, figure_id: str, target: tuple[int, int]) -> str:
        """Walk where walking reaches, run beyond (what the two shades of the overlay show)."""
        walk = self.reach(figure_id, "walk")
        if walk is not None and target in walk.squares():
            return "walk"
        run = self.reach(figure_id, "run")
        if run is not None and target in run.squares():
            return "run"
        return "walk"

    def preview(self, figure_id: str, mode: str, target: tuple[int, int], facing: int | None = None,
                altitude_ft: int | None = None) -> Preview | None:
        """The move the resolver would make to `target`, with its parting shots; None while planning."""
        if mode == "auto":
            mode = self.auto_mode(figure_id, target)
        spent = self.spent_ft(figure_id)
        key = ("preview", figure_id, mode, target, facing, altitude_ft, spent)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        pos = self.positioning
        fig = pos.figure(figure_id)
        if mode == "charge":
            planned = _safe(lambda: pos.plan(figure_id, target, "charge"))
            reason = _error_text(planned)
            preview = Preview(figure_id, mode, target, None if reason else planned, reason, spent, facing, altitude_ft)
        else:
            result = self.search(figure_id, mode)
            if result is None:
                return None
            if isinstance(result, Exception):
                preview = Preview(figure_id, mode, target, None, _error_text(result), spent, facing, altitude_ft)
            else:
                planned = None if not pos.map.in_bounds(*target) else result.planned(target, facing, altitude_ft)
                if planned is None:
                    reason = self._get(("why", figure_id, mode, target, facing, altitude_ft),
                                       lambda: pos.plan(figure_id, target, mode, facing, altitude_ft), background=True)
                    if reason is None:
                        return Preview(figure_id, mode, target, None, "working out why...", spent, facing, altitude_ft)
                    text = _error_text(reason) or "it can be reached with another facing or altitude"
                    preview = Preview(figure_id, mode, target, None, text, spent, facing, altitude_ft)
                else:
                    path = planned.path
                    reason = None
                    if spent + path.total_ft > path.budget_ft + 1e-9:
                        reason = (f"{fig.label} has {_ft(path.budget_ft - spent)} ft of movement left this round; "
                                  f"this move needs {_ft(path.total_ft)} ft")
                    preview = Preview(figure_id, mode, target, planned, reason, spent, facing, altitude_ft)
        with self._lock:
            self._cache[key] = preview
        return preview

    # ----- engagement -----
    def threatened(self, figure_id: str) -> list[tuple[int, int]]:
        pos = self.positioning
        value = self._get(("threat", figure_id), lambda: pos.engagement.threatened_squares(pos.figure(figure_id)))
        return [] if isinstance(value, Exception) else value

    def reach_ft(self, figure_id: str) -> int:
        pos = self.positioning
        return pos.engagement.reach_ft(pos.figure(figure_id))

    def zone(self, figure_id: str) -> list[tuple[int, int]]:
        """Squares a foe standing on would be engaged with this figure (engagement.in_zone)."""
        pos = self.positioning

        def compute():
            return pos.engagement.zone_squares(pos.figure(figure_id))
        value = self._get(("zone", figure_id), compute)
        return [] if isinstance(value, Exception) else value

    def engaged_pairs(self) -> list:
        pos = self.positioning
        value = self._get(("engaged",), lambda: pos.engagement.engaged_pairs(pos.figures))
        return [] if isinstance(value, Exception) else value

    def lanes(self, figure_id: str) -> list:
        """Charge lanes from this figure to every foe, legal or refused (with the reason)."""
        pos = self.positioning

        def compute():
            me = pos.figure(figure_id)
            return [pos.charge_lane(me.id, f.id) for f in pos.figures if f.side != me.side]
        value = self._get(("lanes", figure_id), compute)
        return [] if isinstance(value, Exception) else value

    def sight(self, viewer_id: str, target_id: str):
        pos = self.positioning
        value = self._get(("sight", viewer_id, target_id), lambda: pos.sight(viewer_id, target_id))
        return None if isinstance(value, Exception) else value

    def legal_kinds(self, figure_id: str) -> list[str] | None:
        """Kinds of action the resolver would accept from this figure now (Battle.legal_actions)."""
        fn = getattr(self.battle, "legal_actions", None)
        if not callable(fn):
            return None
        key = ("legal", figure_id, len(getattr(self.battle, "actions", ())), getattr(self.battle, "current", None))
        value = self._get(key, lambda: sorted({a.kind for a in fn(figure_id)}), background=True)
        return None if value is None or isinstance(value, Exception) else value

    def explain_attack(self, attacker_id: str, target_id: str):
        """The resolver's what-if breakdown of an attack (Battle.explain_attack), when it has one."""
        fn = getattr(self.battle, "explain_attack", None)
        if fn is None:
            return None
        return self._get(("explain", attacker_id, target_id, len(getattr(self.battle, "actions", ()))),
                         lambda: _call_explain(fn, self.battle, attacker_id, target_id))


def _call_explain(fn, battle, attacker_id, target_id):
    return fn(attacker_id, target_id)


def _safe(compute):
    try:
        return compute()
    except (RulesError, ActionRefused, ValueError, KeyError) as err:
        return err


def _error_text(value) -> str | None:
    if isinstance(value, ActionRefused):
        return value.reason
    if isinstance(value, Exception):
        return str(value) or type(value).__name__
    return None


def _ft(value: float) -> str:
    return f"{int(value)}" if float(value).is_integer() else f"{value:.1f}"
