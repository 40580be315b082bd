"""Rulesets: every positioning and combat parameter of a source document, as validated data.

The schema below is the single list of keys: `fivefoot rulesets --keys` and
rulesets/README.md are generated from it, and the loader rejects anything it does not name.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .cover import COVER_DEGREES
from .geometry import DIAGONAL_RULES
from .errors import DataFileError
from .ruleset_checks import check_consistency
from .schema import Field, plain_name, section_name, shown, validate

PACES = ("walk", "jog", "run")
PARTING_SHOT_TRIGGERS = ("leave-reach", "leave-zone", "hasty-disengage", "withdraw-from-melee")
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
CONDITION_NAMES = ("prone", "stunned", "shaken", "blinded", "disarmed", "helpless", "stumbling", "fatigued")
STAND_COSTS = ("turn", "half-move", "round-end")
DECLARABLE = ("move", "turn", "defend", "stand", "charge", "disengage")


SECTION_WORDS = "a section name: one word, like parting-shot"


def _dice_text(value: str) -> str | None:
    from .combat.dice import parse_dice
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
    "ambush": Field("bool", "well hidden and waiting: foes are surprised more easily", False),
    "unaware": Field("bool", "may be surprised when the battle starts", False),
}

TEMPLATE_SCHEMA = {
    "name": Field("str", "what the figure is called", "", check=lambda v: plain_name(v) if v else None),
    "move_ft": Field("int", "walking move per round in feet", 40, minimum=0, maximum=480),
    "turning_ft": Field("int", "turning distance in feet; 0 turns freely", 0, minimum=0, maximum=120),
    "flyer": Field("str", "how it flies", "none", choices=FLYER_KINDS),
    "size": Field("str", "size category", "medium", choices=SIZES),
    "weapons": Field("list[str]", "weapons carried; the first is the ready one", ["sword"], check=_names),
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
}

SCHEMA = {
    "id": Field("str", "ruleset id, also the file name; set in the file itself, never taken from its base",
                check=lambda v: section_name(v) and f"{shown(v)} is not a ruleset id: one word, like bfrpg or house-rules",
                words="one word, like bfrpg"),
    "name": Field("str", "human name of the rules; set in the file itself", check=plain_name,
                  words="one line of at most 64 characters"),
    "source": Field("str", "the source document in shared/seeds/"),
    "summary": Field("str", "one line on how this ruleset plays", ""),
    "base": Field("str", "the file this one overrides, key by key: a bundled name (base, bfrpg, ...) or a path "
                  "relative to this file; '' for a complete file (see Layers above)", ""),
    "document": {
        "sections": Field("list[str]", "the source document's section headings as slugs (lowercase words joined by -); "
                          "when given, every section this ruleset cites must be one of them or a [[choices]] name",
                          [], check=_section_list, words="a list of section slugs, like [\"initiative\", \"charging\"]"),
    },
    "grid": {
        "square_ft": Field("int", "side of a square in feet", 5, choices=(5,)),
        "diagonal": Field("str", "cost of diagonal steps", choices=DIAGONAL_RULES),
        "corner_cutting": Field("bool", "may a diagonal step pass a wall corner", False),
        "climb_step_ft": Field("int", "largest change of floor height a walker takes in one step", 5, minimum=0, maximum=20),
    },
    "movement": {
        "run_multiplier": Field("float", "running speed as a multiple of the walking move", minimum=1, maximum=6),
        "jog_multiplier": Field("float", "jogging speed multiple; 0 when the rules have no jog", 0.0, minimum=0, maximum=6),
        "withdraw_fraction": _fraction_field("fighting withdrawal speed as a fraction of the walking move", "1/2", 0, 1),
        "attack_move_fraction": _fraction_field("part of the move a figure may make and still attack", "1", 0, 1),
        "difficult_multiplier": Field("int", "cost multiplier of a step into difficult terrain", 2, minimum=1, maximum=4),
        "free_step_ft": Field("int", "a free step that costs no movement and no attack", 0, minimum=0, maximum=10),
        "sidestep": Field("bool", "may shift one square sideways keeping facing", True),
        "sidestep_paces": Field("list[str]", "paces at which a sidestep is allowed", ["walk"], choices=PACES, lengths=(0, 1, 2, 3)),
        "run_rounds_per_con": Field("int", "rounds a figure may run are this times its CON; then it is fatigued and "
                                    "only walks (0: no limit)", 0, minimum=0, maximum=10),
    },
    "facing": {
        "walk_turn_max_deg": Field("int", "largest single facing change at walking pace", 90, choices=(45, 90, 135, 180)),
        "run_turn_max_deg": Field("int", "largest single facing change while running", 45, choices=(45, 90, 135, 180)),
        "run_turning_extra_ft": Field("int", "turning distance added while running", 10, minimum=0, maximum=60),
        "run_turning_small_ft": Field("int", "turning distances up to this become run_turning_small_becomes_ft when running", 5, minimum=0, maximum=30),
        "run_turning_small_becomes_ft": Field("int", "running turning distance of small-turning figures", 10, minimum=0, maximum=60),
        "stationary_turns_free": Field("bool", "a figure that stays in its square turns freely", True),
        "incorporeal_flyers_turn_free": Field("bool", "large incorporeal flyers turn at any point", True),
    },
    "altitude": {
        "winged_climb_ft": Field("int", "altitude a winged flyer gains per maneuverability distance flown", 10, minimum=0, maximum=50),
        "dive_multiplier": Field("float", "a dive descends up to this multiple of the move", 2.0, minimum=1, maximum=6),
        "stall_below_fraction": _fraction_field("a winged flyer moving less than this part of its speed stalls", "1/3", 0, 1),
        "floater_climb_fraction": _fraction_field("part of the move a floater may climb straight up", "1/2", 0, 6),
        "floater_descend_fraction": _fraction_field("part of the move a floater may descend", "1", 0, 6),
        "max_altitude_ft": Field("int", "highest altitude the planner considers", 200, minimum=0, maximum=2000),
    },
    "engagement": {
        "zone_ft": Field("int", "figures this close to a foe are engaged", minimum=5, maximum=30),
        "obstacle_breaks": Field("bool", "an obstacle between two figures keeps them from being engaged", False),
    },
    "parting_shots": {
        "trigger": Field("str", "which moves give foes a free attack", choices=PARTING_SHOT_TRIGGERS),
        "attack_bonus": Field("int", "to-hit bonus of the free attack", 0, minimum=-10, maximum=30),
        "pass_by_ft": Field("int", "foes not in melee that the mover passes this close to also strike; 0 for none", 0, minimum=0, maximum=30),
        "withdrawal_avoids": Field("bool", "a fighting withdrawal gives no free attack", True),
        "busy_foe_exempt": Field("bool", "a foe engaged with someone else gets no free attack", False),
        "only_when_leaving_all_melee": Field("bool", "moving to another foe nearby is not leaving melee", False),
        "rule": _section("section name cited in events", "parting-shot"),
    },
    "charge": {
        "allowed": Field("bool", "the rules have a charge", True),
        "measure": Field("str", "what the distance limits measure", "movement", choices=CHARGE_MEASURES),
        "min_ft": Field("int", "least distance of a charge", 0, minimum=0, maximum=120),
        "min_move_multiple": _fraction_field("least distance as a part of the walking move", "0", 0, 6),
        "min_exclusive": Field("bool", "the least distance must be exceeded, not just met", False),
        "max_move_multiple": _fraction_field("greatest distance as a multiple of the walking move", "2", 0, 6),
        "end_within_ft": Field("int", "the charge must end this close to the target", 5, minimum=5, maximum=30),
        "requires_line_of_sight": Field("bool", "the target must be seen at the start", True),
        "requires_charge_weapon": Field("bool", "the attacker needs a weapon suitable for charging", False),
        "max_per_battle": Field("int", "charges a figure may make in one battle (0: no limit)", 0, minimum=0, maximum=10),
        "mounted_min_ft": Field("int", "a mounted charge covers at least this (0: as any charge)", 0, minimum=0, maximum=240),
        "mounted_max_ft": Field("int", "a mounted charge covers at most this (0: as any charge)", 0, minimum=0, maximum=480),
        "mounted_rule": _section("section cited for the mounted charge's limits", "mounted-combat"),
        "rule": _section("section name cited in events", "charging"),
    },
    "cover": {
        "figure_between_degree": Field("str", "cover a figure standing in the line of fire gives, per line", "1/2", choices=COVER_DEGREES[1:]),
        "figure_must_be_between": Field("bool", "a figure gives cover only when the line from the attacker's centre to the "
                                        "target's centre crosses its square (comrades beside a melee pair are not cover)", True),
    },
    "round": {
        "initiative": Field("str", "who rolls: each figure, each side, or each attack", "figure", choices=INITIATIVE_KINDS),
        "initiative_die": _dice_field("initiative die", "1d6"),
        "initiative_dex": Field("bool", "DEX modifier adds to initiative", True),
        "later_attack_dice": Field("list[str]", "dice for a figure's 2nd, 3rd, ... attack (per-attack initiative)", [],
                                   lengths=tuple(range(10)), check=_dice_list,
                                   words="a list of at most 9 dice, like [\"1d8\", \"1d6\"]"),
        "ties": Field("str", "equal numbers act together, or DEX breaks the tie first", "simultaneous", choices=TIE_RULES),
        "fallen_act_on_ties": Field("bool", "a figure felled by a foe acting on the same number still acts", True),
        "phases": Field("list[str]", "order of action types within one initiative number: all five once each, or none", [],
                        choices=PHASES, lengths=(0, len(PHASES)), check=_phase_order),
        "reach_attacks_closing_foe": Field("bool", "a reach weapon strikes a foe closing into its reach on the foe's number", False),
        "reach_first_first_round": Field("bool", "in the first round of a melee the longer reach strikes first", False),
        "reach_first_long_ft": Field("int", "reach a weapon needs to strike first", 10, minimum=5, maximum=30),
        "reach_first_short_ft": Field("int", "... against foes whose reach is at most this", 5, minimum=5, maximum=30),
        "size_first_first_round": Field("bool", "a large creature strikes a smaller one first in the first round", False),
        "move_after_attack": Field("bool", "a figure may move again after attacking (its move split around the action)", False),
        "declarations": Field("bool", "a declaration turn for each figure opens each round, before initiative", False),
        "declared": Field("list[str]", "what a figure declares in its declaration turn (declarations = true)",
                          ["move", "turn", "defend", "stand"], choices=DECLARABLE, lengths=tuple(range(len(DECLARABLE) + 1))),
        "declare_rule": _section("section cited by the declaration step", "action-declaration"),
        "segments": Field("list[int]", "movement segments, first and last, like [10, 1] (movement spread evenly across them)", [],
                          lengths=(0, 2), minimum=1, maximum=100, check=_segments),
        "lose_attacks_at_or_below": Field("int", "attacks whose initiative falls this low are lost", -100, minimum=-100, maximum=0),
        "move_attack_initiative": Field("int", "initiative change for moving then attacking", 0, minimum=-20, maximum=0),
        "run_attack_initiative": Field("int", "initiative change for running then attacking", 0, minimum=-20, maximum=0),
        "move_attack_halves": Field("bool", "moving (beyond the free step) then attacking keeps half the attacks, rounded up; "
                                    "running keeps half rounded down (at least one)", False),
        "run_attack_hit": Field("int", "to-hit of attacks after running", 0, minimum=-100, maximum=0),
        "rule": _section("section cited for initiative", "initiative"),
        "ties_rule": Field("str", "section cited when figures on one number act together ('' = the rule above)", "",
                           check=lambda v: section_name(v) if v else None, words=SECTION_WORDS + ", or ''"),
        "hold_rule": Field("str", "section cited when a figure holds its action ('' = the rule above)", "",
                           check=lambda v: section_name(v) if v else None, words=SECTION_WORDS + ", or ''"),
    },
    "surprise": {
        "method": Field("str", "how surprise is checked at the start of a battle", "none", choices=SURPRISE_METHODS),
        "surprised_on": Field("int", "d6: a side is surprised on this or less", 2, minimum=0, maximum=6),
        "ambush_surprised_on": Field("int", "d6: ... when its foes lie in ambush", 4, minimum=0, maximum=6),
        "dc": Field("int", "dc method: d20 at or above this means surprised", 13, minimum=1, maximum=40),
        "ambush_bonus": Field("int", "dc method: added to the roll when the foes lie in ambush", 3, minimum=0, maximum=20),
        "check_base": Field("int", "check method: d20 + level + WIS must reach this (non-prime)", 18, minimum=1, maximum=40),
        "check_base_prime": Field("int", "check method: ... for a prime attribute", 12, minimum=1, maximum=40),
        "ambush_penalty": Field("int", "check method: penalty when the foes lie in ambush", -5, minimum=-10, maximum=0),
        "per_bonuses": Field("list[int]", "per method: attack bonus in the surprise round for 1x..5x PER results", [],
                             lengths=(0, 5), minimum=0, maximum=100),
        "per_needs_ambush": Field("bool", "per method: the PER roll is made only against foes lying in ambush", False),
        "unaware_hit": Field("int", "to-hit against an unaware figure (no ambush) before it has acted or been attacked", 0,
                             minimum=0, maximum=100),
        "unaware_defense": _fraction_field("part of its AC/DEF bonus an unaware figure keeps (above the base 10 / 0)", "1", 0, 1),
        "in_combat_hit": Field("int", "to-hit of an attack from behind on a figure busy fighting another foe", 0,
                               minimum=0, maximum=100),
        "in_combat_defense": _fraction_field("... and the part of its AC/DEF bonus it keeps", "1", 0, 1),
        "in_combat_arcs": Field("list[int]", "arcs counted as behind for in_combat_hit", [3, 4, 5], choices=tuple(range(8)),
                                lengths=tuple(range(9))),
        "unaware_rule": _section("section cited for an unaware target", "surprise"),
        "in_combat_rule": _section("section cited for in-combat surprise", "surprise"),
        "rule": _section("section cited", "surprise"),
    },
    "attack": {
        "resolution": Field("str", "d20 + bonuses >= AC, or d100 <= SC - DEF", "d20", choices=RESOLUTIONS),
        "natural_miss": Field("int", "a natural roll at or below this always misses (0: none)", 0, minimum=0, maximum=5),
        "natural_hit": Field("int", "a natural roll at or above this always hits (0: none)", 0, minimum=0, maximum=20),
        "auto_miss_from": Field("int", "d100: a roll this high or higher always misses (0: none)", 0, minimum=0, maximum=100),
        "auto_hit": Field("int", "d100: this roll always hits", 0, minimum=0, maximum=100),
        "auto_critical": Field("int", "d100: this roll is always a critical", 0, minimum=0, maximum=100),
        "auto_grievous": Field("int", "d100: this roll is always a potential grievous hit", 0, minimum=0, maximum=100),
        "melee_ability": Field("str", "ability modifier added to melee attack rolls", "str", choices=ABILITIES),
        "thrown_ability": Field("str", "ability modifier added to thrown attack rolls", "dex", choices=ABILITIES),
        "propelled_ability": Field("str", "ability modifier added to bow/crossbow attack rolls", "dex", choices=ABILITIES),
        "critical": Field("str", "what a natural 20 (or a low d100) does", "none", choices=CRITICALS),
        "critical_needs_below": Field("int", "no critical if the hit needed this or more on the die", 21, minimum=2, maximum=21),
        "critical_conditions": Field("list[str]", "conditions rolled for critical-condition results (one die)", [],
                                     choices=CONDITION_NAMES, lengths=tuple(range(len(CONDITION_NAMES) + 1))),
        "d100_critical_table": Field("list[table]", "critical and grievous ranges by modified strike chance",
                                     entry={"sc_upto": Field("int", "modified SC at or below this", minimum=0, maximum=10000),
                                            "grievous": Field("int", "d100 at or below this is a grievous hit", minimum=0, maximum=100),
                                            "critical": Field("int", "d100 at or below this is a critical hit", minimum=0, maximum=100)}),
        "fumble": Field("str", "what a natural 1 does", "none", choices=FUMBLES),
        "over_20_reduces_damage": Field("bool", "a natural 20 hit that needed more than 20 loses the excess from damage", False),
        "extra_attacks_vs_normal_men": Field("bool", "fighters get level attacks (monsters hit dice) against normal men", False),
        "min_damage": Field("int", "least damage of a hit", 1, minimum=0, maximum=1),
        "rule": _section("section cited for attack rolls", "attack"),
    },
    "modifiers": {
        "rear_arcs": Field("list[int]", "arcs counted as behind (0 front ... 4 directly behind)", [3, 4, 5],
                           choices=tuple(range(8)), lengths=tuple(range(9))),
        "rear_bonus": Field("int", "to-hit from behind", 0, minimum=0, maximum=50),
        "rear_rule": _section("section cited", "attacking-from-behind"),
        "flank_arcs": Field("list[int]", "arcs counted as flank (2 right, 6 left, ...)", [], choices=tuple(range(8)),
                            lengths=tuple(range(9))),
        "flank_bonus": Field("int", "to-hit from the flank", 0, minimum=0, maximum=50),
        "flank_by_opposite_ally": Field("int", "to-hit when an ally stands on the opposite side of the target", 0, minimum=0, maximum=10),
        "flank_rule": _section("section cited", "flanking"),
        "rear_no_dex": Field("bool", "from behind the defender loses a DEX bonus to AC", False),
        "rear_no_shield": Field("bool", "from behind the defender's shield does not count", False),
        "flank_no_dex": Field("bool", "from the flank the defender loses a DEX bonus to AC", False),
        "flank_no_shield": Field("bool", "from the flank the defender's shield does not count", False),
        "surrounded_bonus": Field("int", "to-hit for each attacker when more than surrounded_after attack one figure", 0, minimum=0, maximum=5),
        "surrounded_after": Field("int", "attackers before the surrounded bonus applies", 2, minimum=1, maximum=8),
        "surrounded_rule": _section("section cited", "surrounded"),
        "multiple_attackers_bonus": Field("int", "to-hit for every attacker beyond the first on one target", 0, minimum=0, maximum=50),
        "multiple_attackers_rule": _section("section cited", "multiple-attackers"),
        "shield_attackers": Field("list[int]", "attackers a small, medium, large shield covers each round (empty: all)", [],
                                  lengths=(0, 3), minimum=0, maximum=8),
        "shield_rule": _section("section cited", "shields"),
        "high_ground_min_ft": Field("int", "height difference that counts as high ground", 5, minimum=1, maximum=50),
        "higher_bonus": Field("int", "to-hit when attacking from higher ground", 0, minimum=0, maximum=10),
        "lower_penalty": Field("int", "to-hit when attacking from lower ground", 0, minimum=-10, maximum=0),
        "high_ground_rule": _section("section cited", "high-ground"),
        "helpless": Field("str", "melee against the helpless: auto hit for double maximum damage, or a bonus", "none",
                          choices=("none", "auto-double-max", "bonus")),
        "helpless_hit": Field("int", "to-hit against a helpless target when helpless = bonus", 0, minimum=0, maximum=50),
        "mounted_hit": Field("int", "to-hit of a mounted figure against one on foot (melee)", 0, minimum=0, maximum=5),
        "mounted_defense": Field("int", "AC of a mounted figure against attackers on foot", 0, minimum=0, maximum=5),
        "vs_mounted_hit": Field("int", "to-hit of a figure on foot against a mounted one", 0, minimum=-5, maximum=0),
        "polearm_cancels_mounted": Field("bool", "set-able weapons (spears, polearms) cancel the mounted modifiers", False),
        "mounted_rule": _section("section cited", "mounted-combat"),
        "from_mount_melee": Field("int", "to-hit of a melee attack made from a mount", 0, minimum=-10, maximum=0),
        "from_mount_ranged": Field("int", "to-hit of a missile shot from a mount", 0, minimum=-10, maximum=0),
        "from_mount_moving_ranged": Field("int", "to-hit of a missile shot from a mount that moved more than "
                                          "from_mount_moving_over_ft this round", 0, minimum=-10, maximum=0),
        "from_mount_moving_over_ft": Field("int", "see from_mount_moving_ranged", 30, minimum=0, maximum=480),
        "from_mount_rule": _section("section cited for attacks from a mount", "mounted-combat"),
        "charge_hit": Field("int", "to-hit of a charge attack", 0, minimum=0, maximum=10),
        "charge_defense": Field("int", "charger's AC/DEF change for the round", 0, minimum=-10, maximum=0),
        "charge_damage_multiplier": Field("int", "damage multiplier of a charge hit", 1, minimum=1, maximum=3),
        "charge_damage_bonus": Field("int", "damage added to a charge hit", 0, minimum=0, maximum=10),
        "charge_negated_if_hit_first": Field("bool", "a charger hit by its target first loses the charge bonus", False),
        "charge_no_dex": Field("bool", "a charger gets no DEX bonus to AC or attacks", False),
        "set_hit": Field("int", "to-hit of a weapon set against a charge", 0, minimum=0, maximum=10),
        "set_damage_multiplier": Field("int", "damage multiplier of a set weapon against a charger", 1, minimum=1, maximum=3),
        "set_strikes_first": Field("bool", "a set weapon strikes before an unmounted charger, and before a mounted one "
                                   "with a shorter weapon (else simultaneously)", False),
        "set_needs_initiative": Field("bool", "the set weapon answers only if its wielder's initiative is at least the "
                                      "charger's", True),
        "set_rule": _section("section cited", "set-weapon-against-charge"),
        "aim_bonus": Field("int", "to-hit of an aimed shot (0: no aiming)", 0, minimum=0, maximum=50),
        "aim_next_round": Field("bool", "aiming takes the round; the bonus applies next round (else to the next attack)", True),
        "aim_target_bonus": Field("int", "to-hit against a figure taking careful aim (it stands still)", 0, minimum=0, maximum=50),
        "aim_rule": _section("section cited", "aimed-shots"),
        "withdraw_defense": Field("int", "AC bonus of a figure in a fighting withdrawal", 0, minimum=0, maximum=10),
        "withdraw_attack": Field("int", "to-hit of a figure in a fighting withdrawal", 0, minimum=-10, maximum=0),
        "hasty_defense": Field("int", "AC change of a figure disengaging hastily, for the round", 0, minimum=-10, maximum=0),
        "parting_shot_no_shield": Field("bool", "the target of a parting shot gets no shield", False),
        "parting_shot_own_terms": Field("bool", "a parting shot takes its own terms only: no rear or flank modifiers "
                                        "(and no shield or DEX they cost) on top", False),
        "subdue_hit": Field("int", "to-hit of an attack to subdue", 0, minimum=-10, maximum=0),
        "subdue_rule": _section("section cited", "subduing-damage"),
        "running_target_ranged": Field("int", "missiles against a figure that ran in its last action", 0, minimum=-50, maximum=0),
        "stationary_target_ranged": Field("int", "missiles against a figure that has not moved this round", 0, minimum=0, maximum=50),
        "target_speed_ranged": Field("list[table]", "missiles against a target moving this round faster than a multiple "
                                     "of its walking move (the largest row passed applies; replaces running_target_ranged)",
                                     entry={"above_multiple": Field("float", "moves more than this times its move", minimum=0, maximum=10),
                                            "modifier": Field("int", "to-hit", minimum=-100, maximum=0)}),
        "moving_mount_ranged": Field("int", "missiles against a mounted target that moved this round", 0, minimum=-50, maximum=0),
        "size_ranged": Field("list[int]", "missiles against a tiny, small, medium, large, giant target", [],
                             lengths=(0, 5), minimum=-50, maximum=50),
        "size_ranged_rule": _section("section cited", "size-modifiers"),
        "dodging_rule": _section("section cited for a dodging target (and stances that count against melee only)",
                                 "movement-modifiers"),
        "target_movement_rule": _section("section cited", "firing-at-a-moving-opponent"),
        "ranged_engaged_penalty": Field("int", "missile attack at a foe within 5 ft of the shooter", 0, minimum=-20, maximum=0),
        "ranged_engaged_unaware_exempt": Field("bool", "no ranged_engaged_penalty against a target unaware of the shooter "
                                               "(shot from behind, or surprised)", False),
        "missile_min_foe_gap_ft": Field("int", "no missile may be shot while an able foe is this close to the shooter "
                                        "(0: none)", 0, minimum=0, maximum=30),
        "ranged_fighting_target": Field("int", "missile attack at a foe that is itself in melee", 0, minimum=-20, maximum=0),
        "ranged_rule": _section("section cited", "ranged-attack"),
        "range_band_mods": Field("list[int]", "to-hit at short, medium and long range", [0, 0, 0], lengths=(3,),
                                 minimum=-100, maximum=100),
        "range_rule": _section("section cited", "range"),
        "into_melee": Field("str", "missiles into a melee with friends", "none", choices=INTO_MELEE),
        "into_melee_careful_penalty": Field("int", "margin rule: penalty a shooter may take to never hit friends", 0, minimum=-10, maximum=0),
        "into_melee_margin": Field("int", "margin rule: a miss by less than this hits a friend", 0, minimum=0, maximum=10),
        "into_melee_table": Field("list[table]", "table rule: rows of friends, foes and the d100 result at or below which a friend is targeted",
                                  entry={"friends": Field("int", "friends in the melee", minimum=1, maximum=10),
                                         "foes": Field("int", "foes in the melee", minimum=1, maximum=10),
                                         "upto": Field("int", "d100 at or below this targets a friend", minimum=0, maximum=100)}),
        "into_melee_missing_rule": _section("section cited when a melee's friends and foes are not a row of "
                                            "into_melee_table (the nearest row is used)", "shooting-into-melee"),
        "into_melee_always_friend": Field("int", "table rule: a roll at or below this always targets a friend", 0, minimum=0, maximum=20),
        "into_melee_rule": _section("section cited", "firing-into-melee"),
        "wound_levels": Field("list[table]", "wound levels: hit points at or below, modifier to all actions",
                              entry={"at_or_below": Field("int", "hit points at or below", minimum=-100, maximum=1000),
                                     "modifier": Field("int", "modifier to all actions", minimum=-100, maximum=0)}),
        "wound_rule": _section("section cited", "wound-modifiers"),
        "surprise_round_hit": Field("int", "to-hit of attacks on surprised figures in the surprise round", 0, minimum=0, maximum=50),
        "surprised_no_dex": Field("bool", "surprised figures lose DEX to AC in the surprise round", False),
        "surprise_as_rear": Field("bool", "an attack on a surprised figure counts as one from behind, whatever the direction", False),
        "rear_blindsides": Field("bool", "a fight opened from behind: the target may not strike back this round, and next "
                                 "round the attacker rolls with advantage and the target with disadvantage", False),
    },
    "cover_effects": {
        "hard_mode": Field("str", "hard cover lowers the attack roll or raises AC/DEF", "attack", choices=COVER_MODES),
        "soft_mode": Field("str", "concealment lowers the attack roll or raises AC/DEF", "attack", choices=COVER_MODES),
        "hard": Field("list[int]", "effect of hard cover by degree: none, 1/4, 1/2, 3/4, full", [0, 0, 0, 0, 0],
                      lengths=(5,), minimum=-100, maximum=100),
        "soft": Field("list[int]", "effect of concealment by degree: none, 1/4, 1/2, 3/4, full", [0, 0, 0, 0, 0],
                      lengths=(5,), minimum=-100, maximum=100),
        "in_melee": Field("bool", "cover also counts in melee", False),
        "both_ways_in_melee": Field("bool", "in melee, the cover protects the attacker too", False),
        "rule": _section("section cited", "cover-and-concealment"),
    },
    "damage": {
        "thresholds": Field("list[table]", "conditions by hit points, from mildest to worst (default: dead at 0)",
                            entry={"at_or_below": Field("int", "hit points at or below", minimum=-100, maximum=100),
                                   "condition": Field("str", "what the figure is", choices=HP_CONDITIONS)}),
        "melee_ability": Field("str", "ability modifier added to melee damage", "str", choices=ABILITIES),
        "thrown_ability": Field("str", "ability modifier added to thrown weapons' damage", "str", choices=ABILITIES),
        "propelled_ability": Field("str", "ability modifier added to bows' and crossbows' damage", "none", choices=ABILITIES),
        "bleed_condition": Field("str", "condition that loses 1 hp each round ('' none)", "", choices=("",) + HP_CONDITIONS),
        "subdual_fraction": _fraction_field("part of a subduing attack's damage dealt", "1/2", 0, 1),
        "subdual_real_every": Field("int", "1 point in this many subdual points is real damage (0: none)", 0, minimum=0, maximum=20),
        "stun_over_con": Field("bool", "a single hit doing more than CON stuns for the round", False),
        "stun_size_bonus": Field("list[int]", "CON added for large and giant figures when checking stun", [2, 4],
                                 lengths=(2,), minimum=0, maximum=50),
        "falling": Field("str", "falling damage", "d6-per-10ft", choices=FALLING),
        "falling_check_up_to_ft": Field("int", "falls up to this (from 6 ft) allow a DEX check to take none", 0, minimum=0, maximum=20),
        "falling_rule": _section("section cited", "falling-damage"),
        "rule": _section("section cited", "damage"),
    },
    "critical_table": Field("list[table]", "critical sub-table rows (critical = table)", entry={
        "upto": Field("int", "d20 + modifier at or below this", minimum=1, maximum=1000),
        "effect": Field("str", "regular, maximum, critical, critical-condition",
                        choices=("regular", "maximum", "critical", "critical-condition")),
    }),
    "fumble_table": Field("list[table]", "fumble sub-table rows (fumble = table)", entry={
        "upto": Field("int", "d20 at or below this", minimum=1, maximum=1000),
        "effect": Field("str", "what happens", choices=("weapon-breaks", "stumble", "sloppy", "drop-weapon", "miss",
                                                        "lose-next-attack")),
        "dc": Field("int", "DEX check to avoid it (0: none)", 0, minimum=0, maximum=40),
    }),
    "defenses": Field("list[table]", "ways to defend instead of (or while) attacking", entry=DEFENSE_SCHEMA, key="style"),
    "conditions": Field("list[table]", "what a condition does to attacks on and by a figure", key="name", entry={
        "name": Field("str", "the condition", choices=CONDITION_NAMES),
        "attack": Field("int", "to-hit of a figure in this condition", 0, minimum=-100, maximum=0),
        "defense": Field("int", "change to its AC/DEF against melee (negative: easier to hit)", 0, minimum=-100, maximum=100),
        "ranged_defense": Field("int", "change to its AC/DEF against missiles", 0, minimum=-100, maximum=100),
        "initiative": Field("int", "change to its initiative", 0, minimum=-10, maximum=0),
        "rule": _section("section cited"),
    }),
    "prone": {
        "stand": Field("str", "what standing up costs: the whole turn, half the move (it may still act), or nothing "
                       "(prone ends with the round)", "turn", choices=STAND_COSTS),
        "rule": _section("section cited for standing up", "prone"),
    },
    "citations": {name: _citation(f"section cited for: {doc}") for name, doc in CITATIONS.items()},
    "choices": Field("list[table]", "documented choices where the document is silent or ambiguous, cited as "
                     "ruleset:choice-...; explanations show their text", key="name", entry={
                         "name": Field("str", "the choice's name, cited like a section", check=_choice_name,
                                       words="one word starting with choice-, like choice-diagonals"),
                         "text": Field("str", "the choice, in a sentence", check=lambda v: None if v.strip() else "must not be empty"),
                     }),
    "morale": {
        "checks": Field("bool", "figures with a morale score check it", False),
        "dice": _dice_field("morale roll; at or below the score the side stands", "2d6"),
        "after_first_death": Field("bool", "check when a side loses its first figure", True),
        "at_half": Field("bool", "check when half a side is dead or out of the fight", True),
        "passes_to_fearless": Field("int", "after this many passed checks the side fights to the death (0: never)", 0, minimum=0, maximum=5),
        "rule": _section("section cited", "morale"),
    },
    "disengage": {
        "styles": Field("list[str]", "ways to leave melee the Disengage action offers", [],
                        choices=("retreat", "hasty", "fighting", "withdraw"), lengths=(0, 1, 2, 3, 4)),
        "retreat_die": _dice_field("retreat: opposed roll of the retreating figure and each foe", "1d6"),
        "hasty_multiplier": Field("float", "hasty: move up to this multiple of the walking move", 4.0, minimum=1, maximum=6),
        "rule": _section("section cited", "disengaging"),
    },
    "weapons": Field("table", "weapons by name", entry=WEAPON_SCHEMA),
    "templates": Field("table", "figure templates by name (the bestiary)", entry=TEMPLATE_SCHEMA),
    "remove": {
        "weapons": Field("list[str]", "weapons of the base this ruleset does not have", [], check=_names),
        "templates": Field("list[str]", "templates of the base this ruleset does not have", [], check=_names),
        "defenses": Field("list[str]", "defense styles of the base this ruleset does not have", [], check=_names),
        "conditions": Field("list[str]", "conditions of the base this ruleset does not have", [], choices=CONDITION_NAMES),
    },
}

# Keys in sections that name a section of the source document, with their defaults (checked
# against document.sections when a ruleset lists them).
SECTION_FIELDS = tuple((f"{section}.{key}", spec.default) for section, fields in SCHEMA.items() if isinstance(fields, dict)
                       and section != "citations" for key, spec in fields.items()
                       if isinstance(spec, Field) and spec.words.startswith(SECTION_WORDS))

# Keys that say how a file is layered on its base; the loader uses them up, a Ruleset never holds them.
LAYER_KEYS = ("base", "remove")


@dataclass(frozen=True)
class Ruleset:
    """A validated ruleset with the numbers the planner reads on hot paths pre-digested."""

    id: str
    name: str
    data: dict

    @classmethod
    def from_mapping(cls, data: dict, path: str) -> "Ruleset":
        """A complete ruleset (a file without a base, a merged one, or a save's copy), checked whole."""
        checked = validate(data, SCHEMA, path)
        if checked["base"] or any(checked["remove"].values()):
            key = "base" if checked["base"] else "remove"
            raise DataFileError(path, key, "this ruleset is layered on a base: load it from its file, which reads the base")
        for key in LAYER_KEYS:
            del checked[key]
        check_consistency(checked, path, SECTION_FIELDS)
        for key in ("hold_rule", "ties_rule"):
            if not checked["round"][key]:
                checked["round"][key] = checked["round"]["rule"]
        return cls(id=checked["id"], name=checked["name"], data=checked)

    def section(self, name: str) -> dict:
        return self.data[name]

    def fraction(self, section: str, key: str) -> Fraction:
        return Fraction(self.data[section][key])

    @property
    def diagonal(self) -> str:
        return self.data["grid"]["diagonal"]

    def running_turning_ft(self, turning_ft: int) -> int:
        facing = self.data["facing"]
        if turning_ft <= facing["run_turning_small_ft"]:
            return facing["run_turning_small_becomes_ft"]
        return turning_ft + facing["run_turning_extra_ft"]

    def weapon(self, name: str) -> dict | None:
        return self.data["weapons"].get(name)

    def template(self, name: str) -> dict | None:
        return self.data["templates"].get(name)

    def cite(self, section_rule: str) -> str:
        """`ruleset:section` for a section of the document, or for one of the engine's own rule names
        (the [citations] table says which section, or which documented choice, that is here)."""
        alias = self.data["citations"].get(section_rule) if section_rule in CITATIONS else ""
        return f"{self.id}:{alias or section_rule}"

    def choice(self, rule: str) -> str:
        """The text of a documented choice cited as `rule` (ruleset:choice-... or choice-...), '' if none."""
        name = rule.split(":", 1)[-1]
        if not name.startswith("choice-"):
            return ""
        for entry in self.data["choices"]:
            if entry["name"] == name:
                return entry["text"]
        return ""

    def choice_words(self, rule: str) -> str:
        """'; choice: ...' for an event or note that rests on a documented choice, else ''."""
        text = self.choice(rule)
        return f"; choice: {text}" if text else ""

    def known_sections(self) -> frozenset[str]:
        """Sections this ruleset may cite: its document's headings and its documented choices (empty: not listed)."""
        sections = self.data["document"]["sections"]
        if not sections:
            return frozenset()
        return frozenset(sections) | {c["name"] for c in self.data["choices"]}

    # ----- combat accessors -----
    def defense(self, style: str) -> dict | None:
        for entry in self.data["defenses"]:
            if entry["style"] == style:
                return entry
        return None

    def condition(self, name: str) -> dict | None:
        for entry in self.data["conditions"]:
            if entry["name"] == name:
                return entry
        return None

    def template_stats(self, name: str) -> dict:
        """Combat statistics of a template, with schema defaults for what it leaves out."""
        template = self.template(name) or {}
        return {key: template.get(key, spec.default) for key, spec in COMBAT_STAT_FIELDS.items()}

    @property
    def d100(self) -> bool:
        return self.data["attack"]["resolution"] == "d100"
