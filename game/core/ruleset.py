"""Rulesets: every positioning parameter of a source document, as validated data.

The schema below is the single list of keys: `fivefoot rulesets --keys` and
rulesets/README.md are generated from it, and the loader rejects anything it does not name.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .battlemap import COVER_DEGREES
from .geometry import DIAGONAL_RULES
from .schema import Field, validate

PACES = ("walk", "jog", "run")
PARTING_SHOT_TRIGGERS = ("leave-reach", "leave-zone", "hasty-disengage", "withdraw-from-melee")
CHARGE_MEASURES = ("movement", "distance-to-target")
FLYER_KINDS = ("none", "winged", "floater", "incorporeal")
SIZES = ("tiny", "small", "medium", "large", "giant")


def _fraction_text(value: str) -> str | None:
    try:
        number = Fraction(value)
    except (ValueError, ZeroDivisionError):
        return f"{value!r} is not a fraction; write it like \"1/3\" or \"0.5\""
    if number < 0:
        return f"{value!r} must not be negative"
    return None


WEAPON_SCHEMA = {
    "reach_ft": Field("int", "how far the weapon strikes in melee", 5, minimum=0, maximum=30),
    "charge": Field("bool", "suitable for attacking at the end of a charge", False),
    "set": Field("bool", "can be set (braced) against a charge", False),
    "ranged": Field("bool", "a missile weapon (thrown or propelled)", False),
    "hands": Field("int", "hands needed", 1, minimum=1, maximum=2),
}

TEMPLATE_SCHEMA = {
    "name": Field("str", "what the figure is called", ""),
    "move_ft": Field("int", "walking move per round in feet", 40, minimum=0, maximum=480),
    "turning_ft": Field("int", "turning distance in feet; 0 turns freely", 0, minimum=0, maximum=120),
    "flyer": Field("str", "how it flies", "none", choices=FLYER_KINDS),
    "size": Field("str", "size category", "medium", choices=SIZES),
    "weapons": Field("list[str]", "weapons carried; the first is the ready one", ["sword"]),
}

SCHEMA = {
    "id": Field("str", "ruleset id, also the file name"),
    "name": Field("str", "human name of the rules"),
    "source": Field("str", "the source document in shared/seeds/"),
    "summary": Field("str", "one line on how this ruleset plays", ""),
    "grid": {
        "square_ft": Field("int", "side of a square in feet", 5, choices=(5,)),
        "diagonal": Field("str", "cost of diagonal steps", choices=DIAGONAL_RULES),
        "corner_cutting": Field("bool", "may a diagonal step pass a wall corner", False),
        "climb_step_ft": Field("int", "largest change of floor height a walker takes in one step", 5, minimum=0, maximum=20),
    },
    "movement": {
        "run_multiplier": Field("float", "running speed as a multiple of the walking move", minimum=1, maximum=6),
        "jog_multiplier": Field("float", "jogging speed multiple; 0 when the rules have no jog", 0.0, minimum=0, maximum=6),
        "withdraw_fraction": Field("str", "fighting withdrawal speed as a fraction of the walking move", "1/2", check=_fraction_text),
        "attack_move_fraction": Field("str", "part of the move a figure may make and still attack", "1", check=_fraction_text),
        "difficult_multiplier": Field("int", "cost multiplier of a step into difficult terrain", 2, minimum=1, maximum=4),
        "free_step_ft": Field("int", "a free step that costs no movement and no attack", 0, minimum=0, maximum=10),
        "sidestep": Field("bool", "may shift one square sideways keeping facing", True),
        "sidestep_paces": Field("list[str]", "paces at which a sidestep is allowed", ["walk"], choices=PACES),
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
        "stall_below_fraction": Field("str", "a winged flyer moving less than this part of its speed stalls", "1/3", check=_fraction_text),
        "floater_climb_fraction": Field("str", "part of the move a floater may climb straight up", "1/2", check=_fraction_text),
        "floater_descend_fraction": Field("str", "part of the move a floater may descend", "1", check=_fraction_text),
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
        "rule": Field("str", "section name cited in events", "parting-shot"),
    },
    "charge": {
        "allowed": Field("bool", "the rules have a charge", True),
        "measure": Field("str", "what the distance limits measure", "movement", choices=CHARGE_MEASURES),
        "min_ft": Field("int", "least distance of a charge", 0, minimum=0, maximum=120),
        "min_move_multiple": Field("str", "least distance as a part of the walking move", "0", check=_fraction_text),
        "min_exclusive": Field("bool", "the least distance must be exceeded, not just met", False),
        "max_move_multiple": Field("str", "greatest distance as a multiple of the walking move", "2", check=_fraction_text),
        "end_within_ft": Field("int", "the charge must end this close to the target", 5, minimum=5, maximum=30),
        "requires_line_of_sight": Field("bool", "the target must be seen at the start", True),
        "requires_charge_weapon": Field("bool", "the attacker needs a weapon suitable for charging", False),
        "rule": Field("str", "section name cited in events", "charging"),
    },
    "cover": {
        "figure_between_degree": Field("str", "cover a figure standing in the line of fire gives, per line", "1/2", choices=COVER_DEGREES[1:]),
    },
    "weapons": Field("table", "weapons by name", entry=WEAPON_SCHEMA),
    "templates": Field("table", "figure templates by name (the bestiary)", entry=TEMPLATE_SCHEMA),
}


@dataclass(frozen=True)
class Ruleset:
    """A validated ruleset with the numbers the planner reads on hot paths pre-digested."""

    id: str
    name: str
    data: dict

    @classmethod
    def from_mapping(cls, data: dict, path: str) -> "Ruleset":
        checked = validate(data, SCHEMA, path)
        for name, template in checked["templates"].items():
            for weapon in template["weapons"]:
                if weapon not in checked["weapons"]:
                    from .errors import DataFileError
                    raise DataFileError(path, f"templates.{name}.weapons", f"unknown weapon {weapon!r}; "
                                        f"weapons in this ruleset: {', '.join(sorted(checked['weapons']))}")
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
        return f"{self.id}:{section_rule}"
