"""Rulesets as validated data: the schema every key is checked against (`sections`, built of the
field kinds in `fields` on the generic checker in `schema`), a ruleset layered on a base
(`layers`), the checks across sections (`checks`), and the `Ruleset` value the rules read (`model`).
"""
from .fields import CITATIONS, COMBAT_STAT_FIELDS, CONDITION_NAMES, FLYER_KINDS, SIZES
from .model import Ruleset
from .sections import LAYER_KEYS, SCHEMA, SECTION_FIELDS

__all__ = ["CITATIONS", "COMBAT_STAT_FIELDS", "CONDITION_NAMES", "FLYER_KINDS", "SIZES", "Ruleset", "LAYER_KEYS",
           "SCHEMA", "SECTION_FIELDS"]
