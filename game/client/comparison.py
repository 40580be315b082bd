"""The same attack and the same move judged under several rulesets, side by side.

Shared by the window's compare panel (V) and `fivefoot compare`. Pure (no pygame): each
ruleset's battle is asked the same questions, and the answers are its own values: the
attack's modifier breakdown (`explain_attack`) and whether it may be made now (`check`), the
charge (`preview`), and the move's path, costs and parting shots (`positioning().plan`) with
whether it may be made now.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.values.numbers import feet, percent
from ..core.values.actions import Attack, Charge, Move
from ..core.battle import Battle
from ..core.values.errors import RulesError
from .describe import Line


@dataclass
class Judgement:
    ruleset_id: str
    ruleset_name: str
    breakdown: object = None          # Breakdown of the attack from where the attacker stands
    attack_now: object = None         # Refusal of the attack now, or None
    lane: object = None               # the charge lane at the target (legal or why not, with its rule)
    charge: object = None             # Breakdown of the charge attack from the lane's end, when the lane is legal
    charge_now: object = None         # Refusal of the charge now, or None
    move: object = None               # PlannedMove of the move, when one was asked for and has a path
    move_reason: str = ""             # why the move has no path
    move_now: object = None           # Refusal of the move now, or None
    notes: list = field(default_factory=list)

    def to_json(self) -> dict:
        out: dict = {"name": self.ruleset_name, "notes": list(self.notes)}
        out["attack"] = self.breakdown.to_json() if self.breakdown is not None else None
        out["attack_now"] = None if self.attack_now is None else self.attack_now.to_json()
        out["charge"] = None if self.lane is None else {
            "lane": self.lane.to_json(), "attack": None if self.charge is None else self.charge.to_json(),
            "now": None if self.charge_now is None else self.charge_now.to_json()}
        if self.move is not None:
            out["move"] = self.move.to_json()
        elif self.move_reason:
            out["move"] = {"legal": False, "reason": self.move_reason}
        else:
            out["move"] = None
        out["move_now"] = None if self.move_now is None else self.move_now.to_json()
        return out


def rejudged_all(battle: Battle, rulesets) -> dict:
    """The battle's position (hit points, conditions, whose turn) judged under each ruleset, by id."""
    return {rs.id: battle if rs.id == battle.ruleset.id else battle.rejudged(rs) for rs in rulesets}


class RulesetBattles:
    """The position in play judged under every bundled ruleset, kept until the position changes
    (the compare panel and the odds map under another ruleset read the same battles)."""

    def __init__(self):
        self._key = None
        self._battles: dict = {}

    def all(self, battle: Battle) -> dict:
        from .rulesview import position_key
        key = position_key(battle)
        if key != self._key:
            from ..io.rulesets import bundled_ruleset_ids, load_ruleset
            self._battles = rejudged_all(battle, [load_ruleset(rid) for rid in bundled_ruleset_ids()])
            self._key = key
        return self._battles

    def under(self, battle: Battle, ruleset_id: str | None) -> Battle:
        """The position under this ruleset (None or the ruleset in play: the battle itself)."""
        if ruleset_id is None or ruleset_id == battle.ruleset.id:
            return battle
        return self.all(battle)[ruleset_id]


def judge(battle: Battle, attacker: str, target: str | None, move_to=None, mode: str = "walk") -> Judgement:
    rs = battle.ruleset
    j = Judgement(rs.id, rs.name, notes=battle.unknown_weapons([battle.figures[f] for f in (attacker, target) if f]))
    if target is not None:
        try:
            j.breakdown = battle.explain_attack(attacker, target)
        except RulesError as err:
            j.notes.append(str(err))
        j.attack_now = battle.check(Attack(attacker, target=target))
        _judge_charge(battle, j, attacker, target)
    if move_to is not None:
        try:
            j.move = battle.positioning().plan(attacker, tuple(move_to), mode)
        except RulesError as err:
            j.move_reason = str(err)
        j.move_now = battle.check(Move(attacker, to=tuple(move_to), mode=mode))
    return j


def _judge_charge(battle: Battle, j: Judgement, attacker: str, target: str) -> None:
    """The lane (from the rules' positioning), and the charge attack's odds from the lane's end."""
    pos = battle.positioning()
    if not any(f.id == attacker for f in pos.figures) or not any(f.id == target for f in pos.figures):
        return
    j.lane = pos.charge_lane(attacker, target)
    j.charge_now = battle.check(Charge(attacker, target=target))
    if j.lane.legal:
        end = pos.plan(attacker, battle.figures[target].pos, "charge").path.end
        j.charge = battle.explain_attack(attacker, target, at=(end.x, end.y), facing=end.facing, charge=True)


def compare(battles: dict, attacker: str, target: str | None, move_to=None, mode: str = "walk") -> list[Judgement]:
    """One judgement per ruleset id in `battles` (id -> Battle holding the same position)."""
    return [judge(b, attacker, target, move_to, mode) for b in battles.values()]


def judgement_lines(j: Judgement, figures: dict, attacker: str, target: str | None, move_to, mode: str) -> list[Line]:
    """A ruleset's answers as lines: the attack's odds and each modifier with its rule, the charge, the move."""
    out: list[Line] = []
    if target is not None and j.breakdown is not None:
        bd = j.breakdown
        need = f"d100 <= {bd.target_number}" if bd.resolution == "d100" else f"d20 >= {bd.needed_on_die}"
        out.append((f"attack {figures[target].label}: {percent(bd.chance())} ({need})", "good" if bd.allowed else "warn"))
        out.append((f"  {bd.attack_name} {bd.base_attack} vs {bd.defense_name} {bd.base_defense}  [{bd.rule}]", "dim"))
        for m in bd.attack_mods:
            out.append((f"  {m.value:+d} {m.name}  [{m.source}]", "accent"))
        for m in bd.defense_mods:
            out.append((f"  {bd.defense_name} {m.value:+d} {m.name}  [{m.source}]", "accent"))
        if not bd.allowed:
            out.append((f"  not from here: {bd.reason}", "warn"))
        if j.attack_now is not None and j.attack_now.words != bd.reason:
            out.append((f"  not now: {j.attack_now.words}", "dim"))
    if j.lane is not None:
        if not j.lane.legal:
            out.append((f"charge: no lane: {j.lane.reason} [{j.lane.rule}]", "dim"))
        else:
            bd = j.charge
            out.append((f"charge: {percent(bd.chance())} to hit from the lane's end [{j.lane.rule}]", "good"))
            for m in bd.attack_mods:
                out.append((f"  {m.value:+d} {m.name}  [{m.source}]", "accent"))
            if j.charge_now is not None:
                out.append((f"  not now: {j.charge_now.words}", "dim"))
    if move_to is not None:
        if j.move is not None:
            p = j.move.path
            out.append((f"{mode} to {move_to[0]},{move_to[1]}: {feet(p.total_ft)} of {feet(p.budget_ft)} ft", "text"))
            for s in p.steps[1:]:
                if s.cost_ft not in (0, 5):  # the steps where the rulesets differ: dearer diagonals, terrain
                    out.append((f"  {s.x},{s.y} +{feet(s.cost_ft)}: {s.note} [{s.rule}]", "dim"))
            for shot in j.move.parting_shots:
                out.append((f"  parting shot: {shot.attacker} {shot.bonus:+d} [{shot.rule}]", "warn"))
            if not j.move.parting_shots:
                out.append(("  no parting shots", "dim"))
        else:
            out.append((f"{mode} to {move_to[0]},{move_to[1]}: no path ({j.move_reason})", "warn"))
        if j.move_now is not None:
            out.append((f"  not now: {j.move_now.words}", "dim"))
    for note in j.notes:
        out.append((note, "warn"))
    return out
