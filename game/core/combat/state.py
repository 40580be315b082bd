"""A figure's combat numbers (its profile) and its combat state during a battle.

The profile is the ruleset template's combat statistics with the scenario's `stats`
overrides on top, read under the battle's ruleset: the same figure played under another
ruleset takes that ruleset's numbers for its template. The state is what changes: hit
points, conditions, and what is used up this round.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..values.figure import Figure
from ..ruleset import COMBAT_STAT_FIELDS, Ruleset

# Conditions that take a figure out of the fight.
OUT_OF_FIGHT = ("dead", "unconscious", "grievously-wounded", "dying", "fled")
# Conditions that stop it acting this round.


def condition_until(battle, name: str) -> int:
    """The last round a condition just inflicted lasts (0: until something removes it): prone ends
    with the round where getting up early is not a thing (cnc Overbearing)."""
    if name == "prone" and battle.ruleset.section("prone")["stand"] == "round-end":
        return max(1, battle.round)
    return 0


def attacking_now(battle) -> dict | None:
    """figure id -> the figures it is attacking this round (its targets of the round before until it has
    struck), where the ruleset's "busy foe" means one attacking only others (spelljammer Withdrawing From
    Melee); None elsewhere (the positioning needs no such record)."""
    if battle.ruleset.section("parting_shots")["busy_means"] != "attacking-only-an-ally":
        return None
    return {fid: frozenset(st.struck or st.struck_last) for fid, st in battle.states.items()
            if st.struck or st.struck_last}


def combat_profile(ruleset: Ruleset, figure: Figure) -> dict:
    template = figure.stats.get("template", "")
    if template and ruleset.template(template) is not None:
        stats = ruleset.template_stats(template)
    else:
        stats = {key: spec.default for key, spec in COMBAT_STAT_FIELDS.items()}
    stats.update({k: v for k, v in figure.stats.items() if k in COMBAT_STAT_FIELDS})
    stats["group"] = figure.stats.get("group") or figure.side
    stats["start_conditions"] = list(figure.stats.get("conditions", []))
    stats["wounds"] = int(figure.stats.get("wounds", 0))
    return stats


@dataclass
class FigureState:
    """A figure's combat condition in a battle: hit points, conditions and what it has done this round."""

    hp: int
    max_hp: int
    subdual: int = 0
    # condition -> last round it lasts (0: until something removes it)
    conditions: dict = field(default_factory=dict)
    # ----- this round -----
    attacks_made: int = 0
    attacks_vs_normal_men: int = 0
    moved_ft: float = 0.0
    move_mode: str = ""
    moved_squares: int = 0
    attacked: bool = False
    defense: str = ""
    defense_amount: int = 0
    defended_against: list = field(default_factory=list)
    parries_used: int = 0
    shield_used_by: list = field(default_factory=list)
    charging: str = ""
    set_vs_charge: bool = False
    withdrawing: bool = False
    hasty: bool = False
    standing_up: bool = False          # getting up from prone takes this round (stand = turn)
    announced_charge: str = ""         # the foe it announced a charge at in the declaration step (cnc)
    disengaged: bool = False           # it disengaged in the declaration step: no initiative this round
    hit_by: list = field(default_factory=list)
    struck: list = field(default_factory=list)          # whom it has attacked this round
    melee_attackers: list = field(default_factory=list)  # who has attacked it in melee this round (surrounding)
    free_attacked_by: list = field(default_factory=list)
    initiative: list = field(default_factory=list)
    # ----- across rounds -----
    ran_last_action: bool = False      # its last action was a run (missiles at it suffer)
    struck_last: list = field(default_factory=list)     # whom it attacked the round before
    aim: dict = field(default_factory=dict)    # {"target": id, "round": n}
    reload_until_round: int = 0         # may shoot again from the round after this one
    no_attack_round: int = 0            # a fumble costs the attacks of this round
    stuck: list = field(default_factory=list)  # spelljammer missiles stuck in it: [dex, bleed]
    surprise_bonus: int = 0             # attackers' bonus against it while it is surprised (d100 ambush)
    surprise_damage: int = 0            # ... and to their damage (d100: completely surprised)
    blindsided_by: dict = field(default_factory=dict)   # attacker id -> round it opened the fight from behind
    run_rounds: int = 0                 # rounds spent running (fatigue)
    off_guard: bool = False             # unaware, no ambush: not expecting an attack until attacked or round 1 ends
    prot_lost: int = 0                  # armour PROT lost to grievous hits
    charges_made: int = 0
    fled: bool = False
    acts_before_falling: bool = False   # felled on its own initiative number: still acts (simultaneous)
    stunned_on: int = -999              # the initiative number it was stunned on (it still acts on that number)
    # ----- manoeuvres -----
    holding: str = ""                   # the figure it holds (grapple)
    held_by: list = field(default_factory=list)   # the figures holding it
    hold_from: tuple = ()               # the square a holder left to enter the held figure's (it goes back on release)
    thrown_off_until: int = 0           # thrown off a grapple: stunned, no action, to the end of this round

    def copy(self) -> "FigureState":
        """An exact copy sharing nothing that changes (the lists and dicts are copied)."""
        # The fields as they are (no __init__: a copy per figure per clone adds up at 100 a side).
        twin = FigureState.__new__(FigureState)
        fields = self.__dict__.copy()
        fields["conditions"] = dict(self.conditions)
        for name in ("defended_against", "shield_used_by", "hit_by", "free_attacked_by", "initiative", "held_by",
                     "struck", "struck_last", "melee_attackers"):
            fields[name] = list(fields[name])
        fields["aim"] = dict(self.aim)
        fields["blindsided_by"] = dict(self.blindsided_by)
        fields["stuck"] = [list(s) for s in self.stuck]
        twin.__dict__ = fields
        return twin

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def out_of_fight(self) -> bool:
        conditions = self.conditions     # most figures have none (asked for every figure, often)
        return bool(conditions) and not conditions.keys().isdisjoint(OUT_OF_FIGHT)

    def new_round(self) -> None:
        self.ran_last_action = self.move_mode in ("run", "jog", "charge") if self.move_mode else self.ran_last_action
        for name in ("attacks_made", "attacks_vs_normal_men", "moved_squares", "parries_used"):
            setattr(self, name, 0)
        self.moved_ft = 0.0
        self.move_mode = ""
        self.attacked = self.set_vs_charge = self.withdrawing = self.hasty = False
        self.standing_up = self.disengaged = False
        self.announced_charge = ""
        self.defense = self.charging = ""
        self.defense_amount = 0
        self.defended_against = []
        self.shield_used_by = []
        self.hit_by = []
        self.struck_last, self.struck = self.struck, []
        self.melee_attackers = []
        self.free_attacked_by = []
        self.initiative = []
        self.acts_before_falling = False
        self.stunned_on = -999

    def to_json(self) -> dict:
        return asdict(self)
