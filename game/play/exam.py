"""The tactics exam: small positions, each with one figure to decide and a decision a rules-aware
player would clearly make, played by each AI level (`fivefoot exam`, docs/ai.md).

A position is data (maps/exam/*.toml, one table per position): a small scenario, the figure that
decides, the rule the decision rests on (`rule`, a ruleset:section citation), the class of
decision, and what passing means (`expect`). The figure's turn is played by the AI level from the
battle's start (every other figure ends its turns: the foes stand where the position puts them)
until the round is over, so a plan of several actions (withdraw, then shoot) and a declared move
that unfolds in segments (d100) are judged by what the resolver did with them.

`expect` keys (all given must hold):
    first = ["set", ...]       the kind of its first action is one of these
    takes = ["trip", ...]      it takes an action of one of these kinds this round
    never = ["charge", ...]    it takes no action of these kinds
    attacks = true | "id"      it makes an attack (on that figure) this round (an attack event is its)
    not_target = "id"          it attacks no one but ... (no attack event on that figure)
    careful = true             a shot it takes is a careful one
    mode = "withdraw"          it moves in this mode (a fighting withdrawal)
    no_parting_shot = true     no parting shot or free attack struck at it
    foes_in_reach_max = N      at the round's end at most N foes have it within their melee reach
    stays = true               it ends where it started
    from_side = true           an attack of its counts a flank or rear modifier (the breakdown's keys)
    high_ground = true         an attack of its counts the high-ground modifier
    no_blow_lost = true        no turn of its ends with a foe in its reach and its attacks lost to the walk

A position's scenario may script actions for the other figures (`actions`, as a scenario's): each
is taken on that figure's first turn before the deciding figure's (a spear set, a defence).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..core.values.actions import EndTurn
from ..core.values.errors import DataFileError, RulesError
from ..core.values.events import ATTACK_KINDS, EventKind
from ..core.values.refusals import ActionRefused
from ..io.paths import MAPS_DIR
from .mistakes import MistakeCounter

EXAM_DIR = MAPS_DIR / "exam"
EXPECT_KEYS = {"takes", "first", "never", "attacks", "not_target", "careful", "mode", "no_parting_shot", "foes_in_reach_max",
               "stays", "from_side", "high_ground", "no_blow_lost"}
TURN_ACTIONS = 12


@dataclass
class Position:
    id: str
    klass: str
    rule: str
    why: str
    decide: str
    expect: dict
    scenario: object
    path: str = ""


@dataclass
class Result:
    position: str
    level: str
    passed: bool
    failed: list = field(default_factory=list)      # which expectations did not hold, in words
    actions: list = field(default_factory=list)     # what it did, as the resolver's actions


def load_positions(folder: Path = EXAM_DIR, ruleset: str | None = None) -> list[Position]:
    from ..io.scenarios import scenario_from_data
    out, seen = [], set()
    for path in sorted(Path(folder).glob("*.toml")):
        with open(path, "rb") as fh:
            try:
                data = tomllib.load(fh)
            except tomllib.TOMLDecodeError as err:
                raise DataFileError(path, "", f"not valid TOML: {err}") from None
        for i, entry in enumerate(data.get("position", []), start=1):
            where = f"position[{i}]"
            pid = entry.get("id")
            if not pid or pid in seen:
                raise DataFileError(path, where + ".id", "every position needs an id of its own")
            seen.add(pid)
            for key in ("class", "rule", "why", "decide", "expect", "scenario"):
                if key not in entry:
                    raise DataFileError(path, f"{where}.{key}", "missing: a position has class, rule, why, decide, "
                                                                "expect and scenario")
            unknown = set(entry["expect"]) - EXPECT_KEYS
            if unknown:
                raise DataFileError(path, f"{where}.expect.{sorted(unknown)[0]}",
                                    f"unknown; use some of {', '.join(sorted(EXPECT_KEYS))}")
            scenario = scenario_from_data(entry["scenario"], path)
            if entry["decide"] not in {f.id for f in scenario.figures}:
                raise DataFileError(path, f"{where}.decide", f"no figure {entry['decide']!r} in the position")
            rid, _, section = str(entry["rule"]).partition(":")
            known = scenario.ruleset.known_sections()
            if rid != scenario.ruleset.id or (known and section not in known):
                raise DataFileError(path, f"{where}.rule", f"cite a section of {scenario.ruleset.id}'s document as "
                                                          f"{scenario.ruleset.id}:<section> (one it lists)")
            if ruleset and scenario.ruleset.id != ruleset:
                continue
            out.append(Position(pid, entry["class"], entry["rule"], entry["why"], entry["decide"], dict(entry["expect"]),
                                scenario, str(path)))
    return out


def _battle(position: Position):
    from ..core.battle import Battle, BattleSetup
    sc = position.scenario
    return Battle(BattleSetup(sc.map, sc.ruleset, tuple(sc.figures), sc.seed, sc.title))


def sit(position: Position, level: str) -> Result:
    """Play the position's round with the AI at `level` for the deciding figure; judge it."""
    from ..ai.brain import AI
    battle = _battle(position)
    fid = position.decide
    me0 = battle.figures[fid]
    ai = AI(level)
    counter = MistakeCounter()
    script = {}
    if position.scenario.actions:
        from ..core.script import parse_script
        for action, _wait in parse_script(position.scenario.actions, position.path, list(battle.figures)):
            script.setdefault(action.figure, []).append(action)
    done: list = []
    start_events = len(battle.events)
    start_round = None
    for _ in range(400):
        if battle.is_over:
            break
        cur = battle.current
        if cur is None:
            break
        if start_round is not None and battle.round != start_round:
            break
        pending = any(script.values())
        if cur == fid and battle.able(fid) and (start_round is not None or not pending):
            if start_round is None:
                start_round, start_events = battle.round, len(battle.events)
            action = ai.choose(battle, fid)
            if action.kind == "end-turn":
                counter.ending(battle, fid)
            try:
                battle.apply(action)
            except ActionRefused as refused:
                return Result(position.id, level, False, [f"its action was refused: {refused.refusal.words}"], done)
            done.append(action)
            if len([a for a in done if a.kind != "end-turn"]) > TURN_ACTIONS:
                break
        elif start_round is None and script.get(cur) and battle.check(script[cur][0]) is None:
            battle.apply(script[cur].pop(0))
        else:
            battle.apply(EndTurn(figure=cur))
    if start_round is None:
        return Result(position.id, level, False, ["its turn never came (a scripted action was refused)"], done)
    events = battle.events[start_events:]
    failed = judge(position, battle, me0, done, events)
    if position.expect.get("no_blow_lost") and counter.tally(battle).get(me0.side, {}).get("blows lost to a long move"):
        failed.append("walked too far to strike a foe in reach")
    return Result(position.id, level, not failed, failed, done)


def judge(position: Position, battle, me0, done: list, events) -> list[str]:
    exp, fid = position.expect, position.decide
    moves = [a for a in done if a.kind != "end-turn"]
    kinds = [a.kind for a in done]
    failed = []
    if "first" in exp:
        first = moves[0].kind if moves else "end-turn"
        if first not in exp["first"]:
            failed.append(f"first action {first}, wanted {' or '.join(exp['first'])}")
    if "takes" in exp and not any(k in exp["takes"] for k in kinds):
        failed.append(f"took no {' or '.join(exp['takes'])}")
    if "never" in exp:
        bad = [k for k in kinds if k in exp["never"]]
        if bad:
            failed.append(f"took a {bad[0]}")
    attacks = [e for e in events if e.kind in ATTACK_KINDS and e.actor == fid]
    if "attacks" in exp:
        want = exp["attacks"]
        if want is True and not attacks:
            failed.append("made no attack")
        elif isinstance(want, str) and not any(e.target == want for e in attacks):
            failed.append(f"did not attack {want}")
    keys = {m.key for e in attacks for m in e.modifiers}
    if exp.get("from_side") and not keys & {"rear", "flank"}:
        failed.append("struck from neither flank nor rear")
    if exp.get("high_ground") and "high-ground" not in keys:
        failed.append("struck without the high ground")
    if "not_target" in exp and any(e.target == exp["not_target"] for e in attacks):
        failed.append(f"attacked {exp['not_target']}")
    if exp.get("careful") and not any(getattr(a, "careful", False) for a in done if a.kind == "attack"):
        failed.append("took no careful shot")
    if "mode" in exp and not any(getattr(a, "mode", None) == exp["mode"] or
                                 (a.kind == "disengage" and exp["mode"] == "withdraw") for a in done):
        failed.append(f"made no {exp['mode']} move")
    if exp.get("no_parting_shot"):
        shots = [e for e in events if e.kind in (EventKind.PARTING_SHOT, EventKind.FREE_ATTACK) and e.target == fid]
        if shots:
            failed.append(f"drew {len(shots)} parting shot(s)")
    me = battle.figures[fid]
    if "foes_in_reach_max" in exp and battle.able(fid):
        near = sum(1 for f in battle.figures.values() if f.side != me.side and battle.able(f.id)
                   and _within(battle, f, me))
        if near > exp["foes_in_reach_max"]:
            failed.append(f"ended within reach of {near} foes")
    if exp.get("stays") and me.pos != me0.pos:
        failed.append(f"moved from {me0.x},{me0.y} to {me.x},{me.y}")
    return failed


def _within(battle, foe, me) -> bool:
    apart = max(abs(foe.x - me.x), abs(foe.y - me.y))
    return apart <= 1 or 5 * apart <= battle.melee_reach_ft(foe)


def exam(levels, positions: list[Position]) -> dict:
    """Every level sits every position: {"levels", "positions", "results", "scores"} (JSON-safe)."""
    if not positions:
        raise RulesError("no exam positions to sit (maps/exam/*.toml)")
    results = {lv: [sit(p, lv) for p in positions] for lv in levels}
    return {
        "levels": list(levels),
        "positions": [{"id": p.id, "ruleset": p.scenario.ruleset.id, "class": p.klass, "rule": p.rule, "why": p.why}
                      for p in positions],
        "results": {lv: [{"position": r.position, "passed": r.passed, "failed": r.failed,
                          "actions": [a.to_json() for a in r.actions]} for r in rs] for lv, rs in results.items()},
        "scores": {lv: {"passed": sum(r.passed for r in rs), "of": len(rs),
                        "score": round(sum(r.passed for r in rs) / len(rs), 4)} for lv, rs in results.items()},
    }


def format_exam(report: dict) -> str:
    levels = report["levels"]
    width = max(len(p["id"]) for p in report["positions"])
    lines = [f"{'position':<{width}}  {'ruleset':<11}" + "".join(f" {lv:<7}" for lv in levels) + "  class (rule)"]
    for i, p in enumerate(report["positions"]):
        marks = "".join(f" {'pass' if report['results'][lv][i]['passed'] else 'FAIL':<7}" for lv in levels)
        lines.append(f"{p['id']:<{width}}  {p['ruleset']:<11}{marks}  {p['class']} ({p['rule']})")
    lines.append("")
    for lv in levels:
        s = report["scores"][lv]
        lines.append(f"{lv:<7} {s['passed']}/{s['of']} ({s['score'] * 100:.0f}%)")
        for i, r in enumerate(report["results"][lv]):
            if not r["passed"]:
                lines.append(f"    {report['positions'][i]['id']}: {'; '.join(r['failed'])}")
    return "\n".join(lines)
