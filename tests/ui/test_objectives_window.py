"""The window shows each side's objectives and their progress in a panel section, and the result
screen says which objective decided the battle (game/client/goals.py, read from the resolver)."""
from __future__ import annotations

from game.client.goals import decided_line, objective_lines
from game.core.values.actions import EndTurn
from window import make_app, motion, pixel, press, release, shot, step


def _sections(app):
    return {name: rect for rect, kind, name in app.panel.hits if kind == "section"}


def test_the_objectives_section_lists_each_sides_objectives_with_progress():
    app = make_app("objectives/gate.toml", size=(1024, 700), cell=None)
    assert "objectives" in _sections(app)
    lines = [text for text, _role in objective_lines(app.battle)]
    assert lines[0] == "blue:" and "the gate (wins): 0/2 through" in lines[1]
    assert lines[-1].startswith("round 1 of 8; victory points: blue 0, red 0")
    # folding it by a real click hides its lines and gives the room back
    rect = _sections(app)["objectives"]
    below = {name: r.y for name, r in _sections(app).items()}
    at = (app.panel.rect.x + rect.x + 20, rect.y + rect.h // 2)
    step(app, motion(at))
    step(app, press(at))
    step(app, release(at))
    assert "objectives" in app.ui.collapsed
    assert _sections(app)["figure" if "figure" in below else "hover"].y < below["figure" if "figure" in below else "hover"]


def test_the_result_screen_says_which_objective_decided_it():
    app = make_app("objectives/hill.toml", size=(1024, 700), cell=None)
    b = app.battle
    b.gm_place("b1", x=6, y=4)
    while not b.is_over:
        b.apply(EndTurn(b.current))
    app.frame([])
    assert b.decided_by == "blue-hill"
    line = decided_line(b)
    assert line == "Decided by side blue's objective 'the mound', achieved: side blue wins"
    shot(app, "objectives_result")
    box, _buttons = app.result.layout(app.screen)
    # the line is drawn in the 'good' colour under the headline, inside the box
    from game.ui import theme
    row = range(box.y + 60, box.y + 140)
    assert any(pixel(app, (x, y)) == theme.PANEL_GOOD for y in row for x in range(box.x + 40, box.x + 300))
