"""The sheet an attack's modifiers are worked out on: who attacks whom with what, and what each
family of modifiers (combat/modifiers.py, combat/defender_modifiers.py) has found so far."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..values.events import Modifier
from .breakdown import AttackContext
from .reach import fighting


@dataclass
class AttackSheet:
    """The attack being worked out: who, with what, and the modifiers found so far."""
    battle: object
    ctx: AttackContext
    attacker: object
    target: object
    a_prof: dict
    t_prof: dict
    a_state: object
    t_state: object
    weapon_name: str
    weapon: dict
    kind: str
    dist: float
    att: list = field(default_factory=list)
    dfn: list = field(default_factory=list)
    dmg: list = field(default_factory=list)
    mult: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    refusals: list = field(default_factory=list)
    band_index: int = -1
    band: str = ""
    from_rear: bool = False
    from_flank: bool = False
    friends: tuple = ()
    auto_hit: str = ""
    real_every: int = 0
    splash: str = ""
    advantage: int = 0
    fighting_by_id: dict = field(default_factory=dict)
    rs: object = None               # the battle's ruleset and its [modifiers], read by every family
    rules: dict = None

    def __post_init__(self):
        self.rs = self.battle.ruleset
        self.rules = self.rs.data["modifiers"]

    def add(self, where: list, key: str, name: str, value, rule: str) -> None:
        if value:
            source = self.rs.cite(rule)
            where.append(Modifier(name, int(value), source, key))
            self.choice_note(source)

    def choice_note(self, source: str) -> None:
        """A modifier resting on a documented choice says so in the explanation."""
        text = self.rs.choice(source)
        if text:
            note = f"choice: {text} ({source})"
            if note not in self.notes:
                self.notes.append(note)

    def ability(self, section: dict) -> str:
        """The ability a section (attack or damage) adds for this kind of attack: melee, thrown, propelled."""
        if self.kind == "melee":
            return section["melee_ability"]
        if self.weapon["thrown"] and not self.weapon["ranged"]:
            return section["thrown_ability"]
        return section["propelled_ability"]

    def sight(self):
        return self.battle.positioning().sight_between(self.attacker, self.target)

    def fighting(self, fig) -> list:
        """reach.fighting, asked once per figure for this attack (several modifiers ask it)."""
        out = self.fighting_by_id.get(fig.id)
        if out is None:
            out = self.fighting_by_id[fig.id] = fighting(self.battle, fig)
        return out
