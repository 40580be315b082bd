"""A walker's path is built from its integer states (SearchResult.cost and tight_parents read them
one state at a time): the same costs and the same equally cheap ways in as the tuple views that
convert every settled state, on rough ground with walls, under the rulesets' diagonal rules."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset

from helpers import RULESET_IDS, fig

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESET_IDS), st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8), st.booleans()), max_size=25),
       st.integers(0, 7), st.sampled_from([15, 20, 30]))
def test_walker_tight_parents_from_integer_states_match_the_tuple_views(rid, cells, facing, move_ft):
    bmap = BattleMap.empty(9, 9)
    for x, y, wall in cells:
        if (x, y) != (4, 4):
            if wall:
                bmap.add_wall(x, y)
            else:
                bmap.difficult[y, x] = True
    mover = fig("m", "blue", 4, 4, move_ft=move_ft).moved_to(4, 4, facing)
    result = Planner(bmap, RULESETS[rid]).search(mover, "walk", {})
    assert result.walker
    result.run()
    chain = result.chain(result.best_state((0, 0), None, None) or result.start_state)   # before any conversion
    assert not result.t_settled
    # The tuple views, converted in full, and the answer as it was worked out from them.
    settled, parents, ties = result.settled, result.parents, result.ties
    for state, cost in settled.items():
        first = parents.get(state)
        if first is None or first[0] is None:
            want = []
        elif not ties.get(state):
            want = [first]
        else:
            want = sorted({first, *(t for t in ties[state] if t[0] in settled)})
        assert result.cost(state) == cost
        assert result.tight_parents(state) == want, state
    assert chain == result.chain(chain[-1])