"""The one-engine promise, as properties over random positions under all five rulesets:

- check(a) refuses exactly when apply(a) would, with the same refusal, and changes nothing;
- apply then undo restores the battle exactly (state and dice);
- a clone plays on exactly as the battle does;
- the previewed path is the applied path, and its parting shots are the ones taken.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.actions import Aim, Attack, Charge, Defend, Disengage, EndTurn, Hold, Move, SetAgainstCharge, Turn
from game.core.values.events import EventKind
from game.core.values.geometry import FACINGS
from game.core.values.refusals import ActionRefused
from game.io.rulesets import bundled_ruleset_ids

from battles import fig, make_battle

RULESETS = bundled_ruleset_ids()
TEMPLATES = ("foot", "archer", "spearman", "knight", "flyer")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw):
    """A small walled field, two sides of two or three figures, a ruleset and a seed."""
    ruleset = draw(st.sampled_from(RULESETS))
    rows = [["."] * 10 for _ in range(8)]
    for x, y in draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 7)), max_size=8)):
        rows[y][x] = "#"
    squares = draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 7)), min_size=4, max_size=6, unique=True))
    figures = []
    for i, (x, y) in enumerate(squares):
        rows[y][x] = "."
        figures.append(fig(f"f{i}", "blue" if i % 2 == 0 else "red", x, y, draw(st.sampled_from(FACINGS)),
                           template=draw(st.sampled_from(TEMPLATES)), stats={"hp": draw(st.integers(3, 20))}))
    seed = draw(st.integers(1, 10_000))
    return make_battle(ruleset, "\n".join("".join(r) for r in rows), figures, seed=seed)


def candidate_actions(battle, rng: random.Random) -> list:
    """Legal actions and plenty of likely-illegal ones, for whoever acts now (and one who does not)."""
    fid = battle.current
    others = [f for f in battle.figures if f != fid]
    some = rng.choice(others)
    x, y = rng.randrange(battle.map.width), rng.randrange(battle.map.height)
    out = [Move(fid, to=(x, y), mode=rng.choice(("walk", "run", "withdraw", "sidestep"))),
           Turn(fid, facing=rng.choice(FACINGS)), Attack(fid, target=some), Charge(fid, target=some),
           SetAgainstCharge(fid), Aim(fid, target=some), Defend(fid, style=rng.choice(("parry", "dodge", "defending"))),
           Disengage(fid, to=(x, y), style=rng.choice(("retreat", "hasty", "fighting"))), Hold(fid),
           Attack(some, target=fid), Move(some, to=(x, y)), EndTurn(some)]
    legal = battle.legal_actions(fid)
    out += rng.sample(legal, min(6, len(legal)))
    return out


def snapshot(battle):
    return battle.state.copy(), battle.rng.getstate(), len(battle.actions), len(battle.events)


def same(a, b) -> bool:
    return a[0] == b[0] and a[1:] == b[1:]


@SETTINGS
@given(positions(), st.integers(0, 2 ** 32 - 1))
def test_check_refuses_exactly_when_apply_would_and_changes_nothing(battle, choice_seed):
    rng = random.Random(choice_seed)
    for _step in range(12):
        if battle.is_over:
            break
        for action in candidate_actions(battle, rng):
            before = snapshot(battle)
            refusal = battle.check(action)
            assert same(snapshot(battle), before), f"check({action}) changed the battle"
            trial = battle.clone()
            try:
                trial.apply(action)
                applied = None
            except ActionRefused as refused:
                applied = refused.refusal
                assert same(snapshot(trial), before), f"a refused {action} changed the battle"
            assert applied == refusal, (action, refusal, applied)
        legal = [a for a in battle.legal_actions(battle.current) if battle.check(a) is None]
        battle.apply(rng.choice(legal))


@SETTINGS
@given(positions(), st.integers(0, 2 ** 32 - 1))
def test_apply_then_undo_restores_the_battle_exactly(battle, choice_seed):
    rng = random.Random(choice_seed)
    for _step in range(10):
        if battle.is_over:
            break
        legal = [a for a in battle.legal_actions(battle.current) if battle.check(a) is None]
        action = rng.choice(legal)
        before = snapshot(battle)
        events = [e.to_json() for e in battle.events]
        battle.apply(action)
        after = snapshot(battle)
        assert battle.undo() == action
        assert same(snapshot(battle), before) and [e.to_json() for e in battle.events] == events
        battle.redo()
        assert same(snapshot(battle), after)


@SETTINGS
@given(positions(), st.integers(0, 2 ** 32 - 1))
def test_a_clone_plays_on_exactly_as_the_battle(battle, choice_seed):
    rng = random.Random(choice_seed)
    for _ in range(3):
        if battle.is_over:
            break
        battle.apply(rng.choice([a for a in battle.legal_actions(battle.current) if battle.check(a) is None]))
    twin = battle.clone()
    for _ in range(10):
        if battle.is_over:
            break
        action = rng.choice([a for a in battle.legal_actions(battle.current) if battle.check(a) is None])
        assert [e.to_json() for e in battle.apply(action)] == [e.to_json() for e in twin.apply(action)]
    assert same(snapshot(battle), snapshot(twin))


@SETTINGS
@given(positions(), st.integers(0, 2 ** 32 - 1))
def test_the_previewed_path_is_the_applied_path(battle, choice_seed):
    rng = random.Random(choice_seed)
    for _ in range(10):
        if battle.is_over:
            break
        fid = battle.current
        moves = [a for a in battle.legal_actions(fid) if isinstance(a, Move)]
        if not moves or battle.state.phase == "declare":
            battle.apply(EndTurn(fid))
            continue
        move = rng.choice(moves)
        preview = battle.preview(move)
        if not preview.allowed:
            assert battle.check(move) == preview.refusal
            battle.apply(EndTurn(fid))
            continue
        steps = tuple((s.x, s.y, s.facing, s.altitude_ft) for s in preview.planned.path.steps[1:])
        carried = Move(fid, to=move.to, mode=move.mode, path=steps)
        assert battle.check(carried) is None
        events = battle.apply(carried)
        walked = next(e for e in events if e.kind == EventKind.MOVE)
        assert walked.data["steps"] == [s.to_json() for s in preview.planned.path.steps]
        shots = [e.actor for e in events if e.kind == EventKind.PARTING_SHOT]
        assert set(shots) <= {p.attacker_id for p in preview.planned.parting_shots}
