"""Rulesets: every positioning and combat parameter of a source document, as validated data.

The keys are the schema in core/ruleset/sections.py (built of core/ruleset/fields.py); a Ruleset
is one file checked against it, with the accessors the rules read.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from ..values.errors import DataFileError
from .checks import check_consistency
from .fields import CITATIONS, COMBAT_STAT_FIELDS
from .sections import LAYER_KEYS, SCHEMA, SECTION_FIELDS
from .schema import validate


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

    def with_altitude_cap(self, cap_ft: int) -> "Ruleset":
        """This ruleset with its flyers' ceiling lowered to `cap_ft` (the AI's cheaper candidate
        flights), made once per cap for the ruleset's life so caches keyed on it stay warm."""
        got = self._altitude_caps.get(cap_ft)
        if got is None:
            data = dict(self.data)
            data["altitude"] = dict(data["altitude"], max_altitude_ft=cap_ft)
            got = self._altitude_caps[cap_ft] = Ruleset(self.id, self.name, data)
        return got

    @cached_property
    def _altitude_caps(self) -> dict[int, "Ruleset"]:
        return {}

    def weapon(self, name: str) -> dict | None:
        return self.data["weapons"].get(name)

    @cached_property
    def melee_reach_by_weapon(self) -> dict[str, int]:
        """How far each weapon strikes in melee: its reach (a missile weapon in hand: 5 ft), at least
        the engagement zone. Worked out once: asked for every pair of figures, many times a turn."""
        zone = self.data["engagement"]["zone_ft"]
        return {name: max(5 if w["ranged"] else w["reach_ft"], zone) for name, w in self.data["weapons"].items()}

    def template(self, name: str) -> dict | None:
        return self.data["templates"].get(name)

    @cached_property
    def _answers(self) -> tuple[dict, dict]:
        """cite's and choice's answers so far: every modifier of every breakdown asks both."""
        return {}, {}

    def cite(self, section_rule: str) -> str:
        """`ruleset:section` for a section of the document, or for one of the engine's own rule names
        (the [citations] table says which section, or which documented choice, that is here)."""
        cited = self._answers[0]
        got = cited.get(section_rule)
        if got is None:
            alias = self.data["citations"].get(section_rule) if section_rule in CITATIONS else ""
            got = cited[section_rule] = f"{self.id}:{alias or section_rule}"
        return got

    def choice(self, rule: str) -> str:
        """The text of a documented choice cited as `rule` (ruleset:choice-... or choice-...), '' if none."""
        chosen = self._answers[1]
        got = chosen.get(rule)
        if got is None:
            got = chosen[rule] = self._choice(rule)
        return got

    def _choice(self, rule: str) -> str:
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
