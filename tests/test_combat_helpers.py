"""Small builders shared by the resolver tests: a battle from an inline map and figure list."""
from __future__ import annotations

from game.core.values.ascii_map import parse_ascii_map
from game.core.battle import Battle, BattleSetup
from game.core.scenario import build_figures, validate_scenario_data
from game.io.rulesets import load_ruleset


def make_battle(ruleset_id: str, ascii_map: str, figures: list[dict], seed: int = 1) -> Battle:
    data = {"ruleset": ruleset_id, "seed": seed, "map": {"ascii": ascii_map}, "figures": figures}
    checked = validate_scenario_data(data, "test")
    ruleset = load_ruleset(ruleset_id)
    bmap = parse_ascii_map(ascii_map)
    figs = build_figures(checked, ruleset, bmap, "test")
    return Battle(BattleSetup(bmap, ruleset, tuple(figs), seed))


def fig(fid, side, x, y, facing="N", template="foot", **extra) -> dict:
    return {"id": fid, "side": side, "x": x, "y": y, "facing": facing, "template": template, **extra}


class ScriptedRng:
    """Stands in for random.Random: randint returns the queued values in order."""

    def __init__(self, values):
        self.values = list(values)

    def randint(self, lo, hi):
        value = self.values.pop(0)
        assert lo <= value <= hi, (value, lo, hi)
        return value


OPEN = "\n".join(["." * 16] * 10)
