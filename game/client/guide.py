"""The first-run guide: the ruleset in force in a few lines, the keys that matter, what the map marks.

Shown over the window the first time fivefoot is played (the settings remember it was seen) and
again from F1. Every line about the rules is made from the ruleset's own data (its summary, its
round, its movement, parting-shot and charge sections), so the guide is true under any ruleset;
the rules are the documents', the words are ours. Pygame-free: game/ui/guide.py draws it.
"""
from __future__ import annotations

TRIGGERS = {  # parting_shots.trigger -> when a foe gets its free blow
    "leave-reach": "turning your back and moving out of a foe's reach",
    "leave-zone": "leaving a foe's melee zone or passing close by it",
    "hasty-disengage": "leaving a melee hastily, without a careful withdrawal",
    "withdraw-from-melee": "moving away from a melee",
}
INITIATIVE = {"figure": "each figure rolls", "side": "each side rolls", "group": "each group rolls",
              "attack": "each attack rolls"}

KEYS = (
    ("Click a figure", "select it; click a foe next to you to attack it"),
    ("Hover a square", "the path, its cost, and any free blow it would give a foe"),
    ("Click a square", "move there (green: walking, amber: only a run reaches)"),
    ("A / C / F", "attack mode / charge a foe / fighting withdrawal (backing away)"),
    ("Space or Enter", "end the figure's turn"),
    ("T, arrows, Enter", "no mouse: T shows a cursor, arrows move it, Enter picks the square or foe"),
    ("Ctrl+Z", "undo your last decision"),
    ("F1 / L", "this guide (F1 again: every key) / the legend of every colour and mark on the map"),
    ("F2 / F3", "settings / sound on or off"),
)

MARKS = (  # the overlay legend's entries the guide shows (their words are the legend's)
    "squares the figure can walk to this turn",
    "squares only a run reaches (diagonal lines)",
    "what a foe's ready weapon reaches, hatched in its side's colour",
    "a legal charge lane, on its squares",
    "a parting shot the move would draw, with its bonus",
)


def _phases(rnd: dict) -> str:
    die = rnd.get("initiative_die", "1d6")
    who = INITIATIVE.get(rnd.get("initiative", "figure"), "each figure rolls")
    line = f"Each round {who} {die} for initiative; the highest number acts first."
    if rnd.get("declarations"):
        line += " Some actions are declared before the roll."
    if rnd.get("segments"):
        hi, lo = rnd["segments"][0], rnd["segments"][-1]
        line += f" Movement is spread over segments {hi} down to {lo}."
    phases = [p for p in rnd.get("phases", ()) if p]
    if phases:
        line += " On each number: " + ", then ".join(phases) + "."
    return line


def _moving(ruleset) -> str:
    mv = ruleset.section("movement")
    diagonal = ruleset.section("grid").get("diagonal", "5")
    words = {"5-10": "diagonal steps cost 5 ft, then 10 ft, then 5 ft, alternating",
             "5": "every step costs 5 ft, diagonals too",
             "euclidean": "distances are measured as the crow flies"}.get(diagonal, f"diagonals: {diagonal}")
    pace = []
    if mv.get("jog_multiplier"):
        pace.append(f"jog {mv['jog_multiplier']:g}x")
    if mv.get("run_multiplier", 1) > 1:
        pace.append(f"run {mv['run_multiplier']:g}x")
    speed = f" Walk your move, or {' or '.join(pace)} it." if pace else " Walk your move."
    return f"Squares are 5 ft; {words}.{speed} Turning costs movement for figures with a turning distance."


def _parting(ruleset) -> str:
    ps = ruleset.section("parting_shots")
    when = TRIGGERS.get(ps.get("trigger", ""), "leaving a foe's reach")
    bonus = ps.get("attack_bonus", 0)
    line = f"Parting shots: {when} gives the foe a free blow" + (f" at +{bonus}." if bonus else ".")
    if ps.get("withdrawal_avoids"):
        half = ruleset.section("movement").get("withdraw_fraction", "1/2")
        line += f" A fighting withdrawal (F: backing away at {half} speed, facing the foe) avoids it."
    return line


def _charge(ruleset) -> str:
    ch = ruleset.section("charge")
    if not ch.get("allowed", True):
        return "No charges under these rules."
    return ("Charges (C): a straight run at a foe, with a bonus to hit; a set spear (X) strikes a charger first."
            if ch.get("requires_charge_weapon") else
            "Charges (C): a straight run at a foe, with a bonus to hit.")


def _keys(ruleset) -> list[tuple[str, str]]:
    """The keys that matter under this ruleset (no charge key where there are no charges)."""
    if ruleset.section("charge").get("allowed", True):
        return list(KEYS)
    return [("A / F", "attack mode / fighting withdrawal (backing away)") if k == "A / C / F" else (k, what)
            for k, what in KEYS]


def guide(battle, person_sides=()) -> list[tuple[str, list[str]]]:
    """The guide's sections: (heading, lines)."""
    rs = battle.ruleset
    person_sides = list(person_sides)
    if len(person_sides) == 1:
        goal = f"You play {person_sides[0]}: fell or rout every foe. "
    elif person_sides:
        goal = "People play " + " and ".join(person_sides) + ", each side in turn: fell or rout every foe. "
    else:
        goal = "The AI plays every side: watch it fell or rout every foe. "
    rules = [rs.data.get("summary", "") or rs.name, _phases(rs.section("round")), _moving(rs), _parting(rs),
             _charge(rs)]
    return [
        ("Your battle", [goal + "Each figure acts on its own turn; the yellow ring shows whose turn it is, "
                                "and the panel on the right says what it may do and why not the rest."]),
        (f"The rules in force: {rs.name}", [line for line in rules if line]),
        ("The keys that matter", [f"{k}: {what}" for k, what in _keys(rs)]),
    ]
