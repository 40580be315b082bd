"""On a big field `fighting` looks only at the figures filed near the one asked about (reach.py's
blocks, kept per positioning): on the battle and on its hypothetical views it answers what a pass
over every figure answers, in the same order."""
from __future__ import annotations

from hypothesis import assume, given, settings, strategies as st

from game.core.combat import reach
from game.core.combat.reach import FIGHT_INDEX_FROM, fighting, in_melee_reach
from game.core.values.actions import GmPlace
from tests.battles import fig, make_battle

SIZE = 30
FIELD = "\n".join(["." * SIZE] * SIZE)
TEMPLATES = ["foot", "foot", "spearman", "archer", "knight", "monster"]


def _plain(battle, f) -> list:
    """fighting() as a pass over every figure (the answer the blocks must give)."""
    return [o for o in battle.figures.values() if o.side != f.side and battle.able(o.id)
            and (in_melee_reach(battle, o, f) or in_melee_reach(battle, f, o))]


@st.composite
def fields(draw):
    n = draw(st.integers(FIGHT_INDEX_FROM + 4, FIGHT_INDEX_FROM + 16))
    squares = draw(st.lists(st.tuples(st.integers(1, SIZE - 4), st.integers(1, SIZE - 4)),
                            min_size=n, max_size=n, unique=True))
    figures, taken = [], set()
    for i, (x, y) in enumerate(squares):
        template = draw(st.sampled_from(TEMPLATES))
        cells = {(x + dx, y + dy) for dx in range(3) for dy in range(3)} if template in ("knight", "monster") else {(x, y)}
        if cells & taken:
            template, cells = "foot", {(x, y)}
            if cells & taken:
                continue
        taken |= cells
        figures.append(fig(f"f{i}", draw(st.sampled_from(["blue", "red"])), x, y, template=template))
    return figures


@settings(max_examples=15, deadline=None)
@given(fields(), st.data())
def test_the_blocks_answer_as_a_pass_over_every_figure(figures, data):
    battle = make_battle("bfrpg", FIELD, figures)
    assume(len(battle.figures) >= FIGHT_INDEX_FROM)      # the blocks are asked
    for f in battle.figures.values():
        assert [o.id for o in fighting(battle, f)] == [o.id for o in _plain(battle, f)]
    # A view with a figure standing elsewhere (anywhere on the field), then the battle after that move.
    moved = data.draw(st.sampled_from([f for f in battle.figures.values() if not f.big]))
    to = data.draw(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)))
    view = battle.hypothetical(moved.moved_to(to[0], to[1], moved.facing))
    for f in list(view.figures.values())[::3]:
        assert [o.id for o in fighting(view, f)] == [o.id for o in _plain(view, f)]
    place = GmPlace(moved.id, x=to[0], y=to[1])
    if battle.check(place) is None:
        battle.apply(place)
        for f in battle.figures.values():
            assert [o.id for o in fighting(battle, f)] == [o.id for o in _plain(battle, f)]


def test_far_figures_are_not_looked_at(monkeypatch):
    figures = [fig(f"b{i}", "blue", 1 + i % 10, 1 + i // 10) for i in range(25)]
    figures += [fig(f"r{i}", "red", 19 + i % 10, 25 + i // 10) for i in range(25)]
    battle = make_battle("bfrpg", FIELD, figures)
    asked = []
    real = reach.in_melee_reach
    monkeypatch.setattr(reach, "in_melee_reach", lambda b, a, t, w=None: asked.append(t.id) or real(b, a, t, w))
    assert fighting(battle, battle.figures["b0"]) == []
    assert asked == []          # every foe is filed in blocks beyond any reach of b0
