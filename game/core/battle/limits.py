"""How far a figure may still move, and where a move may end: the one answer `check` refuses a
move by and `status()`, the window's overlays and the AI read.

`move_limit` is everything the Move handler decides before it looks at the square (whose turn,
the phase, a stance, prone, a set weapon, a declared move, a drag, a rider on its mount);
`limits` gathers it for every mode with the attacks left; `reachable` is the planner's search
kept to that limit, the squares `check` accepts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..combat.reach import fighting
from ..mounts import body_of
from ..moves.positioning import Positioning
from ..values.errors import RulesError
from ..values.figure import Figure
from ..values.modes import MOVE_MODES
from ..values.refusals import ActionRefused, Refusal, refuse
from .budgets import attacks_left, require_can_move, require_not_fatigued, require_turn, strike_move_ft
from .riding import require_not_ridden

AFTER_ATTACK = "after-attack"     # d100: a move declared to start after the figure's last attack
DECLARABLE_MODES = ("walk", "run", "sidestep", "withdraw", AFTER_ATTACK)


@dataclass(frozen=True)
class MoveLimit:
    """How far a figure may still move in one mode now, as `check` decides it: the mode's whole
    allowance this round, what it has moved, what a move may still cost, and which limit binds
    (the mode's budget, a defensive stance's cap, the share of its move a drag allows). `refusal`:
    why it may not move in this mode at all now (then `left_ft` is 0)."""
    mode: str
    budget_ft: float = 0.0
    moved_ft: float = 0.0
    left_ft: float = 0.0
    bound: str = "budget"          # "budget", "stance", "drag" or "half-move" (d100 attack then move)
    refusal: Refusal | None = None

    @property
    def allowed(self) -> bool:
        return self.refusal is None

    def to_json(self) -> dict:
        out = {"mode": self.mode, "allowed": self.allowed, "budget_ft": self.budget_ft, "moved_ft": self.moved_ft,
               "left_ft": self.left_ft, "bound": self.bound}
        if self.refusal is not None:
            out["refusal"] = self.refusal.to_json()
        return out


def move_limit(battle, figure_id: str, mode: str) -> MoveLimit:
    """Everything `check_move` decides before it looks at the square: the refusal, or the limit a
    path in this mode must keep to. `check_move` refuses a path that costs more than `left_ft`.
    Asked of a figure whose turn it is not, the answer is what it has left for its turn (whose
    turn it is, and the phase of someone else's number, are left out)."""
    try:
        return _move_limit(battle, figure_id, mode, its_turn=battle.current == figure_id)[0]
    except ActionRefused as refused:
        return MoveLimit(mode, _allowance(battle, figure_id, mode), battle.state_of(figure_id).moved_ft,
                         refusal=refused.refusal)


def _allowance(battle, figure_id: str, mode: str) -> float:
    """The mode's whole allowance for the figure's body this round, or 0 where the mode has none."""
    try:
        return _mode_budget(battle, body_of(battle, figure_id), mode)
    except ActionRefused:
        return 0.0


def _move_limit(battle, figure_id: str, mode: str, its_turn: bool = True) -> tuple[MoveLimit, Positioning | None]:
    """(the limit, the positioning a path is searched in) or ActionRefused."""
    fig = require_turn(battle, figure_id) if its_turn else battle.figure(figure_id)
    require_not_ridden(battle, fig, "move")
    body = body_of(battle, fig.id)
    st = battle.state_of(fig.id)
    rs = battle.ruleset
    if battle.state.phase == "declare":
        require_declared(battle, "move", "moves")
        if body.id in battle.state.move_orders:
            refuse("move.already-declared", who=fig.label)
        if st.standing_up:
            refuse("stand.getting-up", who=fig.label)
        if st.has("prone"):
            prone = rs.section("prone")
            refuse("prone", rule=rs.cite(prone["rule"]), who=fig.label, stand=prone["stand"])
        style = rs.defense(st.defense) if st.defense else None
        if style and style["max_move_ft"] == 0:
            refuse("move.stance-no-move", who=fig.label, stance=style["style"])
        declared = mode if mode in DECLARABLE_MODES else "walk"
        budget = _mode_budget(battle, body, "walk" if declared == AFTER_ATTACK else declared)
        if declared == AFTER_ATTACK:
            if not rs.section("round")["attack_then_move"]:
                refuse("move.no-attack-then-move", ruleset=rs.id)
            return MoveLimit(mode, budget, 0.0, min(budget, fig.move_ft / 2), "half-move"), None
        return MoveLimit(mode, budget, 0.0, budget), None
    if rs.d100:
        refuse("move.declared-in-segments", who=fig.label)
    require_can_move(battle, fig, check_phase=its_turn)
    require_not_fatigued(battle, fig, mode)
    round_rules = rs.section("round")
    if (mode == "withdraw" and round_rules["declarations"] and "disengage" in round_rules["declared"]
            and fighting(battle, fig)):
        refuse("disengage.announce", rule=rs.cite(round_rules["declare_rule"]), who=fig.label)
    if st.holding:
        held = battle.figures[st.holding]
        fraction = Fraction(rs.section("manoeuvres")["drag_fraction"])
        if fraction == 0:
            refuse("grapple.no-drag", who=fig.label, held=held.label, ruleset=rs.id)
        limit = float(fig.move_ft * fraction)
        return (MoveLimit(mode, limit, st.moved_ft, max(0.0, limit - st.moved_ft), "drag"),
                positioning_without(battle, held.id))
    budget = _mode_budget(battle, body, mode)
    moved = battle.state_of(body.id).moved_ft       # a rider's move is its mount's: the mount's budget
    left, bound = max(0.0, budget - moved), "budget"
    style = rs.defense(st.defense) if st.defense else None
    if style and style["max_move_ft"] > 0 and style["max_move_ft"] - moved < left:
        left, bound = max(0.0, style["max_move_ft"] - moved), "stance"
    return MoveLimit(mode, budget, moved, left, bound), None


def _mode_budget(battle, body: Figure, mode: str) -> float:
    """The mode's whole allowance for this body this round (the planner's own number)."""
    planner = battle.positioning().planner
    try:
        planner.refuse_mode(body, mode)
        return planner.params(body, mode).budget_ft
    except RulesError as err:
        refuse("move.no-path", why=str(err))


@dataclass(frozen=True)
class Limits:
    """What a figure has left this round, the one answer `check`, `status()`, the window's overlays
    and the AI read: per movement mode how far a move may still go (and why not, where it may not),
    the attacks left, and how far it may move in a round and still strike."""
    figure: str
    moved_ft: float
    attacks_left: int
    strike_move_ft: float          # a walk of at most this keeps its attacks (its move-and-attack allowance)
    moves: tuple                   # MoveLimit per mode of MOVE_MODES

    def move(self, mode: str):
        for limit in self.moves:
            if limit.mode == mode:
                return limit
        raise KeyError(mode)

    def left_ft(self, mode: str = "walk") -> float:
        """How far a move in this mode may still go (0 when it may not move so now)."""
        limit = self.move(mode)
        return limit.left_ft if limit.allowed else 0.0

    def to_json(self) -> dict:
        return {"figure": self.figure, "moved_ft": self.moved_ft, "attacks_left": self.attacks_left,
                "strike_move_ft": self.strike_move_ft, "moves": [m.to_json() for m in self.moves]}


def limits(battle, fid: str) -> Limits:
    fig = battle.figures[fid]
    body = battle.figures[fig.mount] if fig.mount and fig.mount in battle.figures else fig
    return Limits(fid, battle.state_of(body.id).moved_ft, attacks_left(battle, fid), strike_move_ft(battle, fig),
                  tuple(move_limit(battle, fid, mode) for mode in MOVE_MODES))


def movement_left(battle, fid: str) -> float:
    """How far a walk may still go: the walk's limit of `limits`."""
    limit = move_limit(battle, fid, "walk")
    return limit.left_ft if limit.allowed else 0.0


@dataclass(frozen=True)
class Reachable:
    """The squares a Move in one mode may end on now: the search's entries (cost, facings and
    altitudes per square) kept to the mode's limit (MoveLimit.left_ft), or the refusal."""
    figure: str
    mode: str
    limit: MoveLimit
    entries: dict = field(default_factory=dict)     # (x, y) -> ReachEntry of the body's anchor square
    footprint: tuple = (1, 1)

    @property
    def allowed(self) -> bool:
        return self.limit.allowed

    @property
    def left_ft(self) -> float:
        return self.limit.left_ft if self.limit.allowed else 0.0

    def squares(self, altitude_ft: int | None = None) -> list[tuple[int, int]]:
        """Squares a Move may end on (at `altitude_ft` above the floor, when given)."""
        left = self.left_ft + 1e-9
        if altitude_ft is None:
            return [sq for sq, e in self.entries.items() if e.can_end and e.cost_ft <= left]
        return [sq for sq, e in self.entries.items() if e.can_end and e.altitudes.get(altitude_ft, 1e18) <= left]

    @property
    def ends(self) -> frozenset:
        got = self.__dict__.get("_ends")
        if got is None:
            got = self.__dict__["_ends"] = frozenset(self.squares())
        return got


def reachable(battle, figure_id: str, mode: str) -> Reachable:
    """The squares a Move in this mode may end on: for the figure whose turn it is, exactly those
    `check` accepts; for another, those it could reach with what it has left on its turn."""
    fig = battle.figure(figure_id)
    try:
        limit, positioning = _move_limit(battle, figure_id, mode, its_turn=battle.current == figure_id)
    except ActionRefused:
        return Reachable(figure_id, mode, move_limit(battle, figure_id, mode))
    search_mode = mode
    if battle.state.phase == "declare":
        search_mode = mode if mode in DECLARABLE_MODES else "walk"
    elif battle.state_of(fig.id).holding:
        search_mode = "walk"
    positioning = positioning or battle.positioning()
    body = positioning.body(figure_id)
    try:
        entries = positioning.search(body.id, search_mode).entries()
    except RulesError as err:
        return Reachable(figure_id, mode, MoveLimit(mode, refusal=Refusal.of("move.no-path", why=str(err))))
    return Reachable(figure_id, mode, limit, entries, tuple(body.footprint))


def require_declared(battle, kind: str, what: str) -> None:
    """In the declaration step, only what the ruleset declares there may be done."""
    if kind not in battle.ruleset.section("round")["declared"]:
        refuse("declare.not-declared", what=what, declared=", ".join(battle.ruleset.section("round")["declared"]))


def positioning_without(battle, fid: str) -> Positioning:
    """The battle's positioning as if `fid` were not on the map (a dragged figure neither blocks nor strikes its holder)."""
    full = battle.positioning()
    present = [f for f in full.figures if f.id != fid] if hasattr(full, "figures") else [
        f for f in battle.figures.values() if f.id != fid and battle.able(f.id)]
    mounted = frozenset(f.id for f in present if battle.profile(f.id)["mounted"] or f.mount
                        or f.id in battle.state.riders)
    return Positioning(battle.map, battle.ruleset, present, mounted, full.engagement.attacking)
