"""`fivefoot skirmish`: a generated battle saved as a scenario file that loads like any other; the
map point-symmetric, both forces the same figures for the same points, the objectives mirrored;
the same seed makes the same file (fairness over a hundred seeds: bench/skirmish_fairness.py)."""
from __future__ import annotations

import pytest

from game.cli import main
from game.core.battle import Battle
from game.io.rulesets import load_ruleset
from game.io.scenarios import load_scenario
from game.play.skirmish import OBJECTIVES, TERRAINS, SkirmishSpec, buyable, generate, to_toml


@pytest.mark.parametrize("terrain", TERRAINS)
def test_a_generated_battle_round_trips_through_its_file_and_is_mirrored(tmp_path, terrain):
    out = tmp_path / "s.toml"
    assert main(["skirmish", "--seed", "7", "--terrain", terrain, "--ruleset", "cnc", "--out", str(out)]) == 0
    sc = load_scenario(out)
    rows = [[sc.map.blocks_move[y, x] for x in range(sc.map.width)] for y in range(sc.map.height)]
    w, h = sc.map.width, sc.map.height
    assert all(rows[y][x] == rows[h - 1 - y][w - 1 - x] for y in range(h) for x in range(w))
    assert all(sc.map.elevation_ft[y, x] == sc.map.elevation_ft[h - 1 - y, w - 1 - x] for y in range(h) for x in range(w))
    blue = [f for f in sc.figures if f.side == "blue"]
    red = [f for f in sc.figures if f.side == "red"]
    assert [f.stats["template"] for f in blue] == [f.stats["template"] for f in red] and blue
    assert all((r.x, r.y) == (w - 1 - b.x, h - 1 - b.y) for b, r in zip(blue, red))
    assert sc.ruleset.id == "cnc" and Battle.from_scenario(sc).current is not None
    again = tmp_path / "again.toml"
    main(["skirmish", "--seed", "7", "--terrain", terrain, "--ruleset", "cnc", "--out", str(again)])
    assert again.read_text() == out.read_text()


@pytest.mark.parametrize("objective", OBJECTIVES[1:])
def test_each_objective_is_the_same_for_both_sides(tmp_path, objective):
    data = generate(SkirmishSpec("odnd", "medium", 80, 3, "ruins", objective), load_ruleset("odnd"))
    path = tmp_path / "s.toml"
    path.write_text(to_toml(data))
    sc = load_scenario(path)
    kinds = {side: sorted(o.kind for o in sc.objectives.of_side(side)) for side in ("blue", "red")}
    assert kinds["blue"] == kinds["red"] and kinds["blue"] and sc.objectives.round_limit == 12


def test_both_sides_spend_the_same_points_within_the_budget():
    rs = load_ruleset("bfrpg")
    costs = buyable(rs)
    assert "foot" in costs and "horse" not in costs and "flyer" not in costs
    for seed in range(1, 6):
        data = generate(SkirmishSpec("bfrpg", "small", 40, seed), rs)
        spent = {side: sum(costs[f["template"]] for f in data["figures"] if f["side"] == side) for side in ("blue", "red")}
        assert spent["blue"] == spent["red"] <= 40 or len(data["figures"]) == 2


@pytest.mark.parametrize("argv, words", [
    (["--points", "5"], "--points 5: the points each side spends must be from 10 to 1,000"),
    (["--seed", "-1"], "--seed -1"),
    (["--ruleset", "gurps"], "--ruleset 'gurps'"),
    (["--out", "x.txt"], "ends in .toml"),
])
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, capsys, argv, words):
    assert main(["skirmish", *argv] + ([] if "--out" in argv else ["--out", str(tmp_path / "s.toml")])) == 2
    assert words in capsys.readouterr().err
