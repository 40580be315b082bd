"""What a manoeuvre would do, rolling nothing: `explain_manoeuvre(battle, action)`.

The answer to "grapple the archer?", "trip the brute off the wall-walk?" as the attack's Breakdown
answers "strike him?": the handler's own check (refused: why), then the chance of each outcome and
what success does (prone, held, moved to a square, a fall of so many feet with its damage dice),
counted face by face from the same pieces the handlers roll with (combat/manoeuvres.py: each roll's
`Target`, `hold_kept`, `contest_outcome`; handlers/shoving.fall_ft; combat/damage.falling_dice and
fall_check_passes). Nothing here changes the battle or draws a die.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..values.actions import Action, Escape, Grapple, Overbear, Push, Release, Trip
from ..combat import manoeuvres as rolls
from ..combat.damage import falling_dice, fall_check_passes
from ..combat.dice import Dice, parse_dice
from ..values.refusals import ActionRefused, Refusal
from .handlers.shoving import fall_ft

# What counts as success for each outcome name (the hold taken, knocked down, moved, freed, let go).
SUCCESS = frozenset({"held", "pinned", "struggling", "prone", "moved", "free", "released"})


@dataclass(frozen=True)
class Outcome:
    name: str          # held, pinned, struggling, thrown-off, broken, miss, prone, moved, free, released
    chance: float
    words: str


@dataclass(frozen=True)
class ManoeuvreOdds:
    """The odds of one manoeuvre and what it does, as the handler would roll it now."""
    action: Action
    refusal: Refusal | None = None
    kind: str = ""
    mechanism: str = ""
    rule: str = ""
    outcomes: tuple[Outcome, ...] = ()
    to: tuple[int, int] | None = None         # where the target (escape: the figure) ends on success
    prone: bool = False                       # success knocks the target prone
    fall_ft: int = 0                          # ... and drops it this far
    fall_dice: str = ""                       # the fall's damage dice ("" : no fall damage)
    fall_check: float = 0.0                   # chance a DEX check spares the fall's damage
    damage: tuple[tuple[int, float], ...] = ()    # (damage, probability) the target takes on success
    subdual: bool = False                     # that damage is subdual damage
    stunned: tuple[tuple[int, float], ...] = ()   # hit-dice contest: (rounds the grapplers are stunned, probability)
    escape_chance: float | None = None        # grapple: the chance each try of the held figure frees it
    held_acts: str = ""                       # grapple: what a held figure may still do (attack: all but move; escape)
    words: str = ""

    @property
    def allowed(self) -> bool:
        return self.refusal is None

    @property
    def chance(self) -> float:
        """The chance it succeeds (a hold taken, a foe knocked down or moved, a hold broken or let go)."""
        return sum(o.chance for o in self.outcomes if o.name in SUCCESS)

    def chance_of(self, name: str) -> float:
        return sum(o.chance for o in self.outcomes if o.name == name)

    def to_json(self) -> dict:
        out: dict = {"action": self.action.to_json(), "allowed": self.allowed}
        if self.refusal is not None:
            out["refusal"] = self.refusal.to_json()
            return out
        out.update(kind=self.kind, mechanism=self.mechanism, rule=self.rule, chance=round(self.chance, 4),
                   outcomes=[{"name": o.name, "chance": round(o.chance, 4), "words": o.words} for o in self.outcomes],
                   prone=self.prone, words=self.words)
        if self.to is not None:
            out["to"] = list(self.to)
        if self.fall_ft:
            out.update(fall_ft=self.fall_ft, fall_dice=self.fall_dice, fall_check=round(self.fall_check, 4))
        if self.damage:
            out["damage"] = [[v, round(p, 4)] for v, p in self.damage]
            out["subdual"] = self.subdual
        if self.stunned:
            out["stunned"] = [[r, round(p, 4)] for r, p in self.stunned]
        if self.escape_chance is not None:
            out.update(escape_chance=round(self.escape_chance, 4), held_acts=self.held_acts)
        return out


def explain_manoeuvre(battle, action: Action) -> ManoeuvreOdds:
    """The odds of a Grapple, Escape, Release, Trip, Push or Overbear now (refused: why)."""
    try:
        plan = battle._plan(action)
    except ActionRefused as refused:
        return ManoeuvreOdds(action, refused.refusal)
    if type(action) not in _EXPLAIN:
        return ManoeuvreOdds(action, Refusal.of("battle.unknown-action", kind=action.kind))
    return explain_plan(battle, plan, action)


def explain_plan(battle, plan, action: Action) -> ManoeuvreOdds | None:
    """The odds of a manoeuvre its handler has checked (`plan`); None for any other action."""
    explain = _EXPLAIN.get(type(action))
    return None if explain is None else explain(battle, plan, action)


# ----- the contests, face by face -----
@lru_cache(maxsize=256)
def _sum_d6(count: int) -> tuple[tuple[int, float], ...]:
    return Dice(count, 6).totals()


def kept_chance(battle, holder_id: str, held_id: str) -> float:
    """Opposed grapple checks: the chance the holder keeps the hold (every pair of d20 faces)."""
    h_bonus = rolls.grapple_check_bonus(battle, holder_id)[0]
    d_bonus = rolls.grapple_check_bonus(battle, held_id)[0]
    kept = sum(1 for h in range(1, 21) for d in range(1, 21) if rolls.hold_kept(battle, h + h_bonus, d + d_bonus))
    return kept / 400


def contest_chances(battle, grappler_ids, victim_id: str) -> dict[tuple[str, int], float]:
    """The hit-dice contest: {(outcome, margin): chance} over every total of both sides' d6."""
    counts, n = rolls.contest_dice(battle, grappler_ids, victim_id)
    out: dict[tuple[str, int], float] = {}
    for g, pg in _sum_d6(sum(counts)):
        for v, pv in _sum_d6(n):
            c = rolls.contest_outcome(battle, grappler_ids, victim_id, g, v, [], "")
            key = (c.outcome, c.margin if c.outcome == "thrown-off" else 0)
            out[key] = out.get(key, 0.0) + pg * pv
    return out


def escape_chance(battle, how: str, fid: str, holder_ids: list[str]) -> float:
    """The chance one try of `fid` to break the hold of `holder_ids` (the first is the one it escapes) frees it."""
    one = rolls.escape_target(battle, how, fid, holder_ids[0])
    if one is not None:
        return one.chance()
    if how == "grapple-check":
        return 1 - kept_chance(battle, holder_ids[0], fid)
    if how == "contest":
        return sum(p for (name, _m), p in contest_chances(battle, holder_ids, fid).items() if name == "thrown-off")
    return 0.0


def _stunned(contest: dict) -> tuple[tuple[int, float], ...]:
    return tuple(sorted((m, p) for (name, m), p in contest.items() if name == "thrown-off"))


# ----- each manoeuvre -----
def _grapple(battle, plan, action: Grapple) -> ManoeuvreOdds:
    rules = battle.ruleset.section("manoeuvres")
    how = rules["grapple"]
    fig, target = plan.figure, plan.target
    first = rolls.grapple_target(battle, how, fig.id, target.id).chance()
    holders = list(battle.state_of(target.id).held_by) + [fig.id]
    outcomes = [Outcome("miss", 1 - first, f"{first:.0%} to get a grip")]
    stunned: tuple = ()
    if how == "touch-opposed":
        kept = kept_chance(battle, fig.id, target.id)
        outcomes += [Outcome("held", first * kept, f"{target.label} held"),
                     Outcome("broken", first * (1 - kept), "the grapple checks break the hold at once")]
    elif how == "hd-contest":
        contest = contest_chances(battle, holders, target.id)
        for name in ("pinned", "struggling", "thrown-off"):
            p = sum(q for (n, _m), q in contest.items() if n == name)
            outcomes.append(Outcome(name, first * p, {"pinned": f"{target.label} pinned",
                                                      "struggling": f"{target.label} struggling, no weapon",
                                                      "thrown-off": "the grapplers thrown off and stunned"}[name]))
        stunned = _stunned(contest)
    else:
        outcomes.append(Outcome("held", first, f"{target.label} held"))
    escape = escape_chance(battle, rules["escape"], target.id, holders) if rules["escape"] != "none" else 0.0
    held = sum(o.chance for o in outcomes if o.name in SUCCESS)
    words = (f"grapple {target.label}: {held:.0%} to hold it" + (f"; {fig.label} moves into its square" if rules["enters_square"] else "")
             + f"; it breaks free {escape:.0%} a try")
    return ManoeuvreOdds(action, kind="grapple", mechanism=how, rule=battle.ruleset.cite(rules["grapple_rule"]),
                         outcomes=_kept(outcomes), stunned=stunned, escape_chance=escape,
                         held_acts=rules["held_acts"], words=words)


def _escape(battle, plan, action: Escape) -> ManoeuvreOdds:
    rules = battle.ruleset.section("manoeuvres")
    how = rules["escape"]
    fig = plan.figure
    holders = list(battle.state_of(fig.id).held_by)
    stunned: tuple = ()
    if how == "contest":
        contest = contest_chances(battle, holders, fig.id)
        outcomes = [Outcome("free" if name == "thrown-off" else name, sum(q for (n, _m), q in contest.items() if n == name),
                            {"thrown-off": "it throws them off", "pinned": "pinned", "struggling": "struggling"}[name])
                    for name in ("thrown-off", "pinned", "struggling")]
        stunned = _stunned(contest)
    else:
        p = escape_chance(battle, how, fig.id, holders)
        outcomes = [Outcome("free", p, "it breaks free"), Outcome("held", 1 - p, f"{plan.holder.label} keeps its hold")]
    to = plan.to if how != "contest" else None
    free = sum(o.chance for o in outcomes if o.name == "free")
    return ManoeuvreOdds(action, kind="escape", mechanism=how, rule=battle.ruleset.cite(rules["escape_rule"]),
                         outcomes=_kept(outcomes), to=to, stunned=stunned,
                         words=f"escape {plan.holder.label}'s hold: {free:.0%}")


def _release(battle, plan, action: Release) -> ManoeuvreOdds:
    rules = battle.ruleset.section("manoeuvres")
    return ManoeuvreOdds(action, kind="release", rule=battle.ruleset.cite(rules["grapple_rule"]),
                         outcomes=(Outcome("released", 1.0, f"lets go of {plan.held.label}"),),
                         words=f"let go of {plan.held.label}")


def _fall(battle, target, to) -> dict:
    """What landing on `to` does to the target: the fall's feet, dice, the DEX check's chance, damage."""
    ft = fall_ft(battle, target, to) if tuple(to) != target.pos else 0
    dice, check, _how = falling_dice(battle.ruleset, ft) if ft else (None, False, "")
    if dice is None:
        return {"fall_ft": ft}
    spared = sum(1 for face in range(1, 21) if fall_check_passes(battle, target.id, face)) / 20 if check else 0.0
    damage: dict[int, float] = {0: spared} if spared else {}
    for v, p in dice.totals():
        damage[v] = damage.get(v, 0.0) + p * (1 - spared)
    return {"fall_ft": ft, "fall_dice": dice.text, "fall_check": spared, "damage": tuple(sorted(damage.items()))}


def _fall_words(fall: dict) -> str:
    if not fall.get("fall_ft"):
        return ""
    return f", falls {fall['fall_ft']} ft" + (f": {fall['fall_dice']}" if fall.get("fall_dice") else "")


def _shove(battle, plan, action, kind: str, chance: float, outcome: str, rule_key: str, mechanism: str) -> ManoeuvreOdds:
    rules = battle.ruleset.section("manoeuvres")
    target, to = plan.target, tuple(plan.to)
    fall = _fall(battle, target, to)
    where = "" if to == target.pos else f" to {to[0]},{to[1]}"
    verb = {"trip": "trip", "push": "push"}[kind]
    words = f"{verb} {target.label}{where}: {chance:.0%}" + _fall_words(fall)
    outcomes = [Outcome(outcome, chance, f"{target.label} {'prone' if kind == 'trip' else 'moved'}{where}"),
                Outcome("miss", 1 - chance, "it keeps its feet")]
    return ManoeuvreOdds(action, kind=kind, mechanism=mechanism, rule=battle.ruleset.cite(rules[rule_key]),
                         outcomes=_kept(outcomes), to=to, prone=kind == "trip", words=words, **fall)


def _trip(battle, plan, action: Trip) -> ManoeuvreOdds:
    rules = battle.ruleset.section("manoeuvres")
    p = rolls.trip_target(battle, plan.figure.id, plan.target.id).chance()
    return _shove(battle, plan, action, "trip", p, "prone", "trip_rule", rules["trip"])


def _push(battle, plan, action: Push) -> ManoeuvreOdds:
    rules = battle.ruleset.section("manoeuvres")
    return _shove(battle, plan, action, "push", 1.0, "moved", "push_rule", rules["push"])


def _overbear(battle, plan, action: Overbear) -> ManoeuvreOdds:
    rules = battle.ruleset.section("manoeuvres")
    target = plan.target
    p = rolls.overbear_target(battle, plan.figure.id, target.id).chance()
    damage = parse_dice(rules["overbear_damage"]).totals()
    outcomes = [Outcome("prone", p, f"{target.label} prone for the round, {rules['overbear_damage']} subdual"),
                Outcome("miss", 1 - p, "it stays on its feet")]
    return ManoeuvreOdds(action, kind="overbear", mechanism=rules["overbear"], rule=battle.ruleset.cite(rules["overbear_rule"]),
                         outcomes=_kept(outcomes), prone=True, damage=damage, subdual=True,
                         words=f"overbear {target.label}: {p:.0%}, prone and {rules['overbear_damage']} subdual")


def _kept(outcomes: list[Outcome]) -> tuple[Outcome, ...]:
    """The outcomes that can happen (a chance above nothing)."""
    return tuple(o for o in outcomes if o.chance > 1e-12)


_EXPLAIN = {Grapple: _grapple, Escape: _escape, Release: _release, Trip: _trip, Push: _push, Overbear: _overbear}

__all__ = ["ManoeuvreOdds", "Outcome", "explain_manoeuvre", "explain_plan", "escape_chance", "kept_chance", "contest_chances"]
