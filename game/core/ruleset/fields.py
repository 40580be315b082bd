"""The pieces the ruleset schema is built of: the choices a key allows, the checks of its values,
and the tables of a weapon, a template's statistics, a defense style and the engine's cited rule
names (core/ruleset/sections.py puts them together).
"""
from __future__ import annotations

from fractions import Fraction

from ..values.bodies import SHAPES_WORDS, footprint_problem
from .schema import MAX_FIGURE_WEAPONS, Field, plain_name, section_name, shown

PACES = ("walk", "jog", "run")
PARTING_SHOT_TRIGGERS = ("leave-reach", "leave-zone", "hasty-disengage", "withdraw-from-melee")
BUSY_MEANINGS = ("engaged", "attacking-only-an-ally")
CHARGE_MEASURES = ("movement", "distance-to-target")
FLYER_KINDS = ("none", "winged", "floater", "incorporeal")
SIZES = ("tiny", "small", "medium", "large", "giant")
SHIELDS = ("none", "small", "medium", "large")
ABILITIES = ("none", "str", "dex")
PHASES = ("movement", "artillery", "missile", "magic", "melee")
INITIATIVE_KINDS = ("figure", "side", "attack")
TIE_RULES = ("simultaneous", "dex-then-simultaneous")
SURPRISE_METHODS = ("none", "d6", "odnd-d6", "dc", "check", "per")
RESOLUTIONS = ("d20", "d100")
CRITICALS = ("none", "confirm", "odnd", "table", "d100-table")
FUMBLES = ("none", "level-check", "table")
COVER_MODES = ("attack", "ac")
INTO_MELEE = ("none", "margin", "reroll-allies", "table")
FALLING = ("none", "d6-per-10ft", "cumulative")
DEFENSE_FORMULAS = ("flat", "weapon-rank", "trade")
HP_CONDITIONS = ("unconscious", "grievously-wounded", "dying", "dead")
CONDITION_NAMES = ("prone", "stunned", "shaken", "blinded", "disarmed", "helpless", "stumbling", "fatigued", "held",
                   "pinned", "struggling", "overbearing")
# Manoeuvres (the [manoeuvres] section): which mechanism each uses; "none" where the document has none.
GRAPPLES = ("none", "attack-roll", "hd-contest", "special-ac", "touch-opposed")
ESCAPES = ("none", "save", "grapple-roll", "contest", "grapple-check")
TRIPS = ("none", "attack-roll")
PUSHES = ("none", "desperate-defense")
OVERBEARS = ("none", "special-ac")
SCATTERS = ("none", "diagram")
STAND_COSTS = ("turn", "half-move", "round-end")
MOUNT_COSTS = ("half-move", "turn")      # getting on or off a mount ([mounts])
SAVES = ("death", "paralysis")
DECLARABLE = ("move", "turn", "defend", "stand", "charge", "disengage")


SECTION_WORDS = "a section name: one word, like parting-shot"


def _dice_text(value: str) -> str | None:
    from ..combat.dice import parse_dice
    try:
        parse_dice(value)
    except ValueError as err:
        return str(err).replace(repr(value), shown(value))
    return None


def _dice_or_empty(value: str) -> str | None:
    return _dice_text(value) if value else None


def _dice_list(values: list) -> str | None:
    for i, value in enumerate(values, start=1):
        problem = _dice_text(value)
        if problem:
            return f"entry {i}: {problem}"
    return None


def _fraction(low: int, high: int):
    """A check for a fraction written as a string ("1/3", "0.5"), from low to high."""
    def check(value: str) -> str | None:
        try:
            number = Fraction(value)
        except (ValueError, ZeroDivisionError):
            return f"{shown(value)} is not a fraction; write it like \"1/3\" or \"0.5\""
        if not low <= number <= high:
            return f"{shown(value)} is out of range; expected a fraction from {low} to {high}"
        return None
    return check


def _fraction_field(doc: str, default: str, low: int, high: int) -> Field:
    return Field("str", doc, default, check=_fraction(low, high),
                 words=f"a fraction from {low} to {high} as a string, like \"1/2\"")


def _section(doc: str, *default: str) -> Field:
    """A section of the source document cited in events (no default: the key is required)."""
    return Field("str", doc, *default, check=section_name, words=SECTION_WORDS)


def _citation(doc: str) -> Field:
    """Where an engine rule is cited in this ruleset's document ('' = not used here: cited by the engine's name)."""
    return Field("str", doc, "", check=lambda v: section_name(v) if v else None, words=SECTION_WORDS + ", or ''")


def _choice_name(value: str) -> str | None:
    problem = section_name(value)
    if problem:
        return problem
    if not value.startswith("choice-"):
        return f"{shown(value)} must start with 'choice-' (it is cited as ruleset:{value})"
    return None


def _section_list(values: list) -> str | None:
    for value in values:
        problem = section_name(value)
        if problem:
            return problem
    return None


def _dice_field(doc: str, default: str) -> Field:
    return Field("str", doc, default, check=_dice_text, words="dice as a string, like \"1d8\", \"2d6+1\" or \"d20\"")


def _ascending(values: list) -> str | None:
    if any(b <= a for a, b in zip(values, values[1:])):
        return f"{shown(values)} must rise from each entry to the next"
    return None


def _names(values: list) -> str | None:
    for value in values:
        problem = plain_name(value)
        if problem:
            return problem
    return None


def _phase_order(values: list) -> str | None:
    if values and sorted(values) != sorted(PHASES):
        return (f"{shown(values)} must name every phase once ({', '.join(PHASES)}) in the order they happen, "
                "or be empty (no phases)")
    return None


def _segments(values: list) -> str | None:
    if values and not 1 <= values[1] < values[0]:
        return f"{shown(values)}: the first segment must be higher than the last, and the last at least 1 (like [10, 1])"
    return None


WEAPON_SCHEMA = {
    "reach_ft": Field("int", "how far the weapon strikes in melee", 5, minimum=0, maximum=30),
    "charge": Field("bool", "suitable for attacking at the end of a charge", False),
    "set": Field("bool", "can be set (braced) against a charge", False),
    "ranged": Field("bool", "a missile weapon (thrown or propelled)", False),
    "hands": Field("int", "hands needed", 1, minimum=1, maximum=2),
    # Combat numbers (the resolver).
    "damage": _dice_field("damage dice, e.g. 1d8 or 1d6+1", "1d6"),
    "damage_large": Field("str", "damage dice against large or bigger foes ('' = same as damage)", "",
                          check=_dice_or_empty, words="dice as a string, like \"3d6\", or \"\" for the same as damage"),
    "thrown": Field("bool", "a thrown missile (strength adds to damage where the rules say so)", False),
    "range_ft": Field("list[int]", "upper limits of short, medium and long range in feet (missiles; empty: 60, 120, 180)", [],
                      lengths=(0, 3), minimum=5, maximum=10000, check=_ascending),
    "reload_rounds": Field("int", "whole rounds after a shot before it can shoot again (crossbows)", 0, minimum=0, maximum=6),
    "reload_is_busy": Field("bool", "the reloading rounds allow no other action, not even moving", False),
    "in_melee_penalty": Field("int", "attack penalty when a missile weapon is used against a foe in melee reach", 0,
                              minimum=-100, maximum=0),
    "stuck_dex": Field("int", "on a critical this missile sticks: DEX penalty until removed", 0, minimum=-10, maximum=0),
    "stuck_bleed": Field("int", "... and bleeding damage each round it stays in", 0, minimum=0, maximum=20),
    "subdual": Field("bool", "deals subduing (non-lethal) damage", False),
    "grenade": Field("bool", "a grenade-like missile (a flask): on a miss it scatters ([missiles] scatter)", False),
    "splash": Field("str", "grenade: damage to each figure within 5 ft of where it lands ('' none)", "",
                    check=_dice_or_empty, words="dice as a string, like \"1d6\", or \"\" for none"),
    "carries_to_long": Field("bool", "a missile that misses flies on to long range, not only close ([missiles])", False),
}

# Combat statistics a template (and a scenario figure's `stats` table) may set.
COMBAT_STAT_FIELDS = {
    "hp": Field("int", "hit points; 0 rolls hit_dice when the battle starts", 0, minimum=0, maximum=10000),
    "hit_dice": _dice_field("dice rolled for hit points when hp is 0", "1d8"),
    "level": Field("int", "level or hit dice (fumble checks, attacks against normal men)", 1, minimum=0, maximum=40),
    "ac": Field("int", "armour class, shield and DEX included (d20 rulesets)", 10, minimum=-20, maximum=60),
    "attack_bonus": Field("int", "attack bonus: AB, BtH or hit dice (d20 rulesets)", 0, minimum=-10, maximum=40),
    "sc": Field("int", "strike chance (d100 rulesets)", 50, minimum=0, maximum=400),
    "def": Field("int", "defense, shield and DEX included (d100 rulesets)", 0, minimum=-100, maximum=300),
    "prot": Field("int", "protection subtracted from each hit's damage (d100 rulesets)", 0, minimum=0, maximum=50),
    "str_mod": Field("int", "strength modifier", 0, minimum=-5, maximum=10),
    "dex_mod": Field("int", "dexterity modifier (included in ac/def; also initiative)", 0, minimum=-5, maximum=10),
    "con": Field("int", "constitution score (stun threshold in d100 rules)", 10, minimum=1, maximum=60),
    "dex": Field("int", "dexterity score (d100 rules: an Nx DEX roll is d100 at or below N times it)", 10,
                 minimum=1, maximum=60),
    "per": Field("int", "perception score (ambush rolls in d100 rules)", 10, minimum=1, maximum=100),
    "wis_mod": Field("int", "wisdom modifier (surprise checks)", 0, minimum=-5, maximum=10),
    "wis_prime": Field("bool", "wisdom is a prime attribute (surprise check base)", False),
    "shield": Field("str", "shield carried (its bonus is included in ac/def)", "none", choices=SHIELDS),
    "shield_bonus": Field("int", "what the shield adds to ac/def", 1, minimum=0, maximum=50),
    "mounted": Field("bool", "fights from a mount", False),
    "attacks": Field("int", "attacks per round", 1, minimum=0, maximum=10),
    "fighter": Field("bool", "a fighter type (extra attacks against normal men where the rules have them)", False),
    "normal_man": Field("bool", "counts as a 'normal man' for fighters' extra attacks", False),
    "morale": Field("int", "morale score for 2d6 checks; 0 never checks", 0, minimum=0, maximum=12),
    "weapon_rank": Field("int", "weapon rank (d100 defending)", 0, minimum=0, maximum=30),
    "surprised_on": Field("int", "surprised on this or less on d6; 0 = the ruleset's number", 0, minimum=0, maximum=6),
    "surprises_on": Field("int", "surprises foes on this or less on d6 (odnd); 0 = the ruleset's number", 0,
                          minimum=0, maximum=6),
    "surprise_dc": Field("int", "dc method: surprised on a roll at or above this (elves 15); 0 = the ruleset's dc", 0,
                         minimum=0, maximum=30),
    "ambush": Field("bool", "well hidden and waiting: foes are surprised more easily", False),
    "unaware": Field("bool", "may be surprised when the battle starts", False),
    "save_death": Field("int", "d20 saving throw vs death ray: this or more saves (engine default 12)", 12,
                        minimum=1, maximum=30),
    "save_paralysis": Field("int", "d20 saving throw vs paralysis: this or more saves (engine default 14)", 14,
                            minimum=1, maximum=30),
    "str_prime": Field("bool", "strength is a prime attribute (cnc grappling: special AC 18, else 12)", False),
}

TEMPLATE_SCHEMA = {
    "name": Field("str", "what the figure is called", "", check=lambda v: plain_name(v) if v else None),
    "move_ft": Field("int", "walking move per round in feet", 40, minimum=0, maximum=480),
    "turning_ft": Field("int", "turning distance in feet; 0 turns freely", 0, minimum=0, maximum=120),
    "flyer": Field("str", "how it flies", "none", choices=FLYER_KINDS),
    "size": Field("str", "size category", "medium", choices=SIZES),
    "footprint": Field("list[int]", "squares the body covers, [across, along] the facing", [1, 1], lengths=(2,),
                       check=footprint_problem, words=SHAPES_WORDS),
    "weapons": Field("list[str]", "weapons carried; the first is the ready one", ["sword"], check=_names,
                     most=MAX_FIGURE_WEAPONS),
    **COMBAT_STAT_FIELDS,
}

DEFENSE_SCHEMA = {
    "style": Field("str", "name used by the Defend action (parry, dodge, evade, full-defense, ...)", check=plain_name),
    "formula": Field("str", "flat bonus, or from weapon rank, or a chosen trade of attack for defense", "flat",
                     choices=DEFENSE_FORMULAS),
    "bonus": Field("int", "defense bonus (AC or DEF); with weapon-rank, added to the rank part", 0, minimum=-100, maximum=100),
    "initiative": Field("int", "initiative change for the round", 0, minimum=-10, maximum=10),
    "rank_multiplier": Field("float", "weapon-rank formula: rank times this", 0.0, minimum=0, maximum=10),
    "round_up": Field("bool", "weapon-rank formula: round the rank part up (else down)", False),
    "attack_penalty": Field("int", "to-hit penalty while defending (0 when it forbids attacks)", 0, minimum=-100, maximum=0),
    "can_attack": Field("bool", "may still attack", False),
    "max_move_ft": Field("int", "greatest move while defending; -1 unlimited", -1, minimum=-1, maximum=480),
    "attackers": Field("int", "how many attackers it works against each round; 0 all", 0, minimum=0, maximum=10),
    "faced_only": Field("bool", "only against attackers in front", False),
    "parry_roll": Field("bool", "a melee hit may be parried: d20 + AB against the attack roll, then a block roll", False),
    "parry_bonus": Field("int", "added to parry rolls", 0, minimum=0, maximum=20),
    "parries": Field("str", "how many parry rolls per round: 'one', 'level' (fighters) or 'all'", "one",
                     choices=("one", "level", "all")),
    "parry_step": Field("int", "cumulative penalty for each parry after the first", 0, minimum=-10, maximum=0),
    "declared": Field("bool", "announced at the start of the round (any figure, before the first action)", False),
    "no_parting_shot": Field("bool", "a foe defending this way gets no free attack on a withdrawing figure", False),
    "melee_only": Field("bool", "its defense bonus counts against melee attacks only (missiles see ranged_penalty)", False),
    "ranged_penalty": Field("int", "to-hit of missiles at a figure in this stance (it is dodging)", 0, minimum=-100, maximum=0),
    "no_initiative": Field("bool", "a figure that declared it rolls no initiative (it takes no other action)", False),
    "rule": _section("section cited in events"),
}

# Engine rules cited in events under a name of the engine's own; each ruleset says which
# section of its document (or which documented choice) that is.
CITATIONS = {
    "combat-round": "a round begins; the battle ends",
    "hit-points": "hit points rolled from hit dice when the battle starts",
    "turn-order": "a figure ends its turn",
    "segments": "declared movement unfolding across segments (d100)",
    "movement": "an orthogonal step; moving and attacking",
    "5-10-diagonals": "the 5-10 diagonal rule",
    "diagonals": "the cost of a diagonal step (other diagonal rules)",
    "difficult-terrain": "difficult terrain costs more",
    "subdual": "subduing damage: how much of it is dealt and how much is real",
    "maneuverability": "facing changes and turning distance",
    "fighting-withdrawal": "a fighting withdrawal",
    "sidestep": "a sidestep keeping facing",
    "flyer-altitude": "flyers climbing, diving and stalling",
    "leaving-the-map": "a figure leaves the battle over the map edge",
    "prone": "standing up from prone",
    "helpless": "melee against a helpless figure",
    "critical-effects": "conditions a critical hit inflicts",
    "fumble-effects": "what a fumble does",
    "stun": "a figure stunned by one big hit",
    "grievous-hits": "a grievous hit's armour damage",
    "stuck-missiles": "missiles stuck in a figure",
    "reloading": "a round spent reloading",
    "move-and-attack": "moving then attacking (d100 initiative)",
    "run-and-attack": "running then attacking (d100 initiative)",
    "fatigue": "running until fatigued",
    "missile-too-close": "no missile fire with a foe this close",
    "blindsided": "a fight opened from behind: no reply, then advantage",
    "friendly-fire-table": "the roll of which figure a missile into a melee targets",
    "cover-between": "figures beside the line of attack set aside as cover",
    "objectives": "a scenario's own objectives and round limit decide the battle",
}
