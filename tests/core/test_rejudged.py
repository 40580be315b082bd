"""The live ruleset switch: the same position judged by other rules (docs/resolver.md, rejudged)."""
import pytest

from game.core.values.actions import EndTurn, Move
from game.core.battle import Battle
from game.io.rulesets import bundled_ruleset_ids, load_ruleset
from game.io.scenarios import load_scenario

RULESETS = bundled_ruleset_ids()


def _played(ruleset_id: str) -> Battle:
    sc = load_scenario("maps/corridor.toml")
    b = Battle.from_scenario(sc)
    b = b.rejudged(load_ruleset(ruleset_id)) if ruleset_id != b.ruleset.id else b
    for _ in range(3):
        b.apply(EndTurn(b.current))
    return b


@pytest.mark.parametrize("before", RULESETS)
@pytest.mark.parametrize("after", RULESETS)
def test_rejudging_keeps_the_position_hit_points_and_turn(before, after):
    b = _played(before)
    fid = next(iter(b.figures))
    b.states[fid].hp -= 1
    twin = b.rejudged(load_ruleset(after))
    assert twin.ruleset.id == after
    assert {f.id: (f.pos, f.facing) for f in twin.figures.values()} == {f.id: (f.pos, f.facing) for f in b.figures.values()}
    assert {i: (s.hp, s.max_hp, dict(s.conditions)) for i, s in twin.states.items()} == \
        {i: (s.hp, s.max_hp, dict(s.conditions)) for i, s in b.states.items()}
    assert twin.round == b.round
    if b.state.phase != "declare" or load_ruleset(after).section("round")["declarations"]:
        assert twin.current == b.current
    assert b.ruleset.id == before, "the battle it came from is untouched"
    twin.apply(EndTurn(twin.current))


def test_undo_after_a_switch_goes_back_to_the_switch_and_a_save_replays_both():
    b = _played("bfrpg")
    twin = b.rejudged(load_ruleset("cnc"))
    start = {i: f.pos for i, f in twin.figures.items()}
    mover = twin.current
    fig = twin.figures[mover]
    for to in ((fig.x, fig.y + 1), (fig.x, fig.y - 1), (fig.x + 1, fig.y), (fig.x - 1, fig.y)):
        if twin.check(Move(mover, to=to)) is None:
            twin.apply(Move(mover, to=to))
            break
    saved = twin.to_save_data()
    again = Battle.from_save_data(saved)
    assert again.ruleset.id == "cnc" and {i: f.pos for i, f in again.figures.items()} == \
        {i: f.pos for i, f in twin.figures.items()}
    assert [e.to_json() for e in again.events] == [e.to_json() for e in twin.events]
    while twin.undo() is not None:
        pass
    assert {i: f.pos for i, f in twin.figures.items()} == start and twin.ruleset.id == "cnc"
