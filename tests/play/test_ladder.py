"""The AI ladder: bundled mirrored battles are fair, and a tiny ladder adds up the way it says."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from game.cli import main
from game.io.paths import MAPS_DIR
from game.io.scenarios import load_scenario
from game.play.ladder import aggregate, bundled_battles, format_report, ratings

REPO = Path(__file__).resolve().parents[2]
MIRROR = {"N": "N", "S": "S", "E": "W", "W": "E", "NE": "NW", "NW": "NE", "SE": "SW", "SW": "SE"}


def test_at_least_four_mirrored_battles_and_one_is_a_tiled_map():
    battles = bundled_battles(MAPS_DIR)
    assert len(battles) >= 4
    assert any(load_scenario(p).map.source.endswith(".tmx") for p in battles)


@pytest.mark.parametrize("path", bundled_battles(MAPS_DIR), ids=lambda p: p.stem)
def test_a_mirrored_battle_is_a_mirror_image(path):
    sc = load_scenario(path)
    m = sc.map
    for name in ("blocks_move", "blocks_sight", "cover", "concealment", "difficult", "elevation_ft",
                 "obstacle_height_ft"):
        grid = np.asarray(getattr(m, name))
        assert (grid == grid[:, ::-1]).all(), f"{path.name}: {name} is not the same on both sides"
    sides = sorted({f.side for f in sc.figures})
    assert len(sides) == 2
    a, b = ([f for f in sc.figures if f.side == s] for s in sides)
    assert len(a) == len(b)
    mirrored = {(m.width - 1 - f.x, f.y, f.stats.get("template"), MIRROR[f.facing_name], tuple(sorted(f.stats.items())))
                for f in a}
    assert mirrored == {(f.x, f.y, f.stats.get("template"), f.facing_name, tuple(sorted(f.stats.items()))) for f in b}


def test_the_mirrored_tiled_map_is_what_make_maps_writes(tmp_path):
    import importlib.util
    import sys
    spec = importlib.util.spec_from_file_location("make_maps_for_ladder", REPO / "assets" / "make_maps.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    path = module.write_tmx(module.mirror_ruins(), tmp_path)
    assert path.read_text() == (REPO / "maps" / "mirror_ruins.tmx").read_text()


def _rec(stronger, weaker, winner_level, ruleset="odnd", battle="b"):
    return {"stronger": stronger, "weaker": weaker, "winner_level": winner_level, "ruleset": ruleset, "battle": battle,
            "rounds": 3, "refusals": 0, "stalled": False}


def test_win_rates_count_decisive_battles_and_ratings_order_the_levels():
    records = ([_rec("normal", "naive", "normal")] * 9 + [_rec("normal", "naive", "naive")] +
               [_rec("normal", "naive", None)] * 2 +
               [_rec("hard", "normal", "hard")] * 6 + [_rec("hard", "normal", "normal")] * 4 +
               [_rec("hard", "naive", "hard")] * 10)
    report = aggregate(records, levels=("naive", "normal", "hard"), battles=["b"], rulesets=["odnd"], runs=1, seed=1,
                       max_rounds=30)
    pair = next(p for p in report["pairs"] if (p["stronger"], p["weaker"]) == ("normal", "naive"))
    assert pair["all"]["win_rate"] == 0.9 and pair["all"]["draws"] == 2
    lo, hi = pair["all"]["ci95"]
    assert lo < 0.9 < hi
    r = report["ratings"]
    assert r["naive"]["rating"] == 0 < r["normal"]["rating"] < r["hard"]["rating"]
    assert r["normal"]["wins"] == 9 + 4 and r["normal"]["losses"] == 1 + 6 and r["normal"]["draws"] == 2


def test_each_battle_under_each_ruleset_is_tallied_and_the_weakest_cell_named():
    # normal wins everything on the field, and 1 of 4 on the ruins under bfrpg only.
    records = ([_rec("normal", "naive", "normal", rid, "field") for rid in ("bfrpg", "odnd")] * 4
               + [_rec("normal", "naive", "normal", "bfrpg", "ruins")] + [_rec("normal", "naive", "naive", "bfrpg", "ruins")] * 3
               + [_rec("normal", "naive", "normal", "odnd", "ruins")] * 3 + [_rec("normal", "naive", None, "odnd", "ruins")])
    report = aggregate(records, levels=("naive", "normal"), battles=["field", "ruins"], rulesets=["bfrpg", "odnd"],
                       runs=2, seed=1, max_rounds=30)
    cells = report["pairs"][0]["cells"]
    assert cells["ruins"]["bfrpg"]["win_rate"] == 0.25 and cells["ruins"]["bfrpg"]["battles"] == 4
    assert cells["ruins"]["odnd"]["win_rate"] == 1.0 and cells["ruins"]["odnd"]["draws"] == 1
    assert cells["field"]["bfrpg"]["stronger_wins"] == 4
    # The pair's per-ruleset figure hides the cell: bfrpg over both battles is 5 of 8.
    assert report["pairs"][0]["rulesets"]["bfrpg"]["win_rate"] == 0.625
    text = format_report(report)
    assert "normal vs naive, by battle and ruleset" in text
    assert "weakest: ruins under bfrpg, 25%" in text
    ruins_row = next(line for line in text.splitlines() if line.strip().startswith("ruins"))
    assert "25% 1-3" in ruins_row and "100% 3-0" in ruins_row


def test_even_results_give_even_ratings():
    pairs = [{"stronger": "b", "weaker": "a", "all": {"stronger_wins": 5, "weaker_wins": 5, "draws": 0}}]
    r = ratings(pairs, ("a", "b"))
    assert r["a"]["rating"] == r["b"]["rating"] == 0


def test_cli_ladder_smoke(capsys):
    args = ["ladder", str(MAPS_DIR / "mirror_corridor.toml"), "--levels", "naive,easy", "--ruleset", "odnd",
            "--runs", "1", "--max-rounds", "2", "--workers", "1", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["levels"] == ["naive", "easy"] and data["rulesets"] == ["odnd"]
    pair = data["pairs"][0]
    assert (pair["stronger"], pair["weaker"]) == ("easy", "naive")
    assert pair["all"]["battles"] == 2                          # one seed, played from both sides
    assert set(data["ratings"]) == {"naive", "easy"}
    assert data["timing"]["battles"] == 2 and data["timing"]["seconds_per_battle"] > 0
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in again.items() if k != "timing"} == {k: v for k, v in data.items() if k != "timing"}


@pytest.mark.parametrize("bad", [["--levels", "naive,genius"], ["--levels", "hard"], ["--runs", "0"],
                                 ["--ruleset", "nope"]])
def test_cli_ladder_mistakes_are_one_line_and_exit_2(bad, capsys):
    assert main(["ladder", str(MAPS_DIR / "mirror_corridor.toml"), *bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fivefoot: error:") and "Traceback" not in err
