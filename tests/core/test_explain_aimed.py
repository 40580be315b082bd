"""The hover's "why not" asks the search with turning rules only where its answer is read, and
aims the relaxed searches with turning rules at the square asked about (moves/explain.py:
Explainer._aimed): the same words as the explainer that resumed one search per relaxation for
every square, on random small maps under all five rulesets; and the paths planned meanwhile
(aimed searches, or one that settled all it could: Positioning._exhausted) are a whole search's."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.errors import RulesError
from game.core.moves.explain import Explainer, _deltas, _ft
from game.core.moves.positioning import Positioning
from game.io.rulesets import load_ruleset

from helpers import RULESET_IDS, fig

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}
SIZE = 11


class ResumedExplainer(Explainer):
    """The explainer as it was: the search with turning rules resumed square by square, always asked."""

    def _aimed(self, name, target, facing, altitude_ft):
        return self._search(name).path_to(target, facing, altitude_ft)

    def _general(self, target, facing, altitude_ft) -> str:
        fig, who, rules = self.figure, self.figure.label, self.rules
        x, y = target
        where = f"{x},{y}" + (f" at {altitude_ft} ft up" if altitude_ft is not None else "")
        anywhere = self._search("free").path_to(target, None, altitude_ft)
        if anywhere is None:
            if altitude_ft is not None and self._search("free").path_to(target) is not None:
                return self._altitude_unreachable(target, altitude_ft)
            if not self.connected(target, ledges=True):
                if fig.flyer == "none" and self.connected(target, ledges=False):
                    return (f"{x},{y} cannot be reached: ledges or drops too high to step (more than "
                            f"{self.planner.climb_step_ft} ft) close every way there")
                return f"{x},{y} cannot be reached: walls, foes or drops close every way there"
            return (f"too far: {where} is more than {_ft(self.bound)} ft away by any way there, {who} has "
                    f"{_ft(rules.budget)} ft ({self.mode})")
        with_turning = self._search("unlimited").path_to(target, facing, altitude_ft)
        no_limits = anywhere.total_ft
        if no_limits > rules.budget + 1e-9 and (with_turning is None or with_turning.total_ft >= no_limits):
            return f"too far: {where} needs {_ft(no_limits)} ft, {who} has {_ft(rules.budget)} ft ({self.mode})"
        reason = self._turning_reason(target, facing, altitude_ft, with_turning)
        lateral = [(fig.x + dx, fig.y + dy) for dx, dy in _deltas(fig.facing, (6, 2))]
        if self.mode in ("run", "jog") and (x, y) in lateral:
            reason += "; a sidestep would keep its facing, but sidestepping is only allowed at walking pace"
        return reason


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.0, 0.1, 0.2]), st.sampled_from(RULESET_IDS),
       st.sampled_from(["walk", "run"]), st.sampled_from([10, 20]), st.integers(0, 7), st.sampled_from([None, 0, 5]))
def test_the_aimed_explainer_says_what_the_resumed_one_said(seed, density, rid, mode, turning, facing, end_facing):
    rng = random.Random(seed)
    bmap = BattleMap.empty(SIZE, SIZE)
    for y in range(SIZE):
        for x in range(SIZE):
            if (x, y) != (5, 5) and rng.random() < density:
                bmap.add_wall(x, y)
    mover = fig("m", "blue", 5, 5, move_ft=15, turning_ft=turning).moved_to(5, 5, facing)
    pos = Positioning(bmap, RULESETS[rid], [mover])
    new = Explainer(pos.planner, mover, mode, {})
    old = ResumedExplainer(pos.planner, mover, mode, {})
    whole = pos.planner.search(mover, mode, {})
    for y in range(SIZE):
        for x in range(SIZE):
            try:
                # Planned by aimed searches, or by one that found no way to another square (so settled
                # every state it could): the path a whole search finds.
                planned = pos.plan("m", (x, y), mode=mode, facing=end_facing)
                assert planned.path == whole.path_to((x, y), end_facing), (x, y)
                continue
            except RulesError as err:
                said = str(err)
            want = old.why((x, y), end_facing, None)
            assert new.why((x, y), end_facing, None) == want == said, (x, y)
