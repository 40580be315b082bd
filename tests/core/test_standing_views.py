"""Sight and cover ask who stands on each square but the pair looking at each other
(`Positioning._standing_except`). A what-if view mends the index of the moment it was made from
rather than passing over every figure: on random fields with riders, flyers aloft and big bodies,
its answer is a plain pass's over the view's own figures, for any pair, figures placed elsewhere
(on free squares or on others' squares, at any height) and figures left out; and so are the
figures on any squares (`figures_on`, which cover asks for the figures on a sight line)."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings, strategies as st

from tests.battles import fig, make_battle, pair

SIZE = 16
FIELD = "\n".join(["." * SIZE] * SIZE)


def _plain(positioning, pair_ids: set) -> dict:
    """Who stands where, as one pass over the figures (the last listed on a square counts)."""
    standing: dict = {}
    for f in positioning.figures:
        if f.id not in pair_ids and f.mount not in pair_ids:
            for cell in f.cells:
                standing[cell] = f.altitude_ft
    return standing


@st.composite
def battles(draw):
    entries = pair(x=2, y=2, rider="rider", horse="horse") + pair(x=12, y=12, rider="rider2", horse="horse2", side="red")
    squares = draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(5, 10)), min_size=3, max_size=10,
                            unique=True))
    for i, (x, y) in enumerate(squares):
        template = draw(st.sampled_from(["foot", "archer", "spearman"]))
        entries.append(fig(f"f{i}", draw(st.sampled_from(["blue", "red"])), x, y, template=template))
    return make_battle("bfrpg", FIELD, entries)


@settings(max_examples=40, deadline=None)
@given(battles(), st.data())
def test_a_views_squares_stood_on_are_a_plain_pass_over_its_figures(battle, data):
    ids = sorted(battle.figures)
    live = battle.positioning()
    moved = data.draw(st.lists(st.sampled_from(ids), max_size=3, unique=True))
    placed = []
    for fid in moved:
        f = battle.figures[fid]
        x, y = data.draw(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)))
        alt = data.draw(st.sampled_from([0, 0, 10, 30]))
        placed.append(replace(f.moved_to(x, y, f.facing), altitude_ft=alt))
    absent = data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
    view = battle.hypothetical(*placed, absent=absent).positioning()
    for _ in range(4):
        pair_ids = set(data.draw(st.lists(st.sampled_from(ids), min_size=0, max_size=2, unique=True)))
        assert view._standing_except(pair_ids) == _plain(view, pair_ids)
        assert live._standing_except(pair_ids) == _plain(live, pair_ids)
        cells = set(data.draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=12)))
        for pos in (view, live):      # the figures on some squares (a sight line's), in the moment's order
            assert pos.figures_on(cells) == [f for f in pos.figures if not cells.isdisjoint(f.cells)]
