"""The request table: what the window does for each Request an input handler returns.

Requests are everything that is not a battle action: undo and redo, ending a person's turn,
the game master's tools, saving and loading, the compare panel, the animation speed. Each
entry is `handler(app, arg)`; changes to the battle still go through the Session.
"""
from __future__ import annotations

from ..core.values.actions import EndTurn
from . import describe
from .animation import next_speed


def undo(app, _arg) -> None:
    """Back to before the last decision a person made (the AI's replies to it go too)."""
    app.players.cancel()
    app.animator.skip()
    undone = app.session.undo(app.is_human)
    if not undone:
        app.toast("nothing to undo", error=False)
        return
    figures = app.battle.figures
    words = "; ".join(describe.action_words(figures, a) for a in reversed(undone))
    app.toast(f"undid: {words}", error=False)


def redo(app, _arg) -> None:
    app.players.cancel()
    events = app.session.redo(app.is_human)
    app.toast("redid: " + events[0].text if events else "nothing to redo", error=False)


def end_turn(app, _arg) -> None:
    cur = app.battle.current
    if cur is None:
        return
    fig = app.battle.figures[cur]
    if not app.is_human(cur):
        app.toast(f"it is {fig.label}'s turn and {app.players.name(fig.side)} plays it")
        return
    app.submit(EndTurn(figure=cur))


def select_next(app, step) -> None:
    ids = [fid for fid, _, _ in app.turn_order() if app.rules.status(fid).able] or list(app.battle.figures)
    i = ids.index(app.ui.selected) if app.ui.selected in ids else -1
    app.select(ids[(i + (step or 1)) % len(ids)], centre=True)


def toggle_help(app, _arg) -> None:
    app.ui.help_open, app.ui.help_page = not app.ui.help_open, "keys"


def toggle_legend(app, _arg) -> None:
    app.ui.legend_open = not app.ui.legend_open


def toggle_gm(app, _arg) -> None:
    app.ui.gm = not app.ui.gm
    app.toast("Demonstration mode " + ("on: the AI waits; drag any figure to place it; [ ] switch rules"
                                       if app.ui.gm else "off"), error=False)


def cycle_ruleset(app, step) -> None:
    """Re-judge the same position under the next bundled ruleset (a demonstration tool)."""
    if not app.ui.gm:
        app.toast("switching the rules is a demonstration tool: press G first")
        return
    from ..io.rulesets import bundled_ruleset_ids, load_ruleset
    ids = bundled_ruleset_ids()
    current = app.battle.ruleset.id
    i = ids.index(current) if current in ids else -1
    ruleset = load_ruleset(ids[(i + (step or 1)) % len(ids)])
    selected = app.ui.selected
    app.session.replace_battle(app.session.rejudged(ruleset))
    app.ui.selected = selected if selected in app.battle.figures else None
    app.toast(f"Rules now: {ruleset.name} [{ruleset.id}], judging the same position", error=False)
    for note in app.battle.unknown_weapons(app.battle.figures.values()):
        app.toast(note)


def gm_place(app, arg) -> None:
    from ..core.values.actions import GmPlace
    fid, square = arg
    app.session.submit(GmPlace(fid, x=square[0], y=square[1]))


def save(app, _arg) -> None:
    app.open_dialog("save")


def load(app, _arg) -> None:
    app.open_dialog("load")


def quit_window(app, _arg) -> None:
    app.running = False


def toggle_compare(app, _arg) -> None:
    app.ui.compare = not app.ui.compare      # the panel's own heading says what it compares and how


def odds_map(app, other_ruleset) -> None:
    """O: the odds map of the selected figure's attack on the hovered foe (else the nearest); again:
    by expected damage, again: off. Shift+O: the same map under the next ruleset."""
    view = app.odds
    me = app.selected_figure()
    if me is None or not app.rules.on_field(me.id):
        app.toast("odds map: select the attacker first (click it, or Tab), then hover a foe and press O")
        return
    foes = [f for f in app.rules.positioning.figures if f.side != me.side and app.rules.status(f.id).able]
    if not foes:
        app.toast(f"odds map: {me.label} has no foe standing")
        return
    hovered = app.hover.top
    target = hovered.id if hovered is not None and hovered.id in {f.id for f in foes} else None
    if other_ruleset:
        if not view.on or view.attacker != me.id:
            view.show(me.id, target or _nearest(me, foes))
        from ..io.rulesets import bundled_ruleset_ids
        shown = view.next_ruleset(bundled_ruleset_ids(), app.battle.ruleset.id)
        app.toast(f"odds map under {shown}" + (" (the rules in play)" if shown == app.battle.ruleset.id else
                                                ": the same position judged by its rules"), error=False)
        return
    if view.on and view.attacker == me.id and (target is None or target == view.target):
        if not view.next_measure():
            view.hide()
            app.toast("odds map off", error=False)
        return
    view.show(me.id, target or (view.target if view.on and view.attacker == me.id else _nearest(me, foes)))


def _nearest(me, foes) -> str:
    return min(foes, key=lambda f: (abs(f.x - me.x) + abs(f.y - me.y), f.id)).id


def animation_speed(app, _arg) -> None:
    app.animator.speed = next_speed(app.animator.speed)
    app.animator.skip()
    app.toast(f"animation: {app.animator.speed}", error=False)


def cancel(app, _arg) -> None:
    """Esc or a right click: leave the mode, drop the planned facing/altitude, then the selection."""
    ui = app.ui
    if ui.legend_open:
        ui.legend_open = False
    elif ui.compare:
        ui.compare = False
    elif app.odds.on:
        app.odds.hide()
    elif ui.manoeuvre_target is not None:
        ui.manoeuvre_target = None
    elif ui.mode != "auto" or ui.planned_facing is not None or ui.planned_altitude is not None:
        ui.mode, ui.planned_facing, ui.planned_altitude = "auto", None, None
    elif ui.picked_event is not None:
        ui.picked_event = None
    elif ui.selected is not None:
        ui.selected = None


def toggle_section(app, name) -> None:
    app.ui.collapsed ^= {name}


REQUESTS = {
    "undo": undo, "redo": redo, "end-turn": end_turn, "select-next": select_next, "help": toggle_help,
    "gm": toggle_gm, "ruleset": cycle_ruleset, "gm-place": gm_place, "save": save, "load": load,
    "quit": quit_window, "compare": toggle_compare, "animation": animation_speed, "cancel": cancel,
    "section": toggle_section, "odds-map": odds_map, "legend": toggle_legend,
}
