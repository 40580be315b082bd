"""The battle and its resolver: the only door through which battle state changes.

`Battle.apply(action)` validates an action against the ruleset, the map and the round,
applies it and returns the events it caused; a refused action raises ActionRefused and
changes nothing. Every random number comes from the battle's seeded RNG, so the same seed
and the same actions give the same events. Undo replays the action log from the start.

A round follows the ruleset (see docs/resolver.md): surprise in the first round,
initiative per figure, per side or per attack, turns in initiative order with equal numbers
acting together, bfrpg's phase order inside one number, and, in the d100 rules, a
declaration turn for everyone, then attacks on their initiative numbers while declared moves
unfold across segments 10..1.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, replace

from ..actions import (Action, Aim, Attack, Charge, Defend, Disengage, EndTurn, GmPlace, Hold, Move, SetAgainstCharge,
                      Turn, action_from_json)
from ..battlemap import BattleMap
from ..combat import damage as damage_mod
from ..combat import rounds
from ..combat.attack import parry, roll_attack
from ..combat.modifiers import (AttackContext, Breakdown, attack_breakdown, fighting, gap_ft, in_melee_reach,
                               melee_reach_ft, weapon_data)
from ..combat.morale import morale_after_loss
from ..combat.state import FigureState, combat_profile
from ..errors import RulesError
from ..events import ActionRefused, Event, Modifier
from ..figure import Figure
from ..geometry import FACINGS, parse_facing, turn_octants
from ..moves.path import movement_after
from ..moves.positioning import Positioning
from ..ruleset import Ruleset

SAVE_FORMAT = "fivefoot-battle"
SAVE_VERSION = 1
# Actions that may be taken out of turn while the round's declarations are open.
DECLARATION_KINDS = ("defend", "set")
# Actions that are not a figure's turn at all (a game master's edits): they close nothing.
GM_KINDS = ("gm-place",)


@dataclass(frozen=True)
class BattleSetup:
    """What a battle starts from: enough to rebuild it exactly (saves, undo, replay)."""

    map: BattleMap
    ruleset: Ruleset
    figures: tuple[Figure, ...]
    seed: int = 1
    title: str = ""
    description: str = ""


@dataclass(frozen=True)
class FigureStatus:
    """A figure's combat state, for the UI, the AI and the CLI."""
    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    subdual: int
    conditions: tuple[str, ...]
    able: bool
    attacks_left: int
    movement_left_ft: float
    initiative: tuple[int, ...]
    defense: str
    charging: str

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "side": self.side, "hp": self.hp, "max_hp": self.max_hp,
                "subdual": self.subdual, "conditions": list(self.conditions), "able": self.able,
                "attacks_left": self.attacks_left, "movement_left_ft": self.movement_left_ft,
                "initiative": list(self.initiative), "defense": self.defense, "charging": self.charging}


_MUTABLE = ("figures", "states", "round", "slots", "slot_index", "phase_index", "done", "phase", "declare_order",
            "declare_done", "move_orders", "segment", "morale", "fought", "over", "winner", "_current",
            "declarations_open", "actions", "events", "_redo", "_pending_fallen")


class Battle:
    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.map = setup.map
        self.ruleset = setup.ruleset
        self.rng = random.Random(setup.seed)
        self.figures: dict[str, Figure] = {f.id: f for f in setup.figures}
        self.profiles: dict[str, dict] = {f.id: combat_profile(self.ruleset, f) for f in setup.figures}
        self.states: dict[str, FigureState] = {}
        self.round = 0
        self.slots: list[rounds.Slot] = []
        self.slot_index = 0
        self.phase_index = 0
        self.done: set[str] = set()
        self.phase = "act"                 # "declare" (d100 declaration turns) or "act"
        self.declare_order: list[str] = []
        self.declare_done: set[str] = set()
        self.move_orders: dict[str, dict] = {}
        self.segment = 11
        self.morale: dict[str, dict] = {}
        self.fought: set[tuple[str, str]] = set()
        self.over = False
        self.winner: str | None = None
        self._current: str | None = None
        self.declarations_open = True
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._redo: list[Action] = []
        self._pending_fallen: list[str] = []
        self._positioning: Positioning | None = None
        self.events.extend(self._start())

    @classmethod
    def from_scenario(cls, scenario) -> "Battle":
        return cls(BattleSetup(scenario.map, scenario.ruleset, tuple(scenario.figures), scenario.seed,
                               scenario.title, scenario.description))

    # =====================================================================================
    # reading the state
    # =====================================================================================
    @property
    def current(self) -> str | None:
        """Whose action it is, or None when the battle is over."""
        return None if self.over else self._current

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def current_phase(self) -> str:
        """What may be done now: "declare" (d100 declarations), "movement", "missile" or "melee"
        (bfrpg's order inside a shared initiative number), or "all" (anything the figure has left)."""
        return self._current_phase()

    def figure(self, figure_id: str) -> Figure:
        try:
            return self.figures[figure_id]
        except KeyError:
            raise ActionRefused(f"there is no figure {figure_id!r} in this battle") from None

    def profile(self, figure_id: str) -> dict:
        return self.profiles[figure_id]

    def state_of(self, figure_id: str) -> FigureState:
        return self.states[figure_id]

    def able(self, figure_id: str) -> bool:
        """In the fight: not dead, down or fled."""
        return not self.states[figure_id].out_of_fight

    def positioning(self) -> Positioning:
        if self._positioning is None:
            present = [f for f in self.figures.values() if self.states[f.id].acts_before_falling
                       or not (self.states[f.id].has("dead") or self.states[f.id].has("fled"))]
            self._positioning = Positioning(self.map, self.ruleset, present)
        return self._positioning

    def status(self, figure_id: str) -> FigureStatus:
        fig = self.figure(figure_id)
        st = self.states[figure_id]
        return FigureStatus(
            id=fig.id, name=fig.label, side=fig.side, hp=st.hp, max_hp=st.max_hp, subdual=st.subdual,
            conditions=tuple(sorted(st.conditions)), able=self.able(fig.id), attacks_left=self._attacks_left(fig.id),
            movement_left_ft=self._movement_left(fig.id), initiative=tuple(st.initiative), defense=st.defense,
            charging=st.charging)

    def explain_attack(self, attacker_id: str, target_id: str, weapon: str | None = None, **context) -> Breakdown:
        """The full modifier breakdown of the attack attacker would make on target now. Rolls nothing."""
        self.figure(attacker_id)
        self.figure(target_id)
        return attack_breakdown(self, attacker_id, target_id, AttackContext(weapon=weapon, **context))

    def sides(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for f in self.figures.values():
            out.setdefault(f.side, []).append(f.id)
        return out

    # =====================================================================================
    # the door
    # =====================================================================================
    def apply(self, action: Action) -> list[Event]:
        if self.over:
            raise ActionRefused(f"the battle is over ({self._over_words()})")
        handler = getattr(self, "_do_" + action.kind.replace("-", "_"), None)
        if handler is None:
            raise ActionRefused(f"{action.kind} is not an action this battle knows")
        snapshot = self._snapshot()
        try:
            events = handler(action)
            if action.kind not in DECLARATION_KINDS and action.kind not in GM_KINDS:
                self.declarations_open = False
            events.extend(self._settle())
        except ActionRefused:
            self._restore(snapshot)
            raise
        except RulesError as err:
            self._restore(snapshot)
            raise ActionRefused(str(err)) from None
        self.actions.append(action)
        self.events.extend(events)
        self._redo.clear()
        return events

    def check(self, action: Action) -> str | None:
        """Why the action would be refused, or None if it is legal. Tried on a clone: this battle,
        its caches and its RNG are untouched, so it is safe beside a UI or another thread."""
        try:
            self.clone().apply(action)
        except ActionRefused as refusal:
            return refusal.reason
        return None

    def clone(self) -> "Battle":
        """An independent copy of the battle as it stands (for the AI's look-ahead, what-ifs)."""
        twin = Battle.__new__(Battle)
        twin.__dict__.update(self.__dict__)
        twin.rng = random.Random()
        twin._restore(self._snapshot())
        return twin

    def gm_place(self, figure_id: str, x: int | None = None, y: int | None = None, facing: str | None = None,
                 altitude_ft: int | None = None) -> list[Event]:
        """The game master puts a figure somewhere (see actions.GmPlace); goes through apply()."""
        return self.apply(GmPlace(figure_id, x=x, y=y, facing=facing, altitude_ft=altitude_ft))

    def undo(self) -> Action | None:
        if not self.actions:
            return None
        last = self.actions[-1]
        redo = self._redo + [last]
        self._rebuild(self.actions[:-1])
        self._redo = redo
        return last

    def redo(self) -> list[Event]:
        if not self._redo:
            return []
        action = self._redo[-1]
        remaining = self._redo[:-1]
        events = self.apply(action)
        self._redo = remaining
        return events

    def _rebuild(self, actions: list[Action]) -> None:
        fresh = Battle(self.setup)
        fresh._replay(actions)
        self.__dict__.update(fresh.__dict__)

    def _replay(self, actions: list[Action]) -> None:
        for action in actions:
            self.apply(action)

    def _snapshot(self) -> dict:
        data = {name: copy.deepcopy(getattr(self, name)) for name in _MUTABLE
                if name not in ("actions", "events", "_redo")}
        data["actions"] = list(self.actions)
        data["events"] = list(self.events)
        data["_redo"] = list(self._redo)
        data["rng"] = self.rng.getstate()
        return data

    def _restore(self, data: dict) -> None:
        for name in _MUTABLE:
            setattr(self, name, data[name])
        self.rng.setstate(data["rng"])
        self._positioning = None

    # ----- saves (the file side is game/io/saves.py) -----
    def to_save_data(self) -> dict:
        """Setup + seed + action log: everything needed to rebuild this battle exactly."""
        m = self.map
        return {
            "format": SAVE_FORMAT, "version": SAVE_VERSION,
            "title": self.setup.title, "description": self.setup.description, "seed": self.setup.seed,
            "ruleset": self.ruleset.data,
            "map": {
                "width": m.width, "height": m.height, "title": m.title, "description": m.description,
                "default_ruleset": m.default_ruleset, "source": m.source,
                "layers": {name: getattr(m, name).tolist() for name in _MAP_LAYERS},
            },
            "figures": [_figure_json(f) for f in self.setup.figures],
            "actions": [a.to_json() for a in self.actions],
            "round": self.round, "events": len(self.events),
        }

    @classmethod
    def from_save_data(cls, data: dict, where: str = "save") -> "Battle":
        """Rebuild and replay a battle from to_save_data(); RulesError in plain words if it cannot."""
        import numpy as np
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise RulesError(f"{where}: not a fivefoot battle save")
        if data.get("version") != SAVE_VERSION:
            raise RulesError(f"{where}: save version {data.get('version')!r} is not supported "
                             f"(this fivefoot reads version {SAVE_VERSION})")
        try:
            ruleset = Ruleset.from_mapping(data["ruleset"], where)
            md = data["map"]
            bmap = BattleMap.empty(md["width"], md["height"], title=md.get("title", ""),
                                   description=md.get("description", ""), default_ruleset=md.get("default_ruleset", ""),
                                   source=md.get("source", ""))
            for name in _MAP_LAYERS:
                layer = np.array(md["layers"][name], dtype=getattr(bmap, name).dtype)
                if layer.shape != getattr(bmap, name).shape:
                    raise RulesError(f"{where}: map layer {name} has the wrong size")
                setattr(bmap, name, layer)
            figures = tuple(_figure_from_json(f) for f in data["figures"])
            setup = BattleSetup(bmap, ruleset, figures, int(data["seed"]), data.get("title", ""), data.get("description", ""))
            actions = [action_from_json(a) for a in data["actions"]]
        except RulesError:
            raise
        except (KeyError, TypeError, ValueError) as err:
            raise RulesError(f"{where}: damaged save ({type(err).__name__}: {err})") from None
        battle = cls(setup)
        for i, action in enumerate(actions):
            try:
                battle.apply(action)
            except ActionRefused as refusal:
                raise RulesError(f"{where}: action {i + 1} no longer replays: {refusal.reason}") from None
        return battle

    # =====================================================================================
    # rounds and turns
    # =====================================================================================
    def _start(self) -> list[Event]:
        events: list[Event] = []
        rs = self.ruleset
        for f in self.figures.values():
            prof = self.profiles[f.id]
            if prof["hp"] > 0:
                hp = prof["hp"]
            else:
                from ..combat.dice import parse_dice
                roll = parse_dice(prof["hit_dice"]).roll(self.rng)
                hp = max(1, roll.total)
                events.append(Event(kind="hit-points", rule=rs.cite("hit-points"), actor=f.id, rolls=(roll,), total=hp,
                                    text=f"{f.label} rolls {prof['hit_dice']} for hit points: {hp}"))
            state = FigureState(hp=hp, max_hp=hp)
            for name in prof["start_conditions"]:
                state.conditions[name] = 0
            self.states[f.id] = state
        events.extend(self._begin_round())
        events.extend(self._advance())
        return events

    def _begin_round(self) -> list[Event]:
        self.round += 1
        rs = self.ruleset
        events = [Event(kind="round", rule=rs.cite("combat-round"), text=f"round {self.round} begins",
                        data={"round": self.round})]
        for fid, state in self.states.items():
            if self.round > 1:
                events.extend(damage_mod.bleed(self, fid))
            state.new_round()
            self.figures[fid] = self.figures[fid].fresh_round()
            for name, last in list(state.conditions.items()):
                if last and last < self.round:
                    del state.conditions[name]
        self._positioning = None
        self.declarations_open = True
        self.slots, self.slot_index, self.phase_index, self.done = [], 0, 0, set()
        self.move_orders = {}
        self.segment = 11
        if self.round == 1:
            events.extend(rounds.roll_surprise(self, self.rng))
        if rs.section("round")["declarations"]:
            self.phase = "declare"
            self.declare_order = [f.id for f in self.figures.values() if self.able(f.id)]
            self.declare_done = set()
            events.append(Event(kind="declare", rule=rs.cite("action-declaration"),
                                text="declarations: each figure declares its move and stance for the round"))
        else:
            self.phase = "act"
            self.slots, init_events = rounds.roll_initiative(self, self.rng)
            events.extend(init_events)
            events.extend(self._order_event())
        return events

    def _order_event(self) -> list[Event]:
        words = "; ".join(f"{s.number}: " + ", ".join(self.figures[m].label for m in s.members) for s in self.slots)
        return [Event(kind="order", rule=self.ruleset.cite(self.ruleset.section("round")["rule"]),
                      text=f"order of action: {words}" if words else "nobody acts this round",
                      data={"slots": [s.to_json() for s in self.slots]})]

    def _end_round(self) -> list[Event]:
        events: list[Event] = []
        if self.phase == "act" and self.ruleset.section("round")["segments"]:
            events.extend(self._run_segments_to(self.ruleset.section("round")["segments"][1]))
        for fid in self._pending_fallen:
            self.states[fid].acts_before_falling = False
        self._pending_fallen = []
        return events

    def _slot_phases(self, slot: rounds.Slot) -> list[str]:
        phases = self.ruleset.section("round")["phases"]
        if len(slot.members) <= 1 or not phases:
            return ["all"]
        return [p for p in phases if p in ("movement", "missile", "melee")]

    def _advance(self) -> list[Event]:
        """Move the turn pointer to the next figure that can act, running round upkeep on the way."""
        events: list[Event] = []
        guard = 0
        while True:
            guard += 1
            if guard > 10000:
                raise AssertionError("turn order did not settle")
            events.extend(self._check_over())
            if self.over:
                self._current = None
                return events
            if self.phase == "declare":
                nxt = next((f for f in self.declare_order if f not in self.declare_done and self.able(f)), None)
                if nxt is not None:
                    self._current = nxt
                    return events
                self.phase = "act"
                self.slots, init_events = rounds.roll_attack_initiative(self, self.rng)
                events.extend(init_events)
                events.extend(self._order_event())
                self.slot_index, self.phase_index, self.done = 0, 0, set()
                continue
            if self.slot_index >= len(self.slots):
                events.extend(self._end_round())
                events.extend(self._check_over())
                if self.over:
                    self._current = None
                    return events
                events.extend(self._begin_round())
                continue
            slot = self.slots[self.slot_index]
            if self.ruleset.section("round")["segments"] and self.phase_index == 0 and not self.done:
                events.extend(self._run_segments_to(slot.number))
            phases = self._slot_phases(slot)
            if self.phase_index >= len(phases):
                for m in slot.members:
                    if self.states[m].acts_before_falling:
                        self.states[m].acts_before_falling = False
                self.slot_index += 1
                self.phase_index, self.done = 0, set()
                self._positioning = None
                continue
            phase = phases[self.phase_index]
            for member in slot.members:
                if member in self.done:
                    continue
                ok, why = self._can_take_turn(member, slot, phase)
                if ok:
                    self._current = member
                    return events
                self.done.add(member)
                if why:
                    events.append(why)
            self.phase_index += 1
            self.done = set()

    def _can_take_turn(self, fid: str, slot, phase: str) -> tuple[bool, Event | None]:
        st = self.states[fid]
        fig = self.figures[fid]
        if st.out_of_fight and not st.acts_before_falling:
            return False, None
        rs = self.ruleset
        if st.has("surprised"):
            if phase in ("all", "movement") and slot.attack_index <= 0:
                return False, Event(kind="skip", rule=rs.cite(rs.section("surprise")["rule"]), actor=fid,
                                    text=f"{fig.label} is surprised and cannot act this round")
            return False, None
        if st.has("stunned") and rs.d100:
            return False, Event(kind="skip", rule=rs.cite("taking-damage"), actor=fid,
                                text=f"{fig.label} is stunned and loses its attack on {slot.number}")
        busy = self._reloading_busy(fid)
        if busy:
            if phase in ("all", "movement"):
                return False, Event(kind="skip", rule=rs.cite("missile-weapon-rate-of-fire"), actor=fid, text=busy)
            return False, None
        if phase == "missile":
            return (self._attacks_left(fid) > 0 and any(weapon_data(self, w)["ranged"] or weapon_data(self, w)["thrown"]
                                                         for w in fig.weapons)), None
        if phase == "melee":
            return (self._attacks_left(fid) > 0 and any(in_melee_reach(self, fig, o) for o in self.figures.values()
                                                         if o.side != fig.side and self.able(o.id))), None
        return True, None

    def _reloading_busy(self, fid: str) -> str:
        st = self.states[fid]
        fig = self.figures[fid]
        weapon = weapon_data(self, fig.ready_weapon)
        if weapon["reload_is_busy"] and st.reload_until_round >= self.round:
            return (f"{fig.label} spends the round reloading the {fig.ready_weapon} "
                    f"(ready again in round {st.reload_until_round + 1})")
        return ""

    def _check_over(self) -> list[Event]:
        if self.over:
            return []
        standing = {f.side for f in self.figures.values() if self.able(f.id)}
        if len(standing) <= 1 and len(self.sides()) > 1:
            self.over = True
            self.winner = next(iter(standing)) if standing else None
            return [Event(kind="battle-over", rule=self.ruleset.cite("combat-round"),
                          text=f"the battle is over: {self._over_words()}", outcome=self.winner or "draw",
                          data={"winner": self.winner})]
        return []

    def _over_words(self) -> str:
        if self.winner:
            return f"side {self.winner} wins; every foe is down, routed or fled"
        return "no side is left standing"

    def _settle(self) -> list[Event]:
        """After an action: advance the turn if the current figure's turn has ended, check the end."""
        events = self._check_over()
        if self.over:
            self._current = None
            return events
        cur = self._current
        if cur is not None and cur not in self.done and self.phase == "act":
            st = self.states[cur]
            if st.out_of_fight and not st.acts_before_falling:
                self.done.add(cur)
        if cur is not None and self.phase == "declare" and not self.able(cur):
            self.declare_done.add(cur)
        if self._current is None or self._current in self.done or self._current in self.declare_done:
            events.extend(self._advance())
        return events

    def _in_slot_of(self, fid: str) -> rounds.Slot | None:
        if self.phase != "act" or self.slot_index >= len(self.slots):
            return None
        slot = self.slots[self.slot_index]
        return slot if fid in slot.members else None

    def _current_phase(self) -> str:
        if self.phase == "declare":
            return "declare"
        if self.slot_index >= len(self.slots):
            return "all"
        phases = self._slot_phases(self.slots[self.slot_index])
        return phases[min(self.phase_index, len(phases) - 1)]

    def _require_turn(self, figure_id: str) -> Figure:
        fig = self.figure(figure_id)
        if self.current != figure_id:
            who = self.figures[self.current].label if self.current else "nobody"
            raise ActionRefused(f"it is not {fig.label}'s turn; it is {who}'s")
        return fig

    # ----- budgets -----
    def _attack_limit(self, fid: str, target_id: str | None = None) -> int:
        prof = self.profiles[fid]
        st = self.states[fid]
        limit = prof["attacks"]
        if self.ruleset.section("attack")["extra_attacks_vs_normal_men"] and target_id is not None:
            tprof = self.profiles[target_id]
            extra = prof["level"] if (prof["fighter"] or prof["level"] > 1) else 1
            if tprof["normal_man"] and st.attacks_vs_normal_men == st.attacks_made:
                limit = max(limit, extra)
        return limit

    def _attacks_left(self, fid: str, target_id: str | None = None) -> int:
        st = self.states[fid]
        if st.no_attack_round == self.round:
            return 0
        if self.ruleset.d100:
            if self.phase != "act":
                return 0
            slot = self._in_slot_of(fid)
            return 1 if slot is not None and fid not in self.done else 0
        style = self.ruleset.defense(st.defense) if st.defense else None
        if style and not style["can_attack"]:
            return 0
        if st.hasty or (st.move_mode == "withdraw-disengage"):
            return 0
        return max(0, self._attack_limit(fid, target_id) - st.attacks_made)

    def _move_budget(self, fid: str, mode: str) -> float:
        fig = self.figures[fid]
        mv = self.ruleset.section("movement")
        if mode in ("run",):
            return fig.move_ft * mv["run_multiplier"]
        if mode == "jog":
            return fig.move_ft * mv["jog_multiplier"]
        return float(fig.move_ft)

    def _movement_left(self, fid: str) -> float:
        st = self.states[fid]
        fig = self.figures[fid]
        if self.ruleset.d100:
            return 0.0 if fid in self.move_orders else float(fig.move_ft)
        if st.attacked and not self.ruleset.section("round")["move_after_attack"]:
            return 0.0
        return max(0.0, fig.move_ft - st.moved_ft)

    # =====================================================================================
    # figures falling, fleeing
    # =====================================================================================
    def figure_fell(self, fid: str) -> list[Event]:
        """Called when a figure goes out of the fight: simultaneous action, morale."""
        events: list[Event] = []
        st = self.states[fid]
        slot = self._in_slot_of(fid)
        rs = self.ruleset
        if (slot is not None and rs.section("round")["fallen_act_on_ties"] and fid not in self.done
                and self._current != fid and not rs.d100 and len(slot.members) > 1):
            st.acts_before_falling = True
            self._pending_fallen.append(fid)
            events.append(Event(kind="simultaneous", rule=rs.cite(rs.section("round")["rule"]), actor=fid,
                                text=f"{self.figures[fid].label} acts on the same initiative number and still gets its "
                                     f"action before it falls"))
        self._positioning = None
        events.extend(morale_after_loss(self, self.figures[fid].side, self.rng))
        return events

    def flee(self, fid: str, rule: str) -> list[Event]:
        st = self.states[fid]
        if st.has("fled"):
            return []
        st.conditions["fled"] = 0
        st.fled = True
        self._positioning = None
        return [Event(kind="flee", rule=rule, actor=fid, text=f"{self.figures[fid].label} flees the battle",
                      outcome="fled", squares=(self.figures[fid].pos,))]

    # =====================================================================================
    # handlers
    # =====================================================================================
    def _set_figure(self, fig: Figure) -> None:
        self.figures[fig.id] = fig
        self._positioning = None

    def _do_end_turn(self, action: EndTurn) -> list[Event]:
        fig = self._require_turn(action.figure)
        if self.phase == "declare":
            self.declare_done.add(fig.id)
            return [Event(kind="end-turn", rule=self.ruleset.cite("action-declaration"), actor=fig.id,
                          text=f"{fig.label} has declared")]
        self.done.add(fig.id)
        return [Event(kind="end-turn", rule=self.ruleset.cite("turn-order"), actor=fig.id,
                      text=f"{fig.label} ends its turn")]

    def _do_gm_place(self, action: GmPlace) -> list[Event]:
        fig = self.figure(action.figure)
        x = fig.x if action.x is None else action.x
        y = fig.y if action.y is None else action.y
        try:
            facing = fig.facing if action.facing is None else parse_facing(action.facing)
        except RulesError as err:
            raise ActionRefused(str(err)) from None
        altitude = fig.altitude_ft if action.altitude_ft is None else action.altitude_ft
        if not self.map.in_bounds(x, y):
            raise ActionRefused(f"{x},{y} is off the map ({self.map.width} x {self.map.height} squares)")
        if altitude < 0:
            raise ActionRefused("an altitude cannot be below the floor")
        if altitude and fig.flyer == "none":
            raise ActionRefused(f"{fig.label} cannot fly: only flyers have an altitude")
        if self.map.blocks_move[y, x] and not (fig.flyer != "none" and altitude > 0):
            raise ActionRefused(f"{x},{y} is a wall or obstacle: nothing can stand there")
        for other in self.figures.values():
            if other.id != fig.id and other.pos == (x, y) and self.able(other.id):
                raise ActionRefused(f"{x},{y} is occupied by {other.label}")
        moved = fig.moved_to(x, y, facing, altitude)
        self.figures[fig.id] = moved
        self._positioning = None
        where = f"{x},{y} facing {FACINGS[facing]}" + (f" at {altitude} ft" if fig.flyer != "none" else "")
        return [Event(kind="gm-place", rule="gm:place", actor=fig.id,
                      text=f"the game master places {fig.label} on {where}",
                      squares=((fig.x, fig.y), (x, y)), data={"x": x, "y": y, "facing": FACINGS[facing],
                                                               "altitude_ft": altitude})]

    def _do_turn(self, action: Turn) -> list[Event]:
        fig = self._require_turn(action.figure)
        if self.ruleset.d100 and self.phase != "declare":
            raise ActionRefused("facing changes are declared with the round's move")
        try:
            facing = parse_facing(action.facing)
        except RulesError as err:
            raise ActionRefused(str(err)) from None
        words = self._turn_refusal(fig, facing)
        if words:
            raise ActionRefused(words, self.ruleset.cite("maneuverability"))
        where = "without leaving its square" if not fig.has_moved else f"after {fig.straight_ft:g} ft straight ahead"
        self._set_figure(replace(fig, facing=facing, straight_ft=0.0))
        return [Event(kind="turn", rule=self.ruleset.cite("maneuverability"), actor=fig.id,
                      text=f"{fig.label} turns to face {FACINGS[facing]} {where}",
                      squares=(fig.pos,), data={"from": FACINGS[fig.facing], "to": FACINGS[facing]})]

    def _turn_refusal(self, fig: Figure, facing: int) -> str | None:
        """Why a figure that has moved this round may not turn on the spot now (maneuverability)."""
        fc = self.ruleset.section("facing")
        if not fig.has_moved and fc["stationary_turns_free"]:
            return None
        if fig.flyer == "incorporeal" and fc["incorporeal_flyers_turn_free"]:
            return None
        running = fig.running
        turning = self.ruleset.running_turning_ft(fig.turning_ft) if running else fig.turning_ft
        if turning == 0:
            return None
        limit = (fc["run_turn_max_deg"] if running else fc["walk_turn_max_deg"])
        if turn_octants(fig.facing, facing) * 45 > limit:
            return (f"{fig.label} may turn at most {limit} degrees at a time"
                    + (" while running" if running else "") + f"; {FACINGS[fig.facing]} to {FACINGS[facing]} is "
                    f"{turn_octants(fig.facing, facing) * 45}")
        if fig.straight_ft + 1e-9 < turning:
            return (f"{fig.label} must move {turning} ft straight ahead before turning again; it has moved "
                    f"{fig.straight_ft:g} ft" + (" (running adds to its turning distance)" if running else ""))
        return None

    # ----- moving -----
    def _check_can_move(self, fig: Figure, mode: str) -> None:
        st = self.states[fig.id]
        phase = self._current_phase()
        if phase in ("missile", "melee"):
            raise ActionRefused(f"movement happens in the movement phase of this initiative number; this is the "
                                f"{phase} phase")
        if st.attacked and not self.ruleset.section("round")["move_after_attack"]:
            raise ActionRefused(f"{fig.label} has attacked this round: once a figure moves and attacks it cannot "
                                f"move again until its next turn")
        style = self.ruleset.defense(st.defense) if st.defense else None
        if style and style["max_move_ft"] == 0:
            raise ActionRefused(f"{fig.label} is in {style['style']} and may not move this round "
                                f"({self.ruleset.cite(style['rule'])})")
        if st.has("prone"):
            raise ActionRefused(f"{fig.label} is prone: getting up takes its whole turn")
        if st.set_vs_charge:
            raise ActionRefused(f"{fig.label} has set its weapon against a charge and holds its ground")

    def _plan(self, fig: Figure, to, mode: str, facing=None, altitude_ft=None):
        try:
            face = None if facing is None else parse_facing(facing)
            return self.positioning().plan(fig.id, tuple(to), mode, face, altitude_ft)
        except RulesError as err:
            raise ActionRefused(str(err)) from None

    def _do_move(self, action: Move) -> list[Event]:
        fig = self._require_turn(action.figure)
        if self.phase == "declare":
            return self._declare_move(fig, action)
        if self.ruleset.d100:
            raise ActionRefused(f"moves are declared at the start of the round and unfold across segments; "
                                f"{fig.label} can only attack, aim or pass now")
        self._check_can_move(fig, action.mode)
        st = self.states[fig.id]
        planned = self._plan(fig, action.to, action.mode, action.facing, action.altitude_ft)
        style = self.ruleset.defense(st.defense) if st.defense else None
        if style and style["max_move_ft"] > 0 and st.moved_ft + planned.path.total_ft > style["max_move_ft"]:
            raise ActionRefused(f"{fig.label} is in {style['style']} and may move at most {style['max_move_ft']} ft")
        budget = planned.path.budget_ft
        if st.moved_ft + planned.path.total_ft > budget + 1e-9:
            raise ActionRefused(f"{fig.label} has {max(0, budget - st.moved_ft):g} ft of movement left this round; "
                                f"this move needs {planned.path.total_ft:g} ft")
        if action.exit and not self._on_edge(planned.path.end):
            raise ActionRefused(f"to leave the battle {fig.label} must end its move on the edge of the map")
        events = self._walk(fig, planned, action.mode, allowed_shots=None)
        if action.exit and self.able(fig.id):
            events.extend(self.flee(fig.id, self.ruleset.cite("evasion-and-pursuit")))
        return events

    def _carry_movement(self, fig: Figure, path, mode: str) -> Figure:
        """The figure after a move, remembering what the rest of its round's movement must obey."""
        diagonals, straight = movement_after(self.figures[fig.id], path, self.ruleset.diagonal)
        return replace(fig, diagonals_moved=diagonals, straight_ft=straight, has_moved=True,
                       running=fig.running or mode in ("run", "jog", "charge"))

    def _on_edge(self, step) -> bool:
        return step.x in (0, self.map.width - 1) or step.y in (0, self.map.height - 1)

    def _walk(self, fig: Figure, planned, mode: str, allowed_shots=None, record_mode: str | None = None) -> list[Event]:
        """Carry out a planned move: parting shots as the mover leaves, closing reach attacks at the end."""
        st = self.states[fig.id]
        path = planned.path
        end = path.end
        start_pos = fig.pos
        events = [Event(
            kind="move", rule=path.steps[-1].rule or self.ruleset.cite("movement"), actor=fig.id,
            text=f"{fig.label} moves ({mode}) to {end.x},{end.y} facing {FACINGS[end.facing]}, {_ft(path.total_ft)} ft",
            squares=tuple((s.x, s.y) for s in path.steps),
            data={"mode": mode, "cost_ft": path.total_ft, "steps": [s.to_json() for s in path.steps]},
        )]
        st.moved_ft += path.total_ft
        st.moved_squares += len(path.steps) - 1
        if mode in ("run", "jog", "charge") or not st.move_mode:
            st.move_mode = record_mode or mode
        if mode == "withdraw":
            st.withdrawing = True
        stop_at = None
        shots = sorted(planned.parting_shots, key=lambda s: s.step_index)
        for shot in shots:
            if allowed_shots is not None and shot.attacker_id not in allowed_shots:
                continue
            if not self._may_free_attack(shot.attacker_id, fig.id):
                continue
            i = shot.step_index
            step = path.steps[i]
            nxt = path.steps[min(i + 1, len(path.steps) - 1)]
            self._set_figure(self.figures[fig.id].moved_to(step.x, step.y, nxt.facing, step.altitude_ft))
            events.extend(self._free_attack(shot.attacker_id, fig.id, shot.rule, shot.reason, parting=True))
            if not self.able(fig.id):
                stop_at = step
                break
        final = stop_at or end
        self._set_figure(self._carry_movement(self.figures[fig.id].moved_to(
            final.x, final.y, final.facing, final.altitude_ft), path, mode))
        if stop_at is not None:
            events.append(Event(kind="move", rule=self.ruleset.cite("movement"), actor=fig.id,
                                text=f"{fig.label} falls at {final.x},{final.y} and moves no further",
                                squares=((final.x, final.y),)))
            return events
        if path.stall:
            events.append(Event(kind="stall", rule=self.ruleset.cite("flyer-altitude"), actor=fig.id,
                                text=f"{fig.label} flew too little to stay aloft and stalls: it must dive next round"))
        if mode != "charge":
            events.extend(self._closing_reach_attacks(fig.id, start_pos))
        return events

    def _may_free_attack(self, attacker_id: str, target_id: str) -> bool:
        if not self.able(attacker_id) or not self.able(target_id):
            return False
        ast = self.states[attacker_id]
        if target_id in ast.free_attacked_by:
            return False
        style = self.ruleset.defense(ast.defense) if ast.defense else None
        if style and style["no_parting_shot"]:
            return False
        if ast.has("surprised"):
            return False
        return True

    def _free_attack(self, attacker_id: str, target_id: str, rule: str, reason: str, parting: bool) -> list[Event]:
        self.states[attacker_id].free_attacked_by.append(target_id)
        ctx = AttackContext(parting_shot=parting, free_attack=True)
        bd = attack_breakdown(self, attacker_id, target_id, ctx)
        if bd.kind != "melee":
            bd = attack_breakdown(self, attacker_id, target_id, replace(ctx, weapon=self._melee_weapon(attacker_id)))
        return self._resolve(bd, what="parting shot" if parting else "free attack", rule=rule, reason=reason,
                             consume=False)

    def _melee_weapon(self, fid: str) -> str:
        for w in self.figures[fid].weapons:
            if not weapon_data(self, w)["ranged"]:
                return w
        return "fist"

    def _closing_reach_attacks(self, mover_id: str, start_pos) -> list[Event]:
        """bfrpg/ch17: a foe with a reach weapon whose turn is still to come strikes a figure closing on it."""
        rs = self.ruleset
        if not rs.section("round")["reach_attacks_closing_foe"] or rs.d100:
            return []
        events = []
        mover = self.figures[mover_id]
        before = replace(mover, x=start_pos[0], y=start_pos[1])
        zone = rs.section("engagement")["zone_ft"]
        for foe in list(self.figures.values()):
            if foe.side == mover.side or not self.able(foe.id) or not self.able(mover_id):
                continue
            if melee_reach_ft(self, foe) <= zone or not self._turn_still_to_come(foe.id):
                continue
            if self._attacks_left(foe.id) <= 0 or self.states[foe.id].attacked:
                continue
            if in_melee_reach(self, foe, mover) and not in_melee_reach(self, foe, before):
                rule = rs.cite(rs.section("round")["rule"])
                bd = attack_breakdown(self, foe.id, mover_id, AttackContext())
                events.extend(self._resolve(bd, what="reach attack on a closing foe", rule=rule,
                                            reason=f"{foe.label}'s {foe.ready_weapon} reaches {mover.label} as it closes; "
                                                   f"it strikes on {mover.label}'s number"))
        return events

    def _turn_still_to_come(self, fid: str) -> bool:
        if self.phase != "act":
            return False
        for i in range(self.slot_index, len(self.slots)):
            if fid in self.slots[i].members:
                return i > self.slot_index or fid not in self.done
        return False

    # ----- attacking -----
    def _do_attack(self, action: Attack) -> list[Event]:
        fig = self._require_turn(action.figure)
        target = self.figure(action.target)
        rs = self.ruleset
        st = self.states[fig.id]
        if self.phase == "declare":
            raise ActionRefused("attacks come on their initiative numbers, after the declarations")
        if target.side == fig.side:
            raise ActionRefused(f"{target.label} is on {fig.label}'s side")
        if not self.able(target.id):
            raise ActionRefused(f"{target.label} is already out of the fight")
        weapon = action.weapon or fig.ready_weapon
        if weapon not in fig.weapons and weapon != "fist":
            raise ActionRefused(f"{fig.label} carries no {weapon} (it has: {', '.join(fig.weapons)})")
        if st.has("disarmed") and weapon == fig.ready_weapon:
            raise ActionRefused(f"{fig.label} has been disarmed of its {weapon}")
        if st.no_attack_round == self.round:
            raise ActionRefused(f"{fig.label} lost this round's attacks to its fumble")
        if st.has("prone"):
            raise ActionRefused(f"{fig.label} is prone: getting up takes its whole turn")
        if self._attacks_left(fig.id, target.id) <= 0:
            style = rs.defense(st.defense) if st.defense else None
            if style and not style["can_attack"]:
                raise ActionRefused(f"{fig.label} is in {style['style']} and cannot attack this round")
            if st.hasty:
                raise ActionRefused(f"{fig.label} is disengaging and can take no other action")
            raise ActionRefused(f"{fig.label} has no attacks left this round "
                                f"({st.attacks_made} of {self._attack_limit(fig.id, target.id)} made)")
        ctx = AttackContext(weapon=weapon, subdue=action.subdue, careful=action.careful,
                            surprise_round=self.round == 1)
        bd = attack_breakdown(self, fig.id, target.id, ctx)
        if not bd.allowed:
            raise ActionRefused(bd.reason)
        phase = self._current_phase()
        if phase == "movement":
            raise ActionRefused("attacks come after everyone on this number has moved (movement phase now)")
        if phase == "missile" and bd.kind != "ranged":
            raise ActionRefused("this is the missile phase of the initiative number: melee attacks come in the melee phase")
        if phase == "melee" and bd.kind != "melee":
            raise ActionRefused("missiles are loosed in the missile phase, before melee")
        self._check_attack_after_move(fig, bd)
        if bd.kind == "ranged":
            wdata = weapon_data(self, weapon)
            if st.reload_until_round >= self.round:
                raise ActionRefused(f"{fig.label}'s {weapon} is not loaded again until round {st.reload_until_round + 1}")
        events = []
        if bd.kind == "melee" and not rs.d100:
            events.extend(self._reach_first(fig.id, target.id))
            if not self.able(fig.id) and not st.acts_before_falling:
                return events
            bd = attack_breakdown(self, fig.id, target.id, ctx)
        events.extend(self._resolve(bd, what="attack", rule=bd.rule, reason=""))
        if bd.kind == "ranged":
            wdata = weapon_data(self, weapon)
            if wdata["reload_rounds"]:
                st.reload_until_round = self.round + wdata["reload_rounds"]
        if rs.d100:
            self.done.add(fig.id)
        return events

    def _check_attack_after_move(self, fig: Figure, bd: Breakdown) -> None:
        rs = self.ruleset
        st = self.states[fig.id]
        if rs.d100 or st.charging:
            return
        from fractions import Fraction
        mv = rs.section("movement")
        allowed = fig.move_ft * Fraction(mv["attack_move_fraction"]) + mv["free_step_ft"]
        if st.move_mode in ("run", "jog") and rs.section("round")["run_attack_hit"] == 0:
            raise ActionRefused(f"{fig.label} ran this round: a running figure may not attack unless it charges")
        if st.moved_ft > allowed + 1e-9:
            raise ActionRefused(f"{fig.label} moved {st.moved_ft:g} ft this round; it may move at most {float(allowed):g} ft "
                                f"and still attack ({rs.cite('movement')})")
        if st.withdrawing is False and st.move_mode == "withdraw-disengage":
            raise ActionRefused(f"{fig.label} is disengaging and can take no other action")

    def _reach_first(self, attacker_id: str, target_id: str) -> list[Event]:
        """odnd/cnc: in the first round of a melee, the longer reach (or larger size) strikes first."""
        rs = self.ruleset
        rules = rs.section("round")
        pair = tuple(sorted((attacker_id, target_id)))
        if pair in self.fought or not (rules["reach_first_first_round"] or rules["size_first_first_round"]):
            return []
        attacker, target = self.figures[attacker_id], self.figures[target_id]
        tst = self.states[target_id]
        if tst.attacked or self._attacks_left(target_id) <= 0 or tst.has("surprised") or not self.able(target_id):
            return []
        if not in_melee_reach(self, target, attacker):
            return []
        longer = (rules["reach_first_first_round"]
                  and weapon_data(self, target.ready_weapon)["reach_ft"] >= rules["reach_first_long_ft"]
                  and not weapon_data(self, target.ready_weapon)["ranged"]
                  and weapon_data(self, attacker.ready_weapon)["reach_ft"] <= rules["reach_first_short_ft"])
        from ..combat.modifiers import SIZE_ORDER
        bigger = (rules["size_first_first_round"] and SIZE_ORDER.get(target.size, 2) >= 3
                  and SIZE_ORDER.get(attacker.size, 2) <= 2)
        if not (longer or bigger):
            return []
        why = (f"{target.label}'s {target.ready_weapon} outreaches {attacker.label}'s {attacker.ready_weapon}" if longer
               else f"{target.label} is {target.size} and {attacker.label} is {attacker.size}")
        bd = attack_breakdown(self, target_id, attacker_id, AttackContext(surprise_round=self.round == 1))
        return self._resolve(bd, what="strikes first", rule=rs.cite(rules["rule"]),
                             reason=f"first round of this melee: {why}, so it strikes first")

    def _resolve(self, bd: Breakdown, what: str, rule: str, reason: str, consume: bool = True,
                 set_attack: bool = False) -> list[Event]:
        """Roll an attack from its breakdown and apply it. Returns the events."""
        rs = self.ruleset
        attacker, target = self.figures[bd.attacker], self.figures[bd.target]
        ast, tst = self.states[bd.attacker], self.states[bd.target]
        tprof = self.profiles[bd.target]
        result = roll_attack(self, bd, self.rng, tprof, tst)
        if consume:
            ast.attacks_made += 1
            if tprof["normal_man"]:
                ast.attacks_vs_normal_men += 1
            ast.attacked = True
        self.fought.add(tuple(sorted((bd.attacker, bd.target))))
        if bd.attacker not in tst.shield_used_by:
            tst.shield_used_by.append(bd.attacker)
        if tst.defense and bd.attacker not in tst.defended_against:
            tst.defended_against.append(bd.attacker)
        events: list[Event] = []
        extra_words = []
        # a missile that misses into a melee may strike a friend
        friend_hit = None
        if bd.kind == "ranged" and bd.friends_in_melee and not result.hit:
            friend_hit, words, rolls = self._into_melee_miss(bd, result)
            if words:
                extra_words.append(words)
            result.rolls.extend(rolls)
        if bd.kind == "ranged" and bd.friends_in_melee and rs.section("modifiers")["into_melee"] == "table" and result.hit is not None:
            pass
        parried = False
        if result.hit and bd.kind == "melee" and tst.defense:
            parried, prolls, pwords = parry(self, bd.target, result.total, result.damage, self.rng)
            result.rolls.extend(prolls)
            if pwords:
                extra_words.append(pwords)
        text = self._attack_text(bd, result, what, parried)
        if extra_words:
            text += "; " + "; ".join(extra_words)
        text += f" ({rule})"
        if reason:
            text = f"{reason}: " + text
        events.append(Event(
            kind="attack" if what == "attack" else what.replace(" ", "-"), rule=rule, actor=bd.attacker, target=bd.target,
            rolls=tuple(result.rolls), modifiers=tuple([Modifier(bd.attack_name, bd.base_attack, bd.rule)] + list(bd.attack_mods)),
            total=result.total, target_number=bd.target_number,
            outcome=("parried" if parried else "hit" if result.hit else "miss"), text=text,
            squares=(attacker.pos, target.pos),
            data={"breakdown": bd.to_json(), "die": result.die_result, "hit": result.hit, "damage": 0 if parried else result.damage,
                  "damage_text": result.damage_text, "critical": result.critical, "fumble": result.fumble,
                  "condition": result.condition, "notes": result.notes, "what": what},
        ))
        if result.hit and not parried:
            tst.hit_by.append(bd.attacker)
            if tst.charging == bd.attacker and rs.section("modifiers")["charge_negated_if_hit_first"]:
                tst.charge_negated = True
            events.extend(self._after_hit(bd, result))
        if result.fumble:
            events.extend(self._apply_fumble(bd, result))
        if friend_hit:
            events.extend(friend_hit)
        return events

    def _attack_text(self, bd: Breakdown, result, what: str, parried: bool) -> str:
        attacker, target = self.figures[bd.attacker], self.figures[bd.target]
        head = f"{attacker.label}'s {what} at {target.label}" if what != "attack" else f"{attacker.label} attacks {target.label}"
        if bd.resolution == "d100":
            mods = "".join(f", {m.value:+d} {m.name}" for m in bd.attack_mods)
            dmods = "".join(f", {m.value:+d} {m.name}" for m in bd.defense_mods)
            body = (f"d100 {result.die_result:02d} vs {bd.target_number} (SC {bd.base_attack}{mods} = {bd.attack_total}; "
                    f"DEF {bd.base_defense}{dmods} = {bd.defense_total})")
        else:
            parts = [f"d20 {result.die_result}"]
            if bd.base_attack:
                parts.append(f"{bd.base_attack:+d} {bd.attack_name}")
            parts += [f"{m.value:+d} {m.name}" for m in bd.attack_mods]
            defense = f"{bd.defense_name} {bd.defense_total}"
            if bd.defense_mods:
                defense += f" ({bd.base_defense}" + "".join(f" {m.value:+d} {m.name}" for m in bd.defense_mods) + ")"
            body = ", ".join(parts) + f" = {result.total} vs {defense}"
        outcome = result.outcome
        if parried:
            outcome += ", but parried"
        elif result.hit:
            outcome += f", {result.damage} damage" + (f" ({result.damage_text})" if result.damage_text else "")
            if result.subdual:
                outcome += " subdual"
        return f"{head} with {bd.weapon}: {body}: {outcome}"

    def _after_hit(self, bd: Breakdown, result) -> list[Event]:
        rs = self.ruleset
        events: list[Event] = []
        target = self.figures[bd.target]
        tst = self.states[bd.target]
        dmg_rule = rs.cite(rs.section("damage")["rule"])
        events.extend(damage_mod.apply_damage(self, bd.target, result.damage, result.subdual, dmg_rule))
        if result.critical == "grievous":
            tst.prot_lost += 1
            events.append(Event(kind="grievous", rule=rs.cite("critical-and-grievous-hits"), actor=bd.attacker, target=bd.target,
                                text=f"{target.label}'s armour loses 1 PROT until repaired; a grievous wound may follow "
                                     f"(the grievous tables are not in the document) ({rs.cite('critical-and-grievous-hits')})"))
        if result.critical in ("grievous", "critical") and rs.d100 and bd.kind == "ranged":
            w = weapon_data(self, bd.weapon)
            if w["stuck_dex"]:
                dex = w["stuck_dex"] - (1 if result.critical == "grievous" else 0)
                tst.stuck.append([dex, w["stuck_bleed"]])
                events.append(Event(kind="stuck", rule=rs.cite("critical-or-grievous-hits"), target=bd.target,
                                    text=f"the {bd.weapon}'s missile sticks in {target.label}: {dex} DEX and "
                                         f"{w['stuck_bleed']} bleeding a round until removed ({rs.cite('critical-or-grievous-hits')})"))
        if result.condition and self.able(bd.target):
            tst.conditions[result.condition] = 0
            events.append(Event(kind="condition", rule=rs.cite("critical-hit"), target=bd.target, outcome=result.condition,
                                text=f"{target.label} is {result.condition} ({rs.cite('critical-hit')})"))
        if rs.section("damage")["stun_over_con"] and self.able(bd.target):
            threshold = damage_mod.stun_threshold(rs, self.profiles[bd.target], target.size, tst.max_hp)
            if result.damage > threshold:
                tst.conditions["stunned"] = self.round
                events.append(Event(kind="stunned", rule=rs.cite("taking-damage"), target=bd.target, outcome="stunned",
                                    text=f"{result.damage} damage is more than {target.label}'s CON {threshold}: stunned for "
                                         f"the rest of the round, its remaining attacks are lost ({rs.cite('taking-damage')})"))
        if not self.able(bd.target) and target.altitude_ft > 0 and not tst.has("fled"):
            fall_ft = target.altitude_ft
            self._set_figure(replace(target, altitude_ft=0))
            events.extend(damage_mod.fall(self, bd.target, fall_ft, self.rng))
        return events

    def _apply_fumble(self, bd: Breakdown, result) -> list[Event]:
        rs = self.ruleset
        st = self.states[bd.attacker]
        fig = self.figures[bd.attacker]
        effect = result.fumble
        rule = rs.cite("critical-miss") if rs.section("attack")["fumble"] == "table" else rs.cite(rs.section("attack")["rule"])
        if effect in ("weapon-breaks", "drop-weapon", "lose-next-attack"):
            st.no_attack_round = self.round + 1
            words = {"weapon-breaks": "its weapon breaks", "drop-weapon": "it drops its weapon",
                     "lose-next-attack": "it fumbles"}[effect]
            return [Event(kind="fumble", rule=rule, actor=fig.id, outcome=effect,
                          text=f"{fig.label}: {words}; no attack next round ({rule})")]
        if effect == "stumble" and result.fumble_failed_check:
            rounds_roll = self.rng.randint(1, 2)
            st.conditions["stumbling"] = self.round + rounds_roll
            return [Event(kind="fumble", rule=rule, actor=fig.id, outcome=effect,
                          text=f"{fig.label} stumbles: -1 to combat rolls for {rounds_roll} round(s) ({rule})")]
        if effect == "sloppy" and result.fumble_failed_check:
            target = bd.target
            if self.able(target) and in_melee_reach(self, self.figures[target], fig):
                return self._free_attack(target, fig.id, rule, f"{fig.label}'s sloppy attack opens it up", parting=False)
        return []

    def _into_melee_miss(self, bd: Breakdown, result):
        """A missile that missed into a melee: does it strike a friend instead?"""
        rs = self.ruleset
        rules = rs.section("modifiers")
        how = rules["into_melee"]
        rule = rs.cite(rules["into_melee_rule"])
        friends = [f for f in bd.friends_in_melee if self.able(f)]
        if not friends:
            return None, "", []
        if how == "margin" and 0 < result.margin < rules["into_melee_margin"]:
            victim = friends[0] if len(friends) == 1 else friends[self.rng.randint(0, len(friends) - 1)]
            fbd = attack_breakdown(self, bd.attacker, victim, AttackContext(weapon=bd.weapon, free_attack=True))
            from ..combat.dice import parse_dice
            dmg = parse_dice(fbd.damage).roll(self.rng)
            events = [Event(kind="friendly-fire", rule=rule, actor=bd.attacker, target=victim, rolls=(dmg,), total=dmg.total,
                            text=f"the missile missed by {result.margin}, less than {rules['into_melee_margin']}: it strikes "
                                 f"{self.figures[victim].label} instead for {dmg.total} damage ({rule})")]
            events.extend(damage_mod.apply_damage(self, victim, dmg.total, False, rule))
            return events, "", [dmg]
        if how == "reroll-allies":
            events: list[Event] = []
            for victim in friends:
                fbd = attack_breakdown(self, bd.attacker, victim, AttackContext(weapon=bd.weapon, free_attack=True))
                fres = roll_attack(self, fbd, self.rng, self.profiles[victim], self.states[victim])
                text = (f"the missile flies on into the melee: against {self.figures[victim].label} d20 {fres.die_result} = "
                        f"{fres.total} vs AC {fbd.defense_total}: " + (f"hit, {fres.damage} damage" if fres.hit else "miss"))
                events.append(Event(kind="friendly-fire", rule=rule, actor=bd.attacker, target=victim, rolls=tuple(fres.rolls),
                                    total=fres.total, target_number=fbd.defense_total, outcome="hit" if fres.hit else "miss",
                                    text=text + f" ({rule})"))
                if fres.hit:
                    events.extend(damage_mod.apply_damage(self, victim, fres.damage, False, rule))
                    break
            return events, "", []
        return None, "", []

    # ----- charging and setting -----
    def _do_charge(self, action: Charge) -> list[Event]:
        fig = self._require_turn(action.figure)
        target = self.figure(action.target)
        rs = self.ruleset
        st = self.states[fig.id]
        ch = rs.section("charge")
        if self.phase == "declare":
            raise ActionRefused(f"{rs.name} has no charge; declare a run and attack instead")
        if not ch["allowed"]:
            raise ActionRefused(f"{rs.name} has no charge; run and attack instead")
        if target.side == fig.side or not self.able(target.id):
            raise ActionRefused(f"{target.label} is not a foe that can be charged")
        if st.moved_ft > 0:
            raise ActionRefused(f"{fig.label} has already moved this round: a charge starts from a standstill of the turn")
        if st.attacked or self._attacks_left(fig.id) <= 0:
            raise ActionRefused(f"{fig.label} has no attack left to end a charge with")
        limit = ch["max_per_battle"]
        if limit and st.charges_made >= limit:
            raise ActionRefused(f"{fig.label} has already charged; the rules allow {limit} charge per battle "
                                f"({rs.cite(ch['rule'])})")
        self._check_can_move(fig, "charge")
        if self._current_phase() not in ("all", "movement"):
            raise ActionRefused("a charge is made in the movement phase")
        planned = self._plan(fig, target.pos, "charge")
        st.charging = target.id
        st.charges_made += 1
        events = [Event(kind="charge", rule=rs.cite(ch["rule"]), actor=fig.id, target=target.id,
                        text=f"{fig.label} charges {target.label}: {planned.path.steps[-1].note} ({rs.cite(ch['rule'])})",
                        squares=tuple((s.x, s.y) for s in planned.path.steps))]
        start = fig.pos
        events.extend(self._walk(fig, planned, "charge"))
        if not self.able(fig.id):
            return events
        # the charged figure's answer: a set weapon, or a reach weapon striking the closing charger
        tst = self.states[target.id]
        charger_attacks = True
        mods = rs.section("modifiers")
        before = replace(self.figures[fig.id], x=start[0], y=start[1])
        set_ok = (tst.set_vs_charge and self.able(target.id) and in_melee_reach(self, target, self.figures[fig.id])
                  and self._initiative_at_least(target.id, fig.id))
        if set_ok:
            bd = attack_breakdown(self, target.id, fig.id, AttackContext(set_vs_charge=True, free_attack=True))
            first = mods["set_strikes_first"] and not self.profiles[fig.id]["mounted"]
            words = "strikes first" if first else "strikes at the same moment (simultaneous)"
            tst.set_vs_charge = False
            events.extend(self._resolve(bd, what="set weapon", rule=rs.cite(mods["set_rule"]),
                                        reason=f"{target.label} has its {target.ready_weapon} set against the charge and {words}",
                                        consume=False))
            if first and not self.able(fig.id):
                charger_attacks = False
        elif (rs.section("round")["reach_attacks_closing_foe"] and self.able(target.id)
              and melee_reach_ft(self, target) > rs.section("engagement")["zone_ft"]
              and self._turn_still_to_come(target.id) and not tst.attacked and self._attacks_left(target.id) > 0
              and in_melee_reach(self, target, self.figures[fig.id]) and not in_melee_reach(self, target, before)):
            bd = attack_breakdown(self, target.id, fig.id, AttackContext())
            events.extend(self._resolve(bd, what="reach attack on a closing foe", rule=rs.cite(rs.section("round")["rule"]),
                                        reason=f"{target.label}'s {target.ready_weapon} reaches the charging {fig.label}; it "
                                               f"strikes on {fig.label}'s number"))
        if charger_attacks and self.able(target.id):
            if not self.able(fig.id):
                events.append(Event(kind="simultaneous", rule=rs.cite(mods["set_rule"]), actor=fig.id,
                                    text=f"{fig.label} falls, but the blows are simultaneous: its charge attack still lands"))
            bd = attack_breakdown(self, fig.id, target.id, AttackContext(charge=True, surprise_round=self.round == 1))
            if not bd.allowed:
                events.append(Event(kind="charge", rule=rs.cite(ch["rule"]), actor=fig.id,
                                    text=f"{fig.label}'s charge ends out of reach: {bd.reason}"))
            else:
                events.extend(self._resolve(bd, what="charge attack", rule=rs.cite(ch["rule"]), reason=""))
        return events

    def _initiative_at_least(self, a: str, b: str) -> bool:
        ia, ib = self.states[a].initiative, self.states[b].initiative
        if not ia or not ib:
            return True
        return max(ia) >= max(ib)

    def _do_set(self, action: SetAgainstCharge) -> list[Event]:
        fig = self.figure(action.figure)
        rs = self.ruleset
        st = self.states[fig.id]
        out_of_turn = self.current != fig.id
        if out_of_turn and not (self.declarations_open and not rs.d100 and self.able(fig.id)):
            self._require_turn(fig.id)
        weapon = weapon_data(self, fig.ready_weapon)
        if not weapon["set"]:
            fit = ", ".join(sorted(n for n, w in rs.section("weapons").items() if w["set"]))
            if not fit:
                raise ActionRefused(f"{rs.name} has no rule for setting a weapon against a charge")
            raise ActionRefused(f"{fig.label}'s {fig.ready_weapon} cannot be set against a charge (needs one of: {fit})")
        if st.moved_ft > 0 or st.attacked:
            raise ActionRefused(f"{fig.label} has already moved or attacked this round: setting a weapon holds the action")
        st.set_vs_charge = True
        rule = rs.cite(rs.section("modifiers")["set_rule"])
        if not out_of_turn:
            self.done.add(fig.id)
        return [Event(kind="set", rule=rule, actor=fig.id,
                      text=f"{fig.label} sets its {fig.ready_weapon} against a charge and holds its action ({rule})")]

    # ----- aiming, defending, holding -----
    def _do_aim(self, action: Aim) -> list[Event]:
        fig = self._require_turn(action.figure)
        rs = self.ruleset
        mods = rs.section("modifiers")
        st = self.states[fig.id]
        if not mods["aim_bonus"]:
            raise ActionRefused(f"{rs.name} has no aimed shots")
        if not weapon_data(self, fig.ready_weapon)["ranged"]:
            raise ActionRefused(f"{fig.label} needs a ready missile weapon to aim (it holds {fig.ready_weapon})")
        if action.target is None or action.target not in self.figures:
            raise ActionRefused("aim at a target: name the figure")
        if self.phase == "declare":
            raise ActionRefused("careful aim takes one of the figure's attacks: aim on its initiative number")
        if st.moved_ft > 0 or (rs.d100 and self.move_orders.get(fig.id)):
            raise ActionRefused(f"{fig.label} has moved: aiming needs it to stand still")
        if not rs.d100 and st.attacked:
            raise ActionRefused(f"{fig.label} has attacked this round: aiming takes the whole round")
        st.aim = {"target": action.target, "round": self.round}
        rule = rs.cite(mods["aim_rule"])
        self.done.add(fig.id)
        when = "next round" if mods["aim_next_round"] else "on its next attack this round"
        return [Event(kind="aim", rule=rule, actor=fig.id, target=action.target,
                      text=f"{fig.label} takes aim at {self.figures[action.target].label}: +{mods['aim_bonus']} {when} ({rule})")]

    def _do_defend(self, action: Defend) -> list[Event]:
        fig = self.figure(action.figure)
        rs = self.ruleset
        style = rs.defense(action.style)
        if style is None:
            names = ", ".join(d["style"] for d in rs.data["defenses"]) or "none"
            raise ActionRefused(f"{rs.name} has no {action.style!r} defense; it has: {names}")
        st = self.states[fig.id]
        if rs.d100 and self.phase != "declare":
            raise ActionRefused(f"{style['style']} is declared at the start of the round")
        out_of_turn = self.current != fig.id
        if out_of_turn:
            early = (style["declared"] and self.declarations_open and self.able(fig.id)
                     and (self.phase == "declare" or not self._has_acted(fig.id)))
            if not early:
                self._require_turn(fig.id)
        if not style["can_attack"] and st.attacked:
            raise ActionRefused(f"{fig.label} has attacked this round and cannot take up {style['style']}")
        amount = 0
        if style["formula"] == "trade":
            most = self.profiles[fig.id]["weapon_rank"] * 5
            amount = action.amount
            if amount <= 0 or amount > most:
                raise ActionRefused(f"{fig.label} may trade 1 to {most} SC for DEF (weapon rank x 5)")
        st.defense = style["style"]
        st.defense_amount = amount
        from ..combat.modifiers import defense_bonus
        value = defense_bonus(style, self.profiles[fig.id], amount)
        rule = rs.cite(style["rule"])
        words = f"{fig.label} takes up {style['style']}: {value:+d} " + ("DEF" if rs.d100 else "AC")
        if amount:
            words += f" for -{amount} SC"
        if not style["can_attack"]:
            words += ", no attacks this round"
        if style["initiative"]:
            words += f", {style['initiative']:+d} initiative"
        return [Event(kind="defend", rule=rule, actor=fig.id, text=words + f" ({rule})", data={"style": style["style"], "bonus": value})]

    def _has_acted(self, fid: str) -> bool:
        if self.phase != "act":
            return False
        for i, slot in enumerate(self.slots):
            if fid in slot.members:
                return i < self.slot_index or (i == self.slot_index and fid in self.done)
        return True

    def _do_hold(self, action: Hold) -> list[Event]:
        fig = self._require_turn(action.figure)
        rs = self.ruleset
        st = self.states[fig.id]
        if rs.d100 or self.phase != "act":
            raise ActionRefused("in these rules actions come on their initiative numbers; declare instead")
        if st.attacked or st.moved_ft > 0:
            raise ActionRefused(f"{fig.label} has already acted this turn and cannot hold it")
        slot = self.slots[self.slot_index]
        rule = rs.cite("hold-action" if rs.id == "ch17" else rs.section("round")["rule"])
        if action.until is not None:
            other = self.figure(action.until)
            index = next((i for i, s in enumerate(self.slots) if other.id in s.members), None)
            if index is None or index <= self.slot_index:
                raise ActionRefused(f"{other.label} does not act later this round; {fig.label} can only wait for a later figure")
            slot.members.remove(fig.id)
            self.slots[index].members.append(fig.id)
            words = f"{fig.label} waits for {other.label} and will act with it on {self.slots[index].number} (simultaneously)"
        else:
            if self.slot_index + 1 < len(self.slots):
                later = self.slots[self.slot_index + 1]
            else:
                later = rounds.Slot(slot.number - 1, [])
                self.slots.append(later)
            slot.members.remove(fig.id)
            later.members.append(fig.id)
            words = f"{fig.label} holds its action until initiative {later.number}"
        st.initiative = [self.slots[next(i for i, s in enumerate(self.slots) if fig.id in s.members)].number]
        self.done.discard(fig.id)
        self._current = None
        return [Event(kind="hold", rule=rule, actor=fig.id, text=words + f" ({rule})")]

    # ----- leaving melee -----
    def _do_disengage(self, action: Disengage) -> list[Event]:
        fig = self._require_turn(action.figure)
        rs = self.ruleset
        rules = rs.section("disengage")
        st = self.states[fig.id]
        if action.style not in rules["styles"]:
            hint = ("; for a fighting withdrawal use a move with mode withdraw" if rs.section("parting_shots")["withdrawal_avoids"] else "")
            raise ActionRefused(f"{rs.name} has no {action.style!r} disengagement"
                                + (f" (it has: {', '.join(rules['styles'])})" if rules["styles"] else "") + hint)
        if self.phase == "declare":
            raise ActionRefused("disengage on the figure's turn")
        foes = [f for f in fighting(self, fig)]
        if not foes:
            raise ActionRefused(f"{fig.label} is not in melee; just move")
        if st.attacked or st.moved_ft > 0:
            raise ActionRefused(f"{fig.label} has already acted this round: disengaging takes the whole action")
        self._check_can_move(fig, "run")
        rule = rs.cite(rules["rule"])
        events: list[Event] = []
        if action.style in ("retreat", "hasty") and rs.section("facing")["stationary_turns_free"]:
            # Turning to flee: a figure that has not left its square turns freely first.
            from ..geometry import bearing_octant
            fig = replace(fig, facing=bearing_octant(fig.pos, tuple(action.to)))
            self._set_figure(fig)
        if action.style == "retreat":
            planned = self._plan(fig, action.to, action.mode or "walk")
            die_text = rules["retreat_die"]
            from ..combat.dice import parse_dice
            mine = parse_dice(die_text).roll(self.rng)
            my_total = mine.total + self.profiles[fig.id]["dex_mod"]
            winners = []
            for foe in foes:
                theirs = parse_dice(die_text).roll(self.rng)
                their_total = theirs.total + self.profiles[foe.id]["dex_mod"]
                escaped = my_total > their_total
                if not escaped:
                    winners.append(foe.id)
                events.append(Event(kind="retreat", rule=rule, actor=fig.id, target=foe.id, rolls=(mine, theirs),
                                    total=my_total, target_number=their_total, outcome="escapes" if escaped else "caught",
                                    text=f"{fig.label} retreats from {foe.label}: {die_text}+DEX {my_total} vs {their_total}: "
                                         + ("ducks away without a parting shot" if escaped else f"{foe.label} gets a free attack at +2")
                                         + f" ({rule})"))
            engaged_ids = {f.id for f in foes}
            allowed = set(winners) | {s.attacker_id for s in planned.parting_shots if s.attacker_id not in engaged_ids}
            events.extend(self._walk(fig, planned, action.mode or "walk", allowed_shots=allowed))
        elif action.style == "hasty":
            planned = self._plan(fig, action.to, "run")
            budget = fig.move_ft * rules["hasty_multiplier"]
            if planned.path.total_ft > budget + 1e-9:
                raise ActionRefused(f"a hasty disengagement moves at most {budget:g} ft; this needs {planned.path.total_ft:g} ft")
            st.hasty = True
            events.append(Event(kind="disengage", rule=rule, actor=fig.id,
                                text=f"{fig.label} disengages hastily: {rs.section('modifiers')['hasty_defense']:+d} AC for the "
                                     f"round, and each foe it leaves gets a free attack ({rule})"))
            shots_from = {f.id for f in foes}
            events.extend(self._walk(fig, planned, "run", allowed_shots=shots_from))
        elif action.style == "fighting":
            planned = self._plan(fig, action.to, "withdraw")
            st.hasty = False
            events.append(Event(kind="disengage", rule=rule, actor=fig.id,
                                text=f"{fig.label} makes a fighting disengagement: half its move, no free attacks, "
                                     f"no other action this round ({rule})"))
            events.extend(self._walk(fig, planned, "withdraw", allowed_shots=set()))
            st.withdrawing = False
            st.move_mode = "withdraw-disengage"
        else:
            raise ActionRefused(f"{action.style!r} is not handled here")
        self.done.add(fig.id)
        return events

    # =====================================================================================
    # d100 rules: declarations and segmented movement
    # =====================================================================================
    def _declare_move(self, fig: Figure, action: Move) -> list[Event]:
        rs = self.ruleset
        st = self.states[fig.id]
        if fig.id in self.move_orders:
            raise ActionRefused(f"{fig.label} has already declared its move this round")
        style = rs.defense(st.defense) if st.defense else None
        if style and style["max_move_ft"] == 0:
            raise ActionRefused(f"{fig.label} declared {style['style']} and may not move this round")
        mode = action.mode if action.mode in ("walk", "run", "sidestep", "withdraw") else "walk"
        planned = self._plan(fig, action.to, mode, action.facing, action.altitude_ft)
        self.move_orders[fig.id] = {"steps": list(planned.path.steps), "done": 0, "mode": mode,
                                    "cost_ft": planned.path.total_ft}
        kept, change, why = rounds.attacks_this_round(self, fig.id)
        words = "; ".join(m.name + (f" {m.value:+d} initiative" if m.value else "") for m in why) or "no effect on its attacks"
        end = planned.path.end
        return [Event(kind="declare-move", rule=rs.cite("the-initiative-round"), actor=fig.id,
                      text=f"{fig.label} declares a {mode} to {end.x},{end.y} ({_ft(planned.path.total_ft)} ft), spread over "
                           f"segments 10 to 1: {words}; {kept} attack(s) this round",
                      squares=tuple((s.x, s.y) for s in planned.path.steps), data={"cost_ft": planned.path.total_ft})]

    def _run_segments_to(self, number: int) -> list[Event]:
        """Advance declared movement through every segment down to `number` (movement happens on 10..1)."""
        seg = self.ruleset.section("round")["segments"]
        if not seg:
            return []
        first, last = seg
        events: list[Event] = []
        target_segment = max(last, number)
        if number > first:
            return []
        while self.segment > target_segment:
            self.segment = min(self.segment - 1, first) if self.segment > first else self.segment - 1
            fraction = (first + 1 - self.segment) / (first + 1 - last)
            for fid, order in list(self.move_orders.items()):
                events.extend(self._advance_mover(fid, order, fraction))
        return events

    def _advance_mover(self, fid: str, order: dict, fraction: float) -> list[Event]:
        if not self.able(fid) or self.states[fid].has("stunned") and False:
            return []
        steps = order["steps"]
        total = order["cost_ft"]
        goal = 0
        for i, s in enumerate(steps):
            if s.total_ft <= total * fraction + 1e-9:
                goal = i
        if goal <= order["done"]:
            return []
        fig = self.figures[fid]
        occupied = {f.pos for f in self.figures.values() if f.id != fid and not self.states[f.id].has("dead")
                    and not self.states[f.id].has("fled")}
        start_index = order["done"]
        reached = start_index
        for i in range(start_index + 1, goal + 1):
            s = steps[i]
            if (s.x, s.y) in occupied and (s.x, s.y) != fig.pos:
                break
            reached = i
        if reached == start_index:
            return []
        sub = steps[start_index: reached + 1]
        shots = self.positioning().engagement.parting_shots(fig, sub, order["mode"], self.positioning().figures)
        order["done"] = reached
        end = steps[reached]
        from ..moves.path import Path
        path = Path(fid, order["mode"], tuple(sub), sub[-1].total_ft - sub[0].total_ft, total)
        self.states[fid].moved_ft += path.total_ft
        if order["mode"] == "run":
            self.states[fid].move_mode = "run"
        elif not self.states[fid].move_mode:
            self.states[fid].move_mode = order["mode"]
        events = [Event(kind="move", rule=self.ruleset.cite("the-initiative-round"), actor=fid,
                        text=f"segment {self.segment}: {fig.label} moves to {end.x},{end.y} "
                             f"({_ft(end.total_ft)} of {_ft(total)} ft)",
                        squares=tuple((s.x, s.y) for s in sub), data={"segment": self.segment})]
        for shot in sorted(shots, key=lambda s: s.step_index):
            if not self._may_free_attack(shot.attacker_id, fid):
                continue
            events.extend(self._free_attack(shot.attacker_id, fid, shot.rule, shot.reason, parting=True))
            if not self.able(fid):
                break
        if self.able(fid):
            self._set_figure(self._carry_movement(self.figures[fid].moved_to(end.x, end.y, end.facing, end.altitude_ft),
                                                  path, order["mode"]))
        else:
            here = sub[max(0, shots[0].step_index if shots else 0)]
            self._set_figure(self.figures[fid].moved_to(here.x, here.y, here.facing, here.altitude_ft))
            order["done"] = len(steps)
        return events

    # =====================================================================================
    # choices for the AI
    # =====================================================================================
    def legal_actions(self, figure_id: str) -> list[Action]:
        """A reasonable list of what the figure may do now (every entry passes check())."""
        if self.current != figure_id:
            return []
        fig = self.figures[figure_id]
        out: list[Action] = []
        candidates: list[Action] = []
        rs = self.ruleset
        foes = [f for f in self.figures.values() if f.side != fig.side and self.able(f.id)]
        if self.phase == "act":
            for foe in foes:
                for weapon in dict.fromkeys(fig.weapons):
                    candidates.append(Attack(figure_id, target=foe.id, weapon=weapon))
            if rs.section("charge")["allowed"]:
                for foe in foes:
                    lane = self.positioning().charge_lane(figure_id, foe.id)
                    if lane.legal:
                        candidates.append(Charge(figure_id, target=foe.id))
            if weapon_data(self, fig.ready_weapon)["set"]:
                candidates.append(SetAgainstCharge(figure_id))
            if rs.section("modifiers")["aim_bonus"] and weapon_data(self, fig.ready_weapon)["ranged"]:
                for foe in foes:
                    candidates.append(Aim(figure_id, target=foe.id))
            for style in rs.section("disengage")["styles"]:
                if fighting(self, fig):
                    mode = "withdraw" if style == "fighting" else "run" if style == "hasty" else "walk"
                    try:
                        reach = self.positioning().reach(figure_id, mode)
                    except RulesError:
                        reach = {}
                    far = sorted((sq for sq, e in reach.items() if e.can_end and sq != fig.pos),
                                 key=lambda sq: -min(gap_ft(self, replace(fig, x=sq[0], y=sq[1]), f) for f in foes))[:3]
                    for sq in far:
                        candidates.append(Disengage(figure_id, to=sq, style=style))
        for d in rs.data["defenses"]:
            if d["formula"] == "trade":
                rank = self.profiles[figure_id]["weapon_rank"]
                if rank:
                    candidates.append(Defend(figure_id, style=d["style"], amount=rank * 5))
            else:
                candidates.append(Defend(figure_id, style=d["style"]))
        modes = ["walk", "run", "withdraw", "sidestep"] + (["jog"] if rs.section("movement")["jog_multiplier"] else [])
        if self.phase == "declare" or self._movement_left(figure_id) > 0:
            for mode in modes:
                try:
                    reach = self.positioning().reach(figure_id, mode)
                except RulesError:
                    continue
                for sq, entry in sorted(reach.items()):
                    if entry.can_end and sq != fig.pos:
                        candidates.append(Move(figure_id, to=sq, mode=mode))
        for action in candidates:
            if action.kind == "move" or self.check(action) is None:
                out.append(action)
        if self.phase == "act" and not rs.d100:
            out.append(Hold(figure_id))
        out.append(EndTurn(figure_id))
        return [a for a in out if a.kind != "move" or self._move_within_budget(a)]

    def _move_within_budget(self, action: Move) -> bool:
        st = self.states[action.figure]
        if self.phase == "declare":
            return action.figure not in self.move_orders
        if st.attacked and not self.ruleset.section("round")["move_after_attack"]:
            return False
        return True


def _ft(value: float) -> str:
    return f"{int(value)}" if float(value).is_integer() else f"{value:.1f}"


_MAP_LAYERS = ("blocks_move", "blocks_sight", "cover", "concealment", "difficult", "water", "door",
               "elevation_ft", "obstacle_height_ft")


def _figure_json(f: Figure) -> dict:
    return {"id": f.id, "side": f.side, "x": f.x, "y": f.y, "facing": f.facing, "name": f.name,
            "altitude_ft": f.altitude_ft, "move_ft": f.move_ft, "turning_ft": f.turning_ft, "flyer": f.flyer,
            "size": f.size, "weapons": list(f.weapons), "running": f.running, "stats": dict(f.stats)}


def _figure_from_json(d: dict) -> Figure:
    return Figure(id=str(d["id"]), side=str(d["side"]), x=int(d["x"]), y=int(d["y"]), facing=int(d["facing"]),
                  name=str(d.get("name", "")), altitude_ft=int(d.get("altitude_ft", 0)), move_ft=int(d["move_ft"]),
                  turning_ft=int(d.get("turning_ft", 0)), flyer=str(d.get("flyer", "none")),
                  size=str(d.get("size", "medium")), weapons=tuple(d.get("weapons", ())),
                  running=bool(d.get("running", False)), stats=dict(d.get("stats", {})))
