"""The window's words: pure text made from the resolver's answers (no pygame, testable alone).

Every function returns plain strings or (text, role) lines; the role says how a line reads
("text", "dim", "warn", "good", "accent", "head") and the panel picks the colour. Nothing here
works a rule out: costs, reasons, odds and refusals are the resolver's own values and words
(RulesView asks for them), and figures are named by their labels, never by their ids.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.values.numbers import feet, percent
from ..core.values.actions import Action, Aim, Attack, Charge, Disengage, Grapple, Move, Overbear, Push, Trip
from ..core.values.cover import COVER_DEGREES
from ..core.values.events import ATTACK_KINDS, EventKind
from ..core.values.geometry import FACINGS
from ..core.values.modes import MOVE_MODES
from .intent import Intent
from .state import MODE_NAMES

Line = tuple[str, str]


@dataclass(frozen=True)
class Hover:
    """What is under the pointer and what a click there would do, with the resolver's answer."""
    square: tuple[int, int] | None = None
    here: tuple = ()                        # figures on the square, the living first
    intent: Intent = Intent("nothing")
    preview: object = None                  # rules.preview(intent.action), None while planning

    @property
    def top(self):
        return self.here[0] if self.here else None


# ----- small words -----
def ellipsize(text: str, most: int) -> str:
    return text if len(text) <= most else text[: max(1, most - 1)].rstrip() + "…"


def mode_name(ui) -> str:
    name = MODE_NAMES.get(ui.mode, ui.mode)
    if ui.mode == "disengage":
        name += f" ({ui.disengage_style}; click a square, Shift+B changes the style)"
    extra = []
    if ui.planned_altitude is not None:
        extra.append(f"to {ui.planned_altitude} ft")
    if ui.planned_facing is not None:
        extra.append(f"end facing {FACINGS[ui.planned_facing]}")
    return name + (f" ({', '.join(extra)})" if extra else "")


def move_word(mode: str, figure) -> str:
    """How the mover goes: a flyer flies (the planner's walk and run are its paces)."""
    if figure is not None and figure.flyer != "none" and mode in ("walk", "run", "jog"):
        return "fly" if mode == "walk" else f"fly ({mode})"
    return mode


def sight_words(sight) -> str:
    if not sight.visible:
        return "No line of sight (full cover)"
    shade = [f"{sight.cover} cover" if sight.cover != "none" else "",
             f"{sight.concealment} concealment" if sight.concealment != "none" else ""]
    words = "Line of sight: " + (", ".join(w for w in shade if w) or "clear")
    if sight.blockers:
        what = sorted({f"{w} at {x},{y}" for x, y, w in sight.blockers})[:3]
        words += " (" + "; ".join(what) + ")"
    return words


def terrain_words(bmap, square) -> str:
    """What the square is (the rules' terrain layers), without claiming what it costs a mover."""
    x, y = square
    m = bmap
    parts = []
    if m.blocks_move[y, x] and m.blocks_sight[y, x]:
        parts.append("closed door" if m.door[y, x] else "wall")
    elif m.blocks_move[y, x]:
        parts.append("trunk or pillar (blocks movement, not sight)")
    if m.door[y, x] and not m.blocks_move[y, x]:
        parts.append("open doorway")
    if m.cover[y, x] and not (m.blocks_move[y, x] and m.blocks_sight[y, x]):
        parts.append(f"{COVER_DEGREES[m.cover[y, x]]} cover")
    if m.concealment[y, x]:
        parts.append(f"{COVER_DEGREES[m.concealment[y, x]]} concealment")
    if m.water[y, x]:
        parts.append("water")
    if m.difficult[y, x]:
        parts.append("difficult ground")
    if m.obstacle_height_ft[y, x] and m.obstacle_height_ft[y, x] < 10_000:
        parts.append(f"{m.obstacle_height_ft[y, x]} ft tall")
    if m.elevation_ft[y, x]:
        parts.append(f"floor {m.elevation_ft[y, x]} ft")
    return f"Square {x},{y}: " + (", ".join(parts) if parts else "open ground")


def figure_state_words(status) -> str:
    """'dead', 'unconscious', 'prone, stunned' or '' from the resolver's status ('down' alone when a
    fallen figure has no condition that says how)."""
    if not status.able:
        return ", ".join(status.conditions) or "down, out of the fight"
    return ", ".join(status.conditions)


def occupant_words(here, rules) -> list[str]:
    """Everyone on a square: who stands there and who lies there."""
    out = []
    for f in here:
        st = rules.status(f.id)
        state = figure_state_words(st)
        if st.able:
            out.append(f"{f.label} ({f.side}) stands here" + (f": {state}" if state else "")
                       + (f", {f.altitude_ft} ft up" if f.altitude_ft else ""))
        else:
            out.append(f"{f.label} ({f.side}) lies here, {state}")
    return out


def square_lines(bmap, square, here, rules) -> list[Line]:
    return [(terrain_words(bmap, square), "dim")] + [(w, "text") for w in occupant_words(here, rules)]


# ----- actions and events -----
def action_words(figures, action: Action) -> str:
    """An action as a player says it, naming figures by their labels: 'Hero attacks Goblin'."""
    f = figures.get(action.figure)
    return f"{f.label if f is not None else action.figure} {action_phrase(figures, action)}"


def action_phrase(figures, action: Action) -> str:
    """What the action does, without who does it: 'attacks Goblin', 'moves to 4,6 (walk)'."""
    def name(fid):
        f = figures.get(fid)
        return f.label if f is not None else str(fid)
    kind = action.kind
    if kind == "move":
        return f"moves to {action.to[0]},{action.to[1]} ({action.mode})"
    if kind == "attack":
        return f"attacks {name(action.target)}" + (f" with {action.weapon}" if action.weapon else "")
    if kind == "charge":
        return f"charges {name(action.target)}"
    if kind == "aim":
        return "aims" + (f" at {name(action.target)}" if action.target else "")
    if kind == "turn":
        return f"turns to face {action.facing}"
    if kind == "disengage":
        return f"disengages to {action.to[0]},{action.to[1]} ({action.style})"
    if kind == "defend":
        return f"defends ({action.style})"
    if kind == "set":
        return "sets a weapon against a charge"
    if kind == "hold":
        return "holds the action"
    if kind == "end-turn":
        return "ends the turn"
    if kind == "gm-place":
        return f"is placed at {action.x},{action.y}"
    if kind in ("grapple", "overbear"):
        return f"{'grapples' if kind == 'grapple' else 'overbears'} {name(action.target)}"
    if kind in ("trip", "push"):
        where = f" to {action.to[0]},{action.to[1]}" if action.to is not None else ""
        return f"{'trips' if kind == 'trip' else 'pushes'} {name(action.target)}{where}"
    if kind == "escape":
        return "tries to escape the hold"
    if kind == "release":
        return "lets go"
    return kind


_EVENT_ROLES = {EventKind.PARTING_SHOT: "warn", EventKind.ROUND: "head", EventKind.INITIATIVE: "head",
                EventKind.DOWN: "warn", EventKind.BATTLE_OVER: "good"}


def event_lines(event) -> list[Line]:
    """An event as lines: the plain words, then rolls, modifiers, total and rule."""
    role = _EVENT_ROLES.get(event.kind, "attack" if event.kind in ATTACK_KINDS else "text")
    out: list[Line] = [(event.text, role)]
    if event.rolls:
        out.append(("  rolls: " + ", ".join(f"{r.dice} {'+'.join(map(str, r.results))}"
                                             + (f" = {r.total}" if len(r.results) > 1 else "")
                                             for r in event.rolls), "dim"))
    for m in event.modifiers:
        out.append((f"  {m.value:+d} {m.name}  [{m.source}]", "accent"))
    if event.total is not None or event.target_number is not None:
        parts = []
        if event.total is not None:
            parts.append(f"total {event.total}")
        if event.target_number is not None:
            parts.append(f"needs {event.target_number}")
        if event.outcome:
            parts.append(f"→ {event.outcome}")
        out.append(("  " + ", ".join(parts), "good" if event.outcome in ("hit", "critical") else "dim"))
    elif event.outcome:
        out.append((f"  → {event.outcome}", "dim"))
    if event.rule:
        out.append((f"  rule {event.rule}", "dim"))
    return out


# ----- what a figure may do -----
def options_lines(options: dict | None) -> list[Line]:
    """The resolver's options: what the figure may do now, and why not the rest."""
    if options is None:
        return [("working out what it may do...", "dim")]
    allowed = [k.replace("-", " ") for k, refusal in options.items() if refusal is None]
    out: list[Line] = [("Can now: " + (", ".join(allowed) or "nothing"), "good")]
    for kind in ("move", "attack", "charge"):
        refusal = options.get(kind)
        if refusal is not None:
            out.append((f"No {kind}: {refusal.words}", "dim"))
    return out


def figure_lines(rules, fig, controller: str, with_options: bool) -> list[Line]:
    st = rules.status(fig.id)
    lines: list[Line] = [(f"{fig.side} side · {controller} · {fig.size}", "text")]
    limits = rules.limits(fig.id)
    paces = [f"{m.mode} {feet(m.budget_ft)} ft" for m in limits.moves if m.mode in ("walk", "jog", "run") and m.budget_ft]
    move = "Move: " + ", ".join(paces or [f"{feet(fig.move_ft)} ft"])
    if st.moved_ft:
        move += f"; {feet(st.moved_ft)} ft used this round"
    lines.append((move, "text"))
    turning = f"turning distance {fig.turning_ft} ft" if fig.turning_ft else "turns freely"
    lines.append((f"Faces {fig.facing_name}, {turning}", "text"))
    others = f"; also {', '.join(fig.weapons[1:])}" if len(fig.weapons) > 1 else ""
    lines.append((f"Weapon {fig.ready_weapon} (reach {rules.reach_ft(fig.id)} ft){others}", "text"))
    if fig.flyer != "none":
        lines.append((f"Flyer ({fig.flyer}), altitude {fig.altitude_ft} ft; PgUp/PgDn plan a climb or dive", "accent"))
    lines.append((f"Hit points {st.hp}/{st.max_hp}", "good" if st.hp * 2 > st.max_hp else "warn"))
    state = figure_state_words(st)
    if state:
        lines.append(("Condition: " + state, "warn"))
    extra = [f"{feet(st.movement_left_ft)} ft of move left",
             f"{st.attacks_left} attack{'s' if st.attacks_left != 1 else ''} left"]
    if st.defense:
        extra.append(f"defending: {st.defense}")
    if st.charging:
        extra.append(f"charging {st.charging}")
    if st.initiative:
        extra.append("initiative " + ", ".join(str(i) for i in st.initiative))
    lines.append(("; ".join(extra), "text"))
    if with_options:
        lines.extend(options_lines(rules.options(fig.id)))
    return lines


def token_card(rules, fig, me, controller: str) -> list[Line]:
    """The card by a hovered token: who it is, its state, and the odds if the selected figure attacked it now."""
    st = rules.status(fig.id)
    out: list[Line] = [(f"{fig.label}", "head"), (f"{fig.side} side · {controller} · id {fig.id}", "dim"),
                       (f"{st.hp}/{st.max_hp} hp" + (f" · {figure_state_words(st)}" if figure_state_words(st) else ""),
                        "good" if st.able and st.hp * 2 > st.max_hp else "warn")]
    if st.able:
        out.append((f"faces {fig.facing_name} · {fig.ready_weapon} (reach {rules.reach_ft(fig.id)} ft)"
                    + (f" · {fig.altitude_ft} ft up" if fig.altitude_ft else ""), "text"))
    if me is not None and me.id != fig.id and me.side != fig.side and st.able:
        preview = rules.preview(Attack(figure=me.id, target=fig.id))
        if preview.refusal is not None:
            out.append((f"{me.label} cannot attack now: {preview.refusal.words}", "dim"))
        else:
            out.append((f"{me.label} attacking now: {percent(preview.breakdown.chance())} to hit", "good"))
    return out


# ----- the hovered square -----
def path_lines(preview, mover, limits) -> list[Line]:
    p = preview.planned.path
    end = p.end
    left = limits.move(p.mode).left_ft if p.mode in MOVE_MODES else p.budget_ft
    out: list[Line] = [(f"{move_word(p.mode, mover)} to {end.x},{end.y}: {feet(p.total_ft)} ft "
                        f"(of {feet(left)} ft left)", "text")]
    # What matters first (a section cut short still shows it): the parting shots and a stall,
    # then the steps, a run of plain 5-ft steps kept to one line so climbs, dives, turns and
    # costly steps always show.
    if p.stall:
        out.append(("The flyer stalls: it moves too little horizontally", "warn"))
    for shot in preview.planned.parting_shots:
        out.append((f"Parting shot: {shot.attacker} strikes at {shot.bonus:+d}: {shot.reason} [{shot.rule}]", "warn"))
    for group in _step_groups(p.steps):
        s = group[-1]
        alt = f" at {s.altitude_ft} ft" if s.altitude_ft else ""
        if len(group) > 1:
            first = group[0]
            out.append((f"  {first.x},{first.y} to {s.x},{s.y}{alt} {FACINGS[s.facing]}: {len(group)} x 5 ft straight"
                        f" = {feet(s.total_ft)} ft [{s.rule}]", "dim"))
        else:
            out.append((f"  {s.x},{s.y}{alt} {FACINGS[s.facing]} +{feet(s.cost_ft)} = {feet(s.total_ft)} ft: {s.note}"
                        f" [{s.rule}]", "dim"))
    return out


def _plain_step(step, before) -> bool:
    """A 5-ft step that changes nothing but the square: same facing, same altitude, one plain note."""
    return (step.cost_ft == 5 and step.facing == before.facing and step.altitude_ft == before.altitude_ft
            and step.note.endswith("step 5 ft") and ";" not in step.note)


def _step_groups(steps) -> list[list]:
    """The path's steps after the start, runs of plain steps under the same rule grouped together."""
    groups: list[tuple[bool, list]] = []
    for before, step in zip(steps, steps[1:]):
        plain = _plain_step(step, before)
        if plain and groups and groups[-1][0] and groups[-1][1][-1].rule == step.rule:
            groups[-1][1].append(step)
        else:
            groups.append((plain, [step]))
    return [group for _, group in groups]


def warning_lines(preview, skip_parting: bool = False) -> list[Line]:
    """The rules the action would set off on its own, each with its odds and rule (the resolver's
    foresight): a set spear meeting a charge, a reach weapon striking first, a parting shot, a fall..."""
    warnings = [w for w in getattr(preview, "warnings", ()) if not (skip_parting and w.kind == "parting-shot")]
    if not warnings:
        return []
    out: list[Line] = [("Rules this would set off:", "warn")]
    for w in warnings:
        out.append((f"  {w.words} [{w.rule}]" if f"[{w.rule}]" not in w.words else f"  {w.words}", "warn"))
    return out


def gm_move_lines(preview, mover, here_pos) -> list[Line]:
    """Demonstration mode: the click places the figure; what walking there would cost under the rules."""
    action = preview.action
    to = action.to
    out: list[Line] = []
    if preview.refusal is not None:
        return [(f"cannot place {mover.label} there: {preview.refusal.words}", "warn")]
    out.append((f"click places {mover.label} on {to[0]},{to[1]} (demonstration: no move is spent)", "good"))
    if preview.planned is not None:
        p = preview.planned.path
        out.append((f"walking there: {feet(p.total_ft)} ft by the rules in force (of {feet(p.budget_ft)} ft a {p.mode})",
                    "text"))
    else:
        out.append(("no path a walk could take there (it can still be placed)", "dim"))
    return out


def breakdown_lines(breakdown) -> list[Line]:
    out: list[Line] = []
    for line in breakdown.lines():
        role = "warn" if line.startswith("not possible") else "accent" if line.strip()[:1] in "+-" else "text"
        out.append((line, role))
    return out


def what_if_lines(rules, me, foe, preview) -> list[Line]:
    """The attack's what-if: refused now and why, and its full breakdown (the odds once it may)."""
    verb = "attacks" if isinstance(preview.action, Attack) else "aims at"
    out: list[Line] = [(f"What if {me.label} {verb} {foe.label}?", "text")]
    breakdown = preview.breakdown
    if preview.refusal is not None:
        out.append((f"Not now: {preview.refusal.words}", "warn"))
        if isinstance(preview.action, Attack):
            breakdown = rules.explain(me.id, foe.id, preview.action.weapon)
            out.append(("The attack as it would be from here, once it may be made:", "dim"))
    if breakdown is not None:
        out.extend(breakdown_lines(breakdown))
    return out


def charge_lines(rules, me, foe, hover: Hover) -> list[Line]:
    out: list[Line] = []
    lane = rules.lane(me.id, foe.id)
    if lane is not None:
        out.append((f"Charge at {foe.label}: {'legal' if lane.legal else 'refused'} [{lane.rule}]",
                    "good" if lane.legal else "warn"))
        out.append((lane.reason, "text"))
    preview = hover.preview
    if isinstance(hover.intent.action, Charge) and preview is not None:
        if preview.refusal is not None:
            out.append((f"Not now: {preview.refusal.words}", "warn"))
        elif preview.breakdown is not None:
            out.append((f"Charge attack: {percent(preview.breakdown.chance())} to hit", "good"))
            out.extend(warning_lines(preview))
    return out


def hover_lines(ui, rules, me, hover: Hover) -> list[Line]:
    """The panel's 'under the cursor' section: path steps with rules, reasons, odds, sight, terrain."""
    out: list[Line] = []
    action = hover.intent.action
    top = hover.top
    foe = top if (me is not None and top is not None and top.side != me.side and rules.status(top.id).able) else None
    if me is None:
        out.append(("Click a figure to select it (Tab cycles; F1 lists every key).", "dim"))
    elif isinstance(action, (Attack, Aim)):
        out.extend(what_if_lines(rules, me, foe, hover.preview))
        if hover.preview is not None:
            out.extend(warning_lines(hover.preview))
    elif foe is not None:
        out.extend(charge_lines(rules, me, foe, hover))
        sight = rules.sight(me.id, foe.id)
        if sight is not None:
            out.append((sight_words(sight), "accent"))
    elif hover.intent.kind == "hint":
        out.append((hover.intent.hint, "dim"))
        if ui.mode == "charge":
            out.append(("Orange lanes are legal; grey dashed ones are refused (hover the foe for why).", "dim"))
    elif isinstance(action, (Move, Disengage)):
        if hover.preview is None:
            out.append(("planning...", "dim"))
        elif ui.gm and isinstance(action, Move):
            out.extend(gm_move_lines(hover.preview, me, me.pos))
            if hover.preview.planned is not None:
                out.extend(path_lines(hover.preview, me, rules.limits(me.id))[1:])
            out.extend(warning_lines(hover.preview, skip_parting=True))
        elif hover.preview.refusal is not None:
            out.append((f"Cannot go there: {hover.preview.refusal.words}", "warn"))
        else:
            out.extend(path_lines(hover.preview, me, rules.limits(me.id)))
            out.extend(warning_lines(hover.preview, skip_parting=True))
    elif top is not None and top.id != me.id:
        sight = rules.sight(me.id, top.id)
        if sight is not None:
            out.append((f"{top.label}: " + sight_words(sight), "accent"))
    if hover.square is not None:
        out.extend(square_lines(rules.snapshot.map, hover.square, hover.here, rules))
    return out


def tooltip_lines(ui, rules, me, hover: Hover) -> list[Line]:
    """A few short lines by the pointer: what a click does now, or why it would be refused."""
    intent = hover.intent
    action = intent.action
    preview = hover.preview
    top = hover.top
    if ui.gm and top is not None and intent.kind == "select":
        return [(f"click selects {top.label}; drag it to place it", "dim")]
    if intent.kind == "hint":
        return [(intent.hint, "dim")]
    if intent.kind == "mark":
        name = rules.snapshot.figures[intent.figure_id].label
        return [(f"click to pick {name}, then the square it goes to", "text")]
    if isinstance(action, (Grapple, Overbear, Trip, Push)):
        if preview is None:
            return [("planning...", "dim")]
        if preview.refusal is not None:
            return [(f"cannot {action.kind} now: {preview.refusal.words}", "warn")]
        words = f"click: {action_phrase(rules.snapshot.figures, action)}"
        if preview.manoeuvre is not None:
            words += f": {percent(preview.manoeuvre.chance)} to work"
        return [(words, "good")] + [(w.words, "warn") for w in preview.warnings]
    if isinstance(action, (Attack, Aim, Charge)):
        target = rules.snapshot.figures[action.target].label
        verb = {"attack": "attack", "aim": "aim at", "charge": "charge"}[action.kind]
        if preview is None:
            return [("planning...", "dim")]
        if preview.refusal is not None:
            out = [(f"cannot {verb} {target} now: {preview.refusal.words}", "warn")]
            if isinstance(action, Attack):
                bd = rules.explain(action.figure, action.target, action.weapon)
                if bd is not None and not isinstance(bd, Exception) and bd.allowed:
                    out.append((f"from here, once it may: {percent(bd.chance())} to hit, "
                                f"{bd.odds().mean_damage:.1f} damage a hit", "dim"))
            return out
        words = f"click to {verb} {target}"
        if preview.breakdown is not None:
            words += f": {percent(preview.breakdown.chance())} to hit"
        out: list[Line] = [(words, "good")]
        out.extend((w.words, "warn") for w in preview.warnings)
        return out
    if isinstance(action, (Move, Disengage)):
        if preview is None:
            return [("planning...", "dim")] if rules.busy() else []
        if ui.gm and isinstance(action, Move):
            return gm_move_lines(preview, me, me.pos) + [(w.words, "warn") for w in preview.warnings
                                                         if w.kind != "parting-shot" or not ui.overlays["parting"]]
        if preview.refusal is not None:
            return [(f"cannot go there: {preview.refusal.words}", "warn")]
        out = [(w.words, "warn") for w in preview.warnings if w.kind != "parting-shot"]
        if not ui.overlays["path"]:
            p = preview.planned.path
            out.append((f"{move_word(p.mode, me)}: {feet(p.total_ft)} ft", "text"))
        if not ui.overlays["parting"]:
            out.extend((f"parting shot: {s.attacker} at {s.bonus:+d}", "warn") for s in preview.planned.parting_shots)
        return out
    if me is not None and top is not None and top.side != me.side and (ui.mode == "charge" or ui.overlays["lanes"]):
        lane = rules.lane(me.id, top.id)
        if lane is not None and (lane.legal or ui.mode == "charge"):
            return [((f"Charge: {feet(lane.distance_ft)} ft, legal") if lane.legal else "No charge: " + lane.reason,
                     "good" if lane.legal else "warn")]
    return []


# ----- the AI's reasons -----
def ai_lines(figures, decision, most: int = 3) -> list[Line]:
    """The plans the AI weighed for its last choice, best first: the chosen one (*) in the AI's own
    words (Plan.words: what it goes for, what it risks) with its actions in order (figures by name),
    then the other plans whose words differ ("or ...")."""
    out: list[Line] = []
    said = set()
    chosen = decision.plans[decision.chosen] if 0 <= decision.chosen < len(decision.plans) else None
    for plan in ([chosen] if chosen is not None else []) + [p for p in decision.plans if p is not chosen]:
        if len(out) >= most:
            break
        words = plan.words(figures) if hasattr(plan, "words") else plan.label
        if words in said:
            continue
        said.add(words)
        if plan is chosen:
            steps = action_words(figures, plan.actions[0])
            for later in plan.actions[1:]:
                steps += ", then " + action_phrase(figures, later)
            out.append((f"* {words} ({steps})", "text"))
        else:
            out.append((f"  or {words}", "dim"))
    return out


def map_reading(bmap, most: int = 2) -> str:
    """How the map was read, in one message the window shows once (check-map lists it all)."""
    notes = bmap.reading_notes()
    shown = "; ".join(notes[:most])
    if len(notes) > most:
        shown += f"; and {len(notes) - most} more (fivefoot check-map lists them)"
    return f"Map: {shown}"
