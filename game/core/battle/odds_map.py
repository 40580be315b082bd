"""The odds map: for one attacker and one target, the attack it could make from every square it can
reach this turn, each worked out by the resolver's own check and breakdown.

For the figure whose turn it is, each square is the battle as the move there would leave it (its
feet spent, its facing toward the target where it may end so; what the walk sets off on the way
set aside and listed as warnings) asked for the Attack with the same `preview` the click would
get: the same refusal, the same breakdown, the same odds the roll draws from. A blow the ruleset
puts later in the round (bfrpg's melee phase, a d100 declaration) is shown with the breakdown it
would have from there and says when it comes. The charge's lane end is a square of its own, with
the charge's modifiers and the answers it would meet.

For a figure waiting for its turn the squares are those it could reach on its turn from where it
stands, each with the breakdown from there (Battle.explain_attack) and the move-and-attack
allowance (`attacks_per_round`): what its turn would offer if nothing moved first.
Nothing here changes the battle.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..combat.breakdown import Breakdown
from ..values.lessons import LATER_PHASE
from ..values.actions import Attack, Charge, Move
from ..values.errors import RulesError
from ..values.geometry import FACINGS, bearing_octant
from ..values.numbers import feet, plain_number
from ..values.refusals import ActionRefused, Refusal

# What an odds map shades by.
ODDS_MEASURES = ("chance", "damage")


@dataclass(frozen=True)
class OddsSquare:
    """The attack from one square: its breakdown, or why not from there."""
    square: tuple[int, int]
    how: str                            # "stay", "walk", "run" or "charge": how the attacker gets there
    cost_ft: float
    facing: int
    breakdown: Breakdown | None = None
    refusal: Refusal | None = None      # why no attack from here (None: one can be made)
    when: str = ""                      # "" now; else when this ruleset lets the blow come
    warnings: tuple = ()                # what getting there sets off (foresight.Foresight)

    @property
    def allowed(self) -> bool:
        return self.refusal is None and self.breakdown is not None and self.breakdown.allowed

    @property
    def chance(self) -> float:
        return self.breakdown.chance() if self.allowed else 0.0

    @property
    def expected_damage(self) -> float:
        return self.breakdown.odds().expected_damage if self.allowed else 0.0

    def value(self, measure: str) -> float:
        return self.expected_damage if measure == "damage" else self.chance

    @property
    def reasons(self) -> tuple[str, ...]:
        """What makes this square's number, named: each modifier as its effect on the attacker's roll
        (a defence bonus counts against it), the range band, a charge, an automatic hit."""
        if self.breakdown is None:
            return ()
        bd = self.breakdown
        out = [f"{m.name} {m.value:+d}" for m in bd.attack_mods if m.value]
        out += [f"{m.name} {-m.value:+d}" for m in bd.defense_mods if m.value]
        if bd.range_band:
            out.append(f"{bd.range_band} range")
        if bd.auto_hit:
            out.append(f"always hits ({bd.auto_hit})")
        return tuple(out)

    def to_json(self) -> dict:
        out: dict = {"square": list(self.square), "how": self.how, "cost_ft": plain_number(self.cost_ft),
                     "facing": self.facing, "allowed": self.allowed, "when": self.when,
                     "reasons": list(self.reasons), "warnings": [w.to_json() for w in self.warnings]}
        if self.allowed:
            odds = self.breakdown.odds()
            out.update(chance=round(odds.p_hit, 4), expected_damage=round(odds.expected_damage, 3))
        if self.refusal is not None:
            out["refusal"] = self.refusal.to_json()
        elif self.breakdown is not None and not self.breakdown.allowed:
            out["refusal"] = self.breakdown.refusals[0].to_json()
        if self.breakdown is not None:
            out["breakdown"] = self.breakdown.to_json()
        return out


@dataclass(frozen=True)
class OddsMap:
    """Every square the attacker can reach this turn with the attack it could make on the target from there."""
    attacker: str
    target: str
    ruleset: str
    its_turn: bool                     # False: what its turn would offer, from where it stands now
    squares: tuple[OddsSquare, ...]

    def at(self, square: tuple[int, int]) -> list[OddsSquare]:
        return [s for s in self.squares if s.square == tuple(square)]

    def best(self, measure: str = "chance") -> list[OddsSquare]:
        """The squares with the highest number (all of them when several tie), cheapest first."""
        allowed = [s for s in self.squares if s.allowed]
        if not allowed:
            return []
        top = max(s.value(measure) for s in allowed)
        return sorted((s for s in allowed if s.value(measure) >= top - 1e-9), key=lambda s: (s.cost_ft, s.square))

    def to_json(self, measure: str = "chance") -> dict:
        return {"attacker": self.attacker, "target": self.target, "ruleset": self.ruleset,
                "its_turn": self.its_turn, "measure": measure,
                "best": [[*s.square, s.how] for s in self.best(measure)],
                "squares": [s.to_json() for s in self.squares]}


def odds_map(battle, attacker_id: str, target_id: str, weapon: str | None = None) -> OddsMap:
    attacker = battle.figure(attacker_id)
    battle.figure(target_id)
    its_turn = battle.current == attacker_id
    squares = _on_its_turn(battle, attacker, target_id, weapon) if its_turn else \
        _when_its_turn_comes(battle, attacker, target_id, weapon)
    return OddsMap(attacker_id, target_id, battle.ruleset.id, its_turn, tuple(squares))


# ----- the figure whose turn it is: each square as the move there would leave the battle -----
def _on_its_turn(battle, attacker, target_id: str, weapon: str | None) -> list[OddsSquare]:
    from .handlers.moving import arrive_as_planned
    target = battle.figure(target_id)
    attack = Attack(figure=attacker.id, target=target_id, weapon=weapon)
    out = {attacker.pos: _square_from(battle, battle, attack, attacker.pos, "stay", 0.0, attacker.facing)}
    for mode in _modes(battle, attacker):
        reach = battle.reachable(attacker.id, mode)
        for sq in sorted(reach.ends):
            had = out.get(sq)
            if had is not None and (mode == "walk" or had.allowed or had.refusal is None
                                    or had.refusal.key != "attack.moved-too-far"):
                continue            # a run is tried only where it could open a blow a walk does not
            square = _arrival(battle, attack, reach, sq, mode, target.pos, arrive_as_planned)
            if square is not None and (had is None or square.allowed):
                out[sq] = square
    return list(out.values()) + _charge(battle, attacker, target_id)


def _modes(battle, attacker) -> tuple[str, ...]:
    """Walk, and run where this ruleset lets a figure strike after running."""
    walk = battle.limits(attacker.id).move("walk")
    if battle.attacks_per_round(attacker, walk.left_ft + 5, "run") == 0:
        return ("walk",)
    run = battle.reachable(attacker.id, "run")
    return ("walk", "run") if run.allowed and run.left_ft > walk.left_ft else ("walk",)


def _arrival(battle, attack: Attack, reach, sq, mode: str, target_pos, arrive_as_planned) -> OddsSquare | None:
    """The square reached facing the target (else the cheapest way it may end there); where turning
    to face it costs the blow (moved too far), the cheapest facing instead."""
    entry = reach.entries[sq]
    square = None
    for facing in _facings(entry, sq, target_pos, reach.left_ft):
        try:                    # the check changes nothing: asked of the battle, its planner's search is shared
            plan = battle._plan(Move(figure=attack.figure, to=sq, mode=mode, facing=FACINGS[facing]))
        except ActionRefused:   # a square the search offers but the check turns down: not reachable so
            continue
        if plan.drags:          # a figure dragging a held foe: its blow comes where the drag leaves it
            return None
        trial = battle.clone()
        arrive_as_planned(trial, plan)
        end = plan.planned.path.end
        square = _square_from(battle, trial, attack, sq, mode, plan.planned.path.total_ft, end.facing,
                              battle.path_warnings(attack.figure, plan.planned))
        if square.refusal is None or square.refusal.key != "attack.moved-too-far":
            return square
    return square


def _square_from(battle, trial, attack: Attack, sq, how: str, cost_ft: float, facing: int,
                 warnings: tuple = ()) -> OddsSquare:
    preview = trial.preview(attack)
    refusal, breakdown, when = preview.refusal, preview.breakdown, ""
    if refusal is not None and refusal.key in LATER_PHASE:
        # The ruleset puts the blow later in the round: the breakdown it would have from there.
        when = refusal.words
        breakdown = trial.explain_attack(attack.figure, attack.target, attack.weapon,
                                         surprise_round=trial.round == 1)
        refusal = None if breakdown.allowed else breakdown.refusals[0]
        fig = trial.figure(attack.figure)
        moved_ft = trial.state_of(fig.id).moved_ft
        if refusal is None and how != "stay" and trial.attacks_per_round(fig, moved_ft, how) == 0:
            refusal = _moved_too_far(trial, fig, moved_ft)
    return OddsSquare(tuple(sq), how, cost_ft, facing, breakdown, refusal, when, warnings + preview.warnings)


def _moved_too_far(battle, fig, cost_ft: float) -> Refusal:
    return Refusal.of("attack.moved-too-far", rule=battle.ruleset.cite("movement"), who=fig.label,
                      moved_ft=cost_ft, allowed_ft=battle.strike_move_ft(fig))


def _charge(battle, attacker, target_id: str) -> list[OddsSquare]:
    preview = battle.preview(Charge(figure=attacker.id, target=target_id))
    if preview.refusal is not None or preview.planned is None or preview.breakdown is None:
        return []
    end = preview.planned.path.end
    return [OddsSquare((end.x, end.y), "charge", preview.planned.path.total_ft, end.facing, preview.breakdown,
                       None, "", preview.warnings)]


# ----- a figure waiting for its turn: what its turn would offer -----
def _when_its_turn_comes(battle, attacker, target_id: str, weapon: str | None) -> list[OddsSquare]:
    target = battle.figure(target_id)
    reach = battle.reachable(attacker.id, "walk")
    out = [_hypothetical(battle, attacker, target_id, weapon, attacker.pos, "stay", 0.0, attacker.facing)]
    for sq in sorted(reach.ends - {attacker.pos}):
        entry = reach.entries[sq]
        for facing in _facings(entry, sq, target.pos, reach.left_ft):
            square = _hypothetical(battle, attacker, target_id, weapon, sq, "walk",
                                   entry.facings.get(facing, entry.cost_ft), facing)
            if square.refusal is None or square.refusal.key != "attack.moved-too-far":
                break
        out.append(square)
    charge = _hypothetical_charge(battle, attacker, target_id)
    return out + charge


def _hypothetical(battle, attacker, target_id: str, weapon, sq, how: str, cost_ft: float, facing: int) -> OddsSquare:
    bd = battle.explain_attack(attacker.id, target_id, weapon, at=sq, facing=facing, surprise_round=battle.round == 1)
    refusal = None if bd.allowed else bd.refusals[0]
    if refusal is None and battle.attacks_per_round(attacker, cost_ft, "walk") == 0:
        refusal = _moved_too_far(battle, attacker, cost_ft)
    return OddsSquare(tuple(sq), how, cost_ft, facing, bd, refusal, "on its turn")


def _hypothetical_charge(battle, attacker, target_id: str) -> list[OddsSquare]:
    section = battle.ruleset.section("charge")
    target = battle.figure(target_id)
    if not section["allowed"] or target.side == attacker.side:
        return []
    lane = battle.positioning().charge_lane(attacker.id, target_id)
    if not lane.legal:
        return []
    try:
        planned = battle.plan_path(attacker.id, target.pos, "charge")
    except RulesError:
        return []
    end = planned.path.end
    bd = battle.explain_attack(attacker.id, target_id, at=(end.x, end.y), facing=end.facing, charge=True,
                               surprise_round=battle.round == 1)
    return [OddsSquare((end.x, end.y), "charge", planned.path.total_ft, end.facing, bd,
                       None if bd.allowed else bd.refusals[0], "on its turn")]


def _facings(entry, square, target_pos, left_ft: float) -> list[int]:
    """The facings to try a square with: toward the target where the move may end so within what is
    left, then the cheapest way it may end there."""
    want = bearing_octant(square, target_pos)
    if not entry.facings:
        return [want]
    cheapest = min(entry.facings, key=lambda f: (entry.facings[f], f))
    if entry.facings.get(want, 1e18) <= left_ft + 1e-9 and want != cheapest:
        return [want, cheapest]
    return [cheapest]


def square_words(square: OddsSquare, measure: str = "chance") -> str:
    """One square of the map in a player's words: how it gets there, the number, and why."""
    how = {"stay": "from where it stands", "charge": f"charge ({feet(square.cost_ft)} ft)"}.get(
        square.how, f"{square.how} {feet(square.cost_ft)} ft")
    if not square.allowed:
        why = square.refusal.words if square.refusal is not None else square.breakdown.reason
        return f"{how}: no attack ({why})"
    odds = square.breakdown.odds()
    words = f"{how}: {round(odds.p_hit * 100)}% to hit, {odds.expected_damage:.1f} damage on average"
    if square.reasons:
        words += "; " + ", ".join(square.reasons)
    if square.when:
        words += f" [{square.when}]"
    return words
