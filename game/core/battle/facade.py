"""The battle and its resolver: the only door through which battle state changes, and the one
place that answers questions about the rules.

`Battle.apply(action)` checks the action (its handler's `check`, which changes nothing), carries
it out (the handler's `apply`) and returns the events it caused; a refused action raises
ActionRefused with the reason and changes nothing. Every random number comes from the battle's
seeded RNG, so the same seed and the same actions give the same events. Undo replays the action
log from the start.

Questions (docs/resolver.md): `check(action)` (the refusal or None), `options(figure)` (each kind
of action: allowed, or why not), `preview(action)` (what it would do: the path and parting
shots, the odds), `explain_attack(...)` (the modifier breakdown, also from a square the attacker
is not on), `explain_manoeuvre(action)` (a grapple's, trip's, push's odds and what it does), `legal_actions(figure)`, `rout_chance(figure)` (the morale check its fall would force).
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from ..combat.breakdown import AttackContext, Breakdown
from ..combat.modifiers import attack_breakdown
from ..combat.morale import rout_chance
from ..combat.reach import cover_sight
from ..combat.state import FigureState, attacking_now, combat_profile
from ..values.errors import RulesError
from ..values.events import Event
from ..values.figure import Figure, named_apart
from ..mounts import riders_of, seated
from ..moves.positioning import Positioning
from ..values.refusals import ActionRefused, Refusal, refuse
from ..scenario import figures_under, weapons_missing_from
from . import rout, turns
from .budgets import attacks_left, current_phase
from .limits import Limits, Reachable, limits, move_limit, reachable
from .questions import Questions
from .state import BattleSetup, BattleState, FigureStatus
from .view import BattleView

# The action handlers, the questions about actions and the saves load when first asked for:
# commands that only look at a position (reach, path) start without them (bench/bench_startup.py).
if TYPE_CHECKING:
    from ..values.actions import Action
    from . import manoeuvre_odds, queries

_handler_table: dict | None = None


def _handlers() -> dict:
    """handlers.HANDLERS, imported the first time an action is checked or applied."""
    global _handler_table
    if _handler_table is None:
        from .handlers import HANDLERS
        _handler_table = HANDLERS
    return _handler_table


class Battle(Questions):
    def __init__(self, setup: BattleSetup):
        apart = named_apart(setup.figures)       # same-named figures are told apart in every word (by id)
        if apart is not setup.figures:
            setup = replace(setup, figures=apart)
        self.setup = setup
        self.map = setup.map
        self.ruleset = setup.ruleset
        self.rng = random.Random(setup.seed)
        self.profiles: dict[str, dict] = {f.id: combat_profile(self.ruleset, f) for f in setup.figures}
        self.state = BattleState(figures={f.id: f for f in setup.figures}, states={}, riders=riders_of(setup.figures))
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._redo: list[Action] = []
        self._positioning: Positioning | None = None
        self._origin: "Battle | None" = None      # a rejudged battle's starting point (undo goes back to it)
        self.events.extend(turns.start(self))

    @classmethod
    def from_scenario(cls, scenario) -> "Battle":
        return cls(BattleSetup(scenario.map, scenario.ruleset, tuple(scenario.figures), scenario.seed,
                               scenario.title, scenario.description, scenario.objectives))

    # =====================================================================================
    # reading the state
    # =====================================================================================
    @property
    def figures(self) -> dict[str, Figure]:
        return self.state.figures

    @property
    def states(self) -> dict[str, FigureState]:
        return self.state.states

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def morale(self) -> dict:
        return self.state.morale

    @property
    def current(self) -> str | None:
        """Whose action it is, or None when the battle is over."""
        return None if self.state.over else self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def winner(self) -> str | None:
        return self.state.winner

    @property
    def current_phase(self) -> str:
        """What may be done now: "declare" (d100 declarations), "movement", "missile" or "melee"
        (bfrpg's order inside a shared initiative number), or "all" (anything the figure has left)."""
        return current_phase(self)

    def figure(self, figure_id: str) -> Figure:
        fig = self.state.figures.get(figure_id)
        if fig is None:
            refuse("battle.unknown-figure", figure=figure_id)
        return fig

    def profile(self, figure_id: str) -> dict:
        return self.profiles[figure_id]

    def state_of(self, figure_id: str) -> FigureState:
        return self.state.states[figure_id]

    def able(self, figure_id: str) -> bool:
        """In the fight: not dead, down or fled."""
        return not self.state.states[figure_id].out_of_fight

    def positioning(self) -> Positioning:
        """Positioning of the figures still in the fight. A fallen figure's square holds its body,
        which neither blocks nor engages and may be stood on; fled figures have left the map. A
        figure felled on its own initiative number still counts until it has acted."""
        if self._positioning is None:
            states = self.state.states
            present = [f for f in self.figures.values() if states[f.id].acts_before_falling
                       or not states[f.id].out_of_fight]
            # A charge by a rider or its ridden mount keeps the mounted charge's limits, as a one-figure knight's.
            mounted = frozenset(f.id for f in present if self.profiles[f.id]["mounted"] or f.mount
                                or f.id in self.state.riders)
            self._positioning = Positioning(self.map, self.ruleset, present, mounted, attacking_now(self))
        return self._positioning

    def status(self, figure_id: str) -> FigureStatus:
        fig = self.figure(figure_id)
        st = self.states[figure_id]
        walk = move_limit(self, figure_id, "walk")
        return FigureStatus(
            id=fig.id, name=fig.label, side=fig.side, hp=st.hp, max_hp=st.max_hp, subdual=st.subdual,
            conditions=tuple(sorted(st.conditions)), able=self.able(fig.id), attacks_left=attacks_left(self, fig.id),
            movement_left_ft=walk.left_ft if walk.allowed else 0.0, initiative=tuple(st.initiative),
            defense=st.defense, charging=st.charging, moved_ft=st.moved_ft)

    def limits(self, figure_id: str) -> Limits:
        """What the figure has left this round: per movement mode how far a move may still go (or
        why it may not), attacks left, how far it may walk and still strike. `check` refuses a move
        by these numbers; status(), the window and the AI read them."""
        self.figure(figure_id)
        return limits(self, figure_id)

    def reachable(self, figure_id: str, mode: str = "walk") -> Reachable:
        """Every square a Move in this mode may end on now, exactly those `check` accepts (with the
        search's costs, facings and altitudes), or the refusal when it may not move so."""
        self.figure(figure_id)
        return reachable(self, figure_id, mode)

    def turn_order(self) -> list[tuple[str, object, bool]]:
        """(figure id, initiative number, has acted) in the order the resolver calls them."""
        return turns.turn_order(self)

    def sides(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for f in self.figures.values():
            out.setdefault(f.side, []).append(f.id)
        return out

    # =====================================================================================
    # questions: nothing here changes the battle
    # =====================================================================================
    def check(self, action: Action) -> Refusal | None:
        """Why the action would be refused now, or None if it is legal. Pure: it runs the same
        check `apply` runs first, and changes nothing (state, caches, RNG)."""
        try:
            self._plan(action)
        except ActionRefused as refusal:
            return refusal.refusal
        return None

    def preview(self, action: Action) -> "queries.Preview":
        """What the action would do, without doing it: the refusal, or the planned path with the
        parting shots it draws, and the attack's breakdown (odds) where it attacks."""
        from . import queries
        return queries.preview(self, action)

    def options(self, figure_id: str) -> dict[str, Refusal | None]:
        """Each kind of action the figure might take now: None when it may, else why not."""
        from . import queries
        return queries.options(self, figure_id)

    def legal_actions(self, figure_id: str) -> list[Action]:
        """A reasonable list of what the figure may do now (every entry passes check())."""
        from . import queries
        return queries.legal_actions(self, figure_id)

    def sight(self, viewer_id: str, target_id: str):
        """Line of sight and cover from one figure to another as an attack between them counts them
        (where the ruleset counts only figures on the line between, those beside it are set aside)."""
        positioning = self.positioning()
        return cover_sight(self, positioning.figure(viewer_id), positioning.figure(target_id))[0]

    def explain_attack(self, attacker_id: str, target_id: str, weapon: str | None = None, *,
                       at: tuple[int, int] | None = None, facing: int | None = None, altitude_ft: int | None = None,
                       **context) -> Breakdown:
        """The full modifier breakdown of the attack attacker would make on target, rolling
        nothing. With `at`, `facing` or `altitude_ft` the attacker stands there instead (a
        hypothetical position; the same Breakdown the roll would use from there)."""
        attacker = self.figure(attacker_id)
        self.figure(target_id)
        view = self
        if at is not None or facing is not None or altitude_ft is not None:
            x, y = at if at is not None else attacker.pos
            placed = attacker.moved_to(x, y, attacker.facing if facing is None else facing,
                                       attacker.altitude_ft if altitude_ft is None else altitude_ft)
            view = BattleView(self, {attacker_id: placed})
        return attack_breakdown(view, attacker_id, target_id, AttackContext(weapon=weapon, **context))

    def explain_manoeuvre(self, action: Action) -> "manoeuvre_odds.ManoeuvreOdds":
        """The odds of a Grapple, Escape, Release, Trip, Push or Overbear, rolling nothing: the
        refusal, or the chance of each outcome and what success does (prone, held, the square it
        lands on, the fall and its damage dice), counted from the rolls the handler makes."""
        from . import manoeuvre_odds
        return manoeuvre_odds.explain_manoeuvre(self, action)

    def odds_map(self, attacker_id: str, target_id: str, weapon: str | None = None) -> "odds_map.OddsMap":
        """The attack attacker could make on target from every square it can reach this turn (its
        walk, a run where a run may strike, the charge's lane end): each square's breakdown and odds,
        or why not from there, and what getting there sets off. For a figure waiting for its turn,
        what that turn would offer from where it stands. Rolling nothing."""
        from . import odds_map
        return odds_map.odds_map(self, attacker_id, target_id, weapon)

    def objectives(self) -> list:
        """Where each objective of the scenario stands (ObjectiveProgress: state, progress of needed,
        words), in the scenario's order; empty without objectives (battle/objectives.py)."""
        from . import objectives
        return objectives.progress(self)

    def victory_points(self) -> dict[str, int]:
        """Each side's victory points from the objectives it has achieved so far."""
        from . import objectives
        return objectives.victory_points(self)

    @property
    def decided_by(self) -> str:
        """What ended the battle: an objective's id, "round-limit", "elimination"; "" while it goes on."""
        return self.state.decided_by

    def rout_chance(self, figure_id: str) -> float:
        """Chance, rolling nothing, that felling this figure now would make its side fail a morale
        check and flee."""
        return rout_chance(self, figure_id)

    def hypothetical(self, *figures: Figure, charging: dict[str, str] | None = None, let_go=(), absent=()) -> BattleView:
        """A read-only view of this battle with these figures standing where they say; `charging`
        maps a figure to the foe it charged this round (its defence as the charge leaves it); `let_go`:
        holders whose holds are let go (what a holder could do once it releases its foe); `absent`:
        figures left out of sight and cover (a missile flying on has passed them)."""
        return BattleView(self, {f.id: f for f in figures}, charging, absent=frozenset(absent), let_go=frozenset(let_go))

    # =====================================================================================
    # the door
    # =====================================================================================
    def _plan(self, action: Action):
        if self.state.over:
            refuse("battle.over", outcome=turns.over_words(self))
        handler = _handlers().get(type(action))
        if handler is None:
            refuse("battle.unknown-action", kind=getattr(action, "kind", type(action).__name__))
        try:
            return handler.check(self, action)
        except RulesError as err:
            refuse("battle.bad-value", why=str(err))

    def apply(self, action: Action) -> list[Event]:
        plan = self._plan(action)          # refuses here, before anything changes
        handler = _handlers()[type(action)]
        try:
            events = handler.apply(self, plan)
            if handler.closes_declarations:
                self.state.declarations_open = False
            events.extend(turns.settle(self))
        except BaseException as err:
            # A checked action must not fail; if one does, put the battle back exactly as it was.
            self._rebuild(self.actions, keep_redo=True)
            if isinstance(err, RulesError):
                raise ActionRefused(Refusal.of("battle.bad-value", why=str(err))) from None
            raise
        self.actions.append(action)
        self.events.extend(events)
        self._redo.clear()
        return events

    def clone(self) -> "Battle":
        """An independent copy of the battle as it stands (for the AI's look-ahead, what-ifs)."""
        twin = Battle.__new__(Battle)
        twin.setup, twin.map, twin.ruleset, twin.profiles = self.setup, self.map, self.ruleset, self.profiles
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.state = self.state.copy()
        twin.actions = list(self.actions)
        twin.events = list(self.events)
        twin._redo = list(self._redo)
        twin._positioning = None
        twin._origin = self._origin
        return twin

    def rejudged(self, ruleset) -> "Battle":
        """This position under another ruleset: the same figures where they stand, their hit points
        and conditions, the same round and whose turn it is, judged from now on by `ruleset` (its
        numbers for each figure's template, movement and weapons included, but for what the scenario
        set itself: a `ruleset` event says what was kept). Its undo history starts here; a save of it keeps the
        battle before the switch and replays both. Rejudged mid-declaration into rules without
        declarations, the rest of the round goes by the new rules' initiative."""
        twin = self.clone()
        setup_figures, _ = figures_under(self.setup.figures, ruleset)
        twin.setup = replace(self.setup, ruleset=ruleset, figures=tuple(setup_figures))
        twin.ruleset = ruleset
        twin.profiles = {f.id: combat_profile(ruleset, f) for f in self.setup.figures}
        now, notes = figures_under(self.figures.values(), ruleset)
        notes += weapons_missing_from(now, ruleset)
        twin.state.figures = {f.id: f for f in now}
        twin._positioning = None
        twin.actions, twin._redo = [], []
        twin.events = list(self.events)
        twin.events.append(turns.ruleset_event(twin, notes))
        twin._origin = self.clone()
        if twin.state.phase == "declare" and not ruleset.section("round")["declarations"]:
            twin.events.extend(turns.leave_declarations(twin))
        return twin

    @property
    def origin(self) -> "Battle | None":
        """For a rejudged battle, the battle (under the ruleset before) it was rejudged from."""
        return self._origin

    def gm_place(self, figure_id: str, x: int | None = None, y: int | None = None, facing: str | None = None,
                 altitude_ft: int | None = None) -> list[Event]:
        """The game master puts a figure somewhere (see actions.GmPlace); goes through apply()."""
        from ..values.actions import GmPlace
        return self.apply(GmPlace(figure_id, x=x, y=y, facing=facing, altitude_ft=altitude_ft))

    def undo(self) -> Action | None:
        if not self.actions:
            return None
        last = self.actions[-1]
        redo = self._redo + [last]
        self._rebuild(self.actions[:-1])
        self._redo = redo
        return last

    @property
    def can_redo(self) -> bool:
        """Whether an undone action is waiting to be redone (a new action drops them)."""
        return bool(self._redo)

    def redo(self) -> list[Event]:
        if not self._redo:
            return []
        action = self._redo[-1]
        remaining = self._redo[:-1]
        events = self.apply(action)
        self._redo = remaining
        return events

    def _rebuild(self, actions: list[Action], keep_redo: bool = False) -> None:
        """Back to the start (the setup, or the point it was rejudged from) and replay `actions`."""
        redo = self._redo
        fresh = Battle(self.setup) if self._origin is None else self._origin.rejudged(self.ruleset)
        for action in actions:
            fresh.apply(action)
        self.__dict__.update(fresh.__dict__)
        if keep_redo:
            self._redo = redo

    # ----- called by the rules modules while an action is applied -----
    def set_figure(self, fig: Figure) -> None:
        self.state.figures[fig.id] = fig
        rider = self.state.riders.get(fig.id)
        if rider:       # a rider sits on its mount wherever the mount goes (game/core/mounts.py)
            self.state.figures[rider] = seated(self.state.figures[rider], fig)
        self._positioning = None

    def figures_moved(self) -> None:
        """Someone moved, fell or fled: positioning answers must be worked out again."""
        self._positioning = None

    def figure_fell(self, fid: str) -> list[Event]:
        return turns.figure_fell(self, fid)

    def flee(self, fid: str, rule: str, cause: str) -> list[Event]:
        return turns.flee(self, fid, rule, cause)

    def rout(self, fid: str, rule: str) -> list[Event]:
        """Its morale broke: it runs for the map edge on its turns (battle/rout.py)."""
        return rout.rout(self, fid, rule)

    # ----- saves (the file side is game/io/saves.py) -----
    def to_save_data(self) -> dict:
        from . import save_data
        data = save_data.to_save_data(self)
        if self._origin is not None:
            data["rejudged_from"] = self._origin.to_save_data()
        return data

    @classmethod
    def from_save_data(cls, data: dict, where: str = "save", depth: int = 0) -> "Battle":
        """Rebuild and replay a battle from to_save_data(); RulesError in plain words if it cannot."""
        from . import save_data
        setup, actions = save_data.setup_from_save_data(data, where)
        before = data.get("rejudged_from")
        if before is not None:
            if depth >= save_data.MAX_REJUDGED_DEPTH:
                raise RulesError(f"{where}: more than {save_data.MAX_REJUDGED_DEPTH} ruleset switches in one save")
            battle = cls.from_save_data(before, where, depth + 1).rejudged(setup.ruleset)
        else:
            battle = cls(setup)
        save_data.replay(battle, actions, where)
        return battle
