"""On a big field a figure no foe can reach wherever its longest move ends only closes in at its
longest pace (docs/ai.md, Speed); near the foes it weighs every pace, as on a small field."""
from __future__ import annotations

from game.ai import AI
from tests.battles import fig, make_battle

WIDE = "\n".join(["." * 70] * 50)


def _battle(gap_rows: int):
    figures = [fig(f"b{i}", "blue", 2 + i * 5, 2, facing="S") for i in range(13)]
    figures += [fig(f"r{i}", "red", 2 + i * 5, 2 + gap_rows, facing="N") for i in range(13)]
    return make_battle("bfrpg", WIDE, figures)


def _paces(battle, fid):
    ai = AI("normal")
    decision = ai.decide(battle, fid)
    return {p.kind: None for p in decision.plans}, {p.actions[0].mode for p in decision.plans
                                                    if p.kind == "approach" and p.actions[0].kind == "move"}


def test_a_far_figure_on_a_big_field_weighs_its_longest_pace_only():
    battle = _battle(gap_rows=45)         # 225 ft between the lines: no foe reaches anyone this round or next
    kinds, paces = _paces(battle, "b6")
    assert paces == {"run"}
    assert "regroup" not in kinds


def test_near_the_foes_every_pace_is_weighed():
    battle = _battle(gap_rows=8)          # 40 ft: the foes can strike wherever it ends
    _kinds, paces = _paces(battle, "b6")
    assert paces == {"walk", "run"}
