"""simulate and ladder say what decided each battle where the scenario has objectives, and how
often each objective was achieved; the AI's reasons name the objective it plays for."""
from __future__ import annotations

from game.ai.brain import AI
from game.core.battle import Battle
from game.io.paths import MAPS_DIR
from game.io.rulesets import load_ruleset
from game.io.scenarios import load_scenario
from game.play.simulate import format_report, setups_for, simulate


def test_simulate_counts_what_decided_the_battles():
    scenario = load_scenario(MAPS_DIR / "objectives" / "gate.toml")
    setups = setups_for(scenario, [load_ruleset("bfrpg")])
    assert setups["bfrpg"].objectives == scenario.objectives
    report = simulate(setups, 2, seed=3, workers=1, max_rounds=12)
    data = report["rulesets"]["bfrpg"]
    assert sum(data["decided_by"].values()) == 2 - data["draws"]
    assert set(data["decided_by"]) <= {"gate", "hold-out", "elimination", "round-limit"}
    assert set(data["objectives"]) == {"gate", "hold-out"}
    assert "bfrpg: decided by" in format_report(report)


def test_the_ai_says_it_runs_for_the_gate():
    b = Battle.from_scenario(load_scenario(MAPS_DIR / "objectives" / "gate.toml"))
    ai = AI("normal", seed=1)
    while b.figures[b.current].side != "blue":
        b.apply(ai.choose(b, b.current))
    decision = ai.decide(b, b.current)
    reasons = [name for plan in decision.plans for name, _v in plan.reasons]
    assert any(r.startswith("runs for the gate:") and "round(s) away" in r for r in reasons)
    assert any(p.kind == "objective" for p in decision.plans)
