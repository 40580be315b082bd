"""A figure's squares (`Figure.cells`) are kept on the figure rather than worked out per question:
wherever it is moved, turned or replaced, they are the squares its body covers there."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import given, strategies as st

from game.core.values.bodies import cells
from game.core.values.figure import Figure

squares = st.integers(0, 60)
facings = st.integers(0, 7)
footprints = st.sampled_from([(1, 1), (2, 2), (1, 2), (2, 3), (3, 3)])


@given(squares, squares, facings, footprints, st.lists(st.tuples(squares, squares, facings), min_size=1, max_size=4))
def test_a_figures_squares_follow_it_wherever_it_goes(x, y, facing, footprint, moves):
    f = Figure("f", "blue", x, y, facing=facing, footprint=footprint)
    assert f.cells == cells(x, y, facing, footprint)
    for mx, my, mf in moves:
        before = f.cells
        g = f.moved_to(mx, my, mf)
        assert g.cells == cells(mx, my, mf, footprint)
        assert f.cells == before                     # the figure it was moved from keeps its own
        turned = replace(g, facing=(mf + 1) % 8)
        assert turned.cells == cells(mx, my, (mf + 1) % 8, footprint)
        f = g
